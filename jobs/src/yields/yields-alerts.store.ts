// Yield alerts: CRUD with validation and ownership checks, and their history (yield_alert_logs).
// The evaluation (firing, hysteresis, cooldown) is in yields-evaluate.ts.
import type { DataSource, EntityManager } from 'typeorm';
import type { Entitlements } from '../billing/entitlements';
import { describeYieldAlert, hysteresisMargin, yieldAlertKind } from './yields-analytics';
import {
  YIELD_ALERT_CONDITIONS,
  YIELD_ALERT_COOLDOWN_MAX_MINUTES,
  YIELD_ALERT_COOLDOWN_MIN_MINUTES,
  YIELD_ALERT_THRESHOLD_BOUNDS,
  YIELD_ALERT_TYPE_CONDITIONS,
  YIELD_ALERT_TYPES,
  YIELD_SPIKE_UNITS,
  YIELD_TVL_DROP_WINDOW_DEFAULT_HOURS,
  YIELD_TVL_DROP_WINDOW_MAX_HOURS,
  YIELD_TVL_DROP_WINDOW_MIN_HOURS,
  type YieldAlertCondition,
  type YieldAlertHistoryPage,
  type YieldAlertHistoryQuery,
  type YieldAlertInput,
  type YieldAlertLogView,
  type YieldAlertPatch,
  type YieldAlertType,
  type YieldAlertView,
  type YieldSpikeUnit,
  type YieldsErrorCode,
} from './yields.shapes';

type Db = DataSource | EntityManager;

/** What the user's plan allows (billing's entitlements), asked at `now`. */
export interface YieldAlertAccess {
  entitlements: Entitlements;
  now: Date;
}

/**
 * A refused yields request: the api maps `code` to a status (not_found 404, invalid 400, conflict
 * 409) and names `field` in a 400. The plan's number of yield alerts is the entitlements'
 * (`yieldAlerts`, EntitlementError).
 */
export class YieldsError extends Error {
  constructor(
    readonly code: YieldsErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'YieldsError';
  }
}

/** Default cooldown when an input gives none (YIELDS_ALERT_COOLDOWN_MINUTES's default). */
export const YIELD_ALERT_DEFAULT_COOLDOWN_MINUTES = 360;

export interface YieldAlertOptions {
  /** The deployment's YIELDS_ALERT_COOLDOWN_MINUTES (default 360). */
  defaultCooldownMinutes?: number;
}

const ALERT_COLUMNS = `a.id, a.pool_id, a.alert_type, a.condition, a.threshold::text AS threshold, a.spike_unit, a.window_hours, a.cooldown_minutes,
  a.is_active, a.email_enabled, a.telegram_enabled, a.armed, a.last_triggered, a.created_at, a.updated_at,
  p.pool_id AS source_pool_id, p.symbol, p.chain, p.dex`;

/** Trailing zeros of a numeric's text cut (12.5000 -> 12.5). */
export function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function toAlertView(r: Record<string, unknown>): YieldAlertView {
  const alertType = r.alert_type as YieldAlertType;
  const condition = r.condition as YieldAlertCondition;
  const threshold = Number(r.threshold);
  const spikeUnit = (r.spike_unit as YieldSpikeUnit | null) ?? null;
  const windowHours = r.window_hours === null ? null : Number(r.window_hours);
  return {
    id: Number(r.id),
    poolId: Number(r.pool_id),
    pool: { id: Number(r.pool_id), poolId: r.source_pool_id as string, symbol: r.symbol as string, chain: r.chain as string, dex: r.dex as string },
    alertType,
    condition,
    kind: yieldAlertKind(alertType, condition),
    threshold: trimDecimal(r.threshold as string),
    spikeUnit,
    windowHours,
    cooldownMinutes: Number(r.cooldown_minutes),
    isActive: r.is_active as boolean,
    emailEnabled: r.email_enabled as boolean,
    telegramEnabled: r.telegram_enabled as boolean,
    armed: r.armed as boolean,
    hysteresisMargin: String(Math.round(hysteresisMargin(alertType, threshold) * 10_000) / 10_000),
    lastTriggered: r.last_triggered ? (r.last_triggered as Date).toISOString() : null,
    description: describeYieldAlert({ alertType, condition, threshold, spikeUnit, windowHours }),
    createdAt: (r.created_at as Date).toISOString(),
    updatedAt: (r.updated_at as Date).toISOString(),
  };
}

