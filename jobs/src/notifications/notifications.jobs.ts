import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';
import { notificationContentSchema, pushOptionsSchema } from './notification-content';

/** A batch of recipients of one delivery job (the fan-out splits bigger audiences). */
export const MAX_DELIVERY_BATCH = 5000;
/** Push targets of one notifications.push job. */
export const MAX_PUSH_TARGETS = 1000;
/** Tries of one push to one subscription before it is given up (first send included). */
export const MAX_PUSH_ATTEMPTS = 5;

export const pushTargetSchema = z
  .object({ notificationId: z.string().regex(/^\d+$/), subscriptionId: z.number().int().positive() })
  .strict();

export type PushJobTarget = z.infer<typeof pushTargetSchema>;

/**
 * The notifications domain's job ids, each following from its natural key (same work, same id,
 * so BullMQ adds it once while it holds the earlier one).
 */
export const notificationsJobIds = {
  /** A delivery batch of a fan-out: the notification's dedupe key and the batch's first user. */
  deliver: (dedupeKey: string, firstUserId: number) => jobId('notifications.deliver', dedupeKey, firstUserId),
  /** A push batch: its first and last targets (notification, subscription), in their sorted order. */
  push: (targets: readonly PushJobTarget[]) => {
    const first = targets[0];
    const last = targets[targets.length - 1];
    return jobId('notifications.push', first.notificationId, first.subscriptionId, last.notificationId, last.subscriptionId);
  },
  /** The retry of one push target. */
  pushRetry: (target: PushJobTarget, attempt: number) => jobId('notifications.push', 'retry', target.notificationId, target.subscriptionId, attempt),
  /** The email copy of a notification. */
  mail: (notificationId: string) => jobId('mail.send', 'notification', notificationId),
};

export const notificationsJobs = {
  'notifications.deliver': defineJob({
    queue: 'notifications',
    description:
      'Writes one notification for each user of a batch (idempotent on the dedupe key), publishes the new ones ' +
      'to the live streams, and queues their web pushes and (for users with emailNotifications on) emails',
    payload: z
      .object({
        notification: notificationContentSchema,
        push: pushOptionsSchema,
        /** Whether users with emailNotifications on also get an email copy. */
        email: z.boolean(),
        userIds: z.array(z.number().int().positive()).min(1).max(MAX_DELIVERY_BATCH),
      })
      .strict(),
  }),
  'notifications.push': defineJob({
    queue: 'notifications',
    description:
      'Sends stored notifications to browsers by Web Push (VAPID, aes128gcm). 404/410 delete the subscription; ' +
      '429/5xx/timeouts are re-queued per subscription with backoff honouring Retry-After',
    payload: z
      .object({
        targets: z.array(pushTargetSchema).min(1).max(MAX_PUSH_TARGETS),
        push: pushOptionsSchema,
        attempt: z.number().int().min(1).max(MAX_PUSH_ATTEMPTS).default(1),
      })
      .strict(),
    // A push job retries its own failed targets as new delayed jobs; a thrown error (database,
    // Redis) retries the job, which may resend to some browsers: the topic coalesces those.
    options: { attempts: 3, backoff: { type: 'exponential', delay: 2000 } },
  }),
};
