// GET /api/exchanges as the market-hours api answers it (@tickerbell/jobs/market-hours/shapes).
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';

/** New York open (closing in about 2 h 05 min from now, and followed) and London closed. */
export function sampleExchanges(): ExchangeView[] {
  return [
    {
      id: 'xnys',
      name: 'New York Stock Exchange',
      location: 'New York',
      open: '09:30',
      close: '16:00',
      timezone: 'America/New_York',
      days: [1, 2, 3, 4, 5],
      breakStart: null,
      breakEnd: null,
      status: 'open',
      nextTransition: { kind: 'close', at: new Date(Date.now() + 2 * 3600_000 + 5 * 60_000 + 30_000).toISOString() },
      following: true,
    },
    {
      id: 'xlon',
      name: 'London Stock Exchange',
      location: 'London',
      open: '08:00',
      close: '16:30',
      timezone: 'Europe/London',
      days: [1, 2, 3, 4, 5],
      breakStart: null,
      breakEnd: null,
      status: 'closed',
      nextTransition: null,
      following: false,
    },
  ];
}
