import type { DataSource, EntityManager } from 'typeorm';
import type { AlertLogViewRow, AlertViewRow, CheckedAlertRow } from './alert-view';

/**
 * The queries of the owner's alerts (alerts, alert_logs, and the markets and subscriptions they
 * read): what alerts.service.ts runs for the api. Transactions are opened by the service and
 * passed in as `manager`. The workers' queries (index, triggers, expiry, webhooks) are in
 * alert-firings.store.ts.
 */

/** A database handle that can run raw SQL: a DataSource or a transaction's EntityManager. */
export type AlertsDb = DataSource | EntityManager;

/** Columns of `alerts a JOIN markets m` that toClientAlert reads. */
const ALERT_VIEW_COLUMNS = `a.id, a.user_id, a.name, m.symbol, m.type AS market_type, a.condition, a.value, a.params, a.interval,
  a.frequency, a.cooldown_seconds, a.expires_at, a.is_active, a.use_audio, a.audio_message, a.audio_voice_id,
  a.notify_push, a.notify_email, a.webhook_url, a.webhook_secret, a.last_triggered, a.created_at, a.updated_at`;

/** Columns of alert_logs that toClientAlertLog reads. */
const ALERT_LOG_VIEW_COLUMNS = 'id, triggered_at, value, message, was_notified, webhook_status, webhook_attempts, webhook_last_error';

// ---------------------------------------------------------------------------------------------
// The owner's alerts (the api)

export interface AlertMarketRow {
  id: number;
  symbol: string;
  type: string;
}

/** The market an alert names: matched exactly first, then case-insensitively (btcusdt finds BTCUSDT). */
export async function findAlertMarket(db: AlertsDb, symbol: string): Promise<AlertMarketRow | null> {
  const rows: AlertMarketRow[] = await db.query(
    `SELECT id, symbol, type FROM markets WHERE upper(symbol) = upper($1) ORDER BY (symbol = $1) DESC, id LIMIT 1`,
    [symbol],
  );
  return rows[0] ?? null;
}

/** One of the user's alerts (null: none, or another user's). */
export async function readAlertView(db: AlertsDb, userId: number, id: number): Promise<AlertViewRow | null> {
  const rows: AlertViewRow[] = await db.query(
    `SELECT ${ALERT_VIEW_COLUMNS} FROM alerts a JOIN markets m ON m.id = a.market_id WHERE a.id = $1 AND a.user_id = $2`,
    [id, userId],
  );
  return rows[0] ?? null;
}

export interface AlertListFilter {
  active?: boolean;
  symbol?: string;
  /** Only alerts with a smaller id (the last id of the previous page). */
  before?: number;
  /** Rows read (the caller asks one more than a page to know whether another follows). */
  limit: number;
}

/**
 * The user's alerts, newest first by id (ids are handed out in creation order). The cursor is the
 * last id of the previous page compared directly, not looked up: it stays valid when that alert is
 * deleted meanwhile, as a user deleting from the list they are paging through does.
 */
export async function listAlertViews(db: AlertsDb, userId: number, filter: AlertListFilter): Promise<AlertViewRow[]> {
  return db.query(
    `SELECT ${ALERT_VIEW_COLUMNS} FROM alerts a JOIN markets m ON m.id = a.market_id
      WHERE a.user_id = $1 AND ($2::boolean IS NULL OR a.is_active = $2) AND ($3::text IS NULL OR upper(m.symbol) = upper($3))
        AND ($4::int IS NULL OR a.id < $4)
      ORDER BY a.id DESC
      LIMIT $5`,
    [userId, filter.active ?? null, filter.symbol ?? null, filter.before ?? null, filter.limit],
  );
}

/** The stored columns of a new alert. */
export interface NewAlertRow {
  userId: number;
  marketId: number;
  name: string;
  /** The condition's type (alerts.condition). */
  condition: string;
  /** The condition's main threshold (alerts.value, a decimal string). */
  value: string;
  /** The whole validated condition (alerts.params). */
  params: unknown;
  interval: string | null;
  frequency: string;
  cooldownSeconds: number;
  expiresAt: Date | null;
  isActive: boolean;
  useAudio: boolean;
  audioMessage: string | null;
  audioVoiceId: string | null;
  notifyPush: boolean;
  notifyEmail: boolean;
  webhookUrl: string | null;
  webhookSecret: string | null;
  now: Date;
}

