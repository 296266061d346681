import type { JobPayload } from '../registry';
import type { JobContext } from '../runtime/job-handler';
import { notify, type NotifyResult } from './notify';

export type DeliveryResult = NotifyResult;

/**
 * notifications.deliver: one notification per user of the batch, through notify(). The insert
 * skips users who already have the dedupe key, so a retried or duplicated job writes nothing twice.
 * Rows written by this attempt are published to the live streams and get their pushes and emails
 * (emails only for users with email notifications on), and Telegram messages when the batch asks
 * (users with a linked chat); a retry (attemptsMade > 0) takes the
 * batch's existing rows too and queues them again under the same job ids, so work lost by a
 * crashed attempt is redone and BullMQ drops what is still queued.
 */
export async function deliverNotifications(payload: JobPayload<'notifications.deliver'>, context: JobContext): Promise<DeliveryResult> {
  const { dedupeKey, ...content } = payload.notification;
  const retrying = (context.job?.attemptsMade ?? 0) > 0;
  return notify(
    context,
    [
      {
        recipients: [...payload.userIds].sort((a, b) => a - b),
        content,
        dedupeKey,
        channels: { push: payload.push, email: payload.email ? { to: 'opted-in' } : null, telegram: payload.telegram ? {} : null },
      },
    ],
    { now: context.clock.now(), existing: retrying ? 'include' : 'skip' },
  );
}
