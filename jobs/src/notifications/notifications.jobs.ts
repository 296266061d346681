import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';
import { deliveryReceiptSchema } from './delivery-receipts';
import { notificationContentSchema, pushOptionsSchema } from './notification-content';

/** A batch of recipients of one delivery job (the fan-out splits bigger audiences). */
export const MAX_DELIVERY_BATCH = 5000;
/** Push targets of one notifications.push job. */
export const MAX_PUSH_TARGETS = 1000;
/** Tries of one push to one subscription before it is given up (first send included). */
export const MAX_PUSH_ATTEMPTS = 5;
/** How often the bot's updates are read (linking codes sent to it). */
export const TELEGRAM_UPDATES_EVERY_MS = 3000;
/** Times one Telegram message may be put back by flood control (429) before that counts as a failed attempt. */
export const MAX_TELEGRAM_RATE_LIMIT_DELAYS = 20;

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
  /** The Telegram copy of a notification (a notification row has one recipient). */
  telegram: (notificationId: string) => jobId('notifications.telegram', notificationId),
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
        /** Whether users who linked a Telegram chat also get a Telegram copy (absent: no). */
        telegram: z.boolean().optional(),
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
  'notifications.telegram': defineJob({
    queue: 'notifications',
    description:
      "Sends one notification's Telegram copy to its user's linked chat (sendMessage, plain text). 429 puts the job back " +
      'after retry_after without using an attempt; 403 (bot blocked) unlinks the chat; a delivery receipt, when given, is set after the send',
    payload: z
      .object({
        notificationId: z.string().regex(/^\d{1,18}$/),
        /** The message; default the notification's title, message and link. */
        text: z.string().min(1).max(4096).optional(),
        /** The producer's "sent" flag to set once the message is out (delivery-receipts.ts). */
        receipt: deliveryReceiptSchema.optional(),
        /** Times flood control (429) has put this job back so far. */
        rateLimitDelays: z.number().int().min(0).max(1000).default(0),
      })
      .strict(),
    options: { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
  }),
  'notifications.telegram-updates': defineJob({
    queue: 'notifications',
    description:
      'Reads the bot\'s new messages (getUpdates from the offset kept in Redis, one reader at a time) and links the chat of each valid ' +
      'one-time code (`/start <code>`), answering in the chat; a no-op while TELEGRAM_BOT_TOKEN is unset',
    payload: z.object({}).strict(),
    // The next tick reads the same updates again (the offset moves only past handled ones).
    options: { attempts: 1, removeOnComplete: { age: 600, count: 50 }, removeOnFail: { age: 24 * 3600, count: 200 } },
  }),
};
