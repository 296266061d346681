/**
 * Standard technical indicators on closing prices, as pure functions. Each returns one value per
 * input close, `null` where the indicator is not defined yet (too few bars).
 *
 * No indicators library is installed; these follow the textbook definitions and should be
 * replaced by a well-kept library (e.g. `trading-signals`) once one is added to the project:
 * - SMA(n): mean of the last n closes.
 * - EMA(n): alpha = 2 / (n + 1), seeded with the SMA of the first n closes.
 * - RSI(n): Wilder's smoothing: the first average gain/loss is the simple mean of the first n
 *   changes, then avg = (prev * (n - 1) + current) / n. RSI = 100 - 100 / (1 + avgGain / avgLoss);
 *   100 when there was no loss, 50 when there was neither gain nor loss.
 * - MACD(fast 12, slow 26, signal 9): line = EMA(fast) - EMA(slow); signal = EMA(signal) of the
 *   line (seeded with the SMA of its first `signal` values); histogram = line - signal.
 *
 * Indicators are derived values, never stored, so they are computed in floating point.
 */

export type Series = (number | null)[];

function assertPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`period must be a positive integer, got ${period}`);
}

export function sma(values: readonly number[], period: number): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(values.length).fill(null);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= period) sum -= values[i - period];
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/** EMA over a series that may start with nulls (as a MACD line does): seeded at its first `period` defined values. */
export function ema(values: readonly (number | null)[], period: number): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(values.length).fill(null);
  const alpha = 2 / (period + 1);
  let seen = 0;
  let seed = 0;
  let previous: number | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) continue;
    if (previous === null) {
      seen++;
      seed += v;
      if (seen === period) {
        previous = seed / period;
        out[i] = previous;
      }
      continue;
    }
    previous = alpha * v + (1 - alpha) * previous;
    out[i] = previous;
  }
  return out;
}

export function rsi(closes: readonly number[], period = 14): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(closes.length).fill(null);
  let avgGain = 0;
  let avgLoss = 0;
  const value = () => (avgLoss === 0 ? (avgGain === 0 ? 50 : 100) : 100 - 100 / (1 + avgGain / avgLoss));
  for (let i = 1; i < closes.length; i++) {
    const change = closes[i] - closes[i - 1];
    const gain = change > 0 ? change : 0;
    const loss = change < 0 ? -change : 0;
    if (i <= period) {
      avgGain += gain / period;
      avgLoss += loss / period;
      if (i === period) out[i] = value();
      continue;
    }
    avgGain = (avgGain * (period - 1) + gain) / period;
    avgLoss = (avgLoss * (period - 1) + loss) / period;
    out[i] = value();
  }
  return out;
}

export interface MacdSeries {
  line: Series;
  signal: Series;
  histogram: Series;
}

export function macd(closes: readonly number[], fast = 12, slow = 26, signalPeriod = 9): MacdSeries {
  if (fast >= slow) throw new RangeError(`the fast period (${fast}) must be shorter than the slow one (${slow})`);
  const fastEma = ema(closes, fast);
  const slowEma = ema(closes, slow);
  const line: Series = closes.map((_, i) => {
    const f = fastEma[i];
    const s = slowEma[i];
    return f === null || s === null ? null : f - s;
  });
  const signal = ema(line, signalPeriod);
  const histogram: Series = line.map((l, i) => {
    const s = signal[i];
    return l === null || s === null ? null : l - s;
  });
  return { line, signal, histogram };
}