/** The user's yield alerts, newest first. */
export async function listYieldAlerts(db: Db, userId: number): Promise<YieldAlertView[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${ALERT_COLUMNS} FROM yield_alerts a JOIN yield_pools p ON p.id = a.pool_id WHERE a.user_id = $1 ORDER BY a.created_at DESC, a.id DESC`,
    [userId],
  );
  return rows.map(toAlertView);
}

/** The user's alerts on one pool (the pool page). */
export async function yieldAlertsOfPool(db: Db, userId: number, poolId: number): Promise<YieldAlertView[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${ALERT_COLUMNS} FROM yield_alerts a JOIN yield_pools p ON p.id = a.pool_id WHERE a.user_id = $1 AND a.pool_id = $2 ORDER BY a.created_at DESC, a.id DESC`,
    [userId, poolId],
  );
  return rows.map(toAlertView);
}

/** One of the user's alerts; YieldsError not_found when it is not theirs or does not exist. */
export async function getYieldAlert(db: Db, userId: number, id: number): Promise<YieldAlertView> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${ALERT_COLUMNS} FROM yield_alerts a JOIN yield_pools p ON p.id = a.pool_id WHERE a.user_id = $1 AND a.id = $2`,
    [userId, id],
  );
  if (!rows.length) throw new YieldsError('not_found', 'No such yield alert');
  return toAlertView(rows[0]);
}

interface AlertFields {
  alertType: YieldAlertType;
  condition: YieldAlertCondition;
  threshold: string;
  spikeUnit: YieldSpikeUnit | null;
  windowHours: number | null;
  cooldownMinutes: number;
  isActive: boolean;
  emailEnabled: boolean;
  telegramEnabled: boolean;
}

const DECIMAL = /^-?\d{1,20}(\.\d{1,12})?$/;

/** A threshold as a decimal string with at most 4 decimals, within its type's bounds. */
function parseThreshold(type: YieldAlertType, raw: unknown): string {
  const text = typeof raw === 'number' ? (Number.isFinite(raw) ? String(raw) : '') : typeof raw === 'string' ? raw.trim() : '';
  if (!DECIMAL.test(text) && !(typeof raw === 'number' && Number.isFinite(raw))) throw new YieldsError('invalid', 'threshold must be a number', 'threshold');
  const value = Number(text);
  const { min, max } = YIELD_ALERT_THRESHOLD_BOUNDS[type];
  if (!Number.isFinite(value) || value < min || value > max) throw new YieldsError('invalid', `threshold must be from ${min} to ${max} for ${type}`, 'threshold');
  return (Math.round(value * 10_000) / 10_000).toFixed(4);
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

/** The stored fields of an input (create) or of an alert with a patch applied (update); YieldsError invalid naming the field. */
function validate(base: Partial<AlertFields>, input: YieldAlertPatch, defaults: { cooldownMinutes: number }): AlertFields {
  const alertType = (input.alertType ?? base.alertType) as YieldAlertType;
  if (!(YIELD_ALERT_TYPES as readonly string[]).includes(alertType)) throw new YieldsError('invalid', `alertType must be one of ${YIELD_ALERT_TYPES.join(', ')}`, 'alertType');
  const typeChanged = input.alertType !== undefined && input.alertType !== base.alertType;
  const allowed = YIELD_ALERT_TYPE_CONDITIONS[alertType];
  const condition = (input.condition ?? (typeChanged || !base.condition ? allowed[0] : base.condition)) as YieldAlertCondition;
  if (!(YIELD_ALERT_CONDITIONS as readonly string[]).includes(condition)) throw new YieldsError('invalid', `condition must be one of ${YIELD_ALERT_CONDITIONS.join(', ')}`, 'condition');
  if (!allowed.includes(condition)) throw new YieldsError('invalid', `${alertType} alerts take condition ${allowed.join(' or ')}`, 'condition');
  if (input.threshold === undefined && base.threshold === undefined) throw new YieldsError('invalid', 'threshold is required', 'threshold');
  const threshold = parseThreshold(alertType, input.threshold ?? base.threshold);

  let spikeUnit: YieldSpikeUnit | null = null;
  if (alertType === 'apy_spike') {
    spikeUnit = (input.spikeUnit ?? (typeChanged ? undefined : base.spikeUnit) ?? 'sigma') as YieldSpikeUnit;
    if (!(YIELD_SPIKE_UNITS as readonly string[]).includes(spikeUnit)) throw new YieldsError('invalid', `spikeUnit must be one of ${YIELD_SPIKE_UNITS.join(', ')}`, 'spikeUnit');
  } else if (input.spikeUnit !== undefined && input.spikeUnit !== null) {
    throw new YieldsError('invalid', 'spikeUnit applies to apy_spike alerts only', 'spikeUnit');
  }
  let windowHours: number | null = null;
  if (alertType === 'tvl_drop') {
    windowHours = input.windowHours ?? (typeChanged ? undefined : base.windowHours) ?? YIELD_TVL_DROP_WINDOW_DEFAULT_HOURS;
    if (!isInt(windowHours) || windowHours < YIELD_TVL_DROP_WINDOW_MIN_HOURS || windowHours > YIELD_TVL_DROP_WINDOW_MAX_HOURS) {
      throw new YieldsError('invalid', `windowHours must be an integer from ${YIELD_TVL_DROP_WINDOW_MIN_HOURS} to ${YIELD_TVL_DROP_WINDOW_MAX_HOURS}`, 'windowHours');
    }
  } else if (input.windowHours !== undefined && input.windowHours !== null) {
    throw new YieldsError('invalid', 'windowHours applies to tvl_drop alerts only', 'windowHours');
  }
  const cooldownMinutes = input.cooldownMinutes ?? base.cooldownMinutes ?? defaults.cooldownMinutes;
  if (!isInt(cooldownMinutes) || cooldownMinutes < YIELD_ALERT_COOLDOWN_MIN_MINUTES || cooldownMinutes > YIELD_ALERT_COOLDOWN_MAX_MINUTES) {
    throw new YieldsError('invalid', `cooldownMinutes must be an integer from ${YIELD_ALERT_COOLDOWN_MIN_MINUTES} to ${YIELD_ALERT_COOLDOWN_MAX_MINUTES}`, 'cooldownMinutes');
  }
  const flag = (name: 'isActive' | 'emailEnabled' | 'telegramEnabled', fallback: boolean): boolean => {
    const value = input[name] ?? base[name] ?? fallback;
    if (typeof value !== 'boolean') throw new YieldsError('invalid', `${name} must be true or false`, name);
    return value;
  };
  return {
    alertType,
    condition,
    threshold,
    spikeUnit,
    windowHours,
    cooldownMinutes,
    isActive: flag('isActive', true),
    emailEnabled: flag('emailEnabled', false),
    telegramEnabled: flag('telegramEnabled', false),
  };
}

/**
 * Creates an alert on a pool (our id). The pool becomes tracked at once (stored at every hourly
 * snapshot from the next ingest on). YieldsError: invalid (naming the field; an unknown or inactive
 * pool names poolId); EntitlementError past the plan's `yieldAlerts` or for a read-only account.
 */
export async function createYieldAlert(
  dataSource: DataSource,
  userId: number,
  input: YieldAlertInput,
  access: YieldAlertAccess,
  options: YieldAlertOptions = {},
): Promise<YieldAlertView> {
  if (!isInt(input.poolId) || input.poolId < 1) throw new YieldsError('invalid', 'poolId must be a pool id', 'poolId');
  const fields = validate({}, input, { cooldownMinutes: options.defaultCooldownMinutes ?? YIELD_ALERT_DEFAULT_COOLDOWN_MINUTES });
  const id = await dataSource.transaction(async (manager) => {
    // Serialises one user's creations, so two requests cannot both pass the limit.
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('yields:alerts'), $1)`, [userId]);
    const pools: Array<{ id: number }> = await manager.query(`SELECT id FROM yield_pools WHERE id = $1 AND is_active FOR UPDATE`, [input.poolId]);
    if (!pools.length) throw new YieldsError('invalid', 'No such pool', 'poolId');
    const [{ count }]: Array<{ count: number }> = await manager.query(`SELECT count(*)::int AS count FROM yield_alerts WHERE user_id = $1`, [userId]);
    await access.entitlements.checkLimit(manager, userId, 'yieldAlerts', count, access.now);
    const [row]: Array<{ id: number }> = await manager.query(
      `INSERT INTO yield_alerts (user_id, pool_id, alert_type, condition, threshold, spike_unit, window_hours, cooldown_minutes, is_active, email_enabled, telegram_enabled, armed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true) RETURNING id`,
      [userId, input.poolId, fields.alertType, fields.condition, fields.threshold, fields.spikeUnit, fields.windowHours, fields.cooldownMinutes, fields.isActive, fields.emailEnabled, fields.telegramEnabled],
    );
    await manager.query(`UPDATE yield_pools SET tracked = true WHERE id = $1 AND NOT tracked`, [input.poolId]);
    return Number(row.id);
  });
  return getYieldAlert(dataSource, userId, id);
}

