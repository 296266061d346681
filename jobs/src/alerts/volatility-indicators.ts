import { ATR, BollingerBands } from 'trading-signals';
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../prices/prices.shapes';
import type { Series } from './technical-indicators';

/**
 * Volatility measures on closed bars, one value per bar, `null` until defined (docs/alerts.md,
 * "Volatility conditions"). ATR and Bollinger Bands are `trading-signals`' classes; realised
 * volatility (a sample standard deviation of log returns) has no class there and is computed here
 * in doubles: derived values, never stored, compared after rounding to 8 decimals.
 *
 * The conditions read one value (or two) on the last bars, not the series: the `...At` / `...Over`
 * functions below compute only that window, on columns of doubles, allocating nothing (at 10,000
 * symbols a bar close, the series and the library's objects cost more than the target allows). They
 * repeat the series functions' and the library's arithmetic operation for operation, so their values
 * are the same doubles (jobs/test/alerts/volatility-kernels.test.ts compares them with the series
 * functions and trading-signals on random walks).
 */

/** A closed bar's prices as numbers (the evaluation converts the stored decimals once). */
export interface OhlcBar {
  open: number;
  high: number;
  low: number;
  close: number;
}

const YEAR_MS = 365 * 86_400_000;
/** Session markets: 252 trading days of one 6.5-hour regular session (09:30-16:00 New York). */
const TRADING_DAYS = 252;
const SESSION_MINUTES = 390;
/** Forex trades 24 hours on weekdays: 52 weeks x 5 days. */
const FOREX_DAYS = 260;

/**
 * Bars of `interval` in a year, for annualising: crypto trades 24/7 (365 days of 24 hours); forex
 * 260 weekdays of 24 hours; every other market type has sessions: 252 trading days x the bars of one
 * 6.5-hour session (the last, partial bar counted: 7 one-hour bars, 2 four-hour bars; 1 daily bar).
 */
export function periodsPerYear(interval: CandleInterval, marketType: string): number {
  const ms = CANDLE_INTERVAL_MS[interval];
  if (marketType === 'crypto') return YEAR_MS / ms;
  if (marketType === 'forex') return (FOREX_DAYS * 86_400_000) / ms;
  return TRADING_DAYS * Math.max(1, Math.ceil((SESSION_MINUTES * 60_000) / ms));
}

/**
 * Realised volatility at each close: the sample standard deviation (n - 1) of the last `period`
 * log returns ln(close_i / close_i-1), times sqrt(periodsPerYear), in percent. Defined from close
 * `period + 1` (index `period`). The first window is summed in two passes (mean, then squared
 * deviations); each later one is slid by one return with Welford's update for a fixed-size window
 * (mean += (new - old) / n; M2 += (new - old) x (new - mean' + old - mean)), which keeps a spike's
 * long window O(bars) instead of O(bars x period). The tests pin values to 8 decimals either way.
 */
export function realisedVolatility(closes: readonly number[], period: number, perYear: number): Series {
  if (!Number.isInteger(period) || period < 2) throw new RangeError(`period must be an integer of at least 2, got ${period}`);
  if (!closes.length) return [];
  const out: Series = new Array<number | null>(closes.length).fill(null);
  if (closes.length <= period) return out;
  const returns = new Float64Array(closes.length - 1);
  for (let i = 1; i < closes.length; i += 1) returns[i - 1] = Math.log(closes[i] / closes[i - 1]);
  const scale = Math.sqrt(perYear) * 100;
  let mean = 0;
  for (let j = 0; j < period; j += 1) mean += returns[j];
  mean /= period;
  let m2 = 0;
  for (let j = 0; j < period; j += 1) m2 += (returns[j] - mean) ** 2;
  out[period] = Math.sqrt(Math.max(0, m2) / (period - 1)) * scale;
  for (let i = period; i < returns.length; i += 1) {
    const added = returns[i];
    const removed = returns[i - period];
    const previousMean = mean;
    mean += (added - removed) / period;
    m2 += (added - removed) * (added - mean + removed - previousMean);
    out[i + 1] = Math.sqrt(Math.max(0, m2) / (period - 1)) * scale;
  }
  return out;
}

/** Average True Range (trading-signals ATR: Wilder's smoothing of the true range), from bar `period` on. */
export function atr(bars: readonly OhlcBar[], period: number): Series {
  const indicator = new ATR(period);
  return bars.map((b) => indicator.add(b));
}

