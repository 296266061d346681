import { BUNDLED_EXCHANGE_CALENDARS_PATH, calendarsFromFile, dueMarketEvents, marketStatusAt, readExchangeCalendarFile, sessionsBetween } from '@tickerbell/jobs/market-hours';
import type { Benchmark, BenchRow } from './bench';

function measure(scenario: string, iterations: number, run: (i: number) => void): BenchRow {
  for (let i = 0; i < Math.min(200, iterations); i++) run(i); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) run(i);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { scenario, iterations, 'ms per op': ms / iterations, 'ops/s': (iterations / ms) * 1000 };
}

/** The pure exchange-clock work: what GET /api/exchanges and one market-clock tick cost in CPU. */
export const marketHoursBench: Benchmark = {
  name: 'market-hours',
  description: 'exchange clocks over the bundled calendars (pure CPU, no I/O)',
  async run() {
    const calendars = calendarsFromFile(readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH));
    const start = Date.parse('2026-11-23T00:00:00Z');
    const minute = 60_000;
    return [
      measure(`status + next transition of all ${calendars.length} exchanges (one GET /api/exchanges)`, 2_000, (i) => {
        const now = new Date(start + i * 7 * minute);
        for (const calendar of calendars) marketStatusAt(calendar, now);
      }),
      measure(`due events of all ${calendars.length} exchanges (one market-clock tick)`, 2_000, (i) => {
        dueMarketEvents(calendars, { lastRunAt: new Date(start + i * minute), now: new Date(start + (i + 1) * minute) });
      }),
      measure('one exchange, sessions of a year (CLI sessions, warm cache)', 200, () => {
        sessionsBetween(calendars[0], '2026-01-01', '2026-12-31');
      }),
    ];
  },
};
