import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { AlpacaLiveSource, AlpacaReplaySource } from '../../src/prices/alpaca.client';
import { BinanceLiveSource, BinanceReplaySource } from '../../src/prices/binance.client';
import { PriceSourceError } from '../../src/prices/price-source';
import { SimulatedPriceSource } from '../../src/prices/simulated-prices';
import { loadPricesConfig, priceSourcesFromConfig, withPriceSourceHealth } from '../../src/prices/prices.config';
import { ConfigError } from '../../src/config/env';
import { startPriceStandIn, type StandIn } from './price-stand-ins';

let http: StandIn;
beforeAll(async () => {
  http = await startPriceStandIn();
});
afterAll(() => http.close());
beforeEach(() => {
  http.mode = 'ok';
  http.requests.length = 0;
});

// No recorded Alpaca answer exists: only the requests and the error handling are tested.
describe('Alpaca live client (requests and errors only)', () => {
  const alpaca = (overrides: { timeoutMs?: number } = {}) =>
    new AlpacaLiveSource({
      baseUrl: http.base,
      keyId: 'PKTESTKEYID0001',
      secretKey: 'test-secret-key-0001',
      now: () => new Date('2026-11-23T15:00:00Z'),
      userAgent: 'Tickerbell-test/1.0',
      ...overrides,
    });

  it('asks for the latest trades of up to 100 symbols per request, with its keys in headers', async () => {
    http.mode = 'forbidden';
    const symbols = Array.from({ length: 150 }, (_, i) => `S${i}`);
    await expect(alpaca().quotes(symbols)).rejects.toMatchObject({ name: 'PriceSourceError', status: 403 });
    const [first] = http.requests;
    const url = new URL(first.url!, http.base);
    expect(url.pathname).toBe('/v2/stocks/trades/latest');
    expect(url.searchParams.get('symbols')!.split(',')).toHaveLength(100);
    expect(url.searchParams.get('feed')).toBe('iex');
    expect(first.headers).toMatchObject({
      'apca-api-key-id': 'PKTESTKEYID0001',
      'apca-api-secret-key': 'test-secret-key-0001',
      'user-agent': 'Tickerbell-test/1.0',
    });
  });

  it('asks for the newest bars of a symbol, far enough back to cover a weekend', async () => {
    http.mode = 'busy';
    await expect(alpaca().candles('AAPL', '1m', 30)).rejects.toMatchObject({ name: 'PriceFetchError', status: 503 });
    const url = new URL(http.requests[0].url!, http.base);
    expect(url.pathname).toBe('/v2/stocks/AAPL/bars');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      timeframe: '1Min',
      limit: '30',
      sort: 'desc',
      start: new Date(Date.parse('2026-11-23T15:00:00Z') - 30 * 60_000 * 4 - 4 * 86_400_000).toISOString(),
      feed: 'iex',
    });
  });

  it('times out and honours a rate limit answer', async () => {
    http.mode = 'slow';
    await expect(alpaca({ timeoutMs: 200 }).quotes(['AAPL'])).rejects.toThrow(/no answer within 200 ms/);
    http.mode = 'limited';
    await expect(alpaca().quotes(['AAPL'])).rejects.toMatchObject({ status: 429, retryAfterMs: 3000 });
  });

  it('needs both keys', () => {
    expect(() => new AlpacaLiveSource({ keyId: '', secretKey: 'x' })).toThrow(PriceSourceError);
  });

  it('replay without recordings fails clearly', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'alpaca-replay-'));
    await expect(new AlpacaReplaySource(empty).quotes(['AAPL'])).rejects.toThrow(/no recorded trades\/latest answer/);
    await expect(new AlpacaReplaySource(empty).candles('AAPL', '1d', 5)).rejects.toThrow(/no recorded 1d bars for AAPL/);
  });
});

