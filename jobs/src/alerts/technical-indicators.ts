import { EMA, MACD, RSI, SMA } from 'trading-signals';

/**
 * Technical indicators on closing prices, computed by `trading-signals` (a maintained, tested
 * library) and returned as one value per input close, `null` where the indicator is not defined yet
 * (too few bars). The library's definitions:
 * - SMA(n): mean of the last n closes; defined from the n-th close.
 * - EMA(n): alpha = 2 / (n + 1), started at the first close; reported from the n-th close on (the
 *   library's "stable" point). Older charting tools seed it with the SMA of the first n closes
 *   instead: the two converge within a few dozen bars, which is why the backfill loads hundreds.
 * - RSI(n): Wilder's smoothing (the first average gain/loss is the mean of the first n changes,
 *   then avg = (prev * (n - 1) + current) / n); RSI = 100 - 100 / (1 + avgGain / avgLoss), and 100
 *   when there was no loss (a flat series included, as TradingView's ta.rsi). Defined from close n + 1.
 * - MACD(fast 12, slow 26, signal 9): line = EMA(fast) - EMA(slow), defined from the `slow`-th close;
 *   signal = EMA(signal) of the line, reported once it has `signal` line values; histogram = line - signal.
 *
 * Indicators are derived values, never stored, so they are computed in floating point.
 */

export type Series = (number | null)[];

function assertPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`period must be a positive integer, got ${period}`);
}

export function sma(values: readonly number[], period: number): Series {
  assertPeriod(period);
  const indicator = new SMA(period);
  return values.map((v) => indicator.add(v));
}

/** EMA over a series that may start with nulls (as a MACD line does): nulls are skipped, not fed. */
export function ema(values: readonly (number | null)[], period: number): Series {
  assertPeriod(period);
  const indicator = new EMA(period);
  return values.map((v) => {
    if (v === null) return null;
    const value = indicator.add(v);
    return indicator.isStable ? value : null;
  });
}

export function rsi(closes: readonly number[], period = 14): Series {
  assertPeriod(period);
  const indicator = new RSI(period);
  return closes.map((c) => indicator.add(c));
}

export interface MacdSeries {
  line: Series;
  signal: Series;
  histogram: Series;
}

export function macd(closes: readonly number[], fast = 12, slow = 26, signalPeriod = 9): MacdSeries {
  [fast, slow, signalPeriod].forEach(assertPeriod);
  if (fast >= slow) throw new RangeError(`the fast period (${fast}) must be shorter than the slow one (${slow})`);
  const signalEma = new EMA(signalPeriod);
  const indicator = new MACD(new EMA(fast), new EMA(slow), signalEma);
  const out: MacdSeries = { line: [], signal: [], histogram: [] };
  for (const close of closes) {
    const result = indicator.add(close);
    // The library answers a signal from the first line value on; it means something once stable.
    const stable = result !== null && signalEma.isStable;
    out.line.push(result ? result.macd : null);
    out.signal.push(stable ? result.signal : null);
    out.histogram.push(stable ? result.histogram : null);
  }
  return out;
}
