import { z } from 'zod';
import { defineRouteTable } from '../http/route-table';
import { cftcCodeSchema, cotHistoryQuerySchema, cotLatestQuerySchema } from './cot.routes';

// A code the schema refuses is the same 404 as an unknown instrument.
const codeParams = z.object({ code: cftcCodeSchema });

export const cotRouteTable = defineRouteTable('cot', [
  { method: 'GET', path: '/api/cot/instruments', summary: 'Every COT instrument', auth: 'public', body: 'none', response: 'json' },
  {
    method: 'GET',
    path: '/api/cot/latest',
    summary: 'The screener: the latest analytics of every instrument, sorted',
    auth: 'public',
    query: cotLatestQuerySchema,
    body: 'none',
    response: 'json',
    example: { query: { sort: 'name', order: 'asc' } },
  },
  {
    method: 'GET',
    path: '/api/cot/instruments/:code/history',
    summary: "An instrument's weekly positions and analytics",
    auth: 'public',
    params: codeParams,
    ids: { code: 'reference' },
    query: cotHistoryQuerySchema,
    body: 'none',
    response: 'json',
    example: { params: { code: '13874A' }, query: { weeks: '52' } },
  },
  {
    method: 'PUT',
    path: '/api/cot/instruments/:code/follow',
    summary: "Follows an instrument's extremes and divergence changes",
    auth: 'user',
    params: codeParams,
    ids: { code: 'reference' },
    body: 'none',
    response: 'json',
    example: { params: { code: '13874A' } },
  },
  {
    method: 'DELETE',
    path: '/api/cot/instruments/:code/follow',
    summary: 'Unfollows an instrument',
    auth: 'user',
    params: codeParams,
    ids: { code: 'reference' },
    body: 'none',
    response: 'json',
    example: { params: { code: '13874A' } },
  },
  { method: 'GET', path: '/api/cot/follows', summary: 'The instruments the user follows', auth: 'user', body: 'none', response: 'json' },
]);
