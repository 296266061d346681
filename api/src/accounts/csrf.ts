import type { Request, RequestHandler } from 'express';
import { csrfSync } from 'csrf-sync';
import { HttpError } from '../http/errors';

/**
 * Synchronizer tokens kept in the session (csrf-sync): GET /api/auth/csrf hands one out, and a
 * state-changing request that rides on the session cookie must send it back, as the
 * `x-csrf-token` header or the `csrfToken` body field.
 */
export function createCsrf() {
  const sync = csrfSync({
    getTokenFromRequest: (req) => {
      const header = req.get('x-csrf-token');
      if (header) return header;
      const body: unknown = req.body;
      if (typeof body === 'object' && body !== null && 'csrfToken' in body && typeof body.csrfToken === 'string') return body.csrfToken;
      return undefined;
    },
  });

  const invalid = () => new HttpError(403, 'csrf_invalid', 'The CSRF token is missing or wrong: fetch one from GET /api/auth/csrf');
  const isSafe = (req: Request) => req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';

  /** For the sign-in surface: always checked, signed in or not (login CSRF). */
  const require: RequestHandler = (req, _res, next) => {
    next(isSafe(req) || sync.isRequestValid(req) ? undefined : invalid());
  };

  /**
   * For every other route: checked whenever the request is signed in through the session cookie.
   * Anonymous requests carry no authority a forger could borrow.
   */
  const protectSession = (exempt: (req: Request) => boolean): RequestHandler => (req, _res, next) => {
    if (isSafe(req) || exempt(req) || !req.user) {
      next();
      return;
    }
    next(sync.isRequestValid(req) ? undefined : invalid());
  };

  return {
    /** The session's token, created on first use. */
    token: (req: Request) => sync.generateToken(req, false),
    /** A fresh token (after sign-in, so a token seen before it is worthless). */
    rotate: (req: Request) => sync.generateToken(req, true),
    require,
    protectSession,
  };
}

export type Csrf = ReturnType<typeof createCsrf>;