describe('simulated price feed', () => {
  const anchorAt = new Date('2026-11-21T10:00:00Z');
  const feed = (seed: number, clock = fixedClock('2026-11-21T11:00:00Z')) =>
    new SimulatedPriceSource({ seed, anchors: { BTCUSDT: '60740.00', AAPL: '190.12' }, anchorAt, clock });

  it('labels every quote simulated and leaves symbols without a real price out', async () => {
    const quotes = await feed(1).quotes(['BTCUSDT', 'AAPL', 'NOPE']);
    expect(quotes.map((q) => [q.symbol, q.simulated, q.source])).toEqual([
      ['BTCUSDT', true, 'simulated'],
      ['AAPL', true, 'simulated'],
    ]);
    expect(quotes[0].price).toMatch(/^\d+\.\d{2}$/);
  });

  it('is deterministic for a seed and an instant, whatever the order of calls', async () => {
    const clock = fixedClock('2026-11-21T10:30:00Z');
    const stepped = feed(7, clock);
    await stepped.quotes(['BTCUSDT']);
    clock.set('2026-11-21T11:00:00Z');
    expect(await stepped.quotes(['BTCUSDT'])).toEqual(await feed(7).quotes(['BTCUSDT']));
    expect((await feed(8).quotes(['BTCUSDT']))[0].price).not.toBe((await feed(7).quotes(['BTCUSDT']))[0].price);
  });

  it('walks around the last real price and moves with time', async () => {
    const clock = fixedClock(anchorAt);
    const source = feed(3, clock);
    expect((await source.quotes(['BTCUSDT']))[0].price).toBe('60740.00');
    const prices: number[] = [];
    for (let i = 0; i < 360; i++) {
      clock.advance(10_000);
      prices.push(Number((await source.quotes(['BTCUSDT']))[0].price));
    }
    expect(new Set(prices).size).toBeGreaterThan(300);
    // One hour of 0.05 % steps: about 1 % standard deviation; 10 % would be a broken walk.
    for (const price of prices) expect(Math.abs(price / 60740 - 1)).toBeLessThan(0.1);
  });

  it('serves consistent bars that end at the current simulated price', async () => {
    const source = feed(5);
    const bars = await source.candles('BTCUSDT', '1m', 30);
    expect(bars).toHaveLength(30);
    expect(bars.at(-1)!.close).toBe((await source.quotes(['BTCUSDT']))[0].price);
    for (const bar of bars) {
      expect(Number(bar.high)).toBeGreaterThanOrEqual(Math.max(Number(bar.open), Number(bar.close)));
      expect(Number(bar.low)).toBeLessThanOrEqual(Math.min(Number(bar.open), Number(bar.close)));
    }
    bars.slice(1).forEach((bar, i) => expect(bar.openTime.getTime() - bars[i].openTime.getTime()).toBe(60_000));
  });
});

describe('prices configuration', () => {
  const base = { DATABASE_URL: 'postgres://u@localhost/db', REDIS_URL: 'redis://localhost' };

  it('defaults to the simulated feed in development and to live in production', () => {
    expect(loadPricesConfig(base).PRICES_SOURCE).toBe('simulated');
    expect(loadPricesConfig({ ...base, NODE_ENV: 'production' }).PRICES_SOURCE).toBe('live');
  });

  it('builds the live clients, without stocks when no Alpaca keys are set', () => {
    const sources = priceSourcesFromConfig(loadPricesConfig({ ...base, PRICES_SOURCE: 'live' }));
    expect([sources.crypto.name, sources.crypto.kind, sources.cryptoFallback.name, sources.stocks]).toEqual(['binance', 'live', 'coingecko', null]);
  });

  it('builds the replay twins from the bundled recordings', async () => {
    const sources = priceSourcesFromConfig(loadPricesConfig({ ...base, PRICES_SOURCE: 'replay' }));
    expect(sources.crypto).toBeInstanceOf(BinanceReplaySource);
    expect((await sources.crypto.quotes(['BTCUSDT']))[0].price).toBe('60740.00000000');
    expect((await sources.cryptoFallback.quotes(['BTCUSDT']))[0].price).toBe('67187.3358936566');
  });

  it('wants both Alpaca keys or neither, and a key for a paid CoinGecko plan', () => {
    expect(() => loadPricesConfig({ ...base, ALPACA_API_KEY_ID: 'PKTESTKEYID0001' })).toThrow(ConfigError);
    expect(() => loadPricesConfig({ ...base, COINGECKO_API_PLAN: 'pro' })).toThrow(/COINGECKO_API_KEY/);
  });
});

describe('price source health (PostgreSQL)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('records successes with the freshness of the data, and counts failures', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z');
    const source = withPriceSourceHealth(new BinanceLiveSource({ baseUrl: http.base, quoteEndpoint: 'ticker/24hr' }), { dataSource: db.dataSource, clock });
    await source.quotes(['BTCUSDT']);
    http.mode = 'busy';
    clock.advance(10_000);
    await expect(source.quotes(['BTCUSDT'])).rejects.toThrow(/HTTP 503/);
    await expect(source.candles('BTCUSDT', '1m', 2)).rejects.toThrow(/HTTP 503/);
    const [row] = await db.dataSource.query(
      `SELECT last_success_at, last_data_at, last_error_at, last_error, consecutive_failures, details FROM source_health WHERE source = 'binance'`,
    );
    expect(row).toMatchObject({
      last_success_at: new Date('2026-11-21T10:00:00Z'),
      last_data_at: new Date(1634944401452),
      last_error_at: new Date('2026-11-21T10:00:10Z'),
      consecutive_failures: 2,
      details: { kind: 'live', asked: 1, quotes: 1 },
    });
    expect(row.last_error).toMatch(/HTTP 503/);
  });
});
