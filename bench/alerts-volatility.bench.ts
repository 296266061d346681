import {
  alertConditionSchema,
  isVolatilityCondition,
  isVolatilityConditionMet,
  ohlcReader,
  volatilityBarsNeeded,
  type OhlcBar,
  type VolatilityCondition,
  type VolatilityContext,
} from '@tickerbell/jobs/alerts';
import type { Benchmark, BenchRow } from './bench';

const SYMBOLS = 10_000;
/** What the evaluation reads beyond a condition's need (alert-evaluation.ts TECHNICAL_BARS_MARGIN). */
const MARGIN = 250;
const ROUNDS = 5;

/** A deterministic random walk of hourly bars (a fixed LCG: the same series on every run). */
function barSeries(seed: number, length: number): OhlcBar[] {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const bars: OhlcBar[] = [];
  let close = 100 + seed % 900;
  for (let i = 0; i < length; i++) {
    const open = close;
    close = open * Math.exp((next() - 0.5) * 0.02);
    bars.push({ open, high: Math.max(open, close) * (1 + next() * 0.005), low: Math.min(open, close) * (1 - next() * 0.005), close });
  }
  return bars;
}

/** The best of ROUNDS runs over all symbols (a warm-up run first): one bar close's evaluation. */
function measure(scenario: string, conditions: VolatilityCondition[], series: OhlcBar[][], context: VolatilityContext, prepare?: (bars: OhlcBar[], condition: VolatilityCondition) => OhlcBar[]): BenchRow {
  let met = 0;
  const run = () => {
    met = 0;
    for (let i = 0; i < series.length; i++) {
      const condition = conditions[i % conditions.length];
      const bars = prepare ? prepare(series[i], condition) : series[i];
      if (isVolatilityConditionMet(condition, bars, context)) met++;
    }
  };
  run();
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const started = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { scenario, symbols: series.length, 'bars each': series[0].length, 'ms per bar close': best, 'µs per symbol': (best * 1000) / series.length, met, 'target ms': 50 };
}

/**
 * Volatility conditions of 10,000 symbols at one bar close: the pure evaluation over prepared bar
 * series of the length the workers read (the condition's need + the margin), best of 5 rounds.
 * Issue 20's target: under 50 ms. The database read is not in it (alerts-e2e measures the whole path).
 */
export const alertsVolatilityBench: Benchmark = {
  name: 'alerts-volatility',
  description: 'volatility conditions of 10,000 symbols at one bar close (pure CPU over prepared bars; target < 50 ms)',
  async run() {
    const all = [
      { type: 'volatility_above', level: 60 },
      { type: 'volatility_spike', factor: 2 },
      { type: 'atr_above', unit: 'percent', level: 1.5 },
      { type: 'bollinger_squeeze', level: 0.02 },
      { type: 'bollinger_breakout', factor: 2 },
    ]
      .map((input) => alertConditionSchema.parse(input))
      .filter(isVolatilityCondition);
    const context: VolatilityContext = { interval: '1h', marketType: 'crypto' };
    const rows: BenchRow[] = [];
    const seriesFor = (conditions: VolatilityCondition[]) => {
      const length = Math.max(...conditions.map((c) => volatilityBarsNeeded(c))) + MARGIN;
      return Array.from({ length: SYMBOLS }, (_, i) => barSeries(i + 1, length));
    };
    for (const condition of all) rows.push(measure(`${condition.type} (defaults)`, [condition], seriesFor([condition]), context));
    const mixed = seriesFor(all);
    rows.push(measure('the five, mixed (2,000 symbols each)', all, mixed, context));
    // As the worker does it: the stored decimal strings converted to doubles, as far as each condition reads.
    const stored = mixed.map((bars) => bars.map((b) => ({ open: b.open.toFixed(10), high: b.high.toFixed(10), low: b.low.toFixed(10), close: b.close.toFixed(10) })));
    const byRef = new Map(mixed.map((bars, i) => [bars, stored[i]]));
    rows.push(measure('the five, mixed, from decimal strings', all, mixed, context, (bars, condition) => ohlcReader(byRef.get(bars)!)(condition)));
    return rows;
  },
};