/**
 * Changes an alert. A change of type, condition, threshold, unit or window re-arms it (a new
 * definition starts armed); lastTriggered stays, so the cooldown still holds. YieldsError:
 * not_found (not the user's), invalid (naming the field).
 */
export async function updateYieldAlert(dataSource: DataSource, userId: number, id: number, patch: YieldAlertPatch, options: YieldAlertOptions = {}): Promise<YieldAlertView> {
  if ((patch as { poolId?: unknown }).poolId !== undefined) throw new YieldsError('invalid', 'poolId cannot change: create another alert', 'poolId');
  await dataSource.transaction(async (manager) => {
    const rows: Array<Record<string, unknown>> = await manager.query(
      `SELECT alert_type, condition, threshold::text AS threshold, spike_unit, window_hours, cooldown_minutes, is_active, email_enabled, telegram_enabled
       FROM yield_alerts WHERE user_id = $1 AND id = $2 FOR UPDATE`,
      [userId, id],
    );
    if (!rows.length) throw new YieldsError('not_found', 'No such yield alert');
    const r = rows[0];
    const base: AlertFields = {
      alertType: r.alert_type as YieldAlertType,
      condition: r.condition as YieldAlertCondition,
      threshold: r.threshold as string,
      spikeUnit: r.spike_unit as YieldSpikeUnit | null,
      windowHours: r.window_hours === null ? null : Number(r.window_hours),
      cooldownMinutes: Number(r.cooldown_minutes),
      isActive: r.is_active as boolean,
      emailEnabled: r.email_enabled as boolean,
      telegramEnabled: r.telegram_enabled as boolean,
    };
    const next = validate(base, patch, { cooldownMinutes: options.defaultCooldownMinutes ?? YIELD_ALERT_DEFAULT_COOLDOWN_MINUTES });
    const redefined =
      next.alertType !== base.alertType ||
      next.condition !== base.condition ||
      Number(next.threshold) !== Number(base.threshold) ||
      next.spikeUnit !== base.spikeUnit ||
      next.windowHours !== base.windowHours;
    await manager.query(
      `UPDATE yield_alerts SET alert_type = $3, condition = $4, threshold = $5, spike_unit = $6, window_hours = $7, cooldown_minutes = $8,
         is_active = $9, email_enabled = $10, telegram_enabled = $11, armed = CASE WHEN $12 THEN true ELSE armed END, updated_at = now()
       WHERE user_id = $1 AND id = $2`,
      [userId, id, next.alertType, next.condition, next.threshold, next.spikeUnit, next.windowHours, next.cooldownMinutes, next.isActive, next.emailEnabled, next.telegramEnabled, redefined],
    );
  });
  return getYieldAlert(dataSource, userId, id);
}

