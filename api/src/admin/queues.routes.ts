import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import express, { Router, type Request, type RequestHandler } from 'express';
import type { JobQueues } from '@tickerbell/jobs';
import { requireAdminOrOperator, sameToken } from './admin-access';

export const ADMIN_QUEUES_PATH = '/admin/queues';
const COOKIE = 'tb_admin_queues';

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

const queryToken = (req: Request) => (typeof req.query.token === 'string' ? req.query.token : undefined);

/**
 * Who may use bull-board: a signed-in user with role `admin` (session cookie), or an operator
 * with ADMIN_QUEUES_TOKEN (`Authorization: Bearer <token>`, or `?token=<token>` once, which sets
 * an HttpOnly cookie for the UI's own requests).
 */
function requireAdmin(token: string | undefined, publicUrl: string): RequestHandler[] {
  const rememberToken: RequestHandler = (req, res, next) => {
    if (token && sameToken(queryToken(req), token)) {
      res.cookie(COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: ADMIN_QUEUES_PATH });
    }
    next();
  };
  const access = requireAdminOrOperator({
    token,
    what: 'the admin queues',
    tokensFrom: (req) => [queryToken(req), readCookie(req.get('cookie'), COOKIE)],
    signInOrigin: publicUrl,
  });
  return [rememberToken, access];
}

/** bull-board over every queue, for administrators (and operators holding ADMIN_QUEUES_TOKEN). */
export function adminQueuesRoutes(deps: { queues: JobQueues; token?: string; publicUrl: string; bodyLimit: string }): Router {
  const router = Router();
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: deps.queues.all().map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
  });
  // Our body parser before bull-board's own: a malformed body (bad encoding, broken JSON) is the
  // api's 400 with its JSON error body, not bull-board's; bull-board then finds the body parsed.
  router.use(ADMIN_QUEUES_PATH, ...requireAdmin(deps.token, deps.publicUrl), express.json({ limit: deps.bodyLimit }), serverAdapter.getRouter());
  return router;
}
