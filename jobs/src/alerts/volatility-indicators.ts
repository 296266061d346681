import { ATR, BollingerBands } from 'trading-signals';
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../prices/prices.shapes';
import type { Series } from './technical-indicators';

/**
 * Volatility measures on closed bars, one value per bar, `null` until defined (docs/alerts.md,
 * "Volatility conditions"). ATR and Bollinger Bands are `trading-signals`' classes; realised
 * volatility (a sample standard deviation of log returns) has no class there and is computed here
 * in doubles: derived values, never stored, compared after rounding to 8 decimals.
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