/** Deletes an alert and its history. YieldsError not_found when it is not the user's. */
export async function deleteYieldAlert(db: Db, userId: number, id: number): Promise<void> {
  const [rows]: [unknown[], number] = await db.query(`DELETE FROM yield_alerts WHERE user_id = $1 AND id = $2 RETURNING id`, [userId, id]);
  if (!rows.length) throw new YieldsError('not_found', 'No such yield alert');
}

export const YIELD_HISTORY_DEFAULT_LIMIT = 50;
export const YIELD_HISTORY_MAX_LIMIT = 200;

/** History cursor: `<triggered_at ms>.<log id>` of the page's last row. */
const CURSOR = /^(\d{1,15})\.(\d{1,12})$/;

/**
 * The user's alert firings, newest first (optionally of one alert: YieldsError not_found when it is
 * not theirs). `cursor` from the previous page; YieldsError invalid naming `cursor` when malformed.
 */
export async function yieldAlertHistory(db: Db, userId: number, query: YieldAlertHistoryQuery = {}): Promise<YieldAlertHistoryPage> {
  const limit = Math.min(Math.max(1, query.limit ?? YIELD_HISTORY_DEFAULT_LIMIT), YIELD_HISTORY_MAX_LIMIT);
  const values: unknown[] = [userId];
  const where = ['a.user_id = $1'];
  if (query.alertId !== undefined) {
    await getYieldAlert(db, userId, query.alertId);
    values.push(query.alertId);
    where.push(`l.alert_id = $${values.length}`);
  }
  if (query.cursor !== undefined) {
    const m = CURSOR.exec(query.cursor);
    if (!m) throw new YieldsError('invalid', 'cursor is not one this API gave', 'cursor');
    values.push(new Date(Number(m[1])), m[2]);
    where.push(`(l.triggered_at, l.id) < ($${values.length - 1}, $${values.length})`);
  }
  values.push(limit + 1);
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT l.id, l.alert_id, l.triggered_at, l.triggered_value::text AS triggered_value, l.threshold::text AS threshold, l.yield_data_id::text AS yield_data_id,
       l.message, l.email_sent, l.telegram_sent, a.pool_id, a.alert_type, a.condition, p.symbol
     FROM yield_alert_logs l JOIN yield_alerts a ON a.id = l.alert_id JOIN yield_pools p ON p.id = a.pool_id
     WHERE ${where.join(' AND ')} ORDER BY l.triggered_at DESC, l.id DESC LIMIT $${values.length}`,
    values,
  );
  const page = rows.slice(0, limit).map(
    (r): YieldAlertLogView => ({
      id: Number(r.id),
      alertId: Number(r.alert_id),
      poolId: Number(r.pool_id),
      poolSymbol: r.symbol as string,
      kind: yieldAlertKind(r.alert_type as YieldAlertType, r.condition as YieldAlertCondition),
      triggeredAt: (r.triggered_at as Date).toISOString(),
      triggeredValue: trimDecimal(r.triggered_value as string),
      threshold: trimDecimal(r.threshold as string),
      yieldDataId: (r.yield_data_id as string | null) ?? null,
      message: r.message as string,
      emailSent: r.email_sent as boolean,
      telegramSent: r.telegram_sent as boolean,
    }),
  );
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > limit && last ? `${Date.parse(last.triggeredAt)}.${last.id}` : null };
}
