import type { DataSource, EntityManager } from 'typeorm';
import type { NotificationType } from '@tickerbell/entities';
import type { JobContext } from '../runtime/job-handler';
import type { JobQueues } from '../runtime/job-queues';
import { publishNotifications } from './notification-channel';
import { toClientNotification, type NotificationRow, type PushOptions } from './notification-content';
import type { DeliveryReceipt } from './delivery-receipts';
import { MAX_PUSH_TARGETS, notificationsJobIds } from './notifications.jobs';
import { emailRecipientsOf, insertNotifications, notificationsByDedupeKey, pushSubscriptionsOfUsers, type StoredNotification } from './notifications.store';
import { telegramLinkedUsers } from './telegram.store';

/**
 * The one way to notify. Every producer (market hours, COT, alerts, every later domain) hands the
 * notifications domain what to say, to whom, under which dedupe key and on which channels; this
 * module writes the rows (notifications.store.ts holds the only insert) and, after they are
 * committed, publishes them to the live streams and queues their web pushes, emails and Telegram
 * messages under deterministic job ids.
 *
 * Two steps, so a producer can write its notifications in its own transaction (an alert firing
 * writes its log, lastTriggered and its notification under one set of row locks):
 * - `writeNotifications(manager, requests, ...)` inside the transaction;
 * - `dispatchNotifications(deps, written)` once it has committed (a rolled-back transaction leaves
 *   no row and nothing published or queued).
 * `notify(deps, requests)` does both for a producer without a transaction of its own.
 *
 * Exactly once: rows are unique per (user, dedupe key), so a second write of a key inserts
 * nothing; only rows written by a call are dispatched, unless the caller asks for the existing ones
 * too (`existing: 'include'`: a retried job whose earlier attempt may have died between commit and
 * dispatch). A dispatch repeated for the same rows queues the same job ids, which BullMQ adds once.
 */

/** What a notification says (the same for each of its recipients). */
export interface NotificationDraft {
  title: string;
  message: string;
  type: NotificationType;
  activityType: string | null;
  exchangeId?: string | null;
  symbolId?: string | null;
  /** Shown and spoken by the client (importance, audio fields, the producer's ids). */
  details: Record<string, unknown> | null;
}

/** Where the notification goes besides the user's list and open streams (always). */
export interface NotifyChannels {
  /** A web push to each browser of the recipients who have push on; null: none. */
  push: PushOptions | null;
  /**
   * An email copy: to recipients with email notifications on (`opted-in`), or to every recipient
   * (`all`: the producer's own setting asked for it, as an alert's notifyEmail). `text` defaults
   * to notificationEmailText. `receipt`: the producer's flag the mail job sets once the email is
   * sent (delivery-receipts.ts). Null: none.
   */
  email: { to: 'opted-in' | 'all'; text?: string; receipt?: DeliveryReceipt } | null;
  /**
   * A Telegram message to each recipient who linked a chat (Settings → Telegram; the producer's
   * own setting decides whether to ask, as a yield alert's telegramEnabled). `text` defaults to
   * notificationTelegramText; `receipt` is set once the message is sent. Null: none.
   */
  telegram: { text?: string; receipt?: DeliveryReceipt } | null;
}

export interface NotificationRequest {
  recipients: readonly number[];
  content: NotificationDraft;
  /** Unique per user: a second write of the same key inserts nothing. Null: no dedupe. */
  dedupeKey: string | null;
  channels: NotifyChannels;
}

/** A notification row with the channels it goes out on. */
export interface WrittenNotification {
  row: NotificationRow;
  dedupeKey: string | null;
  channels: NotifyChannels;
  /** false: the row existed (same user and dedupe key) and was read back. */
  inserted: boolean;
}

export interface WriteOptions {
  now: Date;
  /**
   * 'skip' (default): answer only the rows this call wrote. 'include': also the rows that already
   * existed under the requests' (user, dedupe key), so they are dispatched (again).
   */
  existing?: 'skip' | 'include';
}

export interface DispatchResult {
  published: number;
  pushTargets: number;
  emails: number;
  /** notifications.telegram jobs queued (recipients with a linked chat). */
  telegrams: number;
}

export type NotifyDeps = Pick<JobContext, 'dataSource' | 'queues' | 'redis'>;

const pairKey = (userId: number, dedupeKey: string) => `${userId}|${dedupeKey}`;

