import { Router, type Request, type Response } from 'express';
import type { DataSource } from 'typeorm';
import { systemClock, type Clock } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import { listCotFollows, setCotFollow } from '@tickerbell/jobs/cot';
import { requireUser, sessionUser } from '../accounts/require-user';
import { notFound } from '../http/errors';
import { cftcCodeSchema } from './cot.routes';

/** Signed-in routes: following COT instruments, whose new extremes and divergence changes notify the user. */
export function cotFollowsRoutes(deps: { dataSource: DataSource; clock?: Clock; entitlements: Entitlements }): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;

  /** Follow / unfollow (idempotent); answers the code and the new state. */
  const follow = (value: boolean) => async (req: Request, res: Response) => {
    const parsed = cftcCodeSchema.safeParse(req.params.code);
    if (!parsed.success) throw notFound(`No COT instrument with code ${String(req.params.code)}`);
    // Following is a tracked item: a read-only account (billing) cannot add one (402); unfollowing always works.
    if (value) await deps.entitlements.checkWritable(db, sessionUser(req).id, clock.now());
    const result = await setCotFollow(db, sessionUser(req).id, parsed.data, value);
    if (result === null) throw notFound(`No COT instrument with code ${parsed.data}`);
    res.json({ cftcCode: parsed.data, following: result });
  };
  router.put('/cot/instruments/:code/follow', requireUser, follow(true));
  router.delete('/cot/instruments/:code/follow', requireUser, follow(false));

  router.get('/cot/follows', requireUser, async (req, res) => {
    res.json({ items: await listCotFollows(db, sessionUser(req).id) });
  });

  return router;
}
