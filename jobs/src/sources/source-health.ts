import type { DataSource, EntityManager } from 'typeorm';
import { SourceHealth } from '@tickerbell/entities';
import type { Clock } from '../runtime/clock';

export interface SourceHealthDeps {
  dataSource: DataSource;
  clock: Clock;
}

/**
 * Records a success (with the date of the newest data) or a failure of a source in source_health,
 * the table behind /status. Shared by every source client (cftc, binance, coingecko, alpaca...).
 */
export async function recordSourceHealth(
  deps: SourceHealthDeps,
  source: string,
  outcome: { ok: true; dataAt?: Date | null; details?: Record<string, unknown> } | { ok: false; error: string },
): Promise<void> {
  const now = deps.clock.now();
  if (outcome.ok) {
    await deps.dataSource.query(
      `INSERT INTO source_health (source, last_success_at, last_data_at, consecutive_failures, details, updated_at)
       VALUES ($1, $2, $3, 0, $4::jsonb, $2)
       ON CONFLICT (source) DO UPDATE SET last_success_at = $2,
         last_data_at = GREATEST(source_health.last_data_at, EXCLUDED.last_data_at),
         consecutive_failures = 0, details = COALESCE(EXCLUDED.details, source_health.details), updated_at = $2`,
      [source, now, outcome.dataAt ?? null, outcome.details ? JSON.stringify(outcome.details) : null],
    );
    return;
  }
  await deps.dataSource.query(
    `INSERT INTO source_health (source, last_error_at, last_error, consecutive_failures, updated_at)
     VALUES ($1, $2, $3, 1, $2)
     ON CONFLICT (source) DO UPDATE SET last_error_at = $2, last_error = $3,
       consecutive_failures = source_health.consecutive_failures + 1, updated_at = $2`,
    [source, now, outcome.error.slice(0, 2000)],
  );
}

/** Every source's health row, by source name (the /status page's freshness table). */
export function listSourceHealth(db: DataSource | EntityManager): Promise<SourceHealth[]> {
  return db.getRepository(SourceHealth).find({ order: { source: 'ASC' } });
}
