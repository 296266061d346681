import type { DataSource, EntityManager } from 'typeorm';
import type { NotificationType } from '@tickerbell/entities';
import type { JobContext } from '../runtime/job-handler';
import type { JobQueues } from '../runtime/job-queues';
import { publishNotifications } from './notification-channel';
import { toClientNotification, type NotificationRow, type PushOptions } from './notification-content';
import { MAX_PUSH_TARGETS, notificationsJobIds } from './notifications.jobs';
import { emailRecipientsOf, insertNotifications, notificationsByDedupeKey, pushSubscriptionsOfUsers, type StoredNotification } from './notifications.store';

/**
 * The one way to notify. Every producer (market hours, COT, alerts, every later domain) hands the
 * notifications domain what to say, to whom, under which dedupe key and on which channels; this
 * module writes the rows (notifications.store.ts holds the only insert) and, after they are
 * committed, publishes them to the live streams and queues their web pushes and emails under
 * deterministic job ids.
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
   * to notificationEmailText. Null: none.
   */
  email: { to: 'opted-in' | 'all'; text?: string } | null;
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
 * pushes (one notifications.push job per MAX_PUSH_TARGETS browsers, by notification id) and the
 * emails under job ids that follow from the rows, so a repeated dispatch adds nothing new.
 */
export async function dispatchNotifications(deps: NotifyDeps, written: readonly WrittenNotification[]): Promise<DispatchResult> {
  if (!written.length) return { published: 0, pushTargets: 0, emails: 0 };
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
        data: { to: recipient.email, subject: w.row.title, text: email.text ?? notificationEmailText(w.row), userId: w.row.user_id },
        options: { jobId: notificationsJobIds.mail(w.row.id) },
      });
      emails++;
    }
  }
  if (jobs.length) await queues.addBulk(jobs);
  return { published, pushTargets, emails };
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

/** The plain-text email of a notification: its message and, for market events, the local time. */
export function notificationEmailText(row: NotificationRow): string {
  const details = row.details ?? {};
  const lines = [`${row.message}.`];
  const local = typeof details.localExchangeTime === 'string' ? details.localExchangeTime : null;
  const date = typeof details.formattedDate === 'string' ? details.formattedDate : null;
  if (local && row.exchange_id) lines.push('', `Exchange local time: ${local}${date ? `, ${date}` : ''} (${row.exchange_id}).`);
  lines.push('', 'You receive this email because email notifications are on in your Tickerbell preferences.');
  return lines.join('\n');
}
