import type { EntityManager } from 'typeorm';
import type { AlertsDb } from './alerts.store';

/**
 * The alerts queries of the workers: the index's rows, the trigger path (lock, firings, their
 * links to notifications, a retry's earlier firings), the expiry sweep, the technical alerts the
 * prices poll keeps bars for, and the webhook deliveries. The owner's alerts (the api) are in
 * alerts.store.ts.
 */

/** An alert as the index loads it. */
export interface IndexRow {
  id: number;
  symbol: string;
  params: unknown;
  interval: string | null;
}

/**
 * The active, unexpired alerts of live (not deleted) accounts with their market's symbol (params
 * hold the whole condition); only `ids` when given.
 */
export async function loadIndexRows(db: AlertsDb, now: Date, ids?: readonly number[]): Promise<IndexRow[]> {
  const sql = `SELECT a.id, m.symbol, a.params, a.interval FROM alerts a JOIN markets m ON m.id = a.market_id
  JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL
  WHERE a.is_active AND (a.expires_at IS NULL OR a.expires_at > $1)`;
  return ids ? db.query(`${sql} AND a.id = ANY($2::int[])`, [now, ids]) : db.query(sql, [now]);
}

/** An alert row as the trigger path locks and reads it. */
export interface LockedAlert {
  id: number;
  user_id: number;
  name: string;
  condition: string;
  value: string;
  params: unknown;
  interval: string | null;
  frequency: string;
  cooldown_seconds: number;
  expires_at: Date | null;
  notify_push: boolean;
  notify_email: boolean;
  webhook_url: string | null;
  is_active: boolean;
  use_audio: boolean;
  audio_message: string | null;
  audio_voice_id: string | null;
  last_triggered: Date | null;
  symbol: string;
}

/**
 * The alerts, locked for the transaction in id order (so two workers never deadlock). An alert
 * whose owner deleted the account is not answered: it never fires, whatever is still queued.
 */
export async function lockAlertsForTrigger(manager: EntityManager, ids: readonly number[]): Promise<LockedAlert[]> {
  return manager.query(
    `SELECT a.id, a.user_id, a.name, a.condition, a.value, a.params, a.interval, a.frequency, a.cooldown_seconds,
       a.expires_at, a.notify_push, a.notify_email, a.webhook_url, a.is_active, a.use_audio, a.audio_message, a.audio_voice_id,
       a.last_triggered, m.symbol
     FROM alerts a JOIN markets m ON m.id = a.market_id JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL
     WHERE a.id = ANY($1::int[]) ORDER BY a.id FOR UPDATE OF a`,
    [ids],
  );
}

export async function deactivateAlerts(manager: EntityManager, ids: readonly number[]): Promise<void> {
  await manager.query(`UPDATE alerts SET is_active = false WHERE id = ANY($1::int[])`, [ids]);
}

/** Deactivates every active alert whose expiry has come (the instant itself included); their ids, ascending. */
export async function deactivateExpiredAlerts(db: AlertsDb, now: Date): Promise<number[]> {
  const rows: { id: number }[] = await db.query(
    `WITH expired AS (
       UPDATE alerts SET is_active = false, updated_at = $1 WHERE is_active AND expires_at <= $1 RETURNING id
     ) SELECT id FROM expired ORDER BY id`,
    [now],
  );
  return rows.map((r) => r.id);
}

/** The active, unexpired technical alerts (with a bar interval) of the markets. */
export async function technicalAlertRows(
  db: AlertsDb,
  marketIds: readonly number[],
  now: Date,
): Promise<{ market_id: number; interval: string; params: unknown }[]> {
  return db.query(
    `SELECT market_id, interval, params FROM alerts
      WHERE market_id = ANY($1::int[]) AND is_active AND interval IS NOT NULL AND (expires_at IS NULL OR expires_at > $2)`,
    [marketIds, now],
  );
}

/** A firing with what its webhook needs. */
export interface WebhookFiringRow {
  log_id: string;
  triggered_at: Date;
  value: string;
  message: string | null;
  webhook_status: string | null;
  webhook_attempts: number;
  alert_id: number;
  name: string;
  params: unknown;
  webhook_url: string | null;
  webhook_secret: string | null;
  symbol: string;
}

/** A firing to POST; null when it is gone or its alert's owner deleted the account. */
export async function readWebhookFiring(db: AlertsDb, logId: string): Promise<WebhookFiringRow | null> {
  const [row]: WebhookFiringRow[] = await db.query(
    `SELECT l.id AS log_id, l.triggered_at, l.value, l.message, l.webhook_status, l.webhook_attempts,
       a.id AS alert_id, a.name, a.params, a.webhook_url, a.webhook_secret, m.symbol
     FROM alert_logs l JOIN alerts a ON a.id = l.alert_id JOIN markets m ON m.id = a.market_id
       JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL
     WHERE l.id = $1`,
    [logId],
  );
  return row ?? null;
}

