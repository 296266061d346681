import type { DataSource, EntityManager } from 'typeorm';
import type { NotificationType } from '@tickerbell/entities';
import type { NotificationRow } from './notification-content';

/**
 * Every query of the notifications domain: the one writer of notification rows, the reads of the
 * delivery (push targets, email recipients), web push subscriptions, the signed-in user's list,
 * and the keyset page of a fan-out's audience.
 */
type Db = DataSource | EntityManager;

export const NOTIFICATION_COLUMNS =
  'id, user_id, title, message, type, activity_type, exchange_id, symbol_id, details, read_at, created_at';

/** A stored notification with its dedupe key (what the writer answers). */
export interface StoredNotification extends NotificationRow {
  dedupe_key: string | null;
}

/** One notification's content, written once for each of its recipients. */
export interface NotificationInsert {
  userIds: readonly number[];
  title: string;
  message: string;
  type: NotificationType;
  activityType: string | null;
  exchangeId: string | null;
  symbolId: string | null;
  details: Record<string, unknown> | null;
  dedupeKey: string | null;
}

/**
 * THE insert of notifications: one row per recipient of each content, in the order given (contents,
 * then their recipients), skipping deleted accounts and every (user, dedupe key) that exists
 * (uq_notifications_user_dedupe_key): a second write of the same key inserts nothing. Answers the
 * rows written by this statement only. Runs in the caller's transaction when given an EntityManager.
 */
export async function insertNotifications(db: Db, contents: readonly NotificationInsert[], now: Date): Promise<StoredNotification[]> {
  const pairs = contents.flatMap((content, i) => content.userIds.map((userId) => [userId, i + 1] as const));
  if (!pairs.length) return [];
  return db.query(
    `WITH c AS (
       SELECT * FROM unnest($3::varchar[], $4::text[], $5::varchar[], $6::varchar[], $7::varchar[], $8::varchar[], $9::jsonb[], $10::varchar[])
         WITH ORDINALITY AS c(title, message, type, activity_type, exchange_id, symbol_id, details, dedupe_key, n)
     ), r AS (
       SELECT * FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS r(user_id, content, k)
     )
     INSERT INTO notifications (user_id, title, message, type, activity_type, exchange_id, symbol_id, details, dedupe_key, created_at)
     SELECT r.user_id, c.title, c.message, c.type, c.activity_type, c.exchange_id, c.symbol_id, c.details, c.dedupe_key, $11
     FROM r JOIN c ON c.n = r.content JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL
     ORDER BY r.k
     ON CONFLICT ON CONSTRAINT uq_notifications_user_dedupe_key DO NOTHING
     RETURNING ${NOTIFICATION_COLUMNS}, dedupe_key`,
    [
      pairs.map(([userId]) => userId),
      pairs.map(([, content]) => content),
      contents.map((c) => c.title),
      contents.map((c) => c.message),
      contents.map((c) => c.type),
      contents.map((c) => c.activityType),
      contents.map((c) => c.exchangeId),
      contents.map((c) => c.symbolId),
      contents.map((c) => (c.details ? JSON.stringify(c.details) : null)),
      contents.map((c) => c.dedupeKey),
      now,
    ],
  );
}

/** The stored notifications of these (user, dedupe key) pairs, by id. */
export async function notificationsByDedupeKey(db: Db, keys: readonly { userId: number; dedupeKey: string }[]): Promise<StoredNotification[]> {
  if (!keys.length) return [];
  return db.query(
    `SELECT ${NOTIFICATION_COLUMNS.split(', ').map((c) => `n.${c}`).join(', ')}, n.dedupe_key FROM notifications n
     JOIN (SELECT DISTINCT * FROM unnest($1::int[], $2::varchar[]) AS k(user_id, dedupe_key)) k
       ON n.user_id = k.user_id AND n.dedupe_key = k.dedupe_key
     ORDER BY n.id`,
    [keys.map((k) => k.userId), keys.map((k) => k.dedupeKey)],
  );
}

/**
 * THE push-target query: the browser subscriptions of these users who have push on (users without
 * a preferences row have the defaults: push on) and a live account, by subscription id.
 */
export async function pushSubscriptionsOfUsers(db: Db, userIds: readonly number[]): Promise<{ id: number; user_id: number }[]> {
  if (!userIds.length) return [];
  return db.query(
    `SELECT s.id, s.user_id FROM push_subscriptions s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
       LEFT JOIN user_preferences p ON p.user_id = s.user_id
     WHERE s.user_id = ANY($1::int[]) AND COALESCE(p.push_notifications, true) ORDER BY s.id`,
    [userIds],
  );
}

/**
 * The addresses of these users (accounts not deleted), and whether they turned email
 * notifications on (only a preferences row with the flag on counts), by user id.
 */
export async function emailRecipientsOf(db: Db, userIds: readonly number[]): Promise<{ userId: number; email: string; optedIn: boolean }[]> {
  if (!userIds.length) return [];
  const rows: { id: number; email: string; opted_in: boolean }[] = await db.query(
    `SELECT u.id, u.email, COALESCE(p.email_notifications, false) AS opted_in
     FROM users u LEFT JOIN user_preferences p ON p.user_id = u.id
     WHERE u.id = ANY($1::int[]) AND u.deleted_at IS NULL ORDER BY u.id`,
    [userIds],
  );
  return rows.map((r) => ({ userId: r.id, email: r.email, optedIn: r.opted_in }));
}

