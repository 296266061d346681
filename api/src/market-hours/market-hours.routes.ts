import { Router, type Request } from 'express';
import type { DataSource } from 'typeorm';
import {
  loadExchangeCalendars,
  marketStatusAt,
  systemClock,
  toClientExchange,
  type ClientExchange,
  type Clock,
  type ExchangeCalendar,
  type MarketStatus,
  type TransitionKind,
} from '@tickerbell/jobs';

export interface ExchangeView extends ClientExchange {
  status: MarketStatus;
  nextTransition: { kind: TransitionKind; at: string } | null;
  following: boolean;
}

export interface MarketHoursRouteDeps {
  dataSource: DataSource;
  clock?: Clock;
  /**
   * The exchanges the requesting user follows. The seam for accounts: until it is wired, nobody
   * follows anything and every exchange reports `following: false`.
   */
  followedExchangeIds?: (req: Request) => Promise<ReadonlySet<string>>;
  /** Calendars change only on import; the list is polled every 60 s by every client. */
  calendarCacheMs?: number;
}

const NONE: ReadonlySet<string> = new Set();

/** GET /api/exchanges (public): the spec's client shape plus live status and next transition. */
export function marketHoursRoutes(deps: MarketHoursRouteDeps): Router {
  const router = Router();
  const clock = deps.clock ?? systemClock;
  const cacheMs = deps.calendarCacheMs ?? 30_000;
  let cached: { at: number; calendars: Promise<ExchangeCalendar[]> } | undefined;

  const calendars = (): Promise<ExchangeCalendar[]> => {
    // Wall time, not the injected clock: the cache's age is about the process, not the market.
    const now = Date.now();
    if (!cached || now - cached.at >= cacheMs) {
      const loading = loadExchangeCalendars(deps.dataSource);
      cached = { at: now, calendars: loading };
      loading.catch(() => {
        if (cached?.calendars === loading) cached = undefined;
      });
    }
    return cached.calendars;
  };

  router.get('/exchanges', async (req, res) => {
    const [list, following] = await Promise.all([calendars(), deps.followedExchangeIds?.(req) ?? Promise.resolve(NONE)]);
    const now = clock.now();
    const body: ExchangeView[] = list.map((calendar) => {
      const state = marketStatusAt(calendar, now);
      return {
        ...toClientExchange(calendar.exchange),
        status: state.status,
        nextTransition: state.nextTransition ? { kind: state.nextTransition.kind, at: state.nextTransition.at.toISOString() } : null,
        following: following.has(calendar.exchange.id),
      };
    });
    res.set('Cache-Control', 'no-store').json(body);
  });

  return router;
}