/** Counts a webhook attempt on the log with its outcome; the attempts so far. */
export async function recordWebhookAttempt(db: AlertsDb, logId: string, status: 'delivered' | 'pending' | 'failed', error: string | null): Promise<number> {
  const [row]: { webhook_attempts: number }[] = await db.query(
    // In a CTE: TypeORM answers a bare UPDATE ... RETURNING with [rows, count].
    `WITH updated AS (
       UPDATE alert_logs SET webhook_attempts = webhook_attempts + 1, webhook_status = $2, webhook_last_error = $3 WHERE id = $1 RETURNING webhook_attempts
     ) SELECT webhook_attempts FROM updated`,
    [logId, status, error?.slice(0, 500) ?? null],
  );
  return row?.webhook_attempts ?? 0;
}

// Firings (the trigger path writes them inside its transaction).

/** A firing to record: one alert_logs row, unique per alert and dedupe key. */
export interface NewAlertLog {
  alertId: number;
  triggeredAt: Date;
  /** The price that met the condition (decimal string). */
  value: string;
  dedupeKey: string;
  message: string;
  /** 'pending' when the alert has a webhook, else null. */
  webhookStatus: string | null;
}

/** Writes the firings; one written before with the same dedupe key is skipped. The written ones' ids by alert. */
export async function insertAlertLogs(manager: EntityManager, logs: readonly NewAlertLog[]): Promise<{ id: string; alert_id: number; dedupe_key: string }[]> {
  return manager.query(
    `INSERT INTO alert_logs (alert_id, triggered_at, value, was_notified, dedupe_key, message, webhook_status)
     SELECT u.alert_id, u.triggered_at, u.value, false, u.dedupe_key, u.message, u.webhook_status
     FROM unnest($1::int[], $2::timestamptz[], $3::numeric[], $4::varchar[], $5::varchar[], $6::varchar[])
       AS u(alert_id, triggered_at, value, dedupe_key, message, webhook_status)
     ON CONFLICT ON CONSTRAINT uq_alert_logs_alert_dedupe_key DO NOTHING
     RETURNING id, alert_id, dedupe_key`,
    [
      logs.map((l) => l.alertId),
      logs.map((l) => l.triggeredAt),
      logs.map((l) => l.value),
      logs.map((l) => l.dedupeKey),
      logs.map((l) => l.message),
      logs.map((l) => l.webhookStatus),
    ],
  );
}

/** Sets the alerts' last trigger (never backwards: a late digest of an earlier hour keeps a later trigger), and deactivates those whose firing ends them (`once`). */
export async function markAlertsTriggered(manager: EntityManager, fired: readonly { id: number; at: Date; deactivate: boolean }[]): Promise<void> {
  await manager.query(
    `UPDATE alerts a SET last_triggered = GREATEST(a.last_triggered, u.at), is_active = a.is_active AND NOT u.deactivate
     FROM unnest($1::int[], $2::timestamptz[], $3::boolean[]) AS u(id, at, deactivate) WHERE a.id = u.id`,
    [fired.map((f) => f.id), fired.map((f) => f.at), fired.map((f) => f.deactivate)],
  );
}

/** Links each firing to the notification written for it (and marks it notified). */
export async function linkAlertLogNotifications(manager: EntityManager, links: readonly { logId: string; notificationId: string | number }[]): Promise<void> {
  await manager.query(
    `UPDATE alert_logs l SET notification_id = u.notification_id, was_notified = true
     FROM unnest($1::bigint[], $2::bigint[]) AS u(id, notification_id) WHERE l.id = u.id`,
    [links.map((l) => l.logId), links.map((l) => l.notificationId)],
  );
}

/** A written firing with its alert's delivery settings and its notification's columns. */
export type FiringRow<N> = N & {
  log_id: string;
  alert_id: number;
  name: string;
  notify_push: boolean;
  notify_email: boolean;
  webhook_url: string | null;
  dedupe_key: string | null;
};

/**
 * The firings already written at these (symbol, instant) keys, with their notifications: what a
 * retried job delivers again. A key with interval null stands for the price alerts (conditions
 * other than `technicalConditions`), one with an interval for the technical alerts of that interval.
 */
export async function firingRowsOfKeys<N>(
  db: AlertsDb,
  keys: readonly { symbol: string; at: Date; interval: string | null }[],
  technicalConditions: readonly string[],
): Promise<FiringRow<N>[]> {
  return db.query(
    `SELECT l.id AS log_id, l.alert_id, a.name, a.notify_push, a.notify_email, a.webhook_url,
       n.id, n.user_id, n.title, n.message, n.type, n.activity_type, n.exchange_id, n.symbol_id, n.details, n.read_at, n.created_at, n.dedupe_key
     FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[]) AS k(symbol, at, interval)
     JOIN markets m ON m.symbol = k.symbol
     JOIN alerts a ON a.market_id = m.id AND (CASE WHEN k.interval IS NULL THEN a.condition <> ALL($4::varchar[]) ELSE a.interval = k.interval END)
     JOIN alert_logs l ON l.alert_id = a.id AND l.triggered_at = k.at
     JOIN notifications n ON n.id = l.notification_id
     ORDER BY l.id`,
    [keys.map((k) => k.symbol), keys.map((k) => k.at), keys.map((k) => k.interval), [...technicalConditions]],
  );
}
