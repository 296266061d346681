import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { playNotificationSound, speakAlert } from './notification-sound';
import {
  loadStoredNotifications,
  notificationsReducer,
  saveNotifications,
  unreadCount,
  type AppNotification,
  type NotificationType,
} from './notification-store';
import { showNotificationToast, toastsSuppressedOn } from './toasts';

export interface NewNotification {
  id?: string;
  timestamp?: number;
  title: string;
  message: string;
  type: NotificationType;
  activityType?: string;
  exchangeId?: string;
  symbolId?: string;
  details?: Record<string, unknown>;
  /** Also speak the message (crypto alerts with spoken messages). */
  useAudio?: boolean;
  /** What to speak instead of the message. */
  audioMessage?: string;
}

export interface NotificationCentre {
  notifications: readonly AppNotification[];
  unread: number;
  /** Adds a notification with its toast, sound and (when asked for) spoken message. */
  notify: (notification: NewNotification) => AppNotification;
  markRead: (id: string) => void;
  markAllRead: () => void;
  clear: () => void;
}

const NotificationContext = createContext<NotificationCentre | null>(null);

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

let sequence = 0;
function newId(now: number): string {
  sequence += 1;
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${now.toString(36)}-${sequence}`;
}

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [notifications, dispatch] = useReducer(notificationsReducer, undefined, () => {
    const store = storage();
    return store ? loadStoredNotifications(store) : [];
  });
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;

  useEffect(() => {
    const store = storage();
    if (store) saveNotifications(store, notifications);
  }, [notifications]);

  const notify = useCallback((input: NewNotification): AppNotification => {
    const timestamp = input.timestamp ?? Date.now();
    const notification: AppNotification = {
      id: input.id ?? newId(timestamp),
      timestamp,
      read: false,
      title: input.title,
      message: input.message,
      type: input.type,
      ...(input.activityType ? { activityType: input.activityType } : {}),
      ...(input.exchangeId ? { exchangeId: input.exchangeId } : {}),
      ...(input.symbolId ? { symbolId: input.symbolId } : {}),
      ...(input.details ? { details: input.details } : {}),
    };
    dispatch({ type: 'add', notification });
    if (!toastsSuppressedOn(pathRef.current)) void showNotificationToast(notification.title, notification.message, notification.type);
    playNotificationSound(notification.type);
    if (input.useAudio) speakAlert(input.audioMessage ?? `${notification.title}. ${notification.message}`, true);
    return notification;
  }, []);

  const markRead = useCallback((id: string) => dispatch({ type: 'markRead', id }), []);
  const markAllRead = useCallback(() => dispatch({ type: 'markAllRead' }), []);
  const clear = useCallback(() => dispatch({ type: 'clear' }), []);

  const value = useMemo<NotificationCentre>(
    () => ({ notifications, unread: unreadCount(notifications), notify, markRead, markAllRead, clear }),
    [notifications, notify, markRead, markAllRead, clear],
  );
  return <NotificationContext.Provider value={value}>{children}</NotificationContext.Provider>;
}

export function useNotifications(): NotificationCentre {
  const centre = useContext(NotificationContext);
  if (!centre) throw new Error('useNotifications must be used inside a NotificationProvider');
  return centre;
}
