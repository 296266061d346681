// The in-app notification list (product spec sections 3, 4, 5 and 9): at most 50, newest first,
// read one at a time or all at once, clearable, kept in localStorage under its own key. Pure
// functions here; the React side is in notification-provider.tsx.
import { NOTIFICATION_TYPES, type ClientNotification, type NotificationType } from '@tickerbell/jobs/notifications/shapes';
import { isRecord } from '../api/client';

type OptionalFields<T> = { [K in keyof T]?: Exclude<T[K], null> };

/**
 * A notification as the centre keeps it: the api's ClientNotification with the time in epoch
 * milliseconds and the empty optional fields left out, or one the client made itself.
 */
export type AppNotification = Pick<ClientNotification, 'id' | 'read' | 'title' | 'message' | 'type'> &
  OptionalFields<Pick<ClientNotification, 'activityType' | 'exchangeId' | 'symbolId' | 'details'>> & {
    /** Epoch milliseconds. */
    timestamp: number;
    /** Known to the server (from GET /api/notifications or the live stream); absent for client-made ones. */
    synced?: true;
  };

export const MAX_NOTIFICATIONS = 50;
export const NOTIFICATIONS_STORAGE_KEY = 'tickerbell:notifications';
export const SENT_TRACKING_STORAGE_KEY = 'tickerbell:notifications-sent';

export type NotificationAction =
  | { type: 'add'; notification: AppNotification }
  | { type: 'markRead'; id: string }
  | { type: 'markAllRead' }
  | { type: 'clear' }
  /** The server's newest page: `complete` when it holds every server notification (no next cursor). */
  | { type: 'reconcile'; server: readonly AppNotification[]; complete: boolean }
  /** Rollback of a failed mark-read / mark-all-read: these ids are unread again. */
  | { type: 'markUnread'; ids: readonly string[] }
  /** Rollback of a failed clear: the previous items come back beside whatever arrived since. */
  | { type: 'restore'; notifications: readonly AppNotification[] };

function newestFirst(list: readonly AppNotification[]): AppNotification[] {
  return [...list].sort((a, b) => b.timestamp - a.timestamp).slice(0, MAX_NOTIFICATIONS);
}

export function notificationsReducer(state: readonly AppNotification[], action: NotificationAction): AppNotification[] {
  switch (action.type) {
    case 'add': {
      // The same notification can arrive twice (stream reconnect, two tabs): keep one, and keep
      // it read when it already was.
      const existing = state.find((item) => item.id === action.notification.id);
      const others = state.filter((item) => item.id !== action.notification.id);
      const incoming = existing?.read ? { ...action.notification, read: true } : action.notification;
      return newestFirst([incoming, ...others]);
    }
    case 'reconcile':
      return reconcileNotifications(state, action.server, action.complete);
    case 'markUnread': {
      const ids = new Set(action.ids);
      return state.map((item) => (ids.has(item.id) && item.read ? { ...item, read: false } : item));
    }
    case 'restore': {
      const current = new Set(state.map((item) => item.id));
      return newestFirst([...state, ...action.notifications.filter((item) => !current.has(item.id))]);
    }
    case 'markRead':
      return state.map((item) => (item.id === action.id && !item.read ? { ...item, read: true } : item));
    case 'markAllRead':
      return state.map((item) => (item.read ? item : { ...item, read: true }));
    case 'clear':
      return [];
  }
}

function serverIdOf(id: string): bigint | null {
  return /^\d{1,18}$/.test(id) ? BigInt(id) : null;
}

/**
 * Merges the server's newest page into the local list. Server rows win (read state included);
 * local items the server never knew (client-made) stay. A local item that came from the server
 * but is missing from its answer was cleared elsewhere, so it goes, when the answer covers it: the
 * page is complete, or the item is newer than the page's oldest row. The newest 50 are kept.
 */
