import type { CandleInterval } from '../prices/prices.shapes';
import { BOLLINGER_DEVIATIONS, VOLATILITY_CONDITIONS, type AlertCondition, type VolatilityCondition } from './alerts.shapes';
import type { OpeningGap } from './opening-gap';
import {
  atrOver,
  bollingerWidthAt,
  columnsOf,
  periodsPerYear,
  PRICE_FIELDS,
  PriceColumns,
  realisedVolatilityAt,
  realisedVolatilityWindow,
  type OhlcBar,
} from './volatility-indicators';

/**
 * Volatility conditions on the closed bars of an alert's interval (oldest first), as pure functions:
 * the measured value and its threshold, whether it is met (strictly: a value equal to its threshold
 * does not fire), and what the firing says. Definitions in docs/alerts.md, "Volatility conditions";
 * pinned by jobs/test/alerts/volatility-conditions.test.ts on hand-computed series.
 */

export function isVolatilityCondition(condition: AlertCondition): condition is VolatilityCondition {
  return (VOLATILITY_CONDITIONS as readonly string[]).includes(condition.type);
}

/** What the evaluation needs besides the bars: the interval and market type annualise volatility. */
export interface VolatilityContext {
  interval: CandleInterval;
  marketType: string;
  /**
   * opening_gap only: the open of the session's first bar (the last bar) and the previous
   * session's last close; absent or null when the last bar opens no session (opening-gap.ts).
   */
  gap?: OpeningGap | null;
}

/**
 * ATR reads this many periods of bars (at most): Wilder's smoothing forgets its seed by (1 - 1/n) a
 * bar, so after 9 periods past the seed its weight is (1 - 1/n)^(9n) < e^-9 = 0.012 %, well below any
 * threshold a user sets, and at 10,000 symbols feeding all 260 stored bars to the library would
 * cost more than the whole bar close may take (bench alerts-volatility).
 */
export const ATR_HISTORY_PERIODS = 10;

/** The number of closed bars a volatility condition needs before it can be met. */
export function volatilityBarsNeeded(condition: VolatilityCondition): number {
  switch (condition.type) {
    case 'volatility_above':
      // `period` log returns need one close more.
      return condition.period + 1;
    case 'volatility_spike':
      // The first volatility is at close period + 1; `longPeriod` of them end at close period + longPeriod.
      return condition.period + condition.longPeriod;
    case 'atr_above':
    case 'bollinger_squeeze':
      return condition.period;
    case 'bollinger_breakout':
      // The width `lookback` bars before the last one must be defined too.
      return condition.period + condition.lookback;
    case 'opening_gap':
      // The session's first bar; the previous close comes with the context (stored bars reach it:
      // alert-bar-demand.ts asks for openingGapBarDemand).
      return 1;
  }
}

/**
 * Derived doubles are rounded to 8 decimals before they are compared, so float noise in the last
 * bits never decides a threshold a user typed (a width of exactly 0.05 is 0.05, not 0.05000000000000001).
 */
export function round8(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}

/** A condition's measured value on the last bar and the threshold it is compared with (both rounded). */
export interface VolatilityMeasure {
  value: number;
  threshold: number;
  /** Spike: the long-window mean; breakout: the earlier width. */
  reference?: number;
  met: boolean;
}

/** The gap of an open against the previous close, in signed percent of that close (rounded), or null without a positive close. */
export function gapPercent(gap: OpeningGap): number | null {
  if (!(gap.previousClose > 0) || !Number.isFinite(gap.open)) return null;
  return round8(((gap.open - gap.previousClose) * 100) / gap.previousClose);
}

/** How many of the newest bars a condition reads when more are stored (at least what it needs). */
export function volatilityBarsRead(condition: VolatilityCondition): number {
  return condition.type === 'atr_above' ? condition.period * ATR_HISTORY_PERIODS : volatilityBarsNeeded(condition);
}

const ATR_FIELDS = PRICE_FIELDS.high | PRICE_FIELDS.low | PRICE_FIELDS.close | PRICE_FIELDS.trueRange;

/**
 * The columns (PRICE_FIELDS bits) a condition reads: realised volatility the closes' log returns,
 * ATR the true ranges (and the first bar's high and low, the last close), the bands the closes, a
 * gap none (its context).
 */
export function volatilityFieldsRead(condition: VolatilityCondition): number {
  switch (condition.type) {
    case 'volatility_above':
    case 'volatility_spike':
      return PRICE_FIELDS.logReturn;
    case 'atr_above':
      return ATR_FIELDS;
    case 'bollinger_squeeze':
    case 'bollinger_breakout':
      return PRICE_FIELDS.close;
    case 'opening_gap':
      return 0;
  }
}

function finite(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : value;
}

/**
 * The measure of a volatility condition on the bars (oldest first), or null while the bars do not
 * define it. It reads the newest volatilityBarsRead bars (ATR: its ATR_HISTORY_PERIODS periods, or
 * all the bars when fewer are stored; the others exactly their window) and computes only the values
 * the condition compares (volatility-indicators.ts, the `...At` functions): the same doubles the
 * indicator series over those bars end with.
 */