/**
 * Bollinger Band width (upper - lower) / middle of trading-signals BollingerBands(period, deviations)
 * (middle = SMA, bands = middle +- deviations x population standard deviation), from close `period` on.
 */
export function bollingerWidth(closes: readonly number[], period: number, deviations: number): Series {
  const indicator = new BollingerBands(period, deviations);
  return closes.map((close) => {
    const bands = indicator.add(close);
    return bands && bands.middle !== 0 ? (bands.upper - bands.lower) / bands.middle : null;
  });
}

/**
 * A symbol's bars as columns of doubles, oldest first, at indexes [start, start + length): what the
 * volatility conditions read. A column holds values only where `load` was asked for them (the
 * newest `count` bars of the requested fields), so a source converts only what a condition reads.
 * Besides the prices, two derived columns: `logReturn[i]` = ln(close[i] / close[i - 1]) (realised
 * volatility's returns) and `trueRange[i]` = max(high[i] - low[i], |high[i] - close[i - 1]|, |low[i] -
 * close[i - 1]|) (trading-signals' getTrueRange); loading `count` bars of them fills the newest count - 1.
 */
export abstract class PriceColumns {
  open = new Float64Array(0);
  high = new Float64Array(0);
  low = new Float64Array(0);
  close = new Float64Array(0);
  logReturn = new Float64Array(0);
  trueRange = new Float64Array(0);
  /** The index of the oldest bar. */
  start = 0;
  /** The number of bars (the newest at `start + length - 1`). */
  length = 0;
  /** Makes the `fields` (PRICE_FIELDS bits) of the newest `count` bars (count <= length) readable. */
  abstract load(count: number, fields: number): void;
}

/** Bits of `PriceColumns.load`'s `fields`. */
export const PRICE_FIELDS = { open: 1, high: 2, low: 4, close: 8, logReturn: 16, trueRange: 32 } as const;

/** The true range of a bar after a close, as trading-signals' getTrueRange computes it. */
export function trueRangeOf(high: number, low: number, previousClose: number): number {
  return Math.max(high - low, Math.abs(high - previousClose), Math.abs(low - previousClose));
}

/** `PriceColumns` over bars already in doubles; copies (or computes) the requested fields into reused columns. */
class ObjectColumns extends PriceColumns {
  private bars: readonly OhlcBar[] = [];

  /** The columns over `bars` (this one instance, reused: valid until the next call). */
  of(bars: readonly OhlcBar[]): this {
    this.bars = bars;
    this.length = bars.length;
    if (this.close.length < bars.length) {
      const size = Math.max(bars.length, 2 * this.close.length, 64);
      this.open = new Float64Array(size);
      this.high = new Float64Array(size);
      this.low = new Float64Array(size);
      this.close = new Float64Array(size);
      this.logReturn = new Float64Array(size);
      this.trueRange = new Float64Array(size);
    }
    return this;
  }

  load(count: number, fields: number): void {
    const { logReturn: LOG_RETURN, trueRange: TRUE_RANGE } = PRICE_FIELDS;
    const bars = this.bars;
    const from = bars.length - count;
    if (fields & PRICE_FIELDS.open) for (let i = from; i < bars.length; i++) this.open[i] = bars[i].open;
    if (fields & (PRICE_FIELDS.high | TRUE_RANGE)) for (let i = from; i < bars.length; i++) this.high[i] = bars[i].high;
    if (fields & (PRICE_FIELDS.low | TRUE_RANGE)) for (let i = from; i < bars.length; i++) this.low[i] = bars[i].low;
    if (fields & (PRICE_FIELDS.close | LOG_RETURN | TRUE_RANGE)) for (let i = from; i < bars.length; i++) this.close[i] = bars[i].close;
    if (fields & LOG_RETURN) for (let i = from + 1; i < bars.length; i++) this.logReturn[i] = Math.log(this.close[i] / this.close[i - 1]);
    if (fields & TRUE_RANGE) for (let i = from + 1; i < bars.length; i++) this.trueRange[i] = trueRangeOf(this.high[i], this.low[i], this.close[i - 1]);
  }
}

const objectColumns = new ObjectColumns();

/** Bars in doubles as `PriceColumns` (one reused instance: read it before the next call). */
export function columnsOf(bars: readonly OhlcBar[]): PriceColumns {
  return objectColumns.of(bars);
}

