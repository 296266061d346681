import type { DataSource } from 'typeorm';
import type { JobQueues } from '../runtime/job-queues';
import type { NotificationContent, PushOptions } from './notification-content';
import { MAX_DELIVERY_BATCH, notificationsJobIds } from './notifications.jobs';
import { audiencePage, type Audience } from './notifications.store';

/** Followers per notifications.deliver job unless a producer says otherwise. */
export const DEFAULT_FAN_OUT_BATCH_SIZE = 1000;

export interface FanOut {
  /** Who: the followers query of the producing domain (its store builds it, e.g. with followersOf). */
  audience: Audience;
  /** What every follower gets; the dedupe key is required: it makes every batch idempotent. */
  notification: NotificationContent & { dedupeKey: string };
  push: PushOptions;
  /** Whether followers with email notifications on also get an email copy. */
  email: boolean;
  /** Whether followers who linked a Telegram chat also get a Telegram copy (default no). */
  telegram?: boolean;
  batchSize?: number;
}

export interface FanOutResult {
  batches: number;
  users: number;
}

/**
 * THE fan-out of one notification to a domain's followers: keyset pages of the audience (by user
 * id), one notifications.deliver job per page. A page's job id is the dedupe key and the page's
 * first user, so a retried or repeated fan-out re-adds the same jobs (BullMQ ignores an id it still
 * holds, and the delivery is idempotent on the dedupe key when it does not).
 */
export async function fanOutToFollowers(deps: { dataSource: DataSource; queues: JobQueues }, fanOut: FanOut): Promise<FanOutResult> {
  const batchSize = fanOut.batchSize ?? DEFAULT_FAN_OUT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_DELIVERY_BATCH) {
    throw new RangeError(`batch size must be 1..${MAX_DELIVERY_BATCH}, got ${batchSize}`);
  }
  const { notification, push, email } = fanOut;
  const telegram = fanOut.telegram ? { telegram: true } : {};
  let afterUserId = 0;
  let batches = 0;
  let users = 0;
  for (;;) {
    const userIds = await audiencePage(deps.dataSource, fanOut.audience, afterUserId, batchSize);
    if (!userIds.length) break;
    await deps.queues.add(
      'notifications.deliver',
      { notification, push, email, ...telegram, userIds },
      { jobId: notificationsJobIds.deliver(notification.dedupeKey, userIds[0]) },
    );
    batches++;
    users += userIds.length;
    afterUserId = userIds[userIds.length - 1];
    if (userIds.length < batchSize) break;
  }
  return { batches, users };
}
