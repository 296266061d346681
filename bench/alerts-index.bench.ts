import { loadavg } from 'node:os';
import { AlertIndex, matchByFullScan, parseHistory, type IndexedAlert, type PricePoint, type PriceTick } from '@tickerbell/jobs/alerts';
import { randomAlertCondition, seededRandom } from '@tickerbell/jobs/testing/alert-conditions';
import type { Benchmark, BenchRow } from './bench';

const ALERTS = 1_000_000;
const SYMBOLS = 10_000;
const TICKS = 20;
// Steady ticks run before the measured ones: the first ones after the all-armed tick take other
// paths through the index (cached brackets hit), so V8 re-optimises it; they are reported apart.
const WARMUP_TICKS = 5;
const NAIVE_RUNS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

/**
 * One tick of every symbol against 1,000,000 active alerts: the per-symbol threshold index next to
 * a full scan of every alert with the same exact evaluator (pure CPU, no I/O).
 */
export const alertsIndexBench: Benchmark = {
  name: 'alerts-index',
  description: `${ALERTS.toLocaleString('en-US')} active alerts over ${SYMBOLS.toLocaleString('en-US')} symbols: one tick of every symbol, index vs full scan`,
  async run() {
    const loadBefore = loadavg()[0];
    const random = seededRandom(42);
    const base = Array.from({ length: SYMBOLS }, () => 1 + random() * 50_000);
    const symbol = (i: number) => `SYM${i}`;
    // Thresholds within ±20 % of the symbol's price, in cents.
    const near = (i: number) => (base[i] * (0.8 + random() * 0.4)).toFixed(2);

    const heapBefore = heapMb();
    const alerts: IndexedAlert[] = new Array(ALERTS);
    for (let id = 0; id < ALERTS; id++) {
      const s = id % SYMBOLS;
      alerts[id] = { id: id + 1, symbol: symbol(s), condition: randomAlertCondition(random, () => near(s)) };
    }
    const heapAlerts = heapMb();
    const buildStarted = performance.now();
    const index = AlertIndex.fromAlerts(alerts);
    const buildMs = performance.now() - buildStarted;
    const heapIndex = heapMb();

    // Every symbol moves on every tick, by up to ±0.2 % (a large move for a 10 s crypto tick),
    // and carries 10 minutes of history (one point a minute, within ±0.5 % of its price).
    const tickAt = Date.parse('2026-11-21T10:00:00Z');
    const last = base.map((b) => b.toFixed(2));
    const histories = base.map((b) =>
      Array.from({ length: 10 }, (_, m): PricePoint => ({ at: new Date(tickAt - (10 - m) * 60_000), price: (b * (0.995 + random() * 0.01)).toFixed(2) })),
    );
    // The evaluator keeps each symbol's history parsed in the process (alert-price-history.ts) and
    // hands the index numbers with the decimals alongside; the full scan reads the points.
    const parsedHistories = histories.map(parseHistory);
    const makeTicks = (): Map<string, PriceTick> => {
      const ticks = new Map<string, PriceTick>();
      for (let s = 0; s < SYMBOLS; s++) {
        const current = (Number(last[s]) * (0.998 + random() * 0.004)).toFixed(2);
        ticks.set(symbol(s), { previous: last[s], current, at: new Date(tickAt), history: histories[s] });
        last[s] = current;
      }
      return ticks;
    };

    const tickSets = Array.from({ length: 1 + WARMUP_TICKS + TICKS }, makeTicks);
    const naiveMs: number[] = [];
    const naiveMatched: number[] = [];
    for (let run = 0; run < NAIVE_RUNS; run++) {
      const started = performance.now();
      naiveMatched.push(matchByFullScan(alerts, tickSets[run]).length);
      naiveMs.push(performance.now() - started);
    }

    // First tick with every alert armed: each level that already holds fires (the storm right after
    // the alerts are created). The fired ones are then disarmed until the next UTC day, as the
    // frequency rules do, which is the steady state measured after it.
    const firstStarted = performance.now();
    const firstOut: IndexedAlert[] = [];
    let s = 0;
    for (const [name, tick] of tickSets[0]) index.match(name, tick, firstOut, parsedHistories[s++]);
    const firstMs = performance.now() - firstStarted;
    if (firstOut.length !== naiveMatched[0]) throw new Error(`index and full scan disagree: ${firstOut.length} vs ${naiveMatched[0]}`);
    const tomorrow = Date.parse('2026-11-22T00:00:00Z');
    for (const alert of firstOut) index.disarm(alert.id, tomorrow);

    const tickMs = (ticks: Map<string, PriceTick>): { ms: number; matched: number } => {
      const started = performance.now();
      const out: IndexedAlert[] = [];
      let s = 0;
      for (const [name, tick] of ticks) index.match(name, tick, out, parsedHistories[s++]);
      return { ms: performance.now() - started, matched: out.length };
    };
    const warmupMs = tickSets.slice(1, 1 + WARMUP_TICKS).map((ticks) => tickMs(ticks).ms);
    const steady = tickSets.slice(1 + WARMUP_TICKS).map(tickMs);
    const indexMs = steady.map((t) => t.ms);
    const matched = steady.map((t) => t.matched);

    // The steady ticks agree with a full scan of the alerts still armed (checked once, not timed).
    const armed = alerts.filter((alert) => index.isArmed(alert.id));
    const lastExpected = matchByFullScan(armed, tickSets[tickSets.length - 1]).length;
    if (matched[matched.length - 1] !== lastExpected) throw new Error(`index and full scan disagree: ${matched[matched.length - 1]} vs ${lastExpected}`);

    const indexMedian = median(indexMs);
    const naiveMedian = median(naiveMs);
    const rows: BenchRow[] = [
      { scenario: `build the index from ${ALERTS.toLocaleString('en-US')} rows`, ms: buildMs, 'heap MB': heapIndex - heapAlerts },
      { scenario: 'the alert rows themselves (in memory)', 'heap MB': heapAlerts - heapBefore },
      { scenario: `full scan of every alert, one tick of every symbol (median of ${NAIVE_RUNS})`, ms: naiveMedian, matched: naiveMatched[0] },
      { scenario: 'index, first tick (all armed: every level already true fires)', ms: firstMs, matched: firstOut.length, 'x faster': naiveMedian / firstMs },
      { scenario: `index, the ${WARMUP_TICKS} steady ticks after it (V8 re-optimising; median)`, ms: median(warmupMs), 'x faster': naiveMedian / median(warmupMs) },
      {
        scenario: `index, steady tick (fired alerts disarmed; median of the next ${TICKS})`,
        ms: indexMedian,
        'p95 ms': [...indexMs].sort((a, b) => a - b)[Math.ceil(TICKS * 0.95) - 1],
        matched: median(matched),
        'x faster': naiveMedian / indexMedian,
      },
      { scenario: 'machine load (1-minute average) at start / end', load: `${loadBefore.toFixed(2)} / ${loadavg()[0].toFixed(2)}` },
    ];
    return rows;
  },
};
