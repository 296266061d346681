import { defineRouteTable } from '../http/route-table';

export const healthRouteTable = defineRouteTable('health', [
  { method: 'GET', path: '/api/health', summary: 'The api process is alive', auth: 'public', body: 'none', response: 'json' },
  { method: 'GET', path: '/api/ready', summary: '200 when PostgreSQL and Redis answer, 503 naming the one that does not', auth: 'public', body: 'none', response: 'json' },
]);
