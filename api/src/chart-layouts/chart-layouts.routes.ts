import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import {
  CHART_LAYOUT_NAME_MAX,
  ChartLayoutError,
  chartLayoutSchema,
  createChartLayout,
  deleteChartLayout,
  getChartLayout,
  getDefaultChartLayout,
  listChartLayouts,
  makeDefaultChartLayout,
  updateChartLayout,
  type ChartLayoutErrorCode,
} from '@tickerbell/jobs/chart-layouts';
import type { ChartLayoutDefaultResponse } from '@tickerbell/jobs/chart-layouts/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';
import { idParam } from '../http/input';

const nameSchema = z.string().trim().min(1).max(CHART_LAYOUT_NAME_MAX);
export const createBody = z.object({ name: nameSchema, layout: chartLayoutSchema, isDefault: z.boolean().optional() }).strict();
export const updateBody = z
  .object({ name: nameSchema.optional(), layout: chartLayoutSchema.optional(), isDefault: z.boolean().optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.layout !== undefined || b.isDefault !== undefined, { message: 'name, layout or isDefault' });

const STATUS: Record<ChartLayoutErrorCode, number> = { not_found: 404, limit: 403, default_conflict: 409 };


async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ChartLayoutError) throw new HttpError(STATUS[error.code], error.code, error.message, error.details);
    throw error;
  }
}

/** Signed-in routes: saved chart layouts, at most one of them the user's default. */
export function chartLayoutsRoutes(deps: { dataSource: DataSource }): Router {
  const router = Router();
  const db = deps.dataSource;

  router.get('/chart-layouts', requireUser, async (req, res) => {
    res.json({ layouts: await listChartLayouts(db, sessionUser(req).id) });
  });

  // Having no default is an ordinary state, not a missing resource: 200 with `layout: null`.
  router.get('/chart-layouts/default', requireUser, async (req, res) => {
    const answer: ChartLayoutDefaultResponse = { layout: await getDefaultChartLayout(db, sessionUser(req).id) };
    res.json(answer);
  });

  router.post('/chart-layouts', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const body = createBody.parse(req.body);
    res.status(201).json(await http(() => createChartLayout(db, userId, body)));
  });

  router.get('/chart-layouts/:id', requireUser, async (req, res) => {
    const layout = await getChartLayout(db, sessionUser(req).id, idParam(req.params.id, 'chart layout'));
    if (!layout) throw notFound('No such chart layout');
    res.json(layout);
  });

  router.patch('/chart-layouts/:id', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'chart layout');
    const changes = updateBody.parse(req.body);
    res.json(await http(() => updateChartLayout(db, userId, id, changes)));
  });

  router.put('/chart-layouts/:id/default', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'chart layout');
    res.json(await http(() => makeDefaultChartLayout(db, userId, id)));
  });

  router.delete('/chart-layouts/:id', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'chart layout');
    await http(() => deleteChartLayout(db, userId, id));
    res.status(204).end();
  });

  return router;
}
