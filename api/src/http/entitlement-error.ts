import type { ErrorRequestHandler } from 'express';
import { EntitlementError } from '@tickerbell/jobs/billing';
import { HttpError } from './errors';

/**
 * The one mapping of the entitlements' refusals (issue 19, docs/billing.md) to HTTP, for every
 * domain: a plan limit and a feature the plan lacks are 403, a read-only account (past due after
 * the grace period, unpaid, paused) is 402. The body is the api's error envelope, so clients read
 * it like any other refusal:
 *
 *   { "error": { "code": "plan_limit", "message": "Your Free plan allows 25 active alerts (you have 25): …",
 *                "details": { "plan": "free", "limit": "activeAlerts", "max": 25, "used": 25, "upgradeUrl": "/pricing" },
 *                "requestId": "…" } }
 *
 * (`feature` instead of `limit` for feature_off; read_only names the plan and where to pay.)
 */
export function entitlementHttpError(error: EntitlementError): HttpError {
  const { error: code, message, ...details } = error.body();
  return new HttpError(error.status, code, message, details);
}

/** Mounted once by the app, before its error handler: any route's EntitlementError becomes its HttpError. */
export const entitlementErrors: ErrorRequestHandler = (error, _req, _res, next) => {
  next(error instanceof EntitlementError ? entitlementHttpError(error) : error);
};
