import { Router } from 'express';
import { z } from 'zod';
import { ACTIVITY_ACTIONS } from '@tickerbell/entities';
import { logClientActivity } from '@tickerbell/jobs/accounts';
import { HttpError } from '../http/errors';
import type { AccountsContext } from './accounts.context';
import { clientIp } from './accounts.service';
import { requireUser, sessionUser } from './require-user';

export const logBody = z
  .object({
    activityType: z.enum(ACTIVITY_ACTIONS),
    details: z.record(z.string(), z.unknown()).optional(),
    csrfToken: z.string().optional(),
  })
  .strict();

/** POST /api/notifications/log: the client records an activity (a market notification it showed). */
export function activityRoutes(ctx: AccountsContext): Router {
  const router = Router();
  router.post('/notifications/log', requireUser, async (req, res) => {
    const body = logBody.parse(req.body);
    // The details are the client's: bounded so a log row stays small.
    if (body.details && JSON.stringify(body.details).length > 10000) {
      throw new HttpError(400, 'validation_failed', 'Invalid input: details', [{ field: 'details', message: 'at most 10000 characters of JSON' }]);
    }
    const logged = await logClientActivity(ctx.dataSource, sessionUser(req).id, body.activityType, clientIp(req.ip), body.details ?? null);
    res.status(201).json(logged);
  });
  return router;
}