/**
 * Writes the requests' notifications (skipping deleted accounts and existing dedupe keys) with
 * `db`: pass the caller's EntityManager to write inside its transaction. Nothing is published or
 * queued: call dispatchNotifications with the answer after the commit.
 */
export async function writeNotifications(
  db: DataSource | EntityManager,
  requests: readonly NotificationRequest[],
  options: WriteOptions,
): Promise<WrittenNotification[]> {
  const toInsert = (r: NotificationRequest) => ({
    userIds: r.recipients,
    title: r.content.title,
    message: r.content.message,
    type: r.content.type,
    activityType: r.content.activityType,
    exchangeId: r.content.exchangeId ?? null,
    symbolId: r.content.symbolId ?? null,
    details: r.content.details,
    dedupeKey: r.dedupeKey,
  });
  const keyed = requests.filter((r) => r.dedupeKey !== null);
  const written: WrittenNotification[] = [];

  // Keyed requests share one statement: each row finds its request by (user, dedupe key).
  const requestOf = new Map<string, NotificationRequest>();
  for (const request of keyed) {
    for (const userId of request.recipients) {
      const key = pairKey(userId, request.dedupeKey as string);
      if (!requestOf.has(key)) requestOf.set(key, request);
    }
  }
  const inserted = await insertNotifications(db, keyed.map(toInsert), options.now);
  const seen = new Set<string>();
  for (const row of inserted) {
    const key = pairKey(row.user_id, row.dedupe_key as string);
    seen.add(key);
    written.push(entry(row, requestOf.get(key) as NotificationRequest, true));
  }
  if (options.existing === 'include') {
    const missing = [...requestOf.keys()].filter((key) => !seen.has(key));
    const existing = await notificationsByDedupeKey(
      db,
      missing.map((key) => {
        const at = key.indexOf('|');
        return { userId: Number(key.slice(0, at)), dedupeKey: key.slice(at + 1) };
      }),
    );
    for (const row of existing) written.push(entry(row, requestOf.get(pairKey(row.user_id, row.dedupe_key as string)) as NotificationRequest, false));
  }

  // Without a key, rows are told apart by their statement: one per request.
  for (const request of requests.filter((r) => r.dedupeKey === null)) {
    for (const row of await insertNotifications(db, [toInsert(request)], options.now)) written.push(entry(row, request, true));
  }
  return written;
}

function entry(row: StoredNotification, request: NotificationRequest, inserted: boolean): WrittenNotification {
  const { dedupe_key: dedupeKey, ...notification } = row;
  return { row: notification, dedupeKey, channels: request.channels, inserted };
}

/**
 * After the rows are committed: publishes each to its user's open streams, and queues the web
 * pushes (one notifications.push job per MAX_PUSH_TARGETS browsers, by notification id), the
 * emails and the Telegram messages under job ids that follow from the rows, so a repeated dispatch
 * adds nothing new.
 */
