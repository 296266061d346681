import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { PriceSourceError } from '../../src/prices/price-source';
import { backfillBars } from '../../src/prices/price-backfill';
import { loadPricesConfig, priceSourcesFromConfig } from '../../src/prices/prices.config';
import { storedBars, upsertTickBars } from '../../src/prices/prices.store';
import { fixedClock } from '../../src/runtime/clock';
import { SEEDS, runSeeds } from '../../src/seeds/seeds';
import { FIXTURES, fixture } from './price-stand-ins';

describe('prices.backfill-bars (real PostgreSQL, recorded klines)', () => {
  let db: TestDatabase;
  let btc: number;
  // [openTime, open, high, low, close, volume, closeTime, ...]
  const klines = fixture('binance_spot_api_v3_klines_BTCUSDT_1m.json') as [number, string, string, string, string, string, number][];
  const trim = (v: string) => v.replace(/\.?0+$/, '');

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    [{ id: btc }] = await db.dataSource.query(`SELECT id FROM markets WHERE symbol = 'BTCUSDT'`);
  });
  beforeEach(() => db.dataSource.query('TRUNCATE price_bars, source_health'));
  afterAll(() => db.drop());

  const replay = (clock: ReturnType<typeof fixedClock>) =>
    priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'replay', PRICES_REPLAY_DIR: FIXTURES }), { clock });

  it('writes the recorded closed candles as bars, oldest first, and overwrites what the quotes built', async () => {
    // After the last recorded candle closed (23:12:59.999).
    const clock = fixedClock('2021-10-22T23:30:00Z');
    // A bar the quotes built for the first recorded minute: the provider's candle wins.
    await upsertTickBars(db.dataSource, [{ marketId: btc, symbol: 'BTCUSDT', price: '1.5', at: new Date(klines[0][0] + 5000), source: 'binance', simulated: false }]);
    const result = await backfillBars({ dataSource: db.dataSource, clock, sources: replay(clock) }, { symbol: 'BTCUSDT', interval: '1m', limit: 500 });
    expect(result).toEqual({ status: 'written', source: 'binance', closed: 10, open: 0 });
    const { bars, simulated } = await storedBars(db.dataSource, btc, '1m', 100);
    expect(simulated).toBe(false);
    expect(bars).toEqual(
      klines.map((k) => ({ time: new Date(k[0]).toISOString(), open: trim(k[1]), high: trim(k[2]), low: trim(k[3]), close: trim(k[4]), volume: trim(k[5]) })),
    );
    const [health] = await db.dataSource.query('SELECT source, last_data_at FROM source_health');
    expect(health).toEqual({ source: 'binance', last_data_at: new Date(klines[9][6]) });
    // Twice is the same as once.
    await backfillBars({ dataSource: db.dataSource, clock, sources: replay(clock) }, { symbol: 'BTCUSDT', interval: '1m', limit: 500 });
    expect((await storedBars(db.dataSource, btc, '1m', 100)).bars).toEqual(bars);
  });

  it('merges the candle still in progress with the bar the quotes are building', async () => {
    // During the last recorded minute (23:12): that candle is not closed yet.
    const last = klines[9];
    const clock = fixedClock(new Date(last[0] + 30_000));
    const tickAt = new Date(last[0] + 20_000);
    await upsertTickBars(db.dataSource, [{ marketId: btc, symbol: 'BTCUSDT', price: '99999', at: tickAt, source: 'binance', simulated: false }]);
    const result = await backfillBars({ dataSource: db.dataSource, clock, sources: replay(clock) }, { symbol: 'BTCUSDT', interval: '1m', limit: 3 });
    expect(result).toMatchObject({ closed: 2, open: 1 });
    const { bars } = await storedBars(db.dataSource, btc, '1m', 3);
    expect(bars.at(-1)).toEqual({ time: new Date(last[0]).toISOString(), open: trim(last[1]), high: '99999', low: trim(last[3]), close: '99999', volume: trim(last[5]) });
  });

  it('flags bars from the simulated feed as simulated', async () => {
    const clock = fixedClock('2026-11-23T10:00:00Z');
    const sources = priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'simulated' }), { clock });
    const result = await backfillBars({ dataSource: db.dataSource, clock, sources }, { symbol: 'BTCUSDT', interval: '1h', limit: 48 });
    expect(result).toEqual({ status: 'written', source: 'simulated', closed: 47, open: 1 });
    const { bars, simulated } = await storedBars(db.dataSource, btc, '1h', 1000);
    expect(simulated).toBe(true);
    expect(bars).toHaveLength(48);
    expect(bars.at(-1)).toMatchObject({ time: '2026-11-23T10:00:00.000Z', close: '60740' });
  });

  it('answers unknown symbols and markets without a candle source without failing; a missing recording is permanent', async () => {
    const clock = fixedClock('2021-10-22T23:00:00Z');
    const deps = { dataSource: db.dataSource, clock, sources: replay(clock) };
    expect(await backfillBars(deps, { symbol: 'NOPE', interval: '1m', limit: 10 })).toMatchObject({ status: 'unknown_symbol' });
    expect(await backfillBars(deps, { symbol: '^GSPC', interval: '1d', limit: 10 })).toMatchObject({ status: 'no_source' });
    await expect(backfillBars(deps, { symbol: 'BTCUSDT', interval: '4h', limit: 10 })).rejects.toBeInstanceOf(PriceSourceError);
  });
});