export async function insertAlertRow(manager: AlertsDb, row: NewAlertRow): Promise<number> {
  const [inserted]: { id: number }[] = await manager.query(
    `INSERT INTO alerts (user_id, market_id, name, condition, value, params, interval, frequency, cooldown_seconds, expires_at,
                         is_active, use_audio, audio_message, audio_voice_id, notify_push, notify_email, webhook_url, webhook_secret,
                         created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $19)
     RETURNING id`,
    [
      row.userId,
      row.marketId,
      row.name,
      row.condition,
      row.value,
      JSON.stringify(row.params),
      row.interval,
      row.frequency,
      row.cooldownSeconds,
      row.expiresAt,
      row.isActive,
      row.useAudio,
      row.audioMessage,
      row.audioVoiceId,
      row.notifyPush,
      row.notifyEmail,
      row.webhookUrl,
      row.webhookSecret,
      row.now,
    ],
  );
  return inserted.id;
}

/** The alert row an edit starts from. */
export interface StoredAlertRow {
  id: number;
  market_id: number;
  symbol: string;
  market_type: string;
  params: unknown;
  interval: string | null;
  is_active: boolean;
  expires_at: Date | null;
  webhook_url: string | null;
  webhook_secret: string | null;
}

/** One of the user's alerts, locked for the rest of the transaction (null: none, or another user's). */
export async function lockAlertForEdit(manager: EntityManager, userId: number, id: number): Promise<StoredAlertRow | null> {
  const [stored]: StoredAlertRow[] = await manager.query(
    `SELECT a.id, a.market_id, m.symbol, m.type AS market_type, a.params, a.interval, a.is_active, a.expires_at, a.webhook_url, a.webhook_secret
       FROM alerts a JOIN markets m ON m.id = a.market_id
      WHERE a.id = $1 AND a.user_id = $2
        FOR UPDATE OF a`,
    [id, userId],
  );
  return stored ?? null;
}

/**
 * An edit's columns. Always written: market, condition (type, value, params), interval, expiry and
 * webhook. `undefined` keeps the stored value of the others; audio fields may be set to null.
 */
export interface AlertRowChanges {
  marketId: number;
  condition: string;
  value: string;
  params: unknown;
  interval: string | null;
  expiresAt: Date | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
  name?: string;
  frequency?: string;
  cooldownSeconds?: number;
  isActive?: boolean;
  useAudio?: boolean;
  audioMessage?: string | null;
  audioVoiceId?: string | null;
  notifyPush?: boolean;
  notifyEmail?: boolean;
  now: Date;
}

export async function updateAlertRow(manager: EntityManager, userId: number, id: number, changes: AlertRowChanges): Promise<void> {
  await manager.query(
    `UPDATE alerts SET
       name = COALESCE($3, name), market_id = $4, condition = $5, value = $6, params = $7::jsonb, interval = $8,
       frequency = COALESCE($9, frequency), cooldown_seconds = COALESCE($10, cooldown_seconds), expires_at = $11,
       is_active = COALESCE($12, is_active), use_audio = COALESCE($13, use_audio),
       audio_message = CASE WHEN $14::boolean THEN $15 ELSE audio_message END,
       audio_voice_id = CASE WHEN $16::boolean THEN $17 ELSE audio_voice_id END,
       notify_push = COALESCE($18, notify_push), notify_email = COALESCE($19, notify_email),
       webhook_url = $20, webhook_secret = $21, updated_at = $22
     WHERE id = $1 AND user_id = $2`,
    [
      id,
      userId,
      changes.name ?? null,
      changes.marketId,
      changes.condition,
      changes.value,
      JSON.stringify(changes.params),
      changes.interval,
      changes.frequency ?? null,
      changes.cooldownSeconds ?? null,
      changes.expiresAt,
      changes.isActive ?? null,
      changes.useAudio ?? null,
      changes.audioMessage !== undefined,
      changes.audioMessage ?? null,
      changes.audioVoiceId !== undefined,
      changes.audioVoiceId ?? null,
      changes.notifyPush ?? null,
      changes.notifyEmail ?? null,
      changes.webhookUrl,
      changes.webhookSecret,
      changes.now,
    ],
  );
}

