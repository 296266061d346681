import type { DataSource } from 'typeorm';
import { barDemandKey, collectBarDemand, type BarDemandProvider } from '../../src/prices/price-demand';

describe('the bar demand of the consumers of prices (pure)', () => {
  // The providers here ignore the database: the merge is what is tested.
  const db = {} as DataSource;
  const provider = (...demand: Awaited<ReturnType<BarDemandProvider['barDemand']>>): BarDemandProvider => ({ barDemand: async () => demand });

  it('keeps one entry per market and interval, with the largest need of every provider', async () => {
    const needs = await collectBarDemand(
      [
        provider({ marketId: 1, interval: '1h', needed: 15 }, { marketId: 1, interval: '1h', needed: 35 }, { marketId: 2, interval: '4h', needed: 21 }),
        provider({ marketId: 1, interval: '1h', needed: 27 }, { marketId: 1, interval: '15m', needed: 15 }),
      ],
      db,
      [1, 2],
      new Date('2026-11-23T10:00:00Z'),
    );
    expect([...needs.entries()].sort(([a], [b]) => a.localeCompare(b))).toEqual([
      [barDemandKey(1, '15m'), { marketId: 1, interval: '15m', needed: 15 }],
      [barDemandKey(1, '1h'), { marketId: 1, interval: '1h', needed: 35 }],
      [barDemandKey(2, '4h'), { marketId: 2, interval: '4h', needed: 21 }],
    ]);
  });

  it('asks no provider when no market is polled', async () => {
    let asked = 0;
    const counting: BarDemandProvider = { barDemand: async () => (asked++, []) };
    expect((await collectBarDemand([counting], db, [], new Date())).size).toBe(0);
    expect(asked).toBe(0);
  });
});
