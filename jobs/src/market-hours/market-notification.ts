import { DateTime } from 'luxon';
import type { NotificationType } from '@tickerbell/entities';
import { importanceOf, type NotificationContent, type PushOptions } from '../notifications/notification-content';
import { MARKET_ACTIVITY_TYPES, type MarketEventKind } from './market-hours';

/** A due market event as the fan-out job carries it. */
export interface MarketEventNotice {
  key: string;
  exchangeId: string;
  exchangeName: string;
  timezone: string;
  kind: MarketEventKind;
  /** UTC ISO instant of the event. */
  at: string;
  /** Local trading date. */
  date: string;
  /** 'HH:MM' exchange-local time of the event. */
  localTime: string;
  minutesToTransition: number;
}

/**
 * Notification types per event: "soon" events are warnings (the user may want to act), the open
 * is a success, the close is information. Importance follows the type (high for warnings).
 */
export const MARKET_NOTIFICATION_TYPES = {
  opening_soon: 'warning',
  opened: 'success',
  closing_soon: 'warning',
  closed: 'info',
} as const satisfies Record<MarketEventKind, NotificationType>;

function minutes(n: number): string {
  return `${n} minute${n === 1 ? '' : 's'}`;
}

/** Spec section 9 texts: title "{exchange} opening soon", message "{exchange} will open in N minutes", ... */
export function marketNotificationTexts(exchangeName: string, kind: MarketEventKind, minutesToTransition: number): { title: string; message: string } {
  switch (kind) {
    case 'opening_soon':
      return { title: `${exchangeName} opening soon`, message: `${exchangeName} will open in ${minutes(minutesToTransition)}` };
    case 'opened':
      return { title: `${exchangeName} now open`, message: `${exchangeName} has opened for trading` };
    case 'closing_soon':
      return { title: `${exchangeName} closing soon`, message: `${exchangeName} will close in ${minutes(minutesToTransition)}` };
    case 'closed':
      return { title: `${exchangeName} now closed`, message: `${exchangeName} has closed for trading` };
  }
}

/** The once-per-day dedupe key of a market notification (per user, via the unique index). */
export function marketDedupeKey(eventKey: string): string {
  return `market:${eventKey}`;
}

export function marketNotificationContent(event: MarketEventNotice): NotificationContent & { dedupeKey: string } {
  const type = MARKET_NOTIFICATION_TYPES[event.kind];
  const local = DateTime.fromISO(event.at, { zone: event.timezone });
  return {
    ...marketNotificationTexts(event.exchangeName, event.kind, event.minutesToTransition),
    type,
    activityType: MARKET_ACTIVITY_TYPES[event.kind],
    exchangeId: event.exchangeId,
    symbolId: null,
    details: {
      exchangeId: event.exchangeId,
      localExchangeTime: event.localTime,
      formattedDate: local.setLocale('en-US').toLocaleString(DateTime.DATE_HUGE),
      importance: importanceOf(type),
    },
    dedupeKey: marketDedupeKey(event.key),
  };
}

/**
 * Push settings of market events: normal urgency; one topic per exchange, so a newer event of the
 * exchange replaces an undelivered older one on a sleeping phone; a TTL that ends when the news is
 * outdated ("soon" ones at the transition, open/close after an hour).
 */
export function marketPushOptions(event: MarketEventNotice): PushOptions {
  const soon = event.kind === 'opening_soon' || event.kind === 'closing_soon';
  return {
    ttlSeconds: soon ? Math.max(60, event.minutesToTransition * 60) : 3600,
    urgency: 'normal',
    topic: `market-${event.exchangeId}`,
    url: '/dashboard/exchanges',
  };
}
