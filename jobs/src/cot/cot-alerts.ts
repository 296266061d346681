import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import type { NotificationType } from '@tickerbell/entities';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { fanOutToFollowers } from '../notifications/fan-out';
import { importanceOf, type NotificationContent, type PushOptions } from '../notifications/notification-content';
import type { AlertLevel, CotAlertEvent, DivergenceType, RankedGroup } from './cot-analytics';
import { cotJobIds } from './cot.jobs';
import { cotFollowers, newestCotAlertSource } from './cot.store';

/** Followers per notifications.deliver job of a COT alert. */
export const COT_FAN_OUT_BATCH_SIZE = 1000;

/**
 * Only a report this recent notifies: the weekly report (a Tuesday) is out by the next Friday, or
 * the Monday after a holiday week. Older newest reports come from a backfill (or a system that was
 * down for weeks): their news is stale, so they notify nobody.
 */
export const COT_ALERT_MAX_AGE_DAYS = 14;

/** The newest report of an instrument with its analytics, as the alerts read it. */
export interface CotAlertSource {
  instrumentId: number;
  cftcCode: string;
  instrumentName: string;
  symbol: string | null;
  reportDate: string;
  percentileRank: Record<RankedGroup, string | null>;
  divergenceScore: string | null;
  divergenceType: DivergenceType | null;
  alertLevel: AlertLevel;
  windowSize: number;
  events: CotAlertEvent[];
}

export const COT_GROUP_LABELS: Record<RankedGroup, string> = {
  leveraged: 'leveraged funds',
  assetManager: 'asset managers',
  commercial: 'commercials',
};

export const COT_DIVERGENCE_LABELS: Record<DivergenceType, string> = {
  leveraged_crowded_long_asset_managers_short: 'leveraged funds crowded long while asset managers are short',
  leveraged_crowded_short_asset_managers_long: 'leveraged funds crowded short while asset managers are long',
  both_crowded_long: 'both crowded long',
  both_crowded_short: 'both crowded short',
  leveraged_longer: 'leveraged funds longer than asset managers',
  leveraged_shorter: 'leveraged funds shorter than asset managers',
  aligned: 'aligned',
};

/** Whether a report is recent enough, at `now`, to notify. */
export function isFreshCotReport(reportDate: string, now: Date): boolean {
  const age = DateTime.fromJSDate(now, { zone: 'utc' }).diff(DateTime.fromISO(reportDate, { zone: 'utc' }), 'days').days;
  return age <= COT_ALERT_MAX_AGE_DAYS;
}

/** 'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE' -> 'E-MINI S&P 500', with the symbol when known. */
export function cotDisplayName(instrumentName: string, symbol: string | null): string {
  const at = instrumentName.lastIndexOf(' - ');
  const market = at > 0 ? instrumentName.slice(0, at).trim() : instrumentName.trim();
  return symbol ? `${market} (${symbol})` : market;
}

/** 96.97 -> '96.97th', 1 -> '1st', 2.00 -> '2nd'. */
export function ordinalPercentile(value: string): string {
  const n = Number(value);
  const text = Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2)));
  const whole = Math.floor(n);
  const suffix = !Number.isInteger(n) || [11, 12, 13].includes(whole % 100) ? 'th' : (['th', 'st', 'nd', 'rd'][whole % 10] ?? 'th');
  return `${text}${suffix}`;
}

/** '54.5500' -> '+54.55' (the column keeps 4 decimals; ranks have 2). */
function signed(value: string): string {
  const n = Number(value);
  return `${n > 0 ? '+' : ''}${n.toFixed(2)}`;
}

function eventTitle(event: CotAlertEvent): string {
  if (event.type === 'extreme') {
    return `${COT_GROUP_LABELS[event.group]} ${event.previousSide ? 'flipped to' : 'at'} a ${event.side} extreme`;
  }
  return event.alertLevel === 'none'
    ? 'divergence between leveraged funds and asset managers eased'
    : `${event.alertLevel} divergence between leveraged funds and asset managers`;
}

function eventSentence(event: CotAlertEvent, source: CotAlertSource): string {
  if (event.type === 'extreme') {
    const label = COT_GROUP_LABELS[event.group];
    return `${label[0].toUpperCase()}${label.slice(1)} are at the ${ordinalPercentile(event.percentileRank)} percentile of the last ${source.windowSize} reports (a ${event.side} extreme${event.previousSide ? `, was ${event.previousSide}` : ''}).`;
  }
  return `Divergence between leveraged funds and asset managers moved from ${event.previousAlertLevel} to ${event.alertLevel}.`;
}

