import Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { fixedClock } from '../../src/runtime/clock';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { PolymarketClient, PredictionsSourceError, polymarketRateLimit, type PolymarketClientOptions } from '../../src/predictions/polymarket.client';
import { SIMULATED_MARKET_BASE, startPolymarketReplayServer, type PolymarketReplayServer } from '../../src/predictions/polymarket-replay';
import { POLYMARKET_CLOB_SOURCE, POLYMARKET_GAMMA_SOURCE } from '../../src/predictions/predictions-markets.store';

// The real client against the replay twin on a local port (recorded answers and a simulated set
// built from them: polymarket-replay.ts) and the rate limit in Redis. source_health writes are
// recorded by a stand-in for the database (the sync test reads the real table).

const clock = fixedClock('2026-03-01T12:00:00Z');
const prefix = testQueuePrefix();
let server: PolymarketReplayServer;
let redis: Redis;

const client = (opts: Partial<PolymarketClientOptions> = {}) =>
  new PolymarketClient({ gammaUrl: server.url, clobUrl: server.url, kind: 'replay', backoffMs: 1, timeoutMs: 2000, health: { dataSource: healthDb, clock }, ...opts });
const rejection = async (promise: Promise<unknown>): Promise<PredictionsSourceError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PredictionsSourceError);
  return error as PredictionsSourceError;
};
/** source_health as recordSourceHealth would leave it, per source: its writes replayed on a map. */
const healthRows = new Map<string, { consecutive_failures: number; last_error: string | null; details: Record<string, unknown> | null }>();
const healthDb = {
  query: async (sql: string, params: unknown[]) => {
    const source = params[0] as string;
    const row = healthRows.get(source) ?? { consecutive_failures: 0, last_error: null, details: null };
    if (sql.includes('last_success_at')) healthRows.set(source, { ...row, consecutive_failures: 0, details: params[3] ? JSON.parse(params[3] as string) : row.details });
    else healthRows.set(source, { ...row, consecutive_failures: row.consecutive_failures + 1, last_error: params[2] as string });
    return [];
  },
} as unknown as DataSource;
const health = async (source: string) => healthRows.get(source);

beforeAll(async () => {
  server = await startPolymarketReplayServer({ clock, simulated: 30 });
  redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await server.close();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
  redis.disconnect();
});
beforeEach(() => {
  server.requests.length = 0;
});