/**
 * Realised volatility on the close whose return is `logReturn[end - 1]`: the value
 * realisedVolatility gives on the last of that close and the `period` before it (one window: its
 * two-pass sum over the returns [end - period, end)).
 */
export function realisedVolatilityAt(logReturn: Float64Array, end: number, period: number, perYear: number): number {
  const from = end - period;
  let mean = 0;
  for (let j = from; j < end; j += 1) mean += logReturn[j];
  mean /= period;
  let m2 = 0;
  for (let j = from; j < end; j += 1) m2 += (logReturn[j] - mean) ** 2;
  return Math.sqrt(Math.max(0, m2) / (period - 1)) * (Math.sqrt(perYear) * 100);
}

/** What realisedVolatilityWindow returns (one reused object: read it before the next call). */
export interface VolatilityWindow {
  /** The realised volatility on the last close. */
  last: number;
  /** The mean of the last `longPeriod` realised volatilities (the last included). */
  mean: number;
}

const volatilityWindow: VolatilityWindow = { last: 0, mean: 0 };

/**
 * A spike's two numbers on the period + longPeriod closes whose returns are logReturn[end -
 * period - longPeriod + 1, end): the last of realisedVolatility(those closes, period, perYear) and
 * the mean of its last `longPeriod` values (summed oldest first from 0, as `reduce` does): the first
 * window summed in two passes, the later ones slid with the same Welford update.
 */
export function realisedVolatilityWindow(logReturn: Float64Array, end: number, period: number, longPeriod: number, perYear: number): VolatilityWindow {
  const from = end - period - longPeriod + 1;
  const scale = Math.sqrt(perYear) * 100;
  let mean = 0;
  for (let j = from; j < from + period; j += 1) mean += logReturn[j];
  mean /= period;
  let m2 = 0;
  for (let j = from; j < from + period; j += 1) m2 += (logReturn[j] - mean) ** 2;
  let value = Math.sqrt(Math.max(0, m2) / (period - 1)) * scale;
  let sum = 0 + value;
  for (let i = from + period; i < end; i += 1) {
    const added = logReturn[i];
    const removed = logReturn[i - period];
    const previousMean = mean;
    mean += (added - removed) / period;
    m2 += (added - removed) * (added - mean + removed - previousMean);
    value = Math.sqrt(Math.max(0, m2) / (period - 1)) * scale;
    sum += value;
  }
  volatilityWindow.last = value;
  volatilityWindow.mean = sum / longPeriod;
  return volatilityWindow;
}
/**
 * ATR on the last of the bars [from, end): the value trading-signals' ATR(period) fed exactly those
 * bars returns on the last one. The first bar's true range is its high - low (the library has no
 * close before it), the others' `trueRange`; the first average is the mean of `period` ranges (summed
 * from 0), then (TR - previous) x (1 / period) + previous (WSMA). Null with fewer than `period` bars.
 */
export function atrOver(high: Float64Array, low: Float64Array, trueRange: Float64Array, from: number, end: number, period: number): number | null {
  if (end - from < period) return null;
  const factor = 1 / period;
  let sum = 0 + (high[from] - low[from]);
  for (let i = from + 1; i < from + period; i++) sum += trueRange[i];
  let value = sum / period;
  for (let i = from + period; i < end; i++) value = (trueRange[i] - value) * factor + value;
  return value;
}

/**
 * Bollinger Band width on the last of the closes [end - period, end): what bollingerWidth (the
 * library's BollingerBands(period, deviations)) gives on that close: middle = the closes summed from
 * 0 over period, deviation = sqrt(sum of squared differences / period), (upper - lower) / middle;
 * null when the middle is 0.
 */
export function bollingerWidthAt(closes: Float64Array, end: number, period: number, deviations: number): number | null {
  const from = end - period;
  let sum = 0;
  for (let i = from; i < end; i++) sum += closes[i];
  const middle = sum / period;
  let squares = 0;
  for (let i = from; i < end; i++) {
    const difference = closes[i] - middle;
    squares += difference * difference;
  }
  const deviation = Math.sqrt(squares / period);
  const upper = middle + deviation * deviations;
  const lower = middle - deviation * deviations;
  return middle !== 0 ? (upper - lower) / middle : null;
}
