import type { ErrorRequestHandler } from 'express';
import { AccountsError, type AccountsErrorCode } from '@tickerbell/jobs/accounts';
import { HttpError } from '../http/errors';

const STATUS: Record<AccountsErrorCode, number> = {
  email_taken: 409,
  no_team: 400,
  not_found: 404,
  forbidden: 403,
  last_owner: 409,
  already_member: 409,
  invitation_not_pending: 409,
  invitation_expired: 410,
};

export function accountsHttpError(error: AccountsError): HttpError {
  return new HttpError(STATUS[error.code], error.code, error.message, error.details);
}

/** Mounted after the accounts routes: their domain refusals as HTTP errors; anything else goes on to the 500 handler. */
export const accountsErrors: ErrorRequestHandler = (error, _req, _res, next) => {
  next(error instanceof AccountsError ? accountsHttpError(error) : error);
};
