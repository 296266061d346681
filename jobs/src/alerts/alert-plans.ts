import { countActiveAlerts, liveSubscriptionPlans, lockUserAlertPlan, type AlertsDb } from './alerts.store';

/**
 * Plan limits of alerts: the most ACTIVE alerts a user's plan allows (inactive ones are free to
 * keep). Configured as `ALERTS_PLAN_LIMITS=free=25,pro=250,team=1000`.
 */

export const DEFAULT_ALERTS_PLAN_LIMITS = 'free=25,pro=250,team=1000';
/** The plan of a user without a live subscription; every limits map must name it. */
export const ALERTS_DEFAULT_PLAN = 'free';

export type AlertPlanLimits = ReadonlyMap<string, number>;

/**
 * `name=limit` pairs separated by commas (plan names lower-cased, limits whole numbers >= 0).
 * Throws an Error saying what is wrong; the config schema turns it into a named config error.
 */
export function parseAlertPlanLimits(text: string): AlertPlanLimits {
  const limits = new Map<string, number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (!part) continue;
    const match = /^([a-z0-9][a-z0-9_-]{0,49})\s*=\s*(\d{1,9})$/i.exec(part);
    if (!match) throw new Error(`"${part}" is not plan=limit (e.g. free=25,pro=250)`);
    const plan = match[1].toLowerCase();
    if (limits.has(plan)) throw new Error(`plan "${plan}" is listed twice`);
    limits.set(plan, Number(match[2]));
  }
  if (!limits.has(ALERTS_DEFAULT_PLAN)) throw new Error(`the "${ALERTS_DEFAULT_PLAN}" plan needs a limit (users without a subscription are on it)`);
  return limits;
}

/**
 * The user's plan for alert limits: the lower-cased plan name of an active or trialing
 * subscription that the limits know, else free. The billing issue will own this rule (plans,
 * teams' plans, grace periods); until then a subscription row is all there is to go on.
 */
export async function alertPlanOf(db: AlertsDb, userId: number, limits: AlertPlanLimits): Promise<string> {
  // The most generous plan the user pays for, if several subscriptions are live.
  let best: string | null = null;
  for (const plan of await liveSubscriptionPlans(db, userId)) {
    const limit = limits.get(plan);
    if (limit !== undefined && (best === null || limit > (limits.get(best) ?? 0))) best = plan;
  }
  return best ?? ALERTS_DEFAULT_PLAN;
}

export interface AlertPlanUsage {
  plan: string;
  limit: number;
  active: number;
}

/**
 * Inside a transaction: takes the user's plan lock and tells whether `adding` more active alerts
 * would pass the limit (null when they fit, else the usage for the 403).
 */
export async function checkAlertPlanLimit(
  manager: AlertsDb,
  userId: number,
  limits: AlertPlanLimits,
  now: Date,
  adding = 1,
): Promise<AlertPlanUsage | null> {
  await lockUserAlertPlan(manager, userId);
  const plan = await alertPlanOf(manager, userId, limits);
  const limit = limits.get(plan) ?? 0;
  const active = await countActiveAlerts(manager, userId, now);
  return active + adding > limit ? { plan, limit, active } : null;
}

export function alertPlanLimitMessage(usage: AlertPlanUsage): string {
  const alerts = usage.limit === 1 ? 'active alert' : 'active alerts';
  return `Your ${usage.plan} plan allows ${usage.limit} ${alerts}: deactivate or delete one, or upgrade your plan`;
}
