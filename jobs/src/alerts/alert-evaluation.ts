import { INTERVAL_MS, type CandleInterval } from '../prices/price-source';
import type { JobPayload } from '../registry';
import type { JobContext } from '../runtime/job-handler';
import {
  barsNeeded,
  isPriceCondition,
  isPriceConditionMet,
  isTechnicalCondition,
  isTechnicalConditionMet,
  isVolatilityCondition,
  type PricePoint,
  type PriceTick,
  type TechnicalCondition,
} from './alert-conditions';
import { alertIndexFor } from './alert-index-cache';
import type { IndexedAlert } from './alert-index';
import { historyPoints } from './alert-price-history';
import { barsUpTo, lastCloseIn, StoredBarCache } from './alert-bars.store';
import { loadExchangeCalendars, type ExchangeCalendar } from '../market-hours';
import { DEFAULT_STOCK_EXCHANGE } from '../prices/polled-markets';
import { SESSION_MARKET_TYPES } from './alerts.shapes';
import { previousCloseWindow, sessionOpenedBy, type OpeningGap } from './opening-gap';
import { priceAlertMessage, technicalAlertMessage } from './alert-message';
import { isVolatilityConditionMet, volatilityAlertMessage, volatilityBarsRead, type VolatilityContext } from './volatility-conditions';
import type { AlertIndexCache } from './alert-index-cache';
import type { VolatilityCondition } from './alerts.shapes';
import { triggerAlerts, type FiringKey, type TriggerCandidate, type TriggerResult } from './alert-triggers';

/**
 * Bars read beyond what a technical condition strictly needs: EMAs start at the first close and
 * RSI smooths from its first average, so more history brings them closer to a charting tool's values.
 */
export const TECHNICAL_BARS_MARGIN = 250;

/**
 * alerts.evaluate: the price updates of a poll against the process's alert index. The index
 * narrows the alerts to those a tick crosses (history is read only for symbols with moving alerts);
 * the trigger path re-checks each in the database and writes the firings exactly once.
 * Alerts re-armed here (their day or cooldown is over) are checked on their symbol's next tick.
 */
export async function evaluatePriceTicks(payload: JobPayload<'alerts.evaluate'>, context: JobContext): Promise<TriggerResult> {
  const cache = await alertIndexFor(context);
  await cache.settled();
  const index = cache.index;
  index.rearmDue(context.clock.now().getTime());

  const ticks = payload.ticks
    .map((t) => ({ symbol: t.symbol, tick: { previous: t.previous, current: t.current, at: new Date(t.at) } as PriceTick }))
    .sort((a, b) => a.tick.at.getTime() - b.tick.at.getTime());

  // Moving conditions need the symbol's recent prices: only for symbols that have such alerts. The
  // process keeps them parsed and reads only what Redis gained since the previous job.
  const since = new Map<string, number>();
  for (const { symbol, tick } of ticks) {
    const minutes = index.historyMinutes(symbol);
    if (!minutes) continue;
    const from = tick.at.getTime() - minutes * 60_000;
    since.set(symbol, Math.min(since.get(symbol) ?? from, from));
  }
  const histories = cache.priceHistories;
  histories.retain((symbol) => index.historyMinutes(symbol) > 0);
  if (since.size) await histories.refresh(context.redis, context.queues.prefix, since);

  const candidates: TriggerCandidate[] = [];
  const seen = new Set<number>();
  const matched: IndexedAlert[] = [];
  // The points of a matched symbol, taken now: the re-check runs later, after other jobs may have moved the history on.
  const points = new Map<string, PricePoint[]>();
  for (const { symbol, tick } of ticks) {
    const history = since.has(symbol) ? histories.get(symbol) : undefined;
    matched.length = 0;
    index.match(symbol, tick, matched, history);
    if (!matched.length) continue;
    let snapshot = points.get(symbol);
    if (!snapshot) points.set(symbol, (snapshot = history ? historyPoints(history) : []));
    const withHistory: PriceTick = { ...tick, history: snapshot };
    for (const alert of matched) {
      // One firing per alert and job: its earliest matching tick.
      if (seen.has(alert.id)) continue;
      seen.add(alert.id);
      candidates.push({
        alertId: alert.id,
        symbol,
        at: tick.at,
        price: tick.current,
        check: (condition) =>
          isPriceCondition(condition) && isPriceConditionMet(condition, withHistory) ? priceAlertMessage(symbol, condition, withHistory) : null,
      });
    }
  }
  const keys: FiringKey[] = ticks.map(({ symbol, tick }) => ({ symbol, at: tick.at, interval: null }));
  return triggerAlerts(candidates, keys, cache, context);
}

/**
 * The volatility conditions' bars of a worker process (per alert index, so per process and
 * database), kept between bar closes: a bar close converts only the bars new or rewritten since.
 */
const storedBarCaches = new WeakMap<AlertIndexCache, StoredBarCache>();

export function storedBarCacheOf(cache: AlertIndexCache): StoredBarCache {
  let bars = storedBarCaches.get(cache);
  if (!bars) storedBarCaches.set(cache, (bars = new StoredBarCache()));
  return bars;
}

