import { Router } from 'express';
import { z } from 'zod';
import { ACTIVITY_ACTIONS } from '@tickerbell/entities';
import { HttpError } from '../http/errors';
import type { AccountsContext } from './accounts.context';
import { clientIp, logActivity, primaryTeamId } from './accounts.service';
import { requireUser, sessionUser } from './require-user';

const logBody = z
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
    const userId = sessionUser(req).id;
    const teamId = await primaryTeamId(ctx.dataSource.manager, userId);
    if (teamId === null) throw new HttpError(400, 'no_team', 'User is not part of a team');
    const row = await logActivity(ctx.dataSource.manager, {
      teamId,
      userId,
      action: body.activityType,
      ipAddress: clientIp(req.ip),
      details: body.details ?? null,
    });
    res.status(201).json({ id: Number(row.id), teamId, action: row.action, timestamp: row.timestamp.toISOString() });
  });
  return router;
}