export function reconcileNotifications(
  local: readonly AppNotification[],
  server: readonly AppNotification[],
  complete: boolean,
): AppNotification[] {
  const serverIds = new Set(server.map((item) => item.id));
  let oldest: bigint | null = null;
  for (const item of server) {
    const id = serverIdOf(item.id);
    if (id !== null && (oldest === null || id < oldest)) oldest = id;
  }
  const kept = local.filter((item) => {
    if (serverIds.has(item.id)) return false;
    if (!item.synced) return true;
    if (complete) return false;
    const id = serverIdOf(item.id);
    return oldest === null || id === null || id < oldest;
  });
  return newestFirst([...server, ...kept]);
}

export function unreadCount(list: readonly AppNotification[]): number {
  return list.filter((item) => !item.read).length;
}

function optionalId(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function timestampOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

/** One notification from storage or the live stream; throws when it does not fit the shape. */
export function parseNotification(value: unknown): AppNotification {
  if (!isRecord(value)) throw new TypeError('notification: expected an object');
  const id = optionalId(value.id);
  const timestamp = timestampOf(value.timestamp);
  const { title, message, type } = value;
  if (!id) throw new TypeError('notification: missing id');
  if (timestamp === undefined) throw new TypeError(`notification ${id}: missing timestamp`);
  if (typeof title !== 'string' || typeof message !== 'string') {
    throw new TypeError(`notification ${id}: title and message must be text`);
  }
  if (!NOTIFICATION_TYPES.includes(type as NotificationType)) {
    throw new TypeError(`notification ${id}: unknown type ${String(type)}`);
  }
  const exchangeId = optionalId(value.exchangeId);
  const symbolId = optionalId(value.symbolId);
  return {
    id,
    timestamp,
    read: value.read === true,
    title,
    message,
    type: type as NotificationType,
    ...(typeof value.activityType === 'string' ? { activityType: value.activityType } : {}),
    ...(exchangeId ? { exchangeId } : {}),
    ...(symbolId ? { symbolId } : {}),
    ...(isRecord(value.details) ? { details: value.details } : {}),
    ...(value.synced === true ? { synced: true as const } : {}),
  };
}

/** Reads the stored list; anything that fails to parse is ignored with a console error. */
export function loadStoredNotifications(storage: Pick<Storage, 'getItem'>): AppNotification[] {
  let raw: string | null;
  try {
    raw = storage.getItem(NOTIFICATIONS_STORAGE_KEY);
  } catch {
    return [];
  }
  if (raw === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    console.error('Stored notifications are not valid JSON; ignoring them', error);
    return [];
  }
  if (!Array.isArray(parsed)) {
    console.error('Stored notifications are not a list; ignoring them');
    return [];
  }
  const list: AppNotification[] = [];
  for (const entry of parsed) {
    try {
      list.push(parseNotification(entry));
    } catch (error) {
      console.error('Ignoring a stored notification that does not parse', error);
    }
  }
  return newestFirst(list);
}

export function saveNotifications(storage: Pick<Storage, 'setItem'>, list: readonly AppNotification[]): void {
  try {
    storage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify(list));
  } catch (error) {
    console.error('Could not save notifications', error);
  }
}

// ---- Sent tracking: "this notification already fired today" (market events, crypto alerts) ----

export type SentTracking = Record<string, string>;

export function loadSentTracking(storage: Pick<Storage, 'getItem'>): SentTracking {
  try {
    const raw = storage.getItem(SENT_TRACKING_STORAGE_KEY);
    if (raw === null) return {};
    const parsed: unknown = JSON.parse(raw);
    if (!isRecord(parsed)) throw new TypeError('sent tracking: expected an object');
    const tracking: SentTracking = {};
    for (const [key, day] of Object.entries(parsed)) if (typeof day === 'string') tracking[key] = day;
    return tracking;
  } catch (error) {
    console.error('Stored notification tracking does not parse; ignoring it', error);
    return {};
  }
}

/** True the first time `key` is seen on `day` (YYYY-MM-DD); records it so later calls say false. */
export function markSentOnce(storage: Pick<Storage, 'getItem' | 'setItem'>, key: string, day: string): boolean {
  const tracking = loadSentTracking(storage);
  if (tracking[key] === day) return false;
  tracking[key] = day;
  try {
    storage.setItem(SENT_TRACKING_STORAGE_KEY, JSON.stringify(tracking));
  } catch (error) {
    console.error('Could not save notification tracking', error);
  }
  return true;
}
