import type { DataSource, EntityManager } from 'typeorm';
import { computeCotAnalytics, DEFAULT_COT_LOOKBACK } from './cot-analytics';
import { inTransaction, type CotImportCounts } from './cot-import.store';
import { loadCotSeries, lockCotAnalytics, upsertCotAnalytics } from './cot.store';

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
    await lockCotAnalytics(manager, instrumentId);
    const series = await loadCotSeries(manager, instrumentId);
    const points = computeCotAnalytics(series, { lookback: options.lookback ?? DEFAULT_COT_LOOKBACK });
    const byDate = new Map(series.map((s) => [s.reportDate, s.positionId]));
    const result: CotImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
    for (let i = 0; i < points.length; i += BATCH) {
      const chunk = points.slice(i, i + BATCH);
      const written = await upsertCotAnalytics(
        manager,
        chunk.map((point) => ({ positionId: byDate.get(point.reportDate)!, point })),
      );
      result.inserted += written.inserted;
      result.updated += written.updated;
      result.unchanged += chunk.length - written.inserted - written.updated;
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