// ---------------------------------------------------------------------------------------------
// Web push: what a notifications.push job reads and records.

export interface PushSubscriptionRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export async function notificationsById(db: Db, ids: readonly string[]): Promise<NotificationRow[]> {
  return db.query(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE id = ANY($1::bigint[])`, [ids]);
}

/** The subscriptions a push job names, of live accounts only: a queued push to a deleted account sends nothing. */
export async function pushSubscriptionsById(db: Db, ids: readonly number[]): Promise<PushSubscriptionRow[]> {
  return db.query(
    `SELECT s.id, s.user_id, s.endpoint, s.p256dh, s.auth FROM push_subscriptions s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
     WHERE s.id = ANY($1::int[])`,
    [ids],
  );
}

/** What the push services answered: sent (failures reset), gone (deleted), failed for good (counted). */
export async function recordPushOutcomes(db: Db, outcomes: { sent: number[]; gone: number[]; failed: number[] }, now: Date): Promise<void> {
  if (outcomes.gone.length) await db.query(`DELETE FROM push_subscriptions WHERE id = ANY($1::int[])`, [outcomes.gone]);
  if (outcomes.sent.length) {
    await db.query(`UPDATE push_subscriptions SET last_success_at = $2, failure_count = 0 WHERE id = ANY($1::int[])`, [outcomes.sent, now]);
  }
  if (outcomes.failed.length) await db.query(`UPDATE push_subscriptions SET failure_count = failure_count + 1 WHERE id = ANY($1::int[])`, [outcomes.failed]);
}

/**
 * Saves a browser's subscription for a user. The endpoint identifies a browser: re-subscribing (or
 * another user signing in on it) takes it over. Answers the subscription id.
 */
export async function savePushSubscription(
  db: Db,
  subscription: { userId: number; endpoint: string; p256dh: string; auth: string; userAgent: string | null },
): Promise<number> {
  const [row]: { id: number }[] = await db.query(
    `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, user_agent) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ON CONSTRAINT uq_push_subscriptions_endpoint
     DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, user_agent = EXCLUDED.user_agent, failure_count = 0
     RETURNING id`,
    [subscription.userId, subscription.endpoint, subscription.p256dh, subscription.auth, subscription.userAgent],
  );
  return row.id;
}

/** Removes a user's subscription of one browser; answers how many were removed (0 or 1). */
export async function deletePushSubscription(db: Db, userId: number, endpoint: string): Promise<number> {
  const [, deleted]: [unknown, number] = await db.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [userId, endpoint]);
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// The signed-in user's notifications (every query scoped to the user).

/** One page, newest first, of the notifications older than `beforeId` (all when null). */
export async function listNotifications(db: Db, userId: number, options: { beforeId: string | null; limit: number }): Promise<NotificationRow[]> {
  return db.query(
    `SELECT ${NOTIFICATION_COLUMNS} FROM notifications
     WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $3`,
    [userId, options.beforeId, options.limit],
  );
}

/** The notifications written after `afterId`, oldest first (a stream's resume). */
export async function notificationsAfter(db: Db, userId: number, afterId: string, limit: number): Promise<NotificationRow[]> {
  return db.query(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3`, [userId, afterId, limit]);
}

export async function unreadNotificationCount(db: Db, userId: number): Promise<number> {
  const [row]: { count: string }[] = await db.query('SELECT count(*) AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return Number(row.count);
}

/** Marks every unread notification of the user read; answers how many changed. */
export async function markAllNotificationsRead(db: Db, userId: number): Promise<number> {
  const [, updated]: [unknown, number] = await db.query('UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return updated;
}

/** Marks one notification of the user read (kept as it was when already read); null: not theirs or gone. */
export async function markNotificationRead(db: Db, userId: number, id: string): Promise<NotificationRow | null> {
  const [rows]: [NotificationRow[], number] = await db.query(
    `UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING ${NOTIFICATION_COLUMNS}`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/** Deletes every notification of the user; answers how many. */
export async function clearNotifications(db: Db, userId: number): Promise<number> {
  const [, deleted]: [unknown, number] = await db.query('DELETE FROM notifications WHERE user_id = $1', [userId]);
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// Audiences: who a fan-out notifies.

/**
 * Who a fan-out notifies: a condition on the users row `u`, with its parameters as $1, $2, ...
 * Built by the domain that owns the follow table (its store), from code constants, never input.
 */
export interface Audience {
  where: string;
  params: readonly unknown[];
}

/** The users with a row in a follow table: `followersOf('cot_follows', 'instrument_id', 42)`. */
export function followersOf(table: string, column: string, value: unknown): Audience {
  if (!/^[a-z_]+$/.test(table) || !/^[a-z_]+$/.test(column)) throw new Error(`not a table or column name: ${table}.${column}`);
  return { where: `EXISTS (SELECT 1 FROM ${table} f WHERE f.user_id = u.id AND f.${column} = $1)`, params: [value] };
}

/** One keyset page of an audience: accounts not deleted, by user id after `afterUserId`. */
export async function audiencePage(db: Db, audience: Audience, afterUserId: number, limit: number): Promise<number[]> {
  const n = audience.params.length;
  const rows: { id: number }[] = await db.query(
    `SELECT u.id FROM users u
     WHERE u.id > $${n + 1} AND u.deleted_at IS NULL AND (${audience.where})
     ORDER BY u.id LIMIT $${n + 2}`,
    [...audience.params, afterUserId, limit],
  );
  return rows.map((r) => Number(r.id));
}
