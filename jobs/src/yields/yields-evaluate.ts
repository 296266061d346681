// Yield alert evaluation after each snapshot: every active alert of a tracked pool against the
// pool's new row, with hysteresis and a cooldown (stepAlert), written exactly once per alert and
// snapshot (row locks + the unique (alert_id, yield_data_id) of yield_alert_logs), the log, the
// alert's state and the notification in one transaction, then dispatched.
import type { DataSource } from 'typeorm';
import type { NotificationRequest, WrittenNotification } from '../notifications/notify';
import { dispatchNotifications, writeNotifications } from '../notifications/notify';
import type { JobContext } from '../runtime/job-handler';
import { alertValue, hysteresisMargin, stepAlert, yieldAlertKind, yieldAlertMessage } from './yields-analytics';
import type { YieldAlertCondition, YieldAlertType, YieldSpikeUnit } from './yields.shapes';
import { YieldAlertIndex, type IndexedYieldAlert } from './yields-alert-index';
import { latestSnapshotAt, snapshotStored } from './yields.store';

/** notifications.activity_type of a yield alert. */
export const YIELD_ACTIVITY_TYPE = 'YIELD_ALERT';

/** An active alert with the values of its pool's row in the snapshot. */
export interface YieldAlertCandidate {
  id: number;
  userId: number;
  poolId: number;
  alertType: YieldAlertType;
  condition: YieldAlertCondition;
  threshold: number;
  spikeUnit: YieldSpikeUnit | null;
  windowHours: number | null;
  cooldownMinutes: number;
  armed: boolean;
  lastTriggered: Date | null;
  emailEnabled: boolean;
  telegramEnabled: boolean;
  dataId: string;
  apr: number | null;
  vtr: number | null;
  tvlUsd: number | null;
  aprMean30d: number | null;
  aprSigma30d: number | null;
  symbol: string;
  chain: string;
  dex: string;
}

export interface EvaluationPlan {
  fire: Array<{ candidate: YieldAlertCandidate; value: number }>;
  rearm: number[];
}

/** `${poolId}:${windowHours}` -> the highest TVL of that pool within that window (tvl_drop). */
export type PeakTvls = ReadonlyMap<string, number>;
export const peakKey = (poolId: number, windowHours: number) => `${poolId}:${windowHours}`;

/** The decision for one alert on its pool's values: its value, and whether it fires or re-arms. */
function decide(a: IndexedYieldAlert, v: Omit<SnapshotPoolValues, 'dataId' | 'symbol' | 'chain' | 'dex'>, peaks: PeakTvls, now: Date): { value: number | null; fire: boolean; rearm: boolean } {
  const value = alertValue(a.alertType, a.spikeUnit, {
    apr: v.apr,
    vtr: v.vtr,
    tvlUsd: v.tvlUsd,
    aprMean30d: v.aprMean30d,
    aprSigma30d: v.aprSigma30d,
    peakTvlUsd: a.alertType === 'tvl_drop' ? (peaks.get(peakKey(a.poolId, a.windowHours ?? 24)) ?? null) : null,
  });
  const step = stepAlert(
    { condition: a.condition, threshold: a.threshold, margin: hysteresisMargin(a.alertType, a.threshold), armed: a.armed, lastTriggered: a.lastTriggered, cooldownMinutes: a.cooldownMinutes },
    value,
    now,
  );
  return { value, fire: step.fire, rearm: step.armed && !a.armed };
}

/** The pure step over every candidate: which fire, which re-arm (the rest change nothing). */
export function planEvaluation(candidates: readonly YieldAlertCandidate[], peaks: PeakTvls, now: Date): EvaluationPlan {
  const plan: EvaluationPlan = { fire: [], rearm: [] };
  for (const c of candidates) {
    const d = decide(c, c, peaks, now);
    if (d.fire) plan.fire.push({ candidate: c, value: d.value as number });
    else if (d.rearm) plan.rearm.push(c.id);
  }
  return plan;
}

