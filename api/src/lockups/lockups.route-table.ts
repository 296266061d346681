import { defineRouteTable } from '../http/route-table';
import {
  lockupCalendarQuerySchema,
  lockupEventParamsSchema,
  lockupFollowBodySchema,
  lockupFollowParamsSchema,
  lockupFollowPatchSchema,
} from './lockups.routes';

// Lock-up events are reference data read from SEC filings (any signed-in user may name one);
// a follow is the session user's own row, named by its id.
export const lockupsRouteTable = defineRouteTable('lockups', [
  {
    method: 'GET',
    path: '/api/lockups/calendar',
    summary:
      'IPO lock-up expirations between two dates (default today and 30 days on, at most 366 days apart), one row per tranche, filtered by minimum risk score, minimum share of the float, industry and VC backing; the events that need review (no date read) apart; the industries and the source',
    auth: 'user',
    query: lockupCalendarQuerySchema,
    body: 'none',
    response: 'json',
    example: { query: { from: '2026-03-01', to: '2026-04-30', minRisk: '40', minFloatShare: '0.2', vcBacked: 'true', limit: '200' } },
  },
  {
    method: 'GET',
    path: '/api/lockups/events/:id',
    summary: "One lock-up tranche: the risk score's factors (points, weight, input, study), the quoted clause, who is bound, early-release triggers and whether they were met, the offering's other tranches and daily closes since the IPO",
    auth: 'user',
    params: lockupEventParamsSchema,
    ids: { id: 'reference' },
    body: 'none',
    response: 'json',
    example: { params: { id: '1' } },
  },
  {
    method: 'GET',
    path: '/api/lockups/research',
    summary: 'The lock-up expirations of the next 30 days with their risk scores and top factors: the public research page',
    auth: 'public',
    body: 'none',
    response: 'json',
  },
  { method: 'GET', path: '/api/lockups/follows', summary: 'The tickers and risk levels whose lock-up expirations the user follows, with the notice days', auth: 'user', body: 'none', response: 'json' },
  {
    method: 'POST',
    path: '/api/lockups/follows',
    summary: 'Follows a ticker ({ kind: ticker, ticker }) or every lock-up at or above a risk score ({ kind: risk, minRiskScore }), notified 14, 7 or 1 days before (the chosen ones) and on the day; 409 when already followed',
    auth: 'user',
    body: { json: lockupFollowBodySchema },
    response: 'json',
    example: { body: { kind: 'risk', minRiskScore: 60, noticeDays: [14, 7, 1] } },
  },
  {
    method: 'PATCH',
    path: '/api/lockups/follows/:id',
    summary: "Changes a follow's notice days or, for a risk follow, its minimum score",
    auth: 'user',
    params: lockupFollowParamsSchema,
    ids: { id: 'lockup-follow' },
    body: { json: lockupFollowPatchSchema },
    response: 'json',
    example: { body: { noticeDays: [7, 1] } },
  },
  {
    method: 'DELETE',
    path: '/api/lockups/follows/:id',
    summary: 'Stops following',
    auth: 'user',
    params: lockupFollowParamsSchema,
    ids: { id: 'lockup-follow' },
    body: 'none',
    response: 'empty',
  },
]);
