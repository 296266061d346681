import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { listMarketNews } from '@tickerbell/jobs/news';
import { NEWS_PAGE_SIZE, type MarketNewsAnswer } from '@tickerbell/jobs/news/shapes';
import { listSourceHealth } from '@tickerbell/jobs/sources';
import { notFound } from '../http/errors';

// The symbols of the markets table (the same characters /api/markets/:symbol/bars accepts).
export const marketNewsParamsSchema = z.object({
  symbol: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .regex(/^[A-Za-z0-9^._=-]+$/, 'letters, digits and ^ . _ = -')
    .transform((s) => s.toUpperCase()),
});

export const marketNewsQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    limit: z.coerce.number().int().min(1).max(NEWS_PAGE_SIZE.max).default(NEWS_PAGE_SIZE.default),
  })
  .strict();

/** Public read routes of the news domain: a market's news, newest first. */
export function newsRoutes(deps: { dataSource: DataSource }): Router {
  const router = Router();

  router.get('/markets/:symbol/news', async (req, res) => {
    const { symbol } = marketNewsParamsSchema.parse(req.params);
    const query = marketNewsQuerySchema.parse(req.query);
    const page = await listMarketNews(deps.dataSource, symbol, query);
    if (!page) throw notFound(`No market ${symbol}`);
    // The screens label recorded news: a source says how it was last read in its health details.
    const shown = new Set(page.items.map((item) => item.source));
    const replay = shown.size > 0 && (await listSourceHealth(deps.dataSource)).some((row) => shown.has(row.source) && row.details?.kind === 'replay');
    const answer: MarketNewsAnswer = { ...page, replay };
    res.json(answer);
  });

  return router;
}
