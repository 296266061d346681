import { Router } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { systemClock, type Clock, type JobQueues } from '@tickerbell/jobs';
import {
  marketBars,
  marketBarsParamsSchema,
  marketBarsQuerySchema,
  marketQuotes,
  marketQuotesQuerySchema,
  marketSearchQuerySchema,
  requestFirstQuotes,
  searchMarkets,
} from '@tickerbell/jobs/prices';
import { notFound } from '../http/errors';

/**
 * Public market data (reference data and prices, no sign-in, like the exchanges' own pages):
 * - GET /api/markets?q=&type=&limit=: search the markets reference table;
 * - GET /api/markets/quotes?symbols=A,B: latest prices from Redis (at most 100 symbols, unknown ones left out;
 *   a poll is queued for known ones without a quote yet);
 * - GET /api/markets/:symbol/bars?interval=1h&limit=300: stored bars, oldest first (a backfill is
 *   queued when fewer are stored).
 */
export function pricesRoutes(deps: { dataSource: DataSource; redis: Redis; queues: JobQueues; clock?: Clock }): Router {
  const router = Router();
  const clock = deps.clock ?? systemClock;
  router.get('/markets', async (req, res) => {
    const query = marketSearchQuerySchema.parse(req.query);
    res.json({ markets: await searchMarkets(deps.dataSource, query) });
  });
  router.get('/markets/quotes', async (req, res) => {
    const { symbols } = marketQuotesQuerySchema.parse(req.query);
    const quotes = await marketQuotes(deps.redis, deps.queues.prefix, symbols);
    // A followed market without a quote gets one from a poll queued now; the live stream brings it.
    await requestFirstQuotes({ dataSource: deps.dataSource, queues: deps.queues, now: clock.now() }, symbols, quotes);
    res.set('Cache-Control', 'no-store').json({ quotes });
  });
  router.get('/markets/:symbol/bars', async (req, res) => {
    const { symbol } = marketBarsParamsSchema.parse(req.params);
    const query = marketBarsQuerySchema.parse(req.query);
    const answer = await marketBars({ dataSource: deps.dataSource, queues: deps.queues, now: clock.now() }, symbol, query);
    if (!answer) throw notFound(`No market ${symbol}`);
    res.set('Cache-Control', 'no-store').json(answer);
  });
  return router;
}
