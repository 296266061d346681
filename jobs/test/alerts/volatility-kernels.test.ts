import { ATR, BollingerBands } from 'trading-signals';
import { alertConditionSchema, type VolatilityCondition } from '../../src/alerts/alert-conditions';
import { BOLLINGER_DEVIATIONS } from '../../src/alerts/alerts.shapes';
import { StoredBarColumns, type StoredBarRow } from '../../src/alerts/alert-bars.store';
import { measureVolatility, round8, volatilityBarsNeeded, volatilityBarsRead, type VolatilityContext, type VolatilityMeasure } from '../../src/alerts/volatility-conditions';
import {
  atr,
  atrOver,
  bollingerWidth,
  bollingerWidthAt,
  columnsOf,
  periodsPerYear,
  PRICE_FIELDS,
  realisedVolatility,
  realisedVolatilityAt,
  realisedVolatilityWindow,
  trueRangeOf,
  type OhlcBar,
} from '../../src/alerts/volatility-indicators';

// The conditions compute only the values they compare, on columns of doubles, instead of the
// indicator series over all the bars (the series functions and trading-signals' classes stay the
// definitions). These tests hold the direct computations to those definitions on real-looking bars.

/** A deterministic random walk of bars (an LCG), around `level`, with gaps between a close and the next open. */
function walk(seed: number, length: number, level: number, volatility = 0.02): OhlcBar[] {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const bars: OhlcBar[] = [];
  let close = level;
  for (let i = 0; i < length; i++) {
    const open = close * (1 + (next() - 0.5) * volatility * 0.3);
    close = open * Math.exp((next() - 0.5) * volatility);
    bars.push({ open, high: Math.max(open, close) * (1 + next() * volatility * 0.3), low: Math.min(open, close) * (1 - next() * volatility * 0.3), close });
  }
  return bars;
}

/** Bars as price_bars stores them (numeric(30,10)) and back: the doubles the worker reads. */
const stored = (bars: OhlcBar[]): OhlcBar[] =>
  bars.map((b) => ({ open: Number(b.open.toFixed(10)), high: Number(b.high.toFixed(10)), low: Number(b.low.toFixed(10)), close: Number(b.close.toFixed(10)) }));

const SERIES = [
  walk(1, 400, 27_345.5),
  walk(2, 400, 0.00012345, 0.05),
  walk(3, 400, 1.0842, 0.004),
  walk(4, 400, 184.2),
  stored(walk(5, 400, 63_120.25, 0.03)),
  // A flat stretch (zero ranges and returns) then a jump.
  [...Array.from({ length: 60 }, () => ({ open: 50, high: 50, low: 50, close: 50 })), ...walk(6, 200, 50)],
];

function expectClose(actual: number | null, expected: number | null) {
  if (expected === null) return expect(actual).toBeNull();
  expect(actual).not.toBeNull();
  const scale = Math.max(Math.abs(expected), Number.MIN_VALUE);
  expect(Math.abs((actual as number) - expected) / scale).toBeLessThanOrEqual(1e-9);
}

const f64 = (values: number[]) => Float64Array.from(values);

