// HTTP shapes of the notification centre (/api/notifications, the /api/stream events, push
// subscriptions). Plain types and constants with no runtime imports: the web client imports this
// file as `@tickerbell/jobs/notifications/shapes`; the server's views come from it.

/** How a notification looks (spec section 3); the same list as the notifications.type column. */
export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** A stored notification as the client reads it (spec section 3), in the API, the stream and push. */
export interface ClientNotification {
  id: string;
  timestamp: string;
  read: boolean;
  title: string;
  message: string;
  type: NotificationType;
  activityType: string | null;
  exchangeId: string | null;
  symbolId: string | null;
  details: Record<string, unknown> | null;
}

/** GET /api/notifications?cursor=: the newest page, newest first, and the next (older) page's cursor. */
export interface NotificationListResponse {
  notifications: ClientNotification[];
  unreadCount: number;
  nextCursor: string | null;
}

/** POST /api/notifications/:id/read */
export interface NotificationReadResponse {
  notification: ClientNotification;
  unreadCount: number;
}

/** POST /api/notifications/read-all */
export interface NotificationsReadAllResponse {
  updated: number;
  unreadCount: number;
}

/** DELETE /api/notifications */
export interface NotificationsClearResponse {
  deleted: number;
}

/** GET /api/push/public-key: the VAPID key the browser subscribes with. */
export interface PushPublicKeyResponse {
  publicKey: string;
}

/** POST /api/push/subscriptions: a browser PushSubscription as JSON (pushManager.subscribe(...).toJSON()). */
export interface PushSubscriptionRequest {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** DELETE /api/push/subscriptions */
export interface PushUnsubscribeRequest {
  endpoint: string;
}

/** GET /api/notifications/channels: which delivery channels this server is set up for (settings says when one is off). */
export interface NotificationChannelsResponse {
  /** SMTP_URL is set: emails are sent (otherwise they are written to the server's outbox folder, not delivered). */
  email: { configured: boolean };
  /** TELEGRAM_BOT_TOKEN is set: Telegram can be linked and messages are sent. */
  telegram: { configured: boolean };
}

/** GET and DELETE /api/notifications/telegram: the signed-in user's Telegram link. */
export interface TelegramStatusResponse {
  /** Whether this server has a Telegram bot; false: nothing else applies. */
  configured: boolean;
  /** The bot's username (without @), to find it in Telegram; null when not configured. */
  botUsername: string | null;
  linked: boolean;
  /** The linked chat's @username (or its sender's), when Telegram gave one. */
  chatUsername: string | null;
  linkedAt: string | null;
}

/** POST /api/notifications/telegram/code: a one-time code to send the bot (shown once). */
export interface TelegramCodeResponse {
  code: string;
  expiresAt: string;
  botUsername: string;
  /** https://t.me/<bot>?start=<code>: opens the bot with the code filled in. */
  link: string;
}
