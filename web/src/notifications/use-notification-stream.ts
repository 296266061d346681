// Live notifications from the api's server-sent event stream (/api/stream, built in the
// market-hours issue). Each `notification` event carries one notification as JSON; `price` events
// (watchlist symbols) go to the live price bus and `whale` events (large Ethereum transfers) to the
// live whales bus.
import { useEffect } from 'react';
import { isRecord } from '../api/client';
import { parseStreamPrice, publishLivePrice } from '../prices/live-prices';
import { parseStreamWhale, publishLiveWhale } from '../whales/whales-live';
import { parseStreamChat, publishChatEvent, publishStreamOpen } from '../chat/chat-stream';
import { NOTIFICATION_TYPES, type NotificationType } from '@tickerbell/jobs/notifications/shapes';
import { useNotifications, type NewNotification } from './notification-provider';

export const NOTIFICATION_STREAM_URL = '/api/stream';

/** The part of EventSource the hook uses, so tests can hand in a fake. */
export interface NotificationEventSource {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  removeEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export type EventSourceFactory = (url: string) => NotificationEventSource;

const browserEventSource: EventSourceFactory = (url) => new EventSource(url, { withCredentials: true });

/** Alert notifications carry their spoken message in `details` (older senders put it on top). */
function audioOf(value: Record<string, unknown>): Pick<NewNotification, 'useAudio' | 'audioMessage' | 'audioVoiceId' | 'alertLogId'> {
  const details = isRecord(value.details) ? value.details : {};
  const audioMessage = details.audioMessage ?? value.audioMessage;
  const audioVoiceId = details.audioVoiceId ?? value.audioVoiceId;
  const alertLogId = details.alertLogId;
  return {
    ...(details.useAudio === true || value.useAudio === true ? { useAudio: true } : {}),
    ...(typeof audioMessage === 'string' && audioMessage !== '' ? { audioMessage } : {}),
    ...(typeof audioVoiceId === 'string' && audioVoiceId !== '' ? { audioVoiceId } : {}),
    ...(typeof alertLogId === 'string' || typeof alertLogId === 'number' ? { alertLogId: String(alertLogId) } : {}),
  };
}

/** Reads one `notification` event's data; null (and a console error) when it does not fit. */
export function parseStreamNotification(data: string): NewNotification | null {
  try {
    const value: unknown = JSON.parse(data);
    if (!isRecord(value)) throw new TypeError('expected an object');
    const { id, title, message, type, timestamp } = value;
    if (typeof title !== 'string' || typeof message !== 'string') throw new TypeError('title and message must be text');
    const parsedTime = typeof timestamp === 'string' ? Date.parse(timestamp) : timestamp;
    return {
      // An id means the server wrote it: merged by id with the fetched list, never twice.
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id), synced: true } : {}),
      ...(typeof parsedTime === 'number' && Number.isFinite(parsedTime) ? { timestamp: parsedTime } : {}),
      title,
      message,
      type: NOTIFICATION_TYPES.includes(type as NotificationType) ? (type as NotificationType) : 'info',
      ...(typeof value.activityType === 'string' ? { activityType: value.activityType } : {}),
      ...(typeof value.exchangeId === 'string' ? { exchangeId: value.exchangeId } : {}),
      ...(typeof value.symbolId === 'string' ? { symbolId: value.symbolId } : {}),
      ...(isRecord(value.details) ? { details: value.details } : {}),
      ...audioOf(value),
    };
  } catch (error) {
    console.error('Ignoring a stream notification that does not parse', error);
    return null;
  }
}

/** Subscribes to the live stream while `enabled`; every notification goes to the centre. */
export function useNotificationStream(
  enabled: boolean,
  createEventSource: EventSourceFactory = browserEventSource,
  url: string = NOTIFICATION_STREAM_URL,
): void {
  const { notify } = useNotifications();
  useEffect(() => {
    if (!enabled || (createEventSource === browserEventSource && typeof EventSource !== 'function')) return;
    const source = createEventSource(url);
    const onNotification = (event: MessageEvent): void => {
      const data: unknown = event.data;
      if (typeof data !== 'string') return;
      const notification = parseStreamNotification(data);
      if (notification) notify(notification);
    };
    // Price updates ride the same connection: handed to pages that subscribe (prices/live-prices).
    const onPrice = (event: MessageEvent): void => {
      const price = typeof event.data === 'string' ? parseStreamPrice(event.data) : null;
      if (price) publishLivePrice(price);
    };
    // Whale transfers too: the whales feed subscribes (whales/whales-live).
    const onWhale = (event: MessageEvent): void => {
      const transfer = typeof event.data === 'string' ? parseStreamWhale(event.data) : null;
      if (transfer) publishLiveWhale(transfer);
    };
    // Chat events too, and each (re)connection so an open room fills what it missed (chat/chat-stream).
    const onChat = (event: MessageEvent): void => {
      const chat = typeof event.data === 'string' ? parseStreamChat(event.data) : null;
      if (chat) publishChatEvent(chat);
    };
    const onOpen = (): void => publishStreamOpen();
    source.addEventListener('notification', onNotification);
    source.addEventListener('price', onPrice);
    source.addEventListener('whale', onWhale);
    source.addEventListener('chat', onChat);
    source.addEventListener('open', onOpen);
    return () => {
      source.removeEventListener('notification', onNotification);
      source.removeEventListener('price', onPrice);
      source.removeEventListener('whale', onWhale);
      source.removeEventListener('chat', onChat);
      source.removeEventListener('open', onOpen);
      source.close();
    };
  }, [enabled, createEventSource, url, notify]);
}
