import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import type { CftcReport, CftcSource } from './cftc.client';
import { importCotRows, type CotImportResult } from './cot-import.store';
import { cotPollDecision } from './cot-release';
import { cotJobIds } from './cot.jobs';
import { cotReportsMissingAnalytics, latestStoredCotReport } from './cot.store';

export interface CotPipelineDeps {
  dataSource: DataSource;
  source: CftcSource;
  queues: JobQueues;
  clock: Clock;
}

export type FetchLatestOutcome =
  | { status: 'up-to-date'; expectedReportDate: string; latestStored: string; analyticsQueued: number }
  | { status: 'not-yet-released'; expectedReportDate: string; latestAvailable: string | null; analyticsQueued: number }
  | { status: 'already-stored'; reportDate: string; analyticsQueued: number }
  | { status: 'imported'; reportDate: string; import: Omit<CotImportResult, 'instrumentIds'>; analyticsQueued: number };

/**
 * Every import queues a recompute of each instrument it held: the new rows (a new week, an older
 * year, a correction) change the windows, so this is new work, never deduplicated against older runs.
 */
async function storeAndQueue(deps: CotPipelineDeps, report: CftcReport): Promise<{ result: CotImportResult; queued: number }> {
  const result = await importCotRows(deps.dataSource, report.rows, { sourceUrl: report.sourceUrl, now: deps.clock.now() });
  const codes = [...new Set(report.rows.map((r) => r.cftcCode))];
  await deps.queues.addBulk(codes.map((cftcCode) => ({ name: 'cot.recompute-analytics' as const, data: { cftcCode } })));
  return { result, queued: codes.length };
}

/**
 * Self-healing: positions of the newest stored report without analytics (an import committed but
 * its jobs were never queued, e.g. a crash in between) get their recompute queued, once per report.
 */
export async function queueMissingCotAnalytics(deps: Pick<CotPipelineDeps, 'dataSource' | 'queues'>): Promise<number> {
  const missing = await cotReportsMissingAnalytics(deps.dataSource);
  if (!missing.length) return 0;
  await deps.queues.addBulk(
    missing.map((m) => ({
      name: 'cot.recompute-analytics' as const,
      data: { cftcCode: m.cftcCode },
      options: { jobId: cotJobIds.analytics(m.cftcCode, m.reportDate) },
    })),
  );
  return missing.length;
}

/**
 * One poll: skip without touching the network when the report due by now is stored; otherwise ask
 * the source for its newest report and, when it is new, store it and queue the analytics.
 */
export async function fetchLatestCotReport(deps: CotPipelineDeps, options: { force?: boolean } = {}): Promise<FetchLatestOutcome> {
  const now = deps.clock.now();
  const decision = cotPollDecision(now, await latestStoredCotReport(deps.dataSource));
  if (decision.action === 'skip' && !options.force) {
    const analyticsQueued = await queueMissingCotAnalytics(deps);
    return { status: 'up-to-date', expectedReportDate: decision.expectedReportDate, latestStored: decision.latestStored, analyticsQueued };
  }
  const available = await deps.source.latestReportDate();
  if (available === null || (decision.latestStored !== null && available <= decision.latestStored && !options.force)) {
    // Nothing newer at the source: the release is late, or another poll stored it first.
    const analyticsQueued = await queueMissingCotAnalytics(deps);
    return available === null || available < decision.expectedReportDate
      ? { status: 'not-yet-released', expectedReportDate: decision.expectedReportDate, latestAvailable: available, analyticsQueued }
      : { status: 'already-stored', reportDate: available, analyticsQueued };
  }
  const report = await deps.source.fetchReport(available);
  const { result, queued } = await storeAndQueue(deps, report);
  const { instrumentIds: _ids, ...summary } = result;
  return { status: 'imported', reportDate: available, import: summary, analyticsQueued: queued };
}

/** Backfill of one year from the yearly archive. */
export async function importCotYear(deps: CotPipelineDeps, year: number): Promise<Omit<CotImportResult, 'instrumentIds'> & { analyticsQueued: number }> {
  const report = await deps.source.fetchYear(year);
  const { result, queued } = await storeAndQueue(deps, report);
  const { instrumentIds: _ids, ...summary } = result;
  return { ...summary, analyticsQueued: queued };
}