export function measureVolatility(condition: VolatilityCondition, bars: readonly OhlcBar[] | PriceColumns, context: VolatilityContext): VolatilityMeasure | null {
  const columns = bars instanceof PriceColumns ? bars : columnsOf(bars);
  const length = columns.length;
  if (length < volatilityBarsNeeded(condition)) return null;
  const read = Math.min(length, volatilityBarsRead(condition));
  const fields = volatilityFieldsRead(condition);
  if (fields) columns.load(read, fields);
  const closes = columns.close;
  // One past the newest bar.
  const end = columns.start + length;
  switch (condition.type) {
    case 'volatility_above': {
      const v = finite(realisedVolatilityAt(columns.logReturn, end, condition.period, periodsPerYear(context.interval, context.marketType)));
      if (v === null) return null;
      const value = round8(v);
      return { value, threshold: condition.level, met: value > condition.level };
    }
    case 'volatility_spike': {
      const window = realisedVolatilityWindow(columns.logReturn, end, condition.period, condition.longPeriod, periodsPerYear(context.interval, context.marketType));
      const value = round8(window.last);
      const threshold = round8(condition.factor * window.mean);
      return { value, threshold, reference: round8(window.mean), met: value > threshold };
    }
    case 'atr_above': {
      const a = finite(atrOver(columns.high, columns.low, columns.trueRange, end - read, end, condition.period));
      if (a === null) return null;
      const close = closes[end - 1];
      if (condition.unit === 'percent' && !(close > 0)) return null;
      const value = round8(condition.unit === 'percent' ? (a * 100) / close : a);
      return { value, threshold: condition.level, met: value > condition.level };
    }
    case 'bollinger_squeeze': {
      const w = finite(bollingerWidthAt(closes, end, condition.period, BOLLINGER_DEVIATIONS));
      if (w === null) return null;
      const value = round8(w);
      return { value, threshold: condition.level, met: value < condition.level };
    }
    case 'opening_gap': {
      if (!context.gap) return null;
      const value = gapPercent(context.gap);
      if (value === null) return null;
      const { percent, direction } = condition;
      const met = direction === 'up' ? value > percent : direction === 'down' ? -value > percent : Math.abs(value) > percent;
      return { value, threshold: percent, reference: context.gap.previousClose, met };
    }
    case 'bollinger_breakout': {
      const now = finite(bollingerWidthAt(closes, end, condition.period, BOLLINGER_DEVIATIONS));
      const before = finite(bollingerWidthAt(closes, end - condition.lookback, condition.period, BOLLINGER_DEVIATIONS));
      if (now === null || before === null) return null;
      const value = round8(now);
      const threshold = round8(condition.factor * before);
      return { value, threshold, reference: round8(before), met: value > threshold };
    }
  }
}

export function isVolatilityConditionMet(condition: VolatilityCondition, bars: readonly OhlcBar[] | PriceColumns, context: VolatilityContext): boolean {
  return measureVolatility(condition, bars, context)?.met ?? false;
}

/** Up to `digits` decimals, trailing zeros dropped, thousands grouped ("84.2", "1,234.56"). */
function shown(value: number, digits: number): string {
  const raw = value.toFixed(digits);
  const fixed = raw.includes('.') ? raw.replace(/\.?0+$/, '') : raw;
  const [whole, fraction] = fixed.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** A price-scaled value with 6 significant digits (ATR of a 0.00001234 coin keeps its digits). */
function shownPrice(value: number): string {
  if (value === 0) return '0';
  const digits = Math.max(2, 6 - Math.floor(Math.log10(Math.abs(value))) - 1);
  return shown(value, Math.min(digits, 12));
}

/**
 * "BTCUSDT 1h realised volatility 84.2 % is above 60 %": what a firing says, the measured value and
 * its threshold first; null when the bars do not define the measure.
 */
export function volatilityAlertMessage(symbol: string, condition: VolatilityCondition, bars: readonly OhlcBar[] | PriceColumns, context: VolatilityContext): string | null {
  const m = measureVolatility(condition, bars, context);
  if (!m) return null;
  const head = `${symbol} ${context.interval}`;
  switch (condition.type) {
    case 'volatility_above':
      return `${head} realised volatility ${shown(m.value, 2)} % is above ${shown(m.threshold, 4)} % (${condition.period} bars, annualised)`;
    case 'volatility_spike':
      return `${head} realised volatility ${shown(m.value, 2)} % is above ${shown(m.threshold, 2)} % (${shown(condition.factor, 4)} x its ${condition.longPeriod}-bar average of ${shown(m.reference ?? 0, 2)} %)`;
    case 'atr_above':
      return condition.unit === 'percent'
        ? `${head} ATR(${condition.period}) ${shown(m.value, 2)} % of the close is above ${shown(m.threshold, 4)} %`
        : `${head} ATR(${condition.period}) ${shownPrice(m.value)} is above ${shownPrice(m.threshold)}`;
    case 'bollinger_squeeze':
      return `${head} Bollinger Band width(${condition.period}) ${shown(m.value, 4)} is below ${shown(m.threshold, 6)}`;
    case 'bollinger_breakout':
      return `${head} Bollinger Band width(${condition.period}) ${shown(m.value, 4)} is above ${shown(m.threshold, 4)} (${shown(condition.factor, 4)} x its width ${condition.lookback} bars earlier, ${shown(m.reference ?? 0, 4)})`;
    case 'opening_gap': {
      const way = m.value > 0 ? 'up' : 'down';
      const beyond = condition.direction === 'any' ? `more than ${shown(m.threshold, 4)} % either way` : `more than ${shown(m.threshold, 4)} % ${condition.direction}`;
      const signed = `${m.value > 0 ? '+' : m.value < 0 ? '-' : ''}${shown(Math.abs(m.value), 2)}`;
      return `${head} opening gap ${signed} % ${way} (open ${shownPrice(context.gap?.open ?? 0)} against the previous close ${shownPrice(m.reference ?? 0)}) is ${beyond}`;
    }
  }
}
