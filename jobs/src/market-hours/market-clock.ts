import type { JobContext } from '../runtime/job-handler';
import { DEFAULT_STALE_AFTER_MS, dueMarketEvents, type DroppedReason, type DueMarketEvent, type ExchangeCalendar } from './market-hours';
import { FAN_OUT_BATCH_SIZE, marketHoursJobIds } from './market-hours.jobs';
import { loadExchangeCalendars } from './market-hours.store';
import type { MarketEventNotice } from './market-notification';

/** A claimed event key lives this long: past the local trading day in every zone, then it expires. */
export const MARKET_CLAIM_TTL_SECONDS = 2 * 24 * 3600;

export function marketClockKeys(prefix: string): { lastRun: string; claim: (eventKey: string) => string } {
  return {
    lastRun: `${prefix}:market-hours:last-run`,
    claim: (eventKey) => `${prefix}:market-hours:sent:${eventKey}`,
  };
}

// Moves the stored last-run instant forward only: a slow run finishing after a newer one must not
// widen the next window (the claims would still stop duplicates, this keeps the work small).
const SET_MAX = `local v = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > v then redis.call('SET', KEYS[1], ARGV[1]) end
return 1`;

export interface MarketClockResult {
  now: string;
  lastRunAt: string | null;
  /** Event keys claimed by this run and queued for fan-out. */
  emitted: string[];
  /** Due, but another worker (or an earlier try of this run) already claimed them. */
  alreadyClaimed: string[];
  dropped: { key: string; reason: DroppedReason }[];
}

export function toNotice(event: DueMarketEvent, calendar: ExchangeCalendar): MarketEventNotice {
  return {
    key: event.key,
    exchangeId: event.exchangeId,
    exchangeName: calendar.exchange.name,
    timezone: calendar.exchange.timezone,
    kind: event.kind,
    at: event.at.toISOString(),
    date: event.date,
    localTime: event.localTime,
    minutesToTransition: event.minutesToTransition,
  };
}

/**
 * One market-clock run. The window is (last run, now] (pure rule: dueMarketEvents; stale events,
 * older than 15 minutes, are dropped). Each due event is claimed with SET NX on its once-per-day
 * key before its fan-out is queued, so concurrent workers, restarts and retried jobs queue each
 * event once. If queueing fails the claim is released and the job fails, so the retry (or the
 * next minute's run, whose window still holds the event) tries again.
 */
export async function runMarketClock(
  context: Pick<JobContext, 'dataSource' | 'queues' | 'redis' | 'clock'>,
  options: { staleAfterMs?: number } = {},
): Promise<MarketClockResult> {
  const { dataSource, queues, redis, clock } = context;
  const keys = marketClockKeys(queues.prefix);
  const now = clock.now();
  const last = await redis.get(keys.lastRun);
  const lastRunAt = last ? new Date(Number(last)) : null;
  const calendars = await loadExchangeCalendars(dataSource);
  const byId = new Map(calendars.map((c) => [c.exchange.id, c]));
  const { due, dropped } = dueMarketEvents(calendars, { lastRunAt, now, staleAfterMs: options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS });
  const result: MarketClockResult = {
    now: now.toISOString(),
    lastRunAt: lastRunAt?.toISOString() ?? null,
    emitted: [],
    alreadyClaimed: [],
    dropped: dropped.map((d) => ({ key: d.event.key, reason: d.reason })),
  };
  for (const event of due) {
    const claim = keys.claim(event.key);
    const claimed = await redis.set(claim, now.toISOString(), 'EX', MARKET_CLAIM_TTL_SECONDS, 'NX');
    if (claimed !== 'OK') {
      result.alreadyClaimed.push(event.key);
      continue;
    }
    try {
      await queues.add('market-hours.fan-out', { event: toNotice(event, byId.get(event.exchangeId) as ExchangeCalendar), batchSize: FAN_OUT_BATCH_SIZE }, { jobId: marketHoursJobIds.fanOut(event.key) });
    } catch (error) {
      await redis.del(claim).catch(() => undefined);
      throw error;
    }
    result.emitted.push(event.key);
  }
  await redis.eval(SET_MAX, 1, keys.lastRun, String(now.getTime()));
  return result;
}
