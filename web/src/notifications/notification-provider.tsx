import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { messageOf } from '../accounts/auth-client';
import { SessionContext } from '../accounts/session-provider';
import {
  clearServerNotifications,
  fetchServerNotifications,
  markAllServerNotificationsRead,
  markServerNotificationRead,
} from './notifications-client';
import type { NotificationType } from '@tickerbell/jobs/notifications/shapes';
import { playNotificationSound, speakAlert } from './notification-sound';
import {
  loadStoredNotifications,
  notificationsReducer,
  saveNotifications,
  unreadCount,
  type AppNotification,
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
  /** The alert's voice (a SpeechSynthesisVoice voiceURI or name). */
  audioVoiceId?: string;
  /** The alert firing (alert_logs id): spoken once, across the stream and the alerts check. */
  alertLogId?: string;
  /** It comes from the server (the live stream): its id is the server's. */
  synced?: boolean;
}

export interface NotificationCentre {
  notifications: readonly AppNotification[];
  unread: number;
  /** Adds a notification with its toast, sound and (when asked for) spoken message. */
  notify: (notification: NewNotification) => AppNotification;
  /** Optimistic; for a signed-in visitor also sent to the api, rolled back with a toast on failure. */
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

function reportFailure(title: string, error: unknown): void {
  console.error(title, error);
  void showNotificationToast(title, messageOf(error), 'error');
}

/** Alert firings go through the alerts' once-only speaker, loaded on demand (not in the public bundle). */
function speak(text: string, input: NewNotification): void {
  const { alertLogId, audioVoiceId = null } = input;
  if (alertLogId === undefined) {
    speakAlert(text, true, audioVoiceId);
    return;
  }
  import('../alerts/alert-speech')
    .then(({ speakAlertFiring }) => speakAlertFiring({ logId: alertLogId, text, voiceId: audioVoiceId }))
    .catch((error: unknown) => console.error('Spoken alert failed', error));
}

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [notifications, dispatch] = useReducer(notificationsReducer, undefined, () => {
    const store = storage();
    return store ? loadStoredNotifications(store) : [];
  });
  const listRef = useRef(notifications);
  listRef.current = notifications;
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;
  // Read directly (not useSession): the centre also works outside a SessionProvider, locally.
  const session = useContext(SessionContext);
  const signedIn = session?.status === 'authenticated';
  const userId = signedIn ? (session.session?.user.id ?? '') : null;
  const signedInRef = useRef(signedIn);
  signedInRef.current = signedIn;

  useEffect(() => {
    const store = storage();
    if (store) saveNotifications(store, notifications);
  }, [notifications]);

  // On sign-in and app start: reconcile the local list with the server's newest page.
  useEffect(() => {
    if (userId === null) return;
    const controller = new AbortController();
    fetchServerNotifications(controller.signal)
      .then((page) => dispatch({ type: 'reconcile', server: page.notifications, complete: page.nextCursor === null }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Could not load notifications from the server', error);
      });
    return () => controller.abort();
  }, [userId]);

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
      ...(input.synced && input.id ? { synced: true as const } : {}),
    };
    // Already in the list (stream replay after a reconnect, fetched meanwhile): merged silently.
    const known = listRef.current.some((item) => item.id === notification.id);
    dispatch({ type: 'add', notification });
    if (known) return notification;
    if (!toastsSuppressedOn(pathRef.current)) void showNotificationToast(notification.title, notification.message, notification.type);
    playNotificationSound(notification.type);
    if (input.useAudio) speak(input.audioMessage ?? `${notification.title}. ${notification.message}`, input);
    return notification;
  }, []);

  const markRead = useCallback((id: string) => {
    const item = listRef.current.find((entry) => entry.id === id);
    dispatch({ type: 'markRead', id });
    // Client-made notifications exist only here; already-read ones need no call.
    if (!signedInRef.current || !item || item.read || !item.synced) return;
    markServerNotificationRead(id).catch((error: unknown) => {
      dispatch({ type: 'markUnread', ids: [id] });
      reportFailure('Could not mark the notification read', error);
    });
  }, []);

  const markAllRead = useCallback(() => {
    const unreadIds = listRef.current.filter((item) => !item.read).map((item) => item.id);
    dispatch({ type: 'markAllRead' });
    if (!signedInRef.current) return;
    markAllServerNotificationsRead().catch((error: unknown) => {
      dispatch({ type: 'markUnread', ids: unreadIds });
      reportFailure('Could not mark all notifications read', error);
    });
  }, []);

  const clear = useCallback(() => {
    const previous = listRef.current;
    dispatch({ type: 'clear' });
    if (!signedInRef.current) return;
    clearServerNotifications().catch((error: unknown) => {
      dispatch({ type: 'restore', notifications: previous });
      reportFailure('Could not clear notifications', error);
    });
  }, []);

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
