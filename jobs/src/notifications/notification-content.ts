import { z } from 'zod';
import { NOTIFICATION_TYPES, type NotificationType } from '@tickerbell/entities';
import type { ClientNotification, NotificationType as ShapeNotificationType } from './notifications.shapes';

/** Importance in details (spec section 7): high for warning and error notifications, medium otherwise. */
export function importanceOf(type: NotificationType): 'high' | 'medium' {
  return type === 'warning' || type === 'error' ? 'high' : 'medium';
}

/** What a producer hands to `notifications.deliver`: one notification, the same for every recipient. */
export const notificationContentSchema = z
  .object({
    title: z.string().min(1).max(200),
    message: z.string().min(1).max(2000),
    type: z.enum(NOTIFICATION_TYPES),
    activityType: z.string().max(40).nullable(),
    exchangeId: z.string().max(10).nullable(),
    symbolId: z.string().max(30).nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    /** Unique per user: a redelivered batch inserts nothing twice. Null: no dedupe. */
    dedupeKey: z.string().max(200).nullable(),
  })
  .strict();
export type NotificationContent = z.infer<typeof notificationContentSchema>;

/** How the push copy of the notification is sent (RFC 8030 headers). */
export const pushOptionsSchema = z
  .object({
    /** Seconds the push service keeps an undelivered message. */
    ttlSeconds: z.number().int().min(0).max(28 * 24 * 3600),
    /** high for alerts, normal for market events. */
    urgency: z.enum(['very-low', 'low', 'normal', 'high']),
    /** A newer undelivered message with the same topic replaces the older one (base64url, <= 32 chars). */
    topic: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/).nullable(),
    /** Page the notification opens. */
    url: z.string().max(300),
  })
  .strict();
export type PushOptions = z.infer<typeof pushOptionsSchema>;

/** A stored notification as the client reads it: its HTTP shape (notifications.shapes.ts). */
export type { ClientNotification };

// The notifications.type column and the HTTP shape list the same types: a change to one without
// the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const columnMatchesShape: Same<NotificationType, ShapeNotificationType> = true;
void columnMatchesShape;

/** A notifications row as read with raw SQL (snake_case). */
export interface NotificationRow {
  id: string;
  user_id: number;
  title: string;
  message: string;
  type: NotificationType;
  activity_type: string | null;
  exchange_id: string | null;
  symbol_id: string | null;
  details: Record<string, unknown> | null;
  read_at: Date | null;
  created_at: Date;
}

export function toClientNotification(row: NotificationRow): ClientNotification {
  return {
    id: String(row.id),
    timestamp: new Date(row.created_at).toISOString(),
    read: row.read_at !== null,
    title: row.title,
    message: row.message,
    type: row.type,
    activityType: row.activity_type,
    exchangeId: row.exchange_id,
    symbolId: row.symbol_id,
    details: row.details,
  };
}
