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
 * Who may use bull-board: a signed-in user with role `admin` (session cookie), or an operator
 * with ADMIN_QUEUES_TOKEN (`Authorization: Bearer <token>`, or `?token=<token>` once, which sets
 * an HttpOnly cookie for the UI's own requests).
 */
function requireAdmin(token: string | undefined, publicUrl: string): RequestHandler {
  return (req, res, next) => {
    if (token) {
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
    }
    if (req.user?.role === 'admin') {
      // The session cookie is SameSite=Lax; bull-board's own calls also come from its own page.
      const safe = req.method === 'GET' || req.method === 'HEAD';
      if (safe || req.get('sec-fetch-site') === 'same-origin' || sameOrigin(req.get('origin'), req.get('host'))) {
        next();
        return;
      }
      next(new HttpError(403, 'forbidden', 'Cross-site requests to the admin queues are refused'));
      return;
    }
    if (req.user) {
      next(new HttpError(403, 'forbidden', 'The admin queues are for administrators'));
      return;
    }
    if (req.method === 'GET' && (req.get('accept') ?? '').includes('text/html') && !req.get('authorization')) {
      const signIn = new URL('/sign-in', publicUrl);
      signIn.searchParams.set('error', 'SessionRequired');
      signIn.searchParams.set('callbackUrl', new URL(req.originalUrl, publicUrl).toString());
      res.redirect(302, signIn.toString());
      return;
    }
    next(new HttpError(401, 'unauthorized', 'Sign in as an administrator, or send the admin queues token'));
  };
}

function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** bull-board over every queue, for administrators (and operators holding ADMIN_QUEUES_TOKEN). */
export function adminQueuesRoutes(deps: { queues: JobQueues; token?: string; publicUrl: string }): Router {
  const router = Router();
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: deps.queues.all().map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
  });
  router.use(ADMIN_QUEUES_PATH, requireAdmin(deps.token, deps.publicUrl), serverAdapter.getRouter());
  return router;
}
