// Calls to the api's notification centre (/api/notifications, built in the market-hours issue).
// State-changing calls carry the csrf token as the x-csrf-token header, fetched the same way the
// session calls fetch it (getCsrfToken from accounts/auth-client).
import type {
  NotificationChannelsResponse,
  NotificationListResponse,
  TelegramCodeResponse,
  TelegramStatusResponse,
} from '@tickerbell/jobs/notifications/shapes';
import { apiRequest, isRecord } from '../api/client';
import { sendWithCsrf } from '../accounts/auth-client';
import { parseNotification, type AppNotification } from './notification-store';

export const NOTIFICATIONS_PATH = '/api/notifications';

/** GET /api/notifications: the newest 50, newest first, the unread count and the next page's cursor. */
export type ServerNotificationPage = Omit<NotificationListResponse, 'notifications'> & { notifications: AppNotification[] };

export function parseServerNotificationPage(body: unknown): ServerNotificationPage {
  if (!isRecord(body) || !Array.isArray(body.notifications) || typeof body.unreadCount !== 'number') {
    throw new TypeError('notifications: expected { notifications, unreadCount, nextCursor }');
  }
  const nextCursor = typeof body.nextCursor === 'string' ? body.nextCursor : null;
  // Every row here is known to the server: it is marked synced so a later reconcile can tell it apart.
  const notifications = body.notifications.map((row): AppNotification => ({ ...parseNotification(row), synced: true }));
  return { notifications, unreadCount: body.unreadCount, nextCursor };
}

export function fetchServerNotifications(signal?: AbortSignal): Promise<ServerNotificationPage> {
  return apiRequest(NOTIFICATIONS_PATH, { signal, parse: parseServerNotificationPage });
}

async function withCsrf<T>(path: string, method: 'POST' | 'DELETE', parse: (body: unknown) => T, body?: unknown): Promise<T> {
  return sendWithCsrf(path, { method, ...(body === undefined ? {} : { body }), parse });
}

function parseUnreadCount(body: unknown): number {
  if (!isRecord(body) || typeof body.unreadCount !== 'number') throw new TypeError('notifications: expected { unreadCount }');
  return body.unreadCount;
}

/** POST /api/notifications/:id/read: `{ notification, unreadCount }`. */
export function markServerNotificationRead(id: string): Promise<number> {
  return withCsrf(`${NOTIFICATIONS_PATH}/${encodeURIComponent(id)}/read`, 'POST', parseUnreadCount);
}

/** POST /api/notifications/read-all: `{ updated, unreadCount: 0 }`. */
export function markAllServerNotificationsRead(): Promise<number> {
  return withCsrf(`${NOTIFICATIONS_PATH}/read-all`, 'POST', parseUnreadCount);
}

/** DELETE /api/notifications: `{ deleted }`. */
export function clearServerNotifications(): Promise<number> {
  return withCsrf(NOTIFICATIONS_PATH, 'DELETE', (body) => {
    if (!isRecord(body) || typeof body.deleted !== 'number') throw new TypeError('notifications: expected { deleted }');
    return body.deleted;
  });
}

// ---- Web push subscriptions ----

export const PUSH_PUBLIC_KEY_PATH = '/api/push/public-key';
export const PUSH_SUBSCRIPTIONS_PATH = '/api/push/subscriptions';

export function fetchPushPublicKey(): Promise<string> {
  return apiRequest(PUSH_PUBLIC_KEY_PATH, {
    parse: (body) => {
      if (!isRecord(body) || typeof body.publicKey !== 'string' || body.publicKey === '') throw new TypeError('push: expected { publicKey }');
      return body.publicKey;
    },
  });
}

/** POST the browser's PushSubscription JSON; 201 `{ id, endpoint }`. */
export function savePushSubscription(subscription: PushSubscriptionJSON): Promise<void> {
  return withCsrf(PUSH_SUBSCRIPTIONS_PATH, 'POST', () => undefined, subscription);
}

/** DELETE `{ endpoint }`; 204. */
export function deletePushSubscription(endpoint: string): Promise<void> {
  return withCsrf(PUSH_SUBSCRIPTIONS_PATH, 'DELETE', () => undefined, { endpoint });
}

// ---- Delivery channels and Telegram (settings) ----

export const NOTIFICATION_CHANNELS_PATH = '/api/notifications/channels';
export const TELEGRAM_PATH = '/api/notifications/telegram';

function configuredFlag(body: Record<string, unknown>, key: string): boolean {
  const value = body[key];
  if (!isRecord(value) || typeof value.configured !== 'boolean') throw new TypeError(`channels: expected ${key}.configured`);
  return value.configured;
}

export function parseNotificationChannels(body: unknown): NotificationChannelsResponse {
  if (!isRecord(body)) throw new TypeError('channels: expected { email, telegram }');
  return { email: { configured: configuredFlag(body, 'email') }, telegram: { configured: configuredFlag(body, 'telegram') } };
}

/** GET: whether this server really sends email (SMTP) and has a Telegram bot. */
export function fetchNotificationChannels(signal?: AbortSignal): Promise<NotificationChannelsResponse> {
  return apiRequest(NOTIFICATION_CHANNELS_PATH, { signal, parse: parseNotificationChannels });
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function parseTelegramStatus(body: unknown): TelegramStatusResponse {
  if (!isRecord(body) || typeof body.configured !== 'boolean' || typeof body.linked !== 'boolean') {
    throw new TypeError('telegram: expected { configured, linked, ... }');
  }
  return {
    configured: body.configured,
    botUsername: stringOrNull(body.botUsername),
    linked: body.linked,
    chatUsername: stringOrNull(body.chatUsername),
    linkedAt: stringOrNull(body.linkedAt),
  };
}

export function parseTelegramCode(body: unknown): TelegramCodeResponse {
  if (!isRecord(body) || typeof body.code !== 'string' || typeof body.expiresAt !== 'string' || typeof body.botUsername !== 'string' || typeof body.link !== 'string') {
    throw new TypeError('telegram: expected { code, expiresAt, botUsername, link }');
  }
  return { code: body.code, expiresAt: body.expiresAt, botUsername: body.botUsername, link: body.link };
}

/** GET: configured?, the bot, and the user's linked chat. */
export function fetchTelegramStatus(signal?: AbortSignal): Promise<TelegramStatusResponse> {
  return apiRequest(TELEGRAM_PATH, { signal, parse: parseTelegramStatus });
}

/** POST: a new one-time code (earlier ones stop working). */
export function createTelegramCode(): Promise<TelegramCodeResponse> {
  return withCsrf(`${TELEGRAM_PATH}/code`, 'POST', parseTelegramCode);
}

/** DELETE: unlinks the chat; answers the new state. */
export function unlinkTelegram(): Promise<TelegramStatusResponse> {
  return withCsrf(TELEGRAM_PATH, 'DELETE', parseTelegramStatus);
}