describe('Gamma', () => {
  it('pages the active markets by id (active=true&closed=false, limit/offset): recorded then simulated, each once', async () => {
    const c = client();
    const ids: string[] = [];
    for (let offset = 0; ; offset += 10) {
      const page = await c.marketsPage(offset, 10);
      ids.push(...page.map((m) => m.id));
      if (page.length < 10) break;
    }
    expect(ids).toHaveLength(server.world.activeCount(clock.now()));
    expect(ids).toHaveLength(13 + 30);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    expect(ids.slice(0, 3)).toEqual(['255398', '500111', '500640']);
    expect(server.requests[0]).toBe('/markets?active=true&closed=false&order=id&ascending=true&limit=10&offset=0');
    expect(server.requests).toHaveLength(5);
    expect(await health(POLYMARKET_GAMMA_SOURCE)).toMatchObject({ consecutive_failures: 0, details: { kind: 'replay' } });
  });

  it('a market by id: recorded (resolved, legacy), simulated, or null when Gamma does not know it', async () => {
    const c = client();
    expect(await c.market('1460332')).toMatchObject({ question: 'Katana FDV above $1B one day after launch?', closed: true });
    expect(await c.market('12')).toMatchObject({ outcomePrices: ['0', '0'], legacyAmm: true });
    expect(await c.market(String(SIMULATED_MARKET_BASE + 5))).toMatchObject({ question: expect.stringMatching(/\[simulated #10000005\]$/) });
    expect(await c.market('999999999')).toBeNull();
  });

  it('pages events with their tags and markets: the recorded augmented event, the simulated negative-risk group, single events', async () => {
    const events = await client().eventsPage(0, 5);
    expect(events.map((e) => [e.negRisk, e.negRiskAugmented, e.markets.length])).toEqual([
      [true, true, 2],
      [true, false, 4],
      [false, false, 1],
      [false, false, 1],
      [false, false, 1],
    ]);
    expect(events.slice(0, 2).map((e) => e.id)).toEqual(['30829', '499999999']);
    // A single event's id is 500,000,000 + its market's id; its market is linked to it.
    expect(events[2].id).toBe(String(500_000_000 + Number(events[2].markets[0].id)));
    expect(events[2].markets[0].event?.id).toBe(events[2].id);
    // The simulated group's YES prices sum away from 1 (the mispricing rule's offline case).
    const sum = events[1].markets.reduce((s, m) => s + Number(m.outcomePrices?.[0]), 0);
    expect(sum).toBeGreaterThan(1.05);
    expect(events[2].tags?.length).toBeGreaterThanOrEqual(2);
  });
});

describe('CLOB', () => {
  it('the recorded book for its own asset, books built around simulated prices, midpoints, null without a book', async () => {
    const c = client();
    expect(await c.book('23360939988679364027624185518382759743328544433592111535569478055890815567848')).toMatchObject({ bestBid: '0.1000', bestAsk: '0.1400' });
    const [market] = await c.marketsPage(20, 1);
    const yes = Number(market.outcomePrices?.[0]);
    const book = await c.book(market.clobTokenIds[0]);
    expect(Number(book?.bestBid)).toBeCloseTo(yes - 0.005, 3);
    expect(Number(book?.bestAsk)).toBeCloseTo(yes + 0.005, 3);
    expect(Number(await c.midpoint(market.clobTokenIds[0]))).toBeCloseTo(yes, 3);
    expect(await c.book('1234')).toBeNull();
    expect(await c.midpoint('1234')).toBeNull();
    expect(await health(POLYMARKET_CLOB_SOURCE)).toMatchObject({ consecutive_failures: 0 });
  });
});

describe('failures', () => {
  it('HTTP 429 and 5xx are retried with backoff (Retry-After honoured); past the retries the error says why', async () => {
    server.failNext(2, 429, 0);
    expect(await client({ retries: 2 }).marketsPage(0, 5)).toHaveLength(5);
    expect(server.requests).toHaveLength(3);

    server.requests.length = 0;
    server.failNext(3, 503);
    const error = await rejection(client({ retries: 2 }).marketsPage(0, 5));
    expect(error).toMatchObject({ reason: 'http', status: 503, retryable: true, message: '/markets?offset=0&limit=5: HTTP 503' });
    expect(server.requests).toHaveLength(3);
    expect(await health(POLYMARKET_GAMMA_SOURCE)).toMatchObject({ consecutive_failures: 1, last_error: '/markets?offset=0&limit=5: HTTP 503' });
  });

  it('a 4xx other than 429 is not retried', async () => {
    server.failNext(1, 400);
    expect(await rejection(client().eventsPage(0, 5))).toMatchObject({ reason: 'http', status: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('a malformed answer fails at once with reason malformed (not retried), and is recorded in source_health', async () => {
    server.malformNext(1);
    const error = await rejection(client().marketsPage(0, 5));
    expect(error).toMatchObject({ reason: 'malformed', retryable: false, message: '/markets?offset=0&limit=5: expected a JSON array of markets, got object' });
    expect(server.requests).toHaveLength(1);
    server.malformNext(1, '<html>gateway</html>');
    expect((await rejection(client().market('12'))).message).toBe('/markets/12: the answer is not JSON (<html>gateway</html>)');
    server.malformNext(1, JSON.stringify([{ id: '7', question: 'q', outcomes: '["Yes","No"]', outcomePrices: '["0.5"]' }]));
    expect((await rejection(client().marketsPage(0, 5))).message).toMatch(/market 7: outcomePrices has 1 prices for 2 outcomes/);
    const row = await health(POLYMARKET_GAMMA_SOURCE);
    expect(row?.consecutive_failures).toBeGreaterThanOrEqual(3);
    expect(row?.last_error).toMatch(/outcomePrices has 1 prices/);
  });

  it('no answer within the timeout: reason timeout', async () => {
    server.hangNext();
    expect(await rejection(client({ timeoutMs: 150 }).book('1234'))).toMatchObject({ reason: 'timeout', message: expect.stringMatching(/no answer within 150 ms/) });
  });
});

describe('rate limit', () => {
  it('one budget in Redis for the cluster: two clients (two workers) draw on the same key, one token per HTTP request, retries included', async () => {
    const keyPrefix = `${prefix}:polymarket-gamma:rate`;
    const a = client({ acquireGamma: polymarketRateLimit(redis, keyPrefix, 50) });
    const b = client({ acquireGamma: polymarketRateLimit(redis, keyPrefix, 50) });
    await a.marketsPage(0, 5);
    await b.eventsPage(0, 5);
    server.failNext(1, 429, 0);
    await b.market('12');
    const used = await new RateLimiterRedis({ storeClient: redis, keyPrefix, points: 50, duration: 10 }).get('limiter');
    expect(used?.consumedPoints).toBe(4);
  });
});
