import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { computeInsiderAnalytics, insiderAlertEvents, type InsiderAlertEvent } from './insiders-analytics';
import {
  companiesWithInsiderActivity,
  hasInsiderFollowers,
  historyInsiderScores,
  insiderCompany,
  loadInsiderLines,
  lockInsiderAnalytics,
  peerInsiderScores,
  previousInsiderAnalytics,
  upsertInsiderAnalytics,
  writeTraderPatterns,
} from './insiders-analytics.store';
import { insidersJobIds, type InsiderAlertKind } from './insiders.jobs';

/** The analytics' day: the date in New York (EDGAR's and the market's time zone). */
export const INSIDERS_TIME_ZONE = 'America/New_York';

/**
 * An alert queued by a recompute is claimed in Redis for this long, so later recomputes (other
 * filings of the company, retries, concurrent workers) never queue it again. Longer than the time a
 * filing stays news (INSIDER_ALERT_MAX_AGE_HOURS), after which no recompute would queue it anyway.
 */
export const INSIDER_ALERT_CLAIM_TTL_SECONDS = 7 * 24 * 3600;

export function insidersAnalysisDate(now: Date): string {
  return DateTime.fromJSDate(now, { zone: INSIDERS_TIME_ZONE }).toISODate() as string;
}

export function insiderAlertClaimKey(prefix: string, companyId: number, event: Pick<InsiderAlertEvent, 'kind' | 'key'>): string {
  return `${prefix}:insiders:alert-claim:${companyId}:${event.kind}:${event.key}`;
}

export class InsiderCompanyNotFoundError extends Error {
  constructor(readonly companyId: number) {
    super(`no insider company ${companyId}`);
    this.name = 'InsiderCompanyNotFoundError';
  }
}

/**
 * insiders.recompute-analytics: computes the company's analytics of today (New York), stores them
 * (one row per company and day, replaced by later recomputes of the day) with each P/S line's
 * trader pattern, then compares with the row stored before to find the alert events
 * (insiderAlertEvents: newly a cluster, fresh officer/director purchases, newly unusual) and queues
 * `insiders.notify` for each not queued before (a Redis claim per company, kind and key; the job id
 * is deterministic too). Filings older than INSIDER_ALERT_MAX_AGE_HOURS never notify, so a backfill
 * notifies nobody. Throws InsiderCompanyNotFoundError for an unknown company.
 */
export async function recomputeInsiderAnalytics(
  deps: { dataSource: DataSource; queues: JobQueues; clock: Clock },
  companyId: number,
): Promise<{ analysisDate: string; queued: InsiderAlertKind[] }> {
  const now = deps.clock.now();
  const analysisDate = insidersAnalysisDate(now);
  const { result, previous } = await deps.dataSource.transaction(async (manager) => {
    await lockInsiderAnalytics(manager, companyId);
    if (!(await insiderCompany(manager, companyId))) throw new InsiderCompanyNotFoundError(companyId);
    const lines = await loadInsiderLines(manager, companyId, analysisDate);
    const previous = await previousInsiderAnalytics(manager, companyId, analysisDate);
    const peerScores = await peerInsiderScores(manager, companyId, analysisDate);
    const historyScores = await historyInsiderScores(manager, companyId, analysisDate);
    const result = computeInsiderAnalytics({ analysisDate, lines, peerScores, historyScores });
    await upsertInsiderAnalytics(manager, companyId, result.view);
    await writeTraderPatterns(manager, result.traderPatterns);
    return { result, previous };
  });

  const events = insiderAlertEvents(result, previous, now);
  const queued: InsiderAlertKind[] = [];
  if (!events.length || !(await hasInsiderFollowers(deps.dataSource, companyId))) return { analysisDate, queued };
  const redis = deps.queues.redis;
  for (const event of events) {
    const claim = insiderAlertClaimKey(deps.queues.prefix, companyId, event);
    if ((await redis.set(claim, now.toISOString(), 'EX', INSIDER_ALERT_CLAIM_TTL_SECONDS, 'NX')) !== 'OK') continue;
    try {
      await deps.queues.add('insiders.notify', { companyId, kind: event.kind, key: event.key }, { jobId: insidersJobIds.notify(companyId, event.kind, event.key) });
    } catch (error) {
      await redis.del(claim).catch(() => undefined);
      throw error;
    }
    queued.push(event.kind);
  }
  return { analysisDate, queued };
}

/**
 * insiders.recompute-active (daily, just after midnight New York): queues the recompute of every
 * company with activity in its window (companiesWithInsiderActivity), one job per company and day,
 * so every active company has a row for every day and a window that rolls past its trades says so.
 */
export async function queueDailyInsiderRecomputes(deps: { dataSource: DataSource; queues: JobQueues; clock: Clock }): Promise<{ analysisDate: string; queued: number }> {
  const analysisDate = insidersAnalysisDate(deps.clock.now());
  const companies = await companiesWithInsiderActivity(deps.dataSource, analysisDate);
  for (let i = 0; i < companies.length; i += 500) {
    await deps.queues.addBulk(
      companies.slice(i, i + 500).map((companyId) => ({
        name: 'insiders.recompute-analytics' as const,
        data: { companyId },
        options: { jobId: insidersJobIds.recomputeDay(companyId, analysisDate) },
      })),
    );
  }
  return { analysisDate, queued: companies.length };
}