/** The bars a technical condition of a bar close reads: volatility ones what they read, indicators their need and the margin. */
function barsRead(condition: TechnicalCondition): number {
  return isVolatilityCondition(condition) ? volatilityBarsRead(condition) : barsNeeded(condition) + TECHNICAL_BARS_MARGIN;
}

/** The instant a bar closed (its last millisecond, as the sources' closeTime). */
export function barCloseTime(openTime: Date, interval: CandleInterval): Date {
  return new Date(openTime.getTime() + INTERVAL_MS[interval] - 1);
}

/**
 * alerts.evaluate-bars: for each closed bar, the symbol's technical alerts (indicators and volatility)
 * of that interval on the stored bars up to and including it; met ones go through the same trigger path, keyed by the
 * bar's close time.
 */
export async function evaluateClosedBars(payload: JobPayload<'alerts.evaluate-bars'>, context: JobContext): Promise<TriggerResult> {
  const cache = await alertIndexFor(context);
  await cache.settled();
  const index = cache.index;
  index.rearmDue(context.clock.now().getTime());

  const candidates: TriggerCandidate[] = [];
  const keys: FiringKey[] = [];
  const barCache = storedBarCacheOf(cache);
  const now = context.clock.now().getTime();
  barCache.sweep(now);
  // Exchange calendars of opening_gap alerts' markets, loaded once per job.
  const calendars = new Map<string, Promise<ExchangeCalendar | null>>();
  const calendarOf = (exchangeId: string) => {
    let calendar = calendars.get(exchangeId);
    if (!calendar) calendars.set(exchangeId, (calendar = loadExchangeCalendars(context.dataSource, [exchangeId]).then((c) => c[0] ?? null)));
    return calendar;
  };
  for (const bar of payload.bars) {
    const openTime = new Date(bar.openTime);
    const at = barCloseTime(openTime, bar.interval);
    keys.push({ symbol: bar.symbol, at, interval: bar.interval });
    const alerts = index.technicalAlerts(bar.symbol).filter((a) => cache.intervalOf(a.id) === bar.interval && isTechnicalCondition(a.condition));
    if (!alerts.length) continue;
    const conditions = alerts.map((a) => a.condition as TechnicalCondition);
    const stored = await barsUpTo(context.dataSource, bar.symbol, bar.interval, openTime, Math.max(...conditions.map(barsRead)));
    if (stored.newestOpenTime?.getTime() !== openTime.getTime()) {
      context.logger.warn({ symbol: bar.symbol, interval: bar.interval, openTime: bar.openTime }, 'closed bar not stored: technical alerts skipped');
      continue;
    }
    const rows = stored.rows; // newest first
    const price = rows[0].close;
    // Indicator conditions read the closes as decimal strings, oldest first (built once, if one reads them).
    let closeStrings: string[] | undefined;
    const closes = () => (closeStrings ??= rows.map((r) => r.close).reverse());
    // Volatility conditions read doubles from the process's columns of this symbol's interval, aligned
    // with these rows on every read (the re-check runs after other jobs may have aligned them with theirs).
    const volatilityBars = conditions.filter(isVolatilityCondition).map(volatilityBarsRead);
    const columnsSize = volatilityBars.length ? Math.max(...volatilityBars) : 0;
    const columns = (condition: VolatilityCondition) =>
      barCache.columnsFor(bar.symbol, bar.interval, INTERVAL_MS[bar.interval], rows, Math.max(columnsSize, volatilityBarsRead(condition)), now);
    let gap: OpeningGap | null = null;
    if (alerts.some((a) => a.condition.type === 'opening_gap') && (SESSION_MARKET_TYPES as readonly string[]).includes(stored.marketType ?? '')) {
      const calendar = await calendarOf(stored.exchangeId ?? DEFAULT_STOCK_EXCHANGE);
      const opened = calendar ? sessionOpenedBy(calendar, openTime, bar.interval) : null;
      if (opened) {
        const window = previousCloseWindow(opened.previous, bar.interval);
        const previousClose = await lastCloseIn(context.dataSource, bar.symbol, bar.interval, window.from, window.before);
        if (previousClose !== null) gap = { open: Number(rows[0].open), previousClose: Number(previousClose) };
      }
    }
    const volatility: VolatilityContext = { interval: bar.interval, marketType: stored.marketType ?? '', gap };
    const met = (condition: TechnicalCondition) =>
      isVolatilityCondition(condition) ? isVolatilityConditionMet(condition, columns(condition), volatility) : isTechnicalConditionMet(condition, closes());
    const message = (condition: TechnicalCondition) =>
      isVolatilityCondition(condition)
        ? volatilityAlertMessage(bar.symbol, condition, columns(condition), volatility)
        : technicalAlertMessage(bar.symbol, bar.interval, condition, closes());
    for (const alert of alerts) {
      if (!met(alert.condition as TechnicalCondition)) continue;
      candidates.push({
        alertId: alert.id,
        symbol: bar.symbol,
        at,
        price,
        check: (condition, storedAlert) =>
          isTechnicalCondition(condition) && storedAlert.interval === bar.interval && met(condition) ? message(condition) : null,
      });
    }
  }
  return triggerAlerts(candidates, keys, cache, context);
}
