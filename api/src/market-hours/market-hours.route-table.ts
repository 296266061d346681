import { defineRouteTable } from '../http/route-table';
import { exchangeParam } from './market-hours.routes';

export const marketHoursRouteTable = defineRouteTable('market-hours', [
  {
    method: 'GET',
    path: '/api/exchanges',
    summary: 'Every exchange with its live status and next transition (and whether the signed-in user follows it)',
    auth: 'public',
    body: 'none',
    response: 'json',
  },
  {
    method: 'PUT',
    path: '/api/exchanges/:id/follow',
    summary: "Follows an exchange's open/close notifications",
    auth: 'user',
    params: exchangeParam,
    ids: { id: 'reference' },
    body: 'none',
    response: 'json',
    example: { params: { id: 'XNYS' } },
  },
  {
    method: 'DELETE',
    path: '/api/exchanges/:id/follow',
    summary: 'Unfollows an exchange (409 for the last one followed)',
    auth: 'user',
    params: exchangeParam,
    ids: { id: 'reference' },
    body: 'none',
    response: 'json',
    example: { params: { id: 'XNYS' } },
  },
]);
