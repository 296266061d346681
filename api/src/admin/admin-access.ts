import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { HttpError } from '../http/errors';

/** Compares a presented token with the expected one in constant time. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface AdminOrOperatorOptions {
  /** The operators' token (`Authorization: Bearer <token>`); unset: administrators only. */
  token?: string;
  /** What is guarded, for the messages: `the admin queues`, `the metrics`. */
  what: string;
  /** Other places the token may be presented in (bull-board: `?token=` and its cookie). */
  tokensFrom?: (req: Request) => (string | undefined)[];
  /** Public origin of the site: a signed-out browser asking for a page is sent to sign in there instead of a 401. */
  signInOrigin?: string;
}

/**
 * The `admin-or-operator` auth of the route table: a signed-in user with role `admin` (session
 * cookie), or an operator holding the token. A signed-in user who is not an admin gets 403, anyone
 * else 401. An admin's state-changing requests must come from the site itself (the session cookie
 * is SameSite=Lax): Sec-Fetch-Site same-origin, or an Origin of this host.
 */
export function requireAdminOrOperator(options: AdminOrOperatorOptions): RequestHandler {
  const { token, what } = options;
  return (req, res, next) => {
    if (token) {
      const bearer = req.get('authorization')?.replace(/^Bearer\s+/i, '');
      if ([bearer, ...(options.tokensFrom?.(req) ?? [])].some((given) => sameToken(given, token))) {
        next();
        return;
      }
    }
    if (req.user?.role === 'admin') {
      const safe = req.method === 'GET' || req.method === 'HEAD';
      if (safe || req.get('sec-fetch-site') === 'same-origin' || sameOrigin(req.get('origin'), req.get('host'))) {
        next();
        return;
      }
      next(new HttpError(403, 'forbidden', `Cross-site requests to ${what} are refused`));
      return;
    }
    if (req.user) {
      next(new HttpError(403, 'forbidden', `${capitalized(what)} are for administrators`));
      return;
    }
    if (options.signInOrigin && req.method === 'GET' && (req.get('accept') ?? '').includes('text/html') && !req.get('authorization')) {
      const signIn = new URL('/sign-in', options.signInOrigin);
      signIn.searchParams.set('error', 'SessionRequired');
      signIn.searchParams.set('callbackUrl', new URL(req.originalUrl, options.signInOrigin).toString());
      res.redirect(302, signIn.toString());
      return;
    }
    next(new HttpError(401, 'unauthorized', `Sign in as an administrator, or send the token for ${what}`));
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
