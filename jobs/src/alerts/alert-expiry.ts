import { queuesRedis } from '../notifications/queues-redis';
import type { JobContext } from '../runtime/job-handler';
import { publishAlertChanges } from './alert-changes';

/**
 * alerts.expire: deactivates every active alert whose expiry has come (the instant itself
 * included) in one statement, then tells every worker's index to drop them. Idempotent: a second
 * run finds nothing. The evaluator also refuses expired alerts, so a late sweep never lets one fire.
 */
export async function expireAlerts(context: JobContext): Promise<{ expired: number[] }> {
  const rows: { id: number }[] = await context.dataSource.query(
    `WITH expired AS (
       UPDATE alerts SET is_active = false, updated_at = $1 WHERE is_active AND expires_at <= $1 RETURNING id
     ) SELECT id FROM expired ORDER BY id`,
    [context.clock.now()],
  );
  const expired = rows.map((r) => r.id);
  if (expired.length) await publishAlertChanges(await queuesRedis(context.queues, 'alerts'), context.queues.prefix, expired);
  return { expired };
}
