import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import type { CftcReport, CftcSource } from './cftc.client';
import { COT_REPORT_TYPE, importCotRows, type CotImportResult } from './cot-import';
import { cotPollDecision } from './cot-release';

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

/** The newest report date whose rows are fully stored. */
export async function latestStoredCotReport(dataSource: DataSource): Promise<string | null> {
  const [row]: { latest: string | null }[] = await dataSource.query(
    `SELECT to_char(max(report_date), 'YYYY-MM-DD') AS latest FROM cot_reports WHERE report_type = $1 AND processed_at IS NOT NULL`,
    [COT_REPORT_TYPE],
  );
  return row?.latest ?? null;
}

/** Job id of the catch-up analytics of an instrument's report: queued once however many polls find it. */
export function cotAnalyticsJobId(cftcCode: string, reportDate: string): string {
  return `cot-analytics_${cftcCode}_${reportDate}`;
}

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
  const missing: { cftc_code: string; report_date: string }[] = await deps.dataSource.query(
    `SELECT i.cftc_code, to_char(r.report_date, 'YYYY-MM-DD') AS report_date
     FROM cot_reports r
     JOIN cot_positions p ON p.report_id = r.id
     JOIN cot_instruments i ON i.id = p.instrument_id
     LEFT JOIN cot_analytics a ON a.position_id = p.id
     WHERE a.id IS NULL AND r.report_type = $1
       AND r.report_date = (SELECT max(report_date) FROM cot_reports WHERE report_type = $1 AND processed_at IS NOT NULL)`,
    [COT_REPORT_TYPE],
  );
  if (!missing.length) return 0;
  await deps.queues.addBulk(
    missing.map((m) => ({
      name: 'cot.recompute-analytics' as const,
      data: { cftcCode: m.cftc_code },
      options: { jobId: cotAnalyticsJobId(m.cftc_code, m.report_date) },
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
