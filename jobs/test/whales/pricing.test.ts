import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import {
  CoinsApiError,
  DEFILLAMA_COINS_SOURCE,
  DefiLlamaCoinsClient,
  openApiExamplePrices,
  parseCoinsAnswer,
  startCoinsReplayServer,
  type CoinsReplayServer,
} from '../../src/whales/defillama-coins.client';
import { createWhalesPricer, ethPriceAt, storedUsdPrice, usdValueOf, whalesPriceCacheKey } from '../../src/whales/whales-pricing';

// Prices at block time: ETH from the prices feature's stored 1-minute ETHUSDT bars, ERC-20 tokens
// from DefiLlama's coins API played by its replay twin (a local HTTP server answering the OpenAPI
// excerpt's example coin and simulated prices), cached in Redis. Real PostgreSQL and Redis.

const CDAI = 'ethereum:0xdf574c24545e5ffecb9a659c229253d4111d87e1'; // the OpenAPI example coin
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const UNPRICED = '0x01f6f4d612649741c895c1dacdbc98f359594d43';
const T = new Date('2025-03-10T14:30:25Z');

let db: TestDatabase;
let server: CoinsReplayServer;
const redis = new Redis(testRedisUrl());
const prefix = testQueuePrefix();

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startCoinsReplayServer();
  const [{ id }] = await db.dataSource.query(
    `INSERT INTO markets (symbol, name, type) VALUES ('ETHUSDT', 'Ethereum / Tether', 'crypto') ON CONFLICT (symbol) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
  );
  const bar = (open: string, o: string, c: string, simulated = false) =>
    db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, source, simulated) VALUES ($1, '1m', $2, $3, $3, $4, $4, 'binance', $5)`,
      [id, open, o, c, simulated],
    );
  await bar('2025-03-10T14:30:00Z', '3500.10', '3501.55'); // contains T
  await bar('2025-03-10T14:29:00Z', '3400.00', '3499.00');
  await bar('2025-03-10T16:04:00Z', '3600.00', '3610.00'); // 3m35s before 16:08:35 ends, the only bar near it
  await bar('2025-03-10T18:00:00Z', '2999.00', '3001.00', true); // simulated, the only bar near 17:57:30 (after it)
});
afterAll(async () => {
  await server.close();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
  redis.disconnect();
  await db.drop();
});

describe('ETH from the stored ETHUSDT bars', () => {
  it('takes the close of the 1-minute bar containing the block time', async () => {
    expect(await ethPriceAt(db.dataSource, T)).toEqual({ usd: '3501.5500000000', source: 'prices', confidence: null });
  });

  it('else the nearest bar within 5 minutes (a bar before: its close; after: its open; simulated bars say so), else nothing', async () => {
    expect(await ethPriceAt(db.dataSource, new Date('2025-03-10T16:08:35Z'))).toMatchObject({ usd: '3610.0000000000', source: 'prices' });
    expect(await ethPriceAt(db.dataSource, new Date('2025-03-10T17:57:30Z'))).toEqual({ usd: '2999.0000000000', source: 'simulated', confidence: null });
    expect(await ethPriceAt(db.dataSource, new Date('2025-03-10T16:11:00Z'))).toBeNull();
    expect(await ethPriceAt(db.dataSource, new Date('2025-03-10T12:00:00Z'))).toBeNull();
  });
});

