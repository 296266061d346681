import type Redis from 'ioredis';
import { z } from 'zod';
import { NOTIFICATION_TYPES } from '@tickerbell/entities';
import type { ClientNotification } from './notification-content';

/**
 * Live delivery to open streams: workers publish every new notification on one Redis pub/sub
 * channel per deployment (`<QUEUE_PREFIX>:notifications`); each api instance subscribes once and
 * relays to the streams of the notification's user.
 */
export function notificationChannel(prefix: string): string {
  return `${prefix}:notifications`;
}

export const notificationMessageSchema = z.object({
  userId: z.number().int().positive(),
  notification: z.object({
    id: z.string().regex(/^\d+$/),
    timestamp: z.string(),
    read: z.boolean(),
    title: z.string(),
    message: z.string(),
    type: z.enum(NOTIFICATION_TYPES),
    activityType: z.string().nullable(),
    exchangeId: z.string().nullable(),
    symbolId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  }),
});
export type NotificationMessage = z.infer<typeof notificationMessageSchema>;

/** Publishes notifications in one round trip. Returns how many were published. */
export async function publishNotifications(
  redis: Redis,
  prefix: string,
  items: { userId: number; notification: ClientNotification }[],
): Promise<number> {
  if (!items.length) return 0;
  const channel = notificationChannel(prefix);
  const pipeline = redis.pipeline();
  for (const item of items) pipeline.publish(channel, JSON.stringify(item));
  const results = await pipeline.exec();
  const failed = results?.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
  return items.length;
}
