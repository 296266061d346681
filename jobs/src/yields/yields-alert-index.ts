// The yield alerts in memory, per worker process: loaded once, then kept up to date from the rows
// changed since (updated_at) and the active count, so an evaluation reads only the snapshot's pool
// values (thousands of rows) rather than every alert (100,000). The index only proposes: a firing
// is re-checked under the alert's row lock (yields-evaluate.ts), so a stale entry can never fire
// twice or fire a deleted alert; a missed change is caught by the next refresh.
import type { DataSource, EntityManager } from 'typeorm';
import type { YieldAlertCondition, YieldAlertType, YieldSpikeUnit } from './yields.shapes';

type Db = DataSource | EntityManager;

/** An alert's definition and state as the evaluation needs them. */
export interface IndexedYieldAlert {
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
}

/** Changes are read back this far before the previous refresh (a transaction that committed after it). */
export const INDEX_REFRESH_OVERLAP_MS = 5 * 60_000;

const COLUMNS = `a.id, a.user_id, a.pool_id, a.alert_type, a.condition, a.threshold::float8 AS threshold, a.spike_unit, a.window_hours, a.cooldown_minutes,
  a.armed, a.last_triggered, a.email_enabled, a.telegram_enabled, a.is_active, a.updated_at`;

function toAlert(r: Record<string, unknown>): IndexedYieldAlert {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    poolId: Number(r.pool_id),
    alertType: r.alert_type as YieldAlertType,
    condition: r.condition as YieldAlertCondition,
    threshold: Number(r.threshold),
    spikeUnit: (r.spike_unit as YieldSpikeUnit | null) ?? null,
    windowHours: r.window_hours === null ? null : Number(r.window_hours),
    cooldownMinutes: Number(r.cooldown_minutes),
    armed: r.armed as boolean,
    lastTriggered: (r.last_triggered as Date | null) ?? null,
    emailEnabled: r.email_enabled as boolean,
    telegramEnabled: r.telegram_enabled as boolean,
  };
}

export class YieldAlertIndex {
  private readonly byId = new Map<number, IndexedYieldAlert>();
  private readonly byPool = new Map<number, Map<number, IndexedYieldAlert>>();
  /** The database's time at the previous refresh (updated_at is always the database's now()). */
  private refreshedAt: Date | null = null;
  private loaded = false;

  get size(): number {
    return this.byId.size;
  }

  /** The active alerts of a pool (no copy: do not change the index while iterating). */
  ofPool(poolId: number): Iterable<IndexedYieldAlert> {
    return this.byPool.get(poolId)?.values() ?? [];
  }

  /**
   * Brings the index up to date: everything on the first call; then the rows changed (updated_at)
   * since the previous refresh less INDEX_REFRESH_OVERLAP_MS, and, when the active count still
   * differs, the active ids (deleted alerts dropped; a missing one reloads everything).
   */
  async refresh(db: Db): Promise<{ mode: 'full' | 'incremental'; changed: number }> {
    const [{ n, at }]: Array<{ n: number; at: Date }> = await db.query(`SELECT count(*) FILTER (WHERE is_active)::int AS n, now() AS at FROM yield_alerts`);
    if (!this.loaded || !this.refreshedAt) return this.full(db, at);
    const rows: Array<Record<string, unknown>> = await db.query(`SELECT ${COLUMNS} FROM yield_alerts a WHERE a.updated_at > $1`, [
      new Date(this.refreshedAt.getTime() - INDEX_REFRESH_OVERLAP_MS),
    ]);
    let changed = 0;
    for (const r of rows) {
      changed++;
      if (r.is_active) this.put(toAlert(r));
      else this.remove(Number(r.id));
    }
    this.refreshedAt = at;
    if (this.byId.size !== n) {
      const active: Array<{ id: number }> = await db.query(`SELECT id FROM yield_alerts WHERE is_active`);
      const ids = new Set(active.map((r) => Number(r.id)));
      for (const id of [...this.byId.keys()]) if (!ids.has(id)) this.remove(id);
      for (const id of ids) if (!this.byId.has(id)) return this.full(db, at);
    }
    return { mode: 'incremental', changed };
  }

  /** After a firing or a re-arm this process wrote. */
  update(id: number, state: Partial<Pick<IndexedYieldAlert, 'armed' | 'lastTriggered'>>): void {
    const alert = this.byId.get(id);
    if (alert) Object.assign(alert, state);
  }

  private async full(db: Db, at: Date): Promise<{ mode: 'full'; changed: number }> {
    const rows: Array<Record<string, unknown>> = await db.query(`SELECT ${COLUMNS} FROM yield_alerts a WHERE a.is_active`);
    this.byId.clear();
    this.byPool.clear();
    for (const r of rows) this.put(toAlert(r));
    this.refreshedAt = at;
    this.loaded = true;
    return { mode: 'full', changed: rows.length };
  }

  private put(alert: IndexedYieldAlert): void {
    const previous = this.byId.get(alert.id);
    if (previous && previous.poolId !== alert.poolId) this.byPool.get(previous.poolId)?.delete(alert.id);
    this.byId.set(alert.id, alert);
    let pool = this.byPool.get(alert.poolId);
    if (!pool) this.byPool.set(alert.poolId, (pool = new Map()));
    pool.set(alert.id, alert);
  }

  private remove(id: number): void {
    const alert = this.byId.get(id);
    if (!alert) return;
    this.byId.delete(id);
    this.byPool.get(alert.poolId)?.delete(id);
  }
}
