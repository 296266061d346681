import { defineRouteTable } from '../http/route-table';
import { METRICS_PATH } from './metrics.routes';
import { ADMIN_QUEUES_PATH } from './queues.routes';

export const adminRouteTable = defineRouteTable('admin', [
  {
    method: 'GET',
    path: ADMIN_QUEUES_PATH,
    summary: "bull-board: every queue's jobs (its page and its own JSON API below this path)",
    auth: 'admin-or-operator',
    // Mounted before the session CSRF check: its state changes must come from its own page (Origin / Sec-Fetch-Site).
    csrf: 'exempt',
    body: 'none',
    response: 'html',
    mount: true,
  },
  {
    method: 'GET',
    path: METRICS_PATH,
    summary: 'Metrics in Prometheus text format: request latency by route, queue depth, source health, process metrics',
    // An operator's token is METRICS_TOKEN, else ADMIN_QUEUES_TOKEN.
    auth: 'admin-or-operator',
    body: 'none',
    response: 'text',
  },
]);