/** The same pass straight over the index and the snapshot's values: a candidate is built only for an alert that fires. */
export function planFromIndex(index: YieldAlertIndex, values: ReadonlyMap<number, SnapshotPoolValues>, peaks: PeakTvls, now: Date): EvaluationPlan & { alerts: number } {
  const plan: EvaluationPlan & { alerts: number } = { fire: [], rearm: [], alerts: 0 };
  for (const [poolId, v] of values) {
    for (const a of index.ofPool(poolId)) {
      plan.alerts++;
      const d = decide(a, v, peaks, now);
      if (d.fire) plan.fire.push({ candidate: candidateOf(a, v), value: d.value as number });
      else if (d.rearm) plan.rearm.push(a.id);
    }
  }
  return plan;
}

/** The (pool, window) pairs of the tvl_drop alerts on the snapshot's pools. */
function tvlDropPairs(index: YieldAlertIndex, values: ReadonlyMap<number, SnapshotPoolValues>): Array<{ poolId: number; windowHours: number }> {
  const pairs = new Map<string, { poolId: number; windowHours: number }>();
  for (const poolId of values.keys()) {
    for (const a of index.ofPool(poolId)) if (a.alertType === 'tvl_drop') pairs.set(peakKey(poolId, a.windowHours ?? 24), { poolId, windowHours: a.windowHours ?? 24 });
  }
  return [...pairs.values()];
}

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A pool's values in one snapshot (what its alerts are evaluated on). */
export interface SnapshotPoolValues {
  dataId: string;
  apr: number | null;
  vtr: number | null;
  tvlUsd: number | null;
  aprMean30d: number | null;
  aprSigma30d: number | null;
  symbol: string;
  chain: string;
  dex: string;
}