describe('DefiLlama coins client (against the replay twin)', () => {
  it("reads the OpenAPI excerpt's example coin: price, symbol, decimals, timestamp, confidence", async () => {
    expect(openApiExamplePrices().get(CDAI)).toEqual({ price: 0.022053735051098835, symbol: 'cDAI', decimals: 8, timestamp: 1648680149, confidence: 0.99 });
    const client = new DefiLlamaCoinsClient({ baseUrl: server.url, kind: 'replay' });
    const prices = await client.historical(1_700_000_000, [CDAI, `ethereum:${USDC}`, `ethereum:${UNPRICED}`]);
    expect(prices.get(CDAI)).toMatchObject({ price: 0.022053735051098835, symbol: 'cDAI', timestamp: 1_700_000_000 });
    expect(prices.get(`ethereum:${USDC}`)).toMatchObject({ price: 1, symbol: 'USDC', decimals: 6 });
    expect(prices.has(`ethereum:${UNPRICED}`)).toBe(false);
    expect(server.requests.at(-1)).toMatch(/^\/prices\/historical\/1700000000\/ethereum%3A0xdf57.*\?searchWidth=4h$/);
  });

  it('refuses a body that is not the coins shape, and skips one malformed coin', () => {
    expect(() => parseCoinsAnswer({ prices: [] })).toThrow(CoinsApiError);
    expect([...parseCoinsAnswer({ coins: { 'ethereum:0xAB': { price: 'x', symbol: 'X', timestamp: 1 }, 'ethereum:0xcd': { price: 2, symbol: 'Y', timestamp: 1 } } }).keys()]).toEqual([
      'ethereum:0xcd',
    ]);
  });

  it("records failures and successes in source_health under 'defillama-coins'; 429 and 5xx are retryable", async () => {
    const client = new DefiLlamaCoinsClient({ baseUrl: server.url, health: { dataSource: db.dataSource, clock: fixedClock('2025-03-10T15:00:00Z') } });
    server.failNext(1, 429);
    const error = await client.historical(1, [CDAI]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoinsApiError);
    expect(error).toMatchObject({ retryable: true, status: 429 });
    const [failed] = await db.dataSource.query(`SELECT consecutive_failures, last_error FROM source_health WHERE source = $1`, [DEFILLAMA_COINS_SOURCE]);
    expect(failed).toEqual({ consecutive_failures: 1, last_error: expect.stringContaining('HTTP 429') });
    await client.historical(1, [CDAI]);
    const [ok] = await db.dataSource.query(`SELECT consecutive_failures FROM source_health WHERE source = $1`, [DEFILLAMA_COINS_SOURCE]);
    expect(ok.consecutive_failures).toBe(0);
  });
});

describe('the pricer', () => {
  it('prices ETH and tokens at block time in one coins request, labels replay prices simulated, and caches per token and minute', async () => {
    const pricer = createWhalesPricer({ db: db.dataSource, coins: new DefiLlamaCoinsClient({ baseUrl: server.url, kind: 'replay' }), redis, prefix });
    const before = server.requests.length;
    const prices = await pricer.prices([null, USDC, UNPRICED, USDC], T);
    expect(Object.fromEntries(prices)).toEqual({
      eth: { usd: '3501.5500000000', source: 'prices', confidence: null },
      [USDC]: { usd: '1', source: 'simulated', confidence: '0.9900' },
      [UNPRICED]: null,
    });
    expect(server.requests.length - before).toBe(1);
    expect(await redis.get(whalesPriceCacheKey(prefix, USDC, T))).toContain('"usd":"1"');
    expect(await redis.ttl(whalesPriceCacheKey(prefix, UNPRICED, T))).toBeLessThanOrEqual(300);

    // Same minute: from the cache, no request.
    const again = await pricer.prices([USDC, UNPRICED], new Date(T.getTime() + 20_000));
    expect(server.requests.length - before).toBe(1);
    expect(again.get(USDC)).toEqual({ usd: '1', source: 'simulated', confidence: '0.9900' });
  });

  it('keeps a low-confidence price with its confidence; a coins outage leaves tokens unpriced without caching it', async () => {
    const pricer = createWhalesPricer({ db: db.dataSource, coins: new DefiLlamaCoinsClient({ baseUrl: server.url }), redis, prefix });
    server.setPrice(`ethereum:${UNPRICED}`, { price: 0.5, symbol: 'THIN', decimals: 18, confidence: 0.42 });
    const at = new Date('2025-03-11T00:00:00Z');
    server.failNext(1, 503);
    expect((await pricer.prices([UNPRICED], at)).get(UNPRICED)).toBeNull();
    expect(await redis.exists(whalesPriceCacheKey(prefix, UNPRICED, at))).toBe(0);
    expect((await pricer.prices([UNPRICED], at)).get(UNPRICED)).toEqual({ usd: '0.5', source: 'defillama', confidence: '0.4200' });
    server.setPrice(`ethereum:${UNPRICED}`, null);
  });

  it('values amounts exactly to the cent, and stores an absurd value as unknown', () => {
    expect(usdValueOf('312203.114', { usd: '0.00001', source: 'defillama', confidence: null })).toBe('3.12');
    expect(usdValueOf('1000', { usd: '1000', source: 'prices', confidence: null })).toBe('1000000.00');
    expect(usdValueOf(null, { usd: '1', source: 'prices', confidence: null })).toBeNull();
    expect(usdValueOf('1e30', { usd: '1', source: 'defillama', confidence: null })).toBeNull();
    expect(storedUsdPrice({ usd: '0.022053735051098835', source: 'defillama', confidence: null })).toBe('0.0220537351');
  });
});