/** Deletes one of the user's alerts and its logs (ON DELETE CASCADE); false when there was none. */
export async function deleteAlertRow(db: AlertsDb, userId: number, id: number): Promise<boolean> {
  const [rows]: [{ id: number }[], number] = await db.query('DELETE FROM alerts WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  return rows.length > 0;
}

export async function alertBelongsTo(db: AlertsDb, userId: number, id: number): Promise<boolean> {
  const owned: unknown[] = await db.query('SELECT 1 FROM alerts WHERE id = $1 AND user_id = $2', [id, userId]);
  return owned.length > 0;
}

/** An alert's firings, newest first by (triggered_at, id); `before` is the last log of the previous page. */
export async function listAlertLogViews(db: AlertsDb, alertId: number, before: string | null, limit: number): Promise<AlertLogViewRow[]> {
  return db.query(
    `SELECT ${ALERT_LOG_VIEW_COLUMNS} FROM alert_logs
      WHERE alert_id = $1
        AND ($2::bigint IS NULL OR (triggered_at, id) < (SELECT b.triggered_at, b.id FROM alert_logs b WHERE b.id = $2::bigint AND b.alert_id = $1))
      ORDER BY triggered_at DESC, id DESC
      LIMIT $3`,
    [alertId, before, limit],
  );
}

/**
 * The user's firings that no client has picked up yet (at most `limit`, oldest first), marked
 * picked up at `now` in the same statement, so two tabs (or two api instances) never both get one.
 */
export async function pickUncheckedFirings(db: AlertsDb, userId: number, now: Date, limit: number): Promise<CheckedAlertRow[]> {
  // One statement picks and marks: a materialized CTE is evaluated once (a subquery with
  // FOR UPDATE can be rescanned and pick more rows than the limit). SKIP LOCKED: a concurrent
  // check takes other rows instead of waiting; `checked_at IS NULL` is re-checked on a row
  // that another check updated meanwhile.
  const [rows]: [CheckedAlertRow[], number] = await db.query(
    `WITH picked AS MATERIALIZED (
       SELECT u.id FROM alert_logs u JOIN alerts ua ON ua.id = u.alert_id
        WHERE ua.user_id = $1 AND u.checked_at IS NULL
        ORDER BY u.triggered_at, u.id
        LIMIT $3
          FOR UPDATE OF u SKIP LOCKED
     )
     UPDATE alert_logs l SET checked_at = $2
       FROM picked, alerts a JOIN markets m ON m.id = a.market_id
      WHERE l.id = picked.id AND a.id = l.alert_id AND a.user_id = $1 AND l.checked_at IS NULL
      RETURNING l.id AS log_id, l.triggered_at, l.value AS log_value, l.message, a.id AS alert_id, a.name, m.symbol,
                a.condition, a.value AS threshold, a.use_audio, a.audio_message, a.audio_voice_id`,
    [userId, now, limit],
  );
  // RETURNING has no order: oldest first, as they fired.
  return rows.sort((x, y) => new Date(x.triggered_at).getTime() - new Date(y.triggered_at).getTime() || Number(BigInt(x.log_id) - BigInt(y.log_id)));
}

// ---------------------------------------------------------------------------------------------
// Plan limits (the entitlements' activeAlerts: the count is taken under their per-user lock)

/** Active alerts that count against the limit: active and not past their expiry at `now`. */
export async function countActiveAlerts(db: AlertsDb, userId: number, now: Date): Promise<number> {
  const [row]: { count: string }[] = await db.query(
    'SELECT count(*) AS count FROM alerts WHERE user_id = $1 AND is_active AND (expires_at IS NULL OR expires_at > $2)',
    [userId, now],
  );
  return Number(row.count);
}
