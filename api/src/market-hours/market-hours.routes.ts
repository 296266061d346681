import { Router, type Request, type Response } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock } from '@tickerbell/jobs';
import {
  exchangeExists,
  followedExchangeIds as followedExchangeIdsOf,
  LastFollowError,
  loadExchangeCalendars,
  setExchangeFollow,
  marketStatusAt,
  regularBreakOf,
  toClientExchange,
  type ExchangeCalendar,
} from '@tickerbell/jobs/market-hours';
import type { ExchangeFollowResponse, ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';

export interface MarketHoursRouteDeps {
  dataSource: DataSource;
  clock?: Clock;
  /**
   * The exchanges the requesting user follows. Default: the signed-in user's follows (the
   * defaults XNYS, XNAS, XLON until they choose); anonymous requests follow nothing.
   */
  followedExchangeIds?: (req: Request) => Promise<ReadonlySet<string>>;
  /** Calendars change only on import; the list is polled every 60 s by every client. */
  calendarCacheMs?: number;
}

const NONE: ReadonlySet<string> = new Set();
export const exchangeParam = z.object({ id: z.string().regex(/^[A-Z0-9]{3,10}$/, 'an exchange MIC') });

/** GET /api/exchanges (public): the spec's client shape plus live status and next transition. */
export function marketHoursRoutes(deps: MarketHoursRouteDeps): Router {
  const router = Router();
  const clock = deps.clock ?? systemClock;
  const cacheMs = deps.calendarCacheMs ?? 30_000;
  let cached: { at: number; calendars: Promise<ExchangeCalendar[]> } | undefined;
  const followed =
    deps.followedExchangeIds ??
    (async (req: Request): Promise<ReadonlySet<string>> => (req.user ? new Set(await followedExchangeIdsOf(deps.dataSource, req.user.id)) : NONE));

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
    const [list, following] = await Promise.all([calendars(), followed(req)]);
    const now = clock.now();
    const body: ExchangeView[] = list.map((calendar) => {
      const state = marketStatusAt(calendar, now);
      return {
        ...toClientExchange(calendar.exchange),
        ...regularBreakOf(calendar.exchange),
        status: state.status,
        nextTransition: state.nextTransition ? { kind: state.nextTransition.kind, at: state.nextTransition.at.toISOString() } : null,
        following: following.has(calendar.exchange.id),
      };
    });
    res.set('Cache-Control', 'no-store').json(body);
  });

  /** Follow / unfollow an exchange's notifications; answers the user's followed exchange ids. */
  const follow = (value: boolean) => async (req: Request, res: Response) => {
    const { id } = exchangeParam.parse(req.params);
    if (!(await exchangeExists(deps.dataSource, id))) throw notFound('No such exchange');
    let following: string[];
    try {
      following = await setExchangeFollow(deps.dataSource, sessionUser(req).id, id, value);
    } catch (error) {
      if (error instanceof LastFollowError) throw new HttpError(409, 'last_follow', error.message);
      throw error;
    }
    const body: ExchangeFollowResponse = { id, following: following.includes(id), followedExchangeIds: following };
    res.json(body);
  };
  router.put('/exchanges/:id/follow', requireUser, follow(true));
  router.delete('/exchanges/:id/follow', requireUser, follow(false));

  return router;
}
