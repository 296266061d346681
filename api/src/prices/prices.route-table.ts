import { marketBarsParamsSchema, marketBarsQuerySchema, marketQuotesQuerySchema, marketSearchQuerySchema } from '@tickerbell/jobs/prices';
import { defineRouteTable } from '../http/route-table';

export const pricesRouteTable = defineRouteTable('prices', [
  {
    method: 'GET',
    path: '/api/markets',
    summary: 'Searches the markets reference table',
    auth: 'public',
    query: marketSearchQuerySchema,
    body: 'none',
    response: 'json',
    example: { query: { q: 'BTC', type: 'crypto', limit: '10' } },
  },
  {
    method: 'GET',
    path: '/api/markets/quotes',
    summary: 'The latest prices of up to 100 symbols (unknown ones left out)',
    auth: 'public',
    query: marketQuotesQuerySchema,
    body: 'none',
    response: 'json',
    example: { query: { symbols: 'BTCUSDT,ETHUSDT' } },
  },
  {
    method: 'GET',
    path: '/api/markets/:symbol/bars',
    summary: "A market's stored bars, oldest first (a backfill is queued when fewer are stored)",
    auth: 'public',
    params: marketBarsParamsSchema,
    ids: { symbol: 'reference' },
    query: marketBarsQuerySchema,
    body: 'none',
    response: 'json',
    example: { params: { symbol: 'BTCUSDT' }, query: { interval: '1h', limit: '300' } },
  },
]);