function divergenceSentence(source: CotAlertSource): string {
  if (source.divergenceScore === null) return 'Divergence: not available.';
  const pattern = source.divergenceType ? `, ${COT_DIVERGENCE_LABELS[source.divergenceType]}` : '';
  return `Divergence (leveraged - asset managers): ${signed(source.divergenceScore)}, ${source.alertLevel}${pattern}.`;
}

/** The deduplication key of an instrument's alert of one report: one notification per user and report. */
export function cotAlertDedupeKey(cftcCode: string, reportDate: string): string {
  return `cot:${cftcCode}:${reportDate}`;
}

/** The notification of a report's alert events (the title names the first event, the message all of them). */
export function cotNotificationContent(source: CotAlertSource): NotificationContent & { dedupeKey: string } {
  const [first] = source.events;
  if (!first) throw new Error(`no COT alert events for ${source.cftcCode} ${source.reportDate}`);
  const type: NotificationType = source.alertLevel === 'high' ? 'warning' : 'info';
  const name = cotDisplayName(source.instrumentName, source.symbol);
  const more = source.events.length > 1 ? ` (+${source.events.length - 1} more)` : '';
  return {
    title: `${name}: ${eventTitle(first)}${more}`.slice(0, 200),
    message: [...source.events.map((e) => eventSentence(e, source)), divergenceSentence(source), `COT report of ${source.reportDate}.`].join(' ').slice(0, 2000),
    type,
    activityType: 'MARKET_ALERT_TECHNICAL',
    exchangeId: null,
    symbolId: source.symbol,
    details: {
      cftcCode: source.cftcCode,
      reportDate: source.reportDate,
      percentileRank: source.percentileRank,
      divergenceScore: source.divergenceScore,
      divergenceType: source.divergenceType,
      alertLevel: source.alertLevel,
      events: source.events,
      importance: importanceOf(type),
    },
    dedupeKey: cotAlertDedupeKey(source.cftcCode, source.reportDate),
  };
}

/** Push settings: one topic per instrument (a newer alert replaces an undelivered one), kept a week. */
export function cotPushOptions(source: CotAlertSource): PushOptions {
  return {
    ttlSeconds: 7 * 24 * 3600,
    urgency: source.alertLevel === 'high' ? 'high' : 'normal',
    topic: `cot-${source.cftcCode.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 32),
    // The dashboard instrument page (web/src/app.tsx: dashboard/cot/:code).
    url: `/dashboard/cot/${encodeURIComponent(source.cftcCode)}`,
  };
}

/**
 * After a recompute: when the newest report of the instrument has alert events and is fresh, queue
 * its cot.notify job (one job id per instrument and report, so recomputes add it once while BullMQ
 * holds it; the dedupe key covers the rest). Returns the report date queued, or null.
 */
export async function queueCotNotify(
  deps: { dataSource: DataSource; queues: JobQueues; clock: Clock },
  instrumentId: number,
): Promise<string | null> {
  const source = await newestCotAlertSource(deps.dataSource, instrumentId);
  if (!source || !source.events.length || !isFreshCotReport(source.reportDate, deps.clock.now())) return null;
  await deps.queues.add(
    'cot.notify',
    { cftcCode: source.cftcCode, reportDate: source.reportDate },
    { jobId: cotJobIds.notify(source.cftcCode, source.reportDate) },
  );
  return source.reportDate;
}

export type CotNotifyOutcome =
  | { status: 'skipped'; reason: 'no-analytics' | 'superseded' | 'no-events' | 'stale' }
  | { status: 'queued'; batches: number; users: number };

/**
 * Fans a report's alert out to the instrument's followers (fanOutToFollowers: keyset pages, one
 * notifications.deliver job per page with a deterministic id, delivery idempotent on
 * `cot:<code>:<reportDate>`). Skips a report that is no longer the newest, has no events, or is stale.
 */
export async function fanOutCotAlert(
  deps: { dataSource: DataSource; queues: JobQueues; clock: Clock },
  instrumentId: number,
  reportDate: string,
  batchSize = COT_FAN_OUT_BATCH_SIZE,
): Promise<CotNotifyOutcome> {
  const source = await newestCotAlertSource(deps.dataSource, instrumentId);
  if (!source) return { status: 'skipped', reason: 'no-analytics' };
  if (source.reportDate !== reportDate) return { status: 'skipped', reason: 'superseded' };
  if (!source.events.length) return { status: 'skipped', reason: 'no-events' };
  if (!isFreshCotReport(source.reportDate, deps.clock.now())) return { status: 'skipped', reason: 'stale' };
  const { batches, users } = await fanOutToFollowers(deps, {
    audience: cotFollowers(instrumentId),
    notification: cotNotificationContent(source),
    push: cotPushOptions(source),
    email: true,
    batchSize,
  });
  return { status: 'queued', batches, users };
}
