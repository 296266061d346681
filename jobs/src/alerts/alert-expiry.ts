import type { JobContext } from '../runtime/job-handler';
import { publishAlertChanges } from './alert-changes';
import { deactivateExpiredAlerts } from './alert-firings.store';

/**
 * alerts.expire: deactivates every active alert whose expiry has come (the instant itself
 * included) in one statement, then tells every worker's index to drop them. Idempotent: a second
 * run finds nothing. The evaluator also refuses expired alerts, so a late sweep never lets one fire.
 */
export async function expireAlerts(context: JobContext): Promise<{ expired: number[] }> {
  const expired = await deactivateExpiredAlerts(context.dataSource, context.clock.now());
  if (expired.length) await publishAlertChanges(context.redis, context.queues.prefix, expired);
  return { expired };
}
