import { defineRouteTable } from '../http/route-table';
import { marketNewsParamsSchema, marketNewsQuerySchema } from './news.routes';

export const newsRouteTable = defineRouteTable('news', [
  {
    method: 'GET',
    path: '/api/markets/:symbol/news',
    summary: "A market's news and filings, newest first, with what matched it (ticker, cashtag, name, CIK)",
    auth: 'public',
    params: marketNewsParamsSchema,
    ids: { symbol: 'reference' },
    query: marketNewsQuerySchema,
    body: 'none',
    response: 'json',
    example: { params: { symbol: 'BTCUSDT' }, query: { page: '1', limit: '20' } },
  },
]);