export async function dispatchNotifications(deps: NotifyDeps, written: readonly WrittenNotification[]): Promise<DispatchResult> {
  if (!written.length) return { published: 0, pushTargets: 0, emails: 0, telegrams: 0 };
  const { dataSource, queues } = deps;
  const published = await publishNotifications(
    deps.redis,
    queues.prefix,
    written.map((w) => ({ userId: w.row.user_id, notification: toClientNotification(w.row) })),
  );

  const jobs: Parameters<JobQueues['addBulk']>[0] = [];
  let pushTargets = 0;
  const pushed = written.filter((w) => w.channels.push);
  if (pushed.length) {
    // The user's push preference is the kill switch over every producer's own setting.
    const subscriptions = await pushSubscriptionsOfUsers(dataSource, [...new Set(pushed.map((w) => w.row.user_id))]);
    const byUser = new Map<number, number[]>();
    for (const s of subscriptions) byUser.set(s.user_id, [...(byUser.get(s.user_id) ?? []), s.id]);
    // One push job carries one set of push options: group by them, then batch by notification id.
    const groups = new Map<string, { push: PushOptions; rows: NotificationRow[] }>();
    for (const w of pushed) {
      const push = w.channels.push as PushOptions;
      const key = JSON.stringify([push.ttlSeconds, push.urgency, push.topic, push.url]);
      const group = groups.get(key) ?? { push, rows: [] };
      group.rows.push(w.row);
      groups.set(key, group);
    }
    for (const { push, rows } of groups.values()) {
      const targets = [...rows]
        .sort((a, b) => Number(a.id) - Number(b.id))
        .flatMap((row) => (byUser.get(row.user_id) ?? []).map((subscriptionId) => ({ notificationId: String(row.id), subscriptionId })));
      for (let i = 0; i < targets.length; i += MAX_PUSH_TARGETS) {
        const chunk = targets.slice(i, i + MAX_PUSH_TARGETS);
        jobs.push({ name: 'notifications.push', data: { targets: chunk, push, attempt: 1 }, options: { jobId: notificationsJobIds.push(chunk) } });
      }
      pushTargets += targets.length;
    }
  }

  let emails = 0;
  const mailed = written.filter((w) => w.channels.email);
  if (mailed.length) {
    const recipients = new Map((await emailRecipientsOf(dataSource, [...new Set(mailed.map((w) => w.row.user_id))])).map((r) => [r.userId, r]));
    for (const w of mailed) {
      const email = w.channels.email as NonNullable<NotifyChannels['email']>;
      const recipient = recipients.get(w.row.user_id);
      if (!recipient || (email.to === 'opted-in' && !recipient.optedIn)) continue;
      jobs.push({
        name: 'mail.send',
        data: {
          to: recipient.email,
          subject: w.row.title,
          text: email.text ?? notificationEmailText(w.row),
          userId: w.row.user_id,
          ...(email.receipt ? { receipt: email.receipt } : {}),
        },
        options: { jobId: notificationsJobIds.mail(w.row.id) },
      });
      emails++;
    }
  }
  let telegrams = 0;
  const messaged = written.filter((w) => w.channels.telegram);
  if (messaged.length) {
    // Only recipients who linked a chat; the job reads the chat when it runs (it may be unlinked by then).
    const linked = await telegramLinkedUsers(dataSource, [...new Set(messaged.map((w) => w.row.user_id))]);
    for (const w of messaged) {
      if (!linked.has(w.row.user_id)) continue;
      const telegram = w.channels.telegram as NonNullable<NotifyChannels['telegram']>;
      jobs.push({
        name: 'notifications.telegram',
        data: { notificationId: String(w.row.id), ...(telegram.text ? { text: telegram.text } : {}), ...(telegram.receipt ? { receipt: telegram.receipt } : {}), rateLimitDelays: 0 },
        options: { jobId: notificationsJobIds.telegram(String(w.row.id)) },
      });
      telegrams++;
    }
  }
  if (jobs.length) await queues.addBulk(jobs);
  return { published, pushTargets, emails, telegrams };
}

export interface NotifyResult extends DispatchResult {
  /** Rows this call wrote. */
  inserted: number;
}

/** Writes the requests' notifications (in one transaction) and dispatches them once committed. */
export async function notify(deps: NotifyDeps, requests: readonly NotificationRequest[], options: WriteOptions): Promise<NotifyResult> {
  const written = await deps.dataSource.transaction((manager) => writeNotifications(manager, requests, options));
  const dispatched = await dispatchNotifications(deps, written);
  return { inserted: written.filter((w) => w.inserted).length, ...dispatched };
}

/** The plain-text email of a notification: its message, its link if it has one and, for market events, the local time. */
export function notificationEmailText(row: NotificationRow): string {
  const details = row.details ?? {};
  const lines = [`${row.message}.`];
  const local = typeof details.localExchangeTime === 'string' ? details.localExchangeTime : null;
  const date = typeof details.formattedDate === 'string' ? details.formattedDate : null;
  if (local && row.exchange_id) lines.push('', `Exchange local time: ${local}${date ? `, ${date}` : ''} (${row.exchange_id}).`);
  // A link the notification carries beside its message (details.link: a whale alert's transaction).
  const link = details.link as { href?: unknown; label?: unknown } | null | undefined;
  if (link && typeof link.href === 'string' && link.href.startsWith('https://')) lines.push('', `${typeof link.label === 'string' ? link.label : 'Link'}: ${link.href}`);
  lines.push('', 'You receive this email because email notifications are on in your Tickerbell preferences.');
  return lines.join('\n');
}

/** The Telegram text of a notification: its title, its message and, when it carries one, its link. */
export function notificationTelegramText(row: Pick<NotificationRow, 'title' | 'message' | 'details'>): string {
  const lines = [row.title, row.message];
  const link = (row.details ?? {}).link as { href?: unknown; label?: unknown } | null | undefined;
  if (link && typeof link.href === 'string' && link.href.startsWith('https://')) lines.push(`${typeof link.label === 'string' ? link.label : 'Link'}: ${link.href}`);
  return lines.join('\n');
}
