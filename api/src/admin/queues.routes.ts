import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type RequestHandler } from 'express';
import type { JobQueues } from '@tickerbell/jobs';
import { HttpError } from '../http/errors';

export const ADMIN_QUEUES_PATH = '/admin/queues';
const COOKIE = 'tb_admin_queues';

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * Token gate for bull-board until the accounts issue adds the admin role: `Authorization: Bearer
 * <token>`, or `?token=<token>` once, which sets an HttpOnly cookie for the UI's own requests.
 */
function requireToken(token: string): RequestHandler {
  return (req, res, next) => {
    const bearer = req.get('authorization')?.replace(/^Bearer\s+/i, '');
    const query = typeof req.query.token === 'string' ? req.query.token : undefined;
    if (sameToken(query, token)) {
      res.cookie(COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: ADMIN_QUEUES_PATH });
      next();
      return;
    }
    if (sameToken(bearer, token) || sameToken(readCookie(req.get('cookie'), COOKIE), token)) {
      next();
      return;
    }
    next(new HttpError(401, 'unauthorized', 'The admin queues token is missing or wrong'));
  };
}

/** bull-board over every queue, or nothing (404) when no token is configured. */
export function adminQueuesRoutes(deps: { queues: JobQueues; token?: string }): Router {
  const router = Router();
  if (!deps.token) return router;
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: deps.queues.all().map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
  });
  router.use(ADMIN_QUEUES_PATH, requireToken(deps.token), serverAdapter.getRouter());
  return router;
}