describe('direct computations against the library and the series functions (1e-9 relative)', () => {
  it('ATR over a window is trading-signals ATR fed the same bars', () => {
    for (const bars of SERIES) {
      const high = f64(bars.map((b) => b.high));
      const low = f64(bars.map((b) => b.low));
      // The true range after the previous close, as the columns hold it (index 0 unused).
      const trueRange = f64(bars.map((b, i) => (i ? trueRangeOf(b.high, b.low, bars[i - 1].close) : NaN)));
      for (const period of [1, 2, 3, 14, 21]) {
        for (const [from, end] of [
          [0, period],
          [0, bars.length],
          [bars.length - period * 10, bars.length],
          [37, 37 + period * 10],
          [5, 5 + period + 3],
        ]) {
          const library = new ATR(period);
          let expected: number | null = null;
          for (let i = from; i < end; i++) expected = library.add(bars[i]);
          expectClose(atrOver(high, low, trueRange, from, end, period), expected);
          // The series function (the library fed bar by bar) ends with the same value.
          expectClose(atrOver(high, low, trueRange, from, end, period), atr(bars.slice(from, end), period).at(-1) ?? null);
        }
        expect(atrOver(high, low, trueRange, 0, period - 1, period)).toBeNull();
      }
    }
  });

  it('Bollinger Band width on a close is trading-signals BollingerBands(period, 2) on the closes up to it', () => {
    for (const bars of SERIES) {
      const closes = bars.map((b) => b.close);
      const columns = f64(closes);
      for (const period of [2, 5, 20, 50]) {
        const widths = bollingerWidth(closes, period, BOLLINGER_DEVIATIONS);
        const library = new BollingerBands(period, BOLLINGER_DEVIATIONS);
        for (let end = period; end <= closes.length; end += 7) {
          expectClose(bollingerWidthAt(columns, end, period, BOLLINGER_DEVIATIONS), widths[end - 1]);
        }
        // The library itself, on the last close.
        let bands: { upper: number; middle: number; lower: number } | null = null;
        for (const close of closes) bands = library.add(close);
        expectClose(bollingerWidthAt(columns, closes.length, period, BOLLINGER_DEVIATIONS), bands ? (bands.upper - bands.lower) / bands.middle : null);
      }
    }
  });

  it('realised volatility on a close, and a spike window, are the series values', () => {
    for (const bars of SERIES) {
      const closes = bars.map((b) => b.close);
      // logReturn[i] = ln(close[i] / close[i - 1]), as the columns hold them.
      const returns = f64(closes.map((c, i) => (i ? Math.log(c / closes[i - 1]) : 0)));
      for (const [period, longPeriod] of [
        [2, 3],
        [20, 100],
        [10, 50],
        [30, 31],
      ]) {
        const perYear = periodsPerYear('1h', 'crypto');
        for (let end = period + longPeriod; end <= closes.length; end += 11) {
          // One window: the series over exactly period + 1 closes.
          expectClose(realisedVolatilityAt(returns, end, period, perYear), realisedVolatility(closes.slice(end - period - 1, end), period, perYear).at(-1) ?? null);
          const series = realisedVolatility(closes.slice(end - period - longPeriod, end), period, perYear).slice(-longPeriod) as number[];
          const window = realisedVolatilityWindow(returns, end, period, longPeriod, perYear);
          expectClose(window.last, series[series.length - 1]);
          expectClose(window.mean, series.reduce((sum, v) => sum + v, 0) / series.length);
        }
      }
    }
  });
});

/** The measures as computed before the direct computations: the indicator series over the bars a condition reads. */
function seriesMeasure(condition: VolatilityCondition, bars: readonly OhlcBar[], context: VolatilityContext): VolatilityMeasure | null {
  const last = (series: readonly (number | null)[], back = 0) => {
    const value = series[series.length - 1 - back];
    return value === undefined || value === null || !Number.isFinite(value) ? null : value;
  };
  if (bars.length < volatilityBarsNeeded(condition)) return null;
  const read = volatilityBarsRead(condition);
  if (bars.length > read) bars = bars.slice(-read);
  const closes = bars.map((b) => b.close);
  const perYear = periodsPerYear(context.interval, context.marketType);
  switch (condition.type) {
    case 'volatility_above': {
      const v = last(realisedVolatility(closes, condition.period, perYear));
      return v === null ? null : { value: round8(v), threshold: condition.level, met: round8(v) > condition.level };
    }
    case 'volatility_spike': {
      const window = realisedVolatility(closes, condition.period, perYear).slice(-condition.longPeriod) as number[];
      const mean = window.reduce((sum, v) => sum + v, 0) / window.length;
      const value = round8(window[window.length - 1]);
      const threshold = round8(condition.factor * mean);
      return { value, threshold, reference: round8(mean), met: value > threshold };
    }
    case 'atr_above': {
      const a = last(atr(bars, condition.period));
      if (a === null) return null;
      const close = closes[closes.length - 1];
      if (condition.unit === 'percent' && !(close > 0)) return null;
      const value = round8(condition.unit === 'percent' ? (a * 100) / close : a);
      return { value, threshold: condition.level, met: value > condition.level };
    }
    case 'bollinger_squeeze': {
      const w = last(bollingerWidth(closes, condition.period, BOLLINGER_DEVIATIONS));
      return w === null ? null : { value: round8(w), threshold: condition.level, met: round8(w) < condition.level };
    }
    case 'bollinger_breakout': {
      const widths = bollingerWidth(closes, condition.period, BOLLINGER_DEVIATIONS);
      const now = last(widths);
      const before = last(widths, condition.lookback);
      if (now === null || before === null) return null;
      const threshold = round8(condition.factor * before);
      return { value: round8(now), threshold, reference: round8(before), met: round8(now) > threshold };
    }
    case 'opening_gap':
      throw new Error('not a bar measure');
  }
}

const CONDITIONS: VolatilityCondition[] = [
  { type: 'volatility_above', level: 60 },
  { type: 'volatility_above', period: 5, level: 1 },
  { type: 'volatility_spike', factor: 1.2 },
  { type: 'volatility_spike', period: 3, longPeriod: 10, factor: 1.5 },
  { type: 'atr_above', level: 1 },
  { type: 'atr_above', unit: 'percent', level: 1.5 },
  { type: 'atr_above', period: 3, unit: 'percent', level: 0.5 },
  { type: 'bollinger_squeeze', level: 0.05 },
  { type: 'bollinger_squeeze', period: 4, level: 0.01 },
  { type: 'bollinger_breakout', factor: 1.1 },
  { type: 'bollinger_breakout', period: 5, factor: 1.5, lookback: 17 },
].map((input) => alertConditionSchema.parse(input) as VolatilityCondition);

