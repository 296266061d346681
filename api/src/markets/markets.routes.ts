import { Router } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import {
  marketBars,
  marketBarsParamsSchema,
  marketBarsQuerySchema,
  marketQuotes,
  marketQuotesQuerySchema,
  systemClock,
  type Clock,
  type JobQueues,
} from '@tickerbell/jobs';
import { notFound } from '../http/errors';

/** The market types the seed and the price sources know. */
export const MARKET_TYPES = ['crypto', 'stock', 'etf', 'index', 'forex', 'futures', 'commodity'] as const;

export const marketSearchQuerySchema = z
  .object({
    q: z.string().trim().max(50).optional(),
    type: z.enum(MARKET_TYPES).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  })
  .strict();

export interface MarketView {
  id: number;
  symbol: string;
  name: string;
  type: string;
  description: string | null;
}

/** Escapes LIKE wildcards so a query is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Symbol prefix or name substring, case-insensitive. Ranked: exact symbol, then symbol prefix,
 * then name; shorter symbols first within a rank. Index symbols (^GSPC) also match without the caret.
 */
export async function searchMarkets(dataSource: DataSource, query: z.infer<typeof marketSearchQuerySchema>): Promise<MarketView[]> {
  const q = query.q ? query.q : null;
  const rows: MarketView[] = await dataSource.query(
    `SELECT id, symbol, name, type, description
       FROM markets
      WHERE ($1::text IS NULL
             OR upper(symbol) LIKE upper($2) || '%'
             OR ltrim(upper(symbol), '^') LIKE upper($2) || '%'
             OR name ILIKE '%' || $2 || '%')
        AND ($3::text IS NULL OR type = $3)
      ORDER BY CASE
                 WHEN upper(symbol) = upper($1) OR ltrim(upper(symbol), '^') = upper($1) THEN 0
                 WHEN upper(symbol) LIKE upper($2) || '%' OR ltrim(upper(symbol), '^') LIKE upper($2) || '%' THEN 1
                 ELSE 2
               END,
               length(symbol), symbol
      LIMIT $4`,
    [q, q === null ? null : likeLiteral(q), query.type ?? null, query.limit],
  );
  return rows;
}

/**
 * Public market data (reference data and prices, no sign-in, like the exchanges' own pages):
 * - GET /api/markets?q=&type=&limit=: search the markets reference table;
 * - GET /api/markets/quotes?symbols=A,B: latest prices from Redis (at most 100 symbols, unknown ones left out);
 * - GET /api/markets/:symbol/bars?interval=1h&limit=300: stored bars, oldest first (a backfill is
 *   queued when fewer are stored).
 */
export function marketsRoutes(deps: { dataSource: DataSource; redis: Redis; queues: JobQueues; clock?: Clock }): Router {
  const router = Router();
  const clock = deps.clock ?? systemClock;
  router.get('/markets', async (req, res) => {
    const query = marketSearchQuerySchema.parse(req.query);
    res.json({ markets: await searchMarkets(deps.dataSource, query) });
  });
  router.get('/markets/quotes', async (req, res) => {
    const { symbols } = marketQuotesQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json({ quotes: await marketQuotes(deps.redis, deps.queues.prefix, symbols) });
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
