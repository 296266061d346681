// The in-app notification list (product spec sections 3, 4, 5 and 9): at most 50, newest first,
// read one at a time or all at once, clearable, kept in localStorage under its own key. Pure
// functions here; the React side is in notification-provider.tsx.
import { isRecord } from '../api/client';

export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface AppNotification {
  id: string;
  /** Epoch milliseconds. */
  timestamp: number;
  read: boolean;
  title: string;
  message: string;
  type: NotificationType;
  activityType?: string;
  exchangeId?: string;
  symbolId?: string;
  details?: Record<string, unknown>;
}

export const MAX_NOTIFICATIONS = 50;
export const NOTIFICATIONS_STORAGE_KEY = 'tickerbell:notifications';
export const SENT_TRACKING_STORAGE_KEY = 'tickerbell:notifications-sent';

export type NotificationAction =
  | { type: 'add'; notification: AppNotification }
  | { type: 'markRead'; id: string }
  | { type: 'markAllRead' }
  | { type: 'clear' };

function newestFirst(list: readonly AppNotification[]): AppNotification[] {
  return [...list].sort((a, b) => b.timestamp - a.timestamp).slice(0, MAX_NOTIFICATIONS);
}

export function notificationsReducer(state: readonly AppNotification[], action: NotificationAction): AppNotification[] {
  switch (action.type) {
    case 'add': {
      // The same notification can arrive twice (stream reconnect, two tabs): keep one.
      const others = state.filter((item) => item.id !== action.notification.id);
      return newestFirst([action.notification, ...others]);
    }
    case 'markRead':
      return state.map((item) => (item.id === action.id && !item.read ? { ...item, read: true } : item));
    case 'markAllRead':
      return state.map((item) => (item.read ? item : { ...item, read: true }));
    case 'clear':
      return [];
  }
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