describe('the measures on the direct computations', () => {
  const context: VolatilityContext = { interval: '1h', marketType: 'crypto' };

  it('are the measures of the indicator series, on every bar close of real-looking series', () => {
    let compared = 0;
    for (const bars of SERIES) {
      for (const condition of CONDITIONS) {
        // From fewer bars than needed up to all of them (ATR: fewer and more than its 10 periods).
        for (let end = 1; end <= bars.length; end += 3) {
          const upTo = bars.slice(0, end);
          expect(measureVolatility(condition, upTo, context)).toEqual(seriesMeasure(condition, upTo, context));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });

  it('are the same from the stored decimal strings, through the columns a worker keeps', () => {
    const bars = stored(walk(7, 400, 27_345.5));
    const rows: StoredBarRow[] = bars
      .map((b, i) => ({ openTime: i * 3_600_000, version: 9 * 2 ** 21 + ((i * 3600) % 2 ** 21), open: b.open.toFixed(10), high: b.high.toFixed(10), low: b.low.toFixed(10), close: b.close.toFixed(10) }))
      .reverse();
    for (const condition of CONDITIONS) {
      const columns = new StoredBarColumns();
      const size = volatilityBarsRead(condition);
      // 100 bar closes one after another, as a worker aligns its columns (they slide and move back several times).
      for (let newest = 300; newest < 400; newest++) {
        const upTo = rows.slice(399 - newest);
        columns.align(upTo, size);
        expect(measureVolatility(condition, columns, context)).toEqual(seriesMeasure(condition, bars.slice(0, newest + 1), context));
      }
    }
  });

  it('are the same when one symbol’s columns serve all its conditions over many bar closes, with bars written again and gaps', () => {
    let bars = stored(walk(11, 500, 184.2, 0.03));
    const toRows = (upTo: OhlcBar[], versionOf: (i: number) => number): StoredBarRow[] =>
      upTo
        .map((b, i) => ({ openTime: i * 3_600_000, version: versionOf(i) * 2 ** 21 + ((i * 3600) % 2 ** 21), open: b.open.toFixed(10), high: b.high.toFixed(10), low: b.low.toFixed(10), close: b.close.toFixed(10) }))
        .reverse();
    const columns = new StoredBarColumns();
    const size = Math.max(...CONDITIONS.map(volatilityBarsRead));
    const written = new Map<number, number>();
    for (let newest = 380; newest < 500; newest++) {
      // Every 7th close, a provider rewrites a bar 1 to 60 back (another transaction, wider range).
      if (newest % 7 === 0) {
        const k = newest - 1 - ((newest * 13) % 60);
        bars = bars.map((b, i) => (i === k ? { ...b, high: b.high * 1.01, low: b.low * 0.99 } : b));
        written.set(k, newest);
      }
      // Every 11th close, the query misses a bar 30 back (a gap that later closes see filled again).
      const upTo = bars.slice(0, newest + 1);
      const rows = toRows(upTo, (i) => written.get(i) ?? 1).filter((r) => newest % 11 !== 0 || r.openTime !== (newest - 30) * 3_600_000);
      const visible = upTo.filter((_, i) => newest % 11 !== 0 || i !== newest - 30);
      for (const condition of CONDITIONS) {
        columns.align(rows, Math.max(size, volatilityBarsRead(condition)));
        expect(measureVolatility(condition, columns, context)).toEqual(seriesMeasure(condition, visible, context));
      }
    }
  });

  it('reads the prices through reused columns without keeping a caller’s bars', () => {
    const a = walk(8, 50, 10);
    const b = walk(9, 30, 20);
    const first = columnsOf(a);
    first.load(50, PRICE_FIELDS.close);
    expect(first.close[49]).toBe(a[49].close);
    const second = columnsOf(b);
    second.load(30, PRICE_FIELDS.logReturn | PRICE_FIELDS.trueRange);
    expect(second.length).toBe(30);
    expect(second.close[29]).toBe(b[29].close);
    expect(second.logReturn[29]).toBe(Math.log(b[29].close / b[28].close));
    expect(second.trueRange[29]).toBe(Math.max(b[29].high - b[29].low, Math.abs(b[29].high - b[28].close), Math.abs(b[29].low - b[28].close)));
    expect(second.high[0]).toBe(b[0].high);
  });
});