/** The rows of the snapshot at `at` (one per tracked pool), by pool id. */
export async function snapshotPoolValues(db: DataSource, at: Date): Promise<Map<number, SnapshotPoolValues>> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT d.id::text AS data_id, d.pool_id, d.apr::float8 AS apr, d.vtr::float8 AS vtr, d.tvl_usd::float8 AS tvl_usd, d.apr_mean30d::float8 AS apr_mean30d,
       d.apr_sigma30d::float8 AS apr_sigma30d, p.symbol, p.chain, p.dex
     FROM yield_data d JOIN yield_pools p ON p.id = d.pool_id WHERE d.timestamp = $1 AND d.data_source <> 'defillama-chart'`,
    [at],
  );
  return new Map(
    rows.map((r) => [
      Number(r.pool_id),
      {
        dataId: r.data_id as string,
        apr: n(r.apr),
        vtr: n(r.vtr),
        tvlUsd: n(r.tvl_usd),
        aprMean30d: n(r.apr_mean30d),
        aprSigma30d: n(r.apr_sigma30d),
        symbol: r.symbol as string,
        chain: r.chain as string,
        dex: r.dex as string,
      },
    ]),
  );
}

/** One literal shape for every candidate (the pure pass reads them by the 100,000). */
function candidateOf(a: IndexedYieldAlert, v: SnapshotPoolValues): YieldAlertCandidate {
  return {
    id: a.id,
    userId: a.userId,
    poolId: a.poolId,
    alertType: a.alertType,
    condition: a.condition,
    threshold: a.threshold,
    spikeUnit: a.spikeUnit,
    windowHours: a.windowHours,
    cooldownMinutes: a.cooldownMinutes,
    armed: a.armed,
    lastTriggered: a.lastTriggered,
    emailEnabled: a.emailEnabled,
    telegramEnabled: a.telegramEnabled,
    dataId: v.dataId,
    apr: v.apr,
    vtr: v.vtr,
    tvlUsd: v.tvlUsd,
    aprMean30d: v.aprMean30d,
    aprSigma30d: v.aprSigma30d,
    symbol: v.symbol,
    chain: v.chain,
    dex: v.dex,
  };
}

/** The index's alerts on the snapshot's pools, each with its pool's values. */
export function candidatesOf(index: YieldAlertIndex, values: ReadonlyMap<number, SnapshotPoolValues>): YieldAlertCandidate[] {
  const out: YieldAlertCandidate[] = [];
  for (const [poolId, v] of values) for (const a of index.ofPool(poolId)) out.push(candidateOf(a, v));
  return out;
}

/** The active alerts on pools with a row in the snapshot at `at`, with that row's values (a fresh index: everything read). */
export async function loadCandidates(db: DataSource, at: Date): Promise<YieldAlertCandidate[]> {
  const index = new YieldAlertIndex();
  await index.refresh(db);
  return candidatesOf(index, await snapshotPoolValues(db, at));
}

/** The highest stored TVL of each (pool, window) within (at - window, at]. */
export async function peakTvls(db: DataSource, at: Date, pairs: ReadonlyArray<{ poolId: number; windowHours: number }>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!pairs.length) return out;
  const rows: Array<{ pool_id: number; window_hours: number; peak: number | null }> = await db.query(
    `SELECT x.pool_id, x.window_hours, (SELECT max(d.tvl_usd)::float8 FROM yield_data d
        WHERE d.pool_id = x.pool_id AND d.timestamp > $3::timestamptz - make_interval(hours => x.window_hours) AND d.timestamp <= $3) AS peak
     FROM unnest($1::int[], $2::int[]) AS x(pool_id, window_hours)`,
    [pairs.map((p) => p.poolId), pairs.map((p) => p.windowHours), at],
  );
  for (const r of rows) if (r.peak !== null) out.set(peakKey(Number(r.pool_id), Number(r.window_hours)), Number(r.peak));
  return out;
}

export interface EvaluateOutcome {
  status: 'evaluated' | 'superseded' | 'missing';
  snapshotAt: string;
  alerts: number;
  fired: number;
  rearmed: number;
  /** Notifications dispatched (new firings, and firings of this snapshot a previous attempt had not dispatched). */
  dispatched: number;
  /** Where the time went (ms): the index refresh, the snapshot's pool values, TVL peaks, the pure pass, the writes, the dispatch. */
  phases?: { refresh: number; values: number; peaks: number; decide: number; writes: number; dispatch: number };
}

/** Firings written per transaction. */
const FIRE_BATCH = 200;

export type EvaluateContext = Pick<JobContext, 'dataSource' | 'queues' | 'redis' | 'clock' | 'logger'>;

/**
 * Evaluates the yield alerts against the snapshot at `at` (only the newest one: an older snapshot
 * is 'superseded'), from the worker's in-memory index (refreshed first; a fresh one when none is
 * given). Safe to run twice at once or again: a firing is re-checked under the alert's row lock
 * (still armed, cooldown over, owner live) and its log is unique per alert and snapshot row.
 */
export async function evaluateYieldAlerts(context: EvaluateContext, at: Date, index: YieldAlertIndex = new YieldAlertIndex()): Promise<EvaluateOutcome> {
  const db = context.dataSource;
  const now = context.clock.now();
  const base = { snapshotAt: at.toISOString(), alerts: 0, fired: 0, rearmed: 0, dispatched: 0 };
  const latest = await latestSnapshotAt(db);
  if (latest && latest.getTime() > at.getTime()) return { status: 'superseded', ...base };
  if (!(await snapshotStored(db, at))) return { status: 'missing', ...base };

  const t0 = performance.now();
  await index.refresh(db);
  const t1 = performance.now();
  const values = await snapshotPoolValues(db, at);
  const t2 = performance.now();
  const peaks = await peakTvls(db, at, tvlDropPairs(index, values));
  const t3 = performance.now();
  const plan = planFromIndex(index, values, peaks, now);
  const t4 = performance.now();

  let rearmed = 0;
  if (plan.rearm.length) {
    const [, count]: [unknown, number] = await db.query(`UPDATE yield_alerts SET armed = true, updated_at = now() WHERE id = ANY($1) AND NOT armed AND is_active`, [plan.rearm]);
    rearmed = count;
    for (const id of plan.rearm) index.update(id, { armed: true });
  }
  let fired = 0;
  for (let i = 0; i < plan.fire.length; i += FIRE_BATCH) {
    const written = await fireBatch(db, plan.fire.slice(i, i + FIRE_BATCH), now);
    for (const id of written) index.update(id, { armed: false, lastTriggered: now });
    fired += written.length;
  }
  const t5 = performance.now();
  const dispatched = await dispatchSnapshotFirings(context, at, now);
  const ms = (a: number, b: number) => Math.round((b - a) * 10) / 10;
  return {
    status: 'evaluated',
    snapshotAt: at.toISOString(),
    alerts: plan.alerts,
    fired,
    rearmed,
    dispatched,
    phases: { refresh: ms(t0, t1), values: ms(t1, t2), peaks: ms(t2, t3), decide: ms(t3, t4), writes: ms(t4, t5), dispatch: ms(t5, performance.now()) },
  };
}

/** Writes one batch of firings: under the alerts' row locks, re-checked, log + state + notification. Answers the alerts that fired. */
async function fireBatch(db: DataSource, batch: EvaluationPlan['fire'], now: Date): Promise<number[]> {
  return db.transaction(async (manager) => {
    const locked: Array<{ id: number; armed: boolean; last_triggered: Date | null; cooldown_minutes: number; threshold: number; condition: string; alert_type: string; is_active: boolean }> =
      await manager.query(
        `SELECT a.id, a.armed, a.last_triggered, a.cooldown_minutes, a.threshold::float8 AS threshold, a.condition, a.alert_type, a.is_active
         FROM yield_alerts a JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL WHERE a.id = ANY($1) ORDER BY a.id FOR UPDATE OF a`,
        [batch.map((f) => f.candidate.id)],
      );
    const state = new Map(locked.map((r) => [Number(r.id), r]));
    const go = batch.filter(({ candidate: c, value }) => {
      const s = state.get(c.id);
      // Deleted, changed or deactivated since it was read, or another evaluation fired it: not now.
      if (!s || !s.is_active || s.alert_type !== c.alertType || s.condition !== c.condition || Number(s.threshold) !== c.threshold) return false;
      return stepAlert(
        { condition: c.condition, threshold: c.threshold, margin: hysteresisMargin(c.alertType, c.threshold), armed: s.armed, lastTriggered: s.last_triggered, cooldownMinutes: Number(s.cooldown_minutes) },
        value,
        now,
      ).fire;
    });
    if (!go.length) return [];
    const messages = go.map(({ candidate: c, value }) => yieldAlertMessage(c, c, value));
    const logs: Array<{ id: number; alert_id: number }> = await manager.query(
      `INSERT INTO yield_alert_logs (alert_id, yield_data_id, triggered_at, triggered_value, threshold, message)
       SELECT * FROM unnest($1::int[], $2::bigint[], $3::timestamptz[], $4::numeric[], $5::numeric[], $6::varchar[])
       ON CONFLICT (alert_id, yield_data_id) DO NOTHING RETURNING id, alert_id`,
      [
        go.map((f) => f.candidate.id),
        go.map((f) => f.candidate.dataId),
        go.map(() => now),
        go.map((f) => clampNumeric(f.value)),
        go.map((f) => f.candidate.threshold),
        messages.map((m) => m.slice(0, 300)),
      ],
    );
    if (!logs.length) return [];
    const logOf = new Map(logs.map((l) => [Number(l.alert_id), Number(l.id)]));
    const written = go.filter((f) => logOf.has(f.candidate.id));
    await manager.query(`UPDATE yield_alerts SET armed = false, last_triggered = $2, updated_at = now() WHERE id = ANY($1)`, [written.map((f) => f.candidate.id), now]);
    await writeNotifications(
      manager,
      written.map((f) => notificationRequest(f.candidate, logOf.get(f.candidate.id) as number, f.value)),
      { now },
    );
    return written.map((f) => f.candidate.id);
  });
}

/** numeric(24,4): a value past it (an absurd spike) is stored at the bound. */
function clampNumeric(value: number): number {
  const max = 9.9999e19;
  return Math.max(-max, Math.min(max, value));
}

/** The notification of a firing: in-app and live always, a push, email and Telegram as the alert asks (with delivery receipts on the log). */
export function notificationRequest(c: Pick<YieldAlertCandidate, 'userId' | 'poolId' | 'alertType' | 'condition' | 'threshold' | 'spikeUnit' | 'windowHours' | 'emailEnabled' | 'telegramEnabled' | 'symbol' | 'chain' | 'dex' | 'id'>, logId: number, value: number): NotificationRequest {
  const message = yieldAlertMessage(c, c, value);
  const url = `/dashboard/yields/pools/${c.poolId}`;
  return {
    recipients: [c.userId],
    content: {
      title: `Yield alert: ${c.symbol}`,
      message,
      type: 'warning',
      activityType: YIELD_ACTIVITY_TYPE,
      symbolId: c.symbol,
      details: { alertId: c.id, poolId: c.poolId, logId, kind: yieldAlertKind(c.alertType, c.condition), value, threshold: c.threshold, url, importance: 'high' },
    },
    dedupeKey: `yield-alert:${logId}`,
    channels: {
      push: { ttlSeconds: 6 * 3600, urgency: 'high', topic: null, url },
      email: c.emailEnabled
        ? {
            to: 'all',
            text: `${message}\n\nYou receive this email because your yield alert has email on. Manage your yield alerts in Tickerbell under Yields.`,
            receipt: { target: 'yield_alert_logs.email_sent', id: logId },
          }
        : null,
      telegram: c.telegramEnabled ? { text: message, receipt: { target: 'yield_alert_logs.telegram_sent', id: logId } } : null,
    },
  };
}

/**
 * Dispatches the notifications of every firing on the snapshot at `at` (this run's and any an
 * earlier attempt wrote but did not dispatch): deterministic job ids, so a repeat adds nothing.
 */
async function dispatchSnapshotFirings(context: EvaluateContext, at: Date, now: Date): Promise<number> {
  const rows: Array<Record<string, unknown>> = await context.dataSource.query(
    `SELECT l.id AS log_id, l.triggered_value::float8 AS value, a.id, a.user_id, a.pool_id, a.alert_type, a.condition, a.threshold::float8 AS threshold, a.spike_unit,
       a.window_hours, a.email_enabled, a.telegram_enabled, p.symbol, p.chain, p.dex
     FROM yield_alert_logs l JOIN yield_data d ON d.id = l.yield_data_id AND d.timestamp = $1
     JOIN yield_alerts a ON a.id = l.alert_id JOIN yield_pools p ON p.id = a.pool_id`,
    [at],
  );
  if (!rows.length) return 0;
  const requests = rows.map((r) =>
    notificationRequest(
      {
        id: Number(r.id),
        userId: Number(r.user_id),
        poolId: Number(r.pool_id),
        alertType: r.alert_type as YieldAlertType,
        condition: r.condition as YieldAlertCondition,
        threshold: Number(r.threshold),
        spikeUnit: (r.spike_unit as YieldSpikeUnit | null) ?? null,
        windowHours: n(r.window_hours),
        emailEnabled: r.email_enabled as boolean,
        telegramEnabled: r.telegram_enabled as boolean,
        symbol: r.symbol as string,
        chain: r.chain as string,
        dex: r.dex as string,
      },
      Number(r.log_id),
      Number(r.value),
    ),
  );
  const written: WrittenNotification[] = await writeNotifications(context.dataSource, requests, { now, existing: 'include' });
  await dispatchNotifications(context, written);
  return written.length;
}
