import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { openCotFile } from './cftc.client';
import { importCotRows } from './cot-import.store';
import { recomputeCotAnalyticsFor } from './cot-recompute';

/**
 * Real CFTC TFF futures-only rows (E-mini S&P 500, Euro FX, 10-year note, Bitcoin; 2022-01-04 to
 * 2022-08-16), as published in FinFut22.txt. The demo data, and the default replay file.
 */
export const COT_SAMPLE_PATH = join(__dirname, 'data', 'cftc_tff_futures_only_2022_sample.csv');

/** Loads the bundled sample and its analytics: the COT screens have real data before the first live poll. */
export async function seedCotSample(manager: EntityManager, now: Date = new Date()): Promise<{ positions: number }> {
  const file = openCotFile(COT_SAMPLE_PATH);
  const result = await importCotRows(manager, file.rows, { sourceUrl: file.sourceUrl, now });
  await recomputeCotAnalyticsFor(manager, result.instrumentIds);
  return { positions: result.positions.inserted };
}
