import type { DataSource, EntityManager } from 'typeorm';
import { computeCotAnalytics, DEFAULT_COT_LOOKBACK, type CotAnalyticsInput, type CotAnalyticsPoint } from './cot-analytics';
import { inTransaction, type CotImportCounts } from './cot-import';

export interface CotInstrumentRef {
  id: number;
  cftcCode: string;
}

interface PositionRow extends CotAnalyticsInput {
  positionId: string;
}

/** Every stored report of one instrument, oldest first, with what the analytics need. */
export async function loadCotSeries(manager: EntityManager | DataSource, instrumentId: number): Promise<PositionRow[]> {
  const rows: Record<string, string | number>[] = await manager.query(
    `SELECT p.id AS "positionId", to_char(r.report_date, 'YYYY-MM-DD') AS "reportDate", p.open_interest AS "openInterest",
            p.dealer_long AS "dealerLong", p.dealer_short AS "dealerShort",
            p.asset_manager_long AS "assetManagerLong", p.asset_manager_short AS "assetManagerShort",
            p.leveraged_long AS "leveragedLong", p.leveraged_short AS "leveragedShort",
            p.other_long AS "otherLong", p.other_short AS "otherShort",
            p.non_reportable_long AS "nonReportableLong", p.non_reportable_short AS "nonReportableShort"
     FROM cot_positions p JOIN cot_reports r ON r.id = p.report_id
     WHERE p.instrument_id = $1
     ORDER BY r.report_date`,
    [instrumentId],
  );
  return rows.map((r) => ({ ...(r as unknown as PositionRow), positionId: String(r.positionId) }));
}

export async function findCotInstrument(manager: EntityManager | DataSource, cftcCode: string): Promise<CotInstrumentRef | null> {
  const rows: { id: number; cftc_code: string }[] = await manager.query(`SELECT id, cftc_code FROM cot_instruments WHERE cftc_code = $1`, [cftcCode]);
  return rows[0] ? { id: rows[0].id, cftcCode: rows[0].cftc_code } : null;
}

const ANALYTICS_COLUMNS = [
  'position_id',
  'leveraged_net_percent',
  'commercial_net_percent',
  'asset_manager_net_percent',
  'dealer_net_percent',
  'other_net_percent',
  'non_reportable_net_percent',
  'leveraged_percentile_rank',
  'commercial_percentile_rank',
  'asset_manager_percentile_rank',
  'is_leveraged_extreme',
  'is_commercial_extreme',
  'is_asset_manager_extreme',
  'divergence_score',
  'divergence_type',
  'alert_level',
  'leveraged_cot_index',
  'commercial_cot_index',
  'asset_manager_cot_index',
  'lookback',
  'history_size',
  'is_provisional',
  'alert_events',
] as const;

function analyticsValues(positionId: string, p: CotAnalyticsPoint): unknown[] {
  return [
    positionId,
    p.netPercent.leveraged,
    p.netPercent.commercial,
    p.netPercent.assetManager,
    p.netPercent.dealer,
    p.netPercent.other,
    p.netPercent.nonReportable,
    p.percentileRank.leveraged,
    p.percentileRank.commercial,
    p.percentileRank.assetManager,
    p.extremes.leveraged !== null,
    p.extremes.commercial !== null,
    p.extremes.assetManager !== null,
    p.divergenceScore,
    p.divergenceType,
    p.alertLevel,
    p.cotIndex.leveraged,
    p.cotIndex.commercial,
    p.cotIndex.assetManager,
    p.lookback,
    p.windowSize,
    p.provisional,
    JSON.stringify(p.events),
  ];
}

const BATCH = 1000;

/**
 * Recomputes and stores the analytics of every report of one instrument (one cot_analytics row per
 * position). Idempotent: rows whose values did not change are not written.
 */
export async function recomputeCotAnalytics(
  db: DataSource | EntityManager,
  instrumentId: number,
  options: { lookback?: number } = {},
): Promise<CotImportCounts> {
  return inTransaction(db, async (manager) => {
    // One recompute per instrument at a time: two would race on the same rows.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cot-analytics:${instrumentId}`]);
    const series = await loadCotSeries(manager, instrumentId);
    const points = computeCotAnalytics(series, { lookback: options.lookback ?? DEFAULT_COT_LOOKBACK });
    const byDate = new Map(series.map((s) => [s.reportDate, s.positionId]));
    const result: CotImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
    const data = ANALYTICS_COLUMNS.filter((c) => c !== 'position_id');
    for (let i = 0; i < points.length; i += BATCH) {
      const chunk = points.slice(i, i + BATCH);
      const values: unknown[] = [];
      const tuples = chunk.map((point) => {
        const start = values.length;
        values.push(...analyticsValues(byDate.get(point.reportDate)!, point));
        return `(${ANALYTICS_COLUMNS.map((c, j) => `$${start + j + 1}${c === 'alert_events' ? '::jsonb' : ''}`).join(', ')})`;
      });
      const returned: { inserted: boolean }[] = await manager.query(
        `INSERT INTO cot_analytics (${ANALYTICS_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
         ON CONFLICT (position_id) DO UPDATE SET ${data.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
         WHERE (${data.map((c) => `cot_analytics.${c}`).join(', ')}) IS DISTINCT FROM (${data.map((c) => `EXCLUDED.${c}`).join(', ')})
         RETURNING (xmax = 0) AS inserted`,
        values,
      );
      const inserted = returned.filter((r) => r.inserted).length;
      result.inserted += inserted;
      result.updated += returned.length - inserted;
      result.unchanged += chunk.length - returned.length;
    }
    return result;
  });
}

/**
 * Recomputes many instruments, one transaction each, `concurrency` at a time (each needs a
 * connection of the pool; a caller's EntityManager runs them one by one); returns the summed counts.
 */
export async function recomputeCotAnalyticsFor(
  db: DataSource | EntityManager,
  instrumentIds: number[],
  options: { lookback?: number; concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<CotImportCounts> {
  const total: CotImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
  const concurrency = 'isInitialized' in db ? Math.max(1, options.concurrency ?? 1) : 1;
  const queue = [...instrumentIds];
  let done = 0;
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const counts = await recomputeCotAnalytics(db, id, options);
      total.inserted += counts.inserted;
      total.updated += counts.updated;
      total.unchanged += counts.unchanged;
      done += 1;
      options.onProgress?.(done, instrumentIds.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length || 1) }, worker));
  return total;
}
