import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { cotDataStatus, cotInstrumentHistory, defaultCotOrder, latestCotAnalytics, listCotInstruments } from '@tickerbell/jobs/cot';
import { COT_CATEGORIES, COT_HISTORY_WEEKS, COT_SORT_KEYS, COT_SORT_ORDERS } from '@tickerbell/jobs/cot/shapes';
import { notFound } from '../http/errors';

export const cotLatestQuerySchema = z
  .object({
    sort: z.enum(COT_SORT_KEYS).default('name'),
    order: z.enum(COT_SORT_ORDERS).optional(),
    category: z.enum(COT_CATEGORIES).optional(),
  })
  .strict();

export const cotHistoryQuerySchema = z
  .object({
    // 20 years of weekly reports at most.
    weeks: z.coerce.number().int().min(1).max(COT_HISTORY_WEEKS.max).default(COT_HISTORY_WEEKS.default),
  })
  .strict();

// Codes are letters and digits, and a few consolidated ones carry a sign (e.g. a trailing +).
export const cftcCodeSchema = z.string().regex(/^[\x21-\x7e]{1,20}$/);

/** Public read routes of the futures positioning (COT) feature. */
export function cotRoutes(deps: { dataSource: DataSource }): Router {
  const router = Router();
  const db = deps.dataSource;

  router.get('/cot/instruments', async (_req, res) => {
    res.json({ items: await listCotInstruments(db) });
  });

  router.get('/cot/latest', async (req, res) => {
    const query = cotLatestQuerySchema.parse(req.query);
    const order = query.order ?? defaultCotOrder(query.sort);
    const category = query.category ?? null;
    const items = await latestCotAnalytics(db, { sort: query.sort, order, category });
    res.json({ sort: query.sort, order, category, items, data: await cotDataStatus(db, new Date()) });
  });

  router.get('/cot/instruments/:code/history', async (req, res) => {
    const { weeks } = cotHistoryQuerySchema.parse(req.query);
    const code = cftcCodeSchema.safeParse(req.params.code);
    const history = code.success ? await cotInstrumentHistory(db, code.data, weeks) : null;
    if (!history) throw notFound(`No COT instrument with code ${String(req.params.code).slice(0, 40)}`);
    res.json(history);
  });

  return router;
}
