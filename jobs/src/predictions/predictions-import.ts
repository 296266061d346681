// `npm run cli -- import predictions <file>`: a recorded Gamma answer applied exactly as a sync page
// (new, changed, closed and resolved markets; rows written only when their content changed; the
// resolve jobs of newly resolved markets queued), so the system can be fed offline.
import { readFile } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { PredictionsSourceError, marketContent, parseGammaEvents, parseGammaMarket, parseGammaMarkets, type GammaMarket } from './predictions.parse';
import { applyMarkets } from './predictions-markets.store';
import { queueAfterApply } from './predictions-sync';

export interface PredictionsImportResult {
  inserted: number;
  changed: number;
  unchanged: number;
  closed: number;
  resolved: number;
}

/**
 * The markets of a Gamma answer file: a `/markets` answer (an array of markets), one market
 * (`/markets/{id}`), or an `/events` answer (an array of events with their markets and tags).
 */
export function parsePredictionsFile(file: string, text: string): GammaMarket[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new PredictionsSourceError('malformed', `${file}: not JSON (${(error as Error).message})`);
  }
  try {
    if (Array.isArray(doc) && doc.length > 0 && doc.every((item) => item !== null && typeof item === 'object' && Array.isArray((item as { markets?: unknown }).markets) && !('question' in item))) {
      return parseGammaEvents(doc, file).flatMap((event) => event.markets);
    }
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc) && 'question' in doc) return [parseGammaMarket(doc, `${file}: market`)];
    return parseGammaMarkets(doc, file);
  } catch (error) {
    if (error instanceof PredictionsSourceError && !error.message.startsWith(file)) throw new PredictionsSourceError(error.reason, `${file}: ${error.message}`);
    throw error;
  }
}

/**
 * Imports a Gamma answer file (data_source 'import'). The whole file is parsed first: a malformed one
 * throws PredictionsSourceError naming the record and field, and nothing is written. Then one
 * transaction applies it as a sync page would, and the resolve jobs and a mispricing run are queued.
 */
export async function importPredictionMarkets(deps: { dataSource: DataSource; queues: JobQueues; clock: Clock }, file: string): Promise<PredictionsImportResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PredictionsSourceError('malformed', `${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (error as Error).message}`);
  }
  const markets = parsePredictionsFile(file, text);
  const contents = markets.map((m) => marketContent(m));
  const now = deps.clock.now();
  const applied = await deps.dataSource.transaction((manager) => applyMarkets(manager, contents, { dataSource: 'import', now }));
  await queueAfterApply(deps, applied.resolved, now);
  return { inserted: applied.inserted, changed: applied.changed, unchanged: applied.unchanged, closed: applied.closed, resolved: applied.resolved.length };
}
