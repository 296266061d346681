import { defineRouteTable } from '../http/route-table';

export const statusRouteTable = defineRouteTable('status', [
  { method: 'GET', path: '/api/status', summary: 'Queue backlogs, live workers and data-source freshness (the /status page)', auth: 'public', body: 'none', response: 'json' },
]);
