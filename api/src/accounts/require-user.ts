import type { Request, RequestHandler } from 'express';
import { HttpError } from '../http/errors';
import { notAuthenticated } from './accounts.service';
import type { SessionUser } from './session-user';

/** 401 `Not authenticated` unless the request is signed in. For every domain's routes. */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : notAuthenticated());
};

/** The signed-in user of a request behind requireUser. */
export function sessionUser(req: Request): SessionUser {
  if (!req.user) throw notAuthenticated();
  return req.user;
}

/** For the admin API: 401 signed out, 403 unless users.role is `admin`. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) next(notAuthenticated());
  else next(req.user.role === 'admin' ? undefined : new HttpError(403, 'forbidden', 'Administrators only'));
};
