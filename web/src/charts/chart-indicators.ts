// Indicator values for the chart, computed with trading-signals over the bars' closes, and the
// live update of the last bar from a price event. Pure functions: the chart only draws them.
import { EMA, MACD, RSI, SMA } from 'trading-signals';
import type { Bar } from '../prices/markets-client';
import type { LivePrice } from '../prices/live-prices';

export interface LinePoint {
  time: number;
  value: number;
}

export interface MacdSeries {
  macd: LinePoint[];
  signal: LinePoint[];
  histogram: LinePoint[];
}

export const MACD_PERIODS = { fast: 12, slow: 26, signal: 9 } as const;

/** SMA or EMA of the closes; a bar gets a point once the average has enough bars behind it. */
export function movingAverage(bars: readonly Bar[], kind: 'sma' | 'ema', period: number): LinePoint[] {
  const average = kind === 'sma' ? new SMA(period) : new EMA(period);
  const points: LinePoint[] = [];
  for (const bar of bars) {
    const value = average.add(bar.close);
    // EMA answers from the first price on; its early values are not yet an average of `period`.
    if (value !== null && average.isStable) points.push({ time: bar.time, value });
  }
  return points;
}

export function relativeStrength(bars: readonly Bar[], period: number): LinePoint[] {
  const rsi = new RSI(period);
  const points: LinePoint[] = [];
  for (const bar of bars) {
    const value = rsi.add(bar.close);
    if (value !== null && rsi.isStable) points.push({ time: bar.time, value });
  }
  return points;
}

export function macd(bars: readonly Bar[]): MacdSeries {
  const indicator = new MACD(new EMA(MACD_PERIODS.fast), new EMA(MACD_PERIODS.slow), new EMA(MACD_PERIODS.signal));
  const series: MacdSeries = { macd: [], signal: [], histogram: [] };
  // The library answers from the slow EMA's first full period on, with a signal line seeded by
  // that first value: wait until the signal averages a full period of MACD values too.
  let results = 0;
  for (const bar of bars) {
    const result = indicator.add(bar.close);
    if (result === null || ++results < MACD_PERIODS.signal) continue;
    series.macd.push({ time: bar.time, value: result.macd });
    series.signal.push({ time: bar.time, value: result.signal });
    series.histogram.push({ time: bar.time, value: result.histogram });
  }
  return series;
}

/**
 * The bars after a live price: inside the last bar's period it moves that bar's close (and high or
 * low); past it a new bar opens at the price. Null when nothing changes (no bars, an older price,
 * or an unreadable one). Bars of an interval open at multiples of it since the epoch (UTC).
 */
export function applyLivePrice(bars: readonly Bar[], price: LivePrice, intervalMs: number): Bar[] | null {
  const last = bars.at(-1);
  const atMs = Date.parse(price.at);
  const value = Number(price.price);
  if (!last || !Number.isFinite(atMs) || !Number.isFinite(value)) return null;
  const at = Math.floor(atMs / 1000);
  if (at < last.time) return null;
  const intervalSeconds = intervalMs / 1000;
  if (at < last.time + intervalSeconds) {
    if (value === last.close && value <= last.high && value >= last.low) return null;
    return [...bars.slice(0, -1), { ...last, close: value, high: Math.max(last.high, value), low: Math.min(last.low, value) }];
  }
  const open = Math.floor(at / intervalSeconds) * intervalSeconds;
  return [...bars, { time: open, open: value, high: value, low: value, close: value, volume: 0 }];
}
