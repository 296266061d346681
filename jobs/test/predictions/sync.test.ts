import Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { JobQueues } from '../../src/runtime/job-queues';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { PolymarketClient, PredictionsSourceError } from '../../src/predictions/polymarket.client';
import { SIMULATED_MARKET_BASE, SIMULATED_RESOLVE_DELAY_MS, startPolymarketReplayServer, type PolymarketReplayServer } from '../../src/predictions/polymarket-replay';
import { findMarket, listMarkets, marketHistory, marketView, predictionsSourceView, priceAt } from '../../src/predictions/predictions-markets.store';
import { snapshotMarkets, syncMarkets } from '../../src/predictions/predictions-sync';
import { predictionsJobIds } from '../../src/predictions/predictions.jobs';
import { PredictionsError } from '../../src/predictions/predictions.errors';
import { createPredictionsHandlers } from '../../src/predictions/predictions.processor';
import { loadPredictionsConfig } from '../../src/predictions/predictions.config';
import { UnrecoverableError } from 'bullmq';

// The sync and snapshot steps on a fixed clock: the real client against the replay twin (the recorded
// markets and event, and 12 simulated markets built from them whose prices move with the clock and
// which close and resolve over time), the real database, queues in Redis.

const T0 = new Date('2026-03-01T00:00:00Z');
const MINUTE = 60_000;
const clock = fixedClock(T0);
const prefix = testQueuePrefix();
let db: TestDatabase;
let redis: Redis;
let queues: JobQueues;
let server: PolymarketReplayServer;
let source: PolymarketClient;
const context = () => ({ dataSource: db.dataSource, queues, clock, logger: pino({ level: 'silent' }) });
const sync = () => syncMarkets(context(), source, { pageSize: 10 });
/** Every stored market's hash and row version (xmin changes with every write of the row). */
const versions = async () =>
  new Map(
    ((await db.dataSource.query(`SELECT polymarket_id, content_hash, xmin::text AS xmin FROM prediction_markets`)) as { polymarket_id: string; content_hash: string; xmin: string }[]).map((r) => [
      r.polymarket_id,
      r,
    ]),
  );
const row = async (polymarketId: string) => (await db.dataSource.query(`SELECT * FROM prediction_markets WHERE polymarket_id = $1`, [polymarketId]))[0];
const job = (id: string) => queues.queue('predictions').getJob(id);

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
  queues = new JobQueues(redis, prefix);
  server = await startPolymarketReplayServer({ clock, simulated: 12 });
  source = new PolymarketClient({ gammaUrl: server.url, clobUrl: server.url, kind: 'replay', retries: 1, backoffMs: 1, health: { dataSource: db.dataSource, clock } });
});
afterAll(async () => {
  await server.close();
  await queues.close();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
  redis.disconnect();
  await db.drop();
});

describe('predictions.sync', () => {
  it('first sync: every listed market is new, with its event\'s category and negative risk; a mispricing run is queued', async () => {
    const out = await sync();
    // 13 recorded active markets (ten, the open BTC market, the event's two) and 12 simulated; 10 events (recorded, group, 8 singles).
    expect(out).toMatchObject({ status: 'synced', listed: 25, events: 10, inserted: 25, changed: 0, unchanged: 0, closed: 0, resolved: 0, lookedUp: 0, requests: 5 });
    expect(await row('559657')).toMatchObject({ category: 'Politics', subcategory: 'World Elections', neg_risk: true, neg_risk_augmented: true, data_source: 'replay', yes_price: '0.0105' });
    expect(await row(String(SIMULATED_MARKET_BASE))).toMatchObject({ category: 'Sports', subcategory: 'Soccer', neg_risk: true, neg_risk_augmented: false, event_id: '499999999' });
    expect(await row('503051')).toMatchObject({ category: null, neg_risk: false, is_active: true });
    expect(await job(predictionsJobIds.mispricing(T0))).toBeDefined();
    expect(await predictionsSourceView(db.dataSource)).toEqual({ kind: 'replay', lastSyncAt: T0.toISOString() });
  });

  it('the same answers again: nothing is written (every row keeps its version)', async () => {
    const before = await versions();
    expect(await sync()).toMatchObject({ inserted: 0, changed: 0, unchanged: 25 });
    expect(await versions()).toEqual(before);
  });

  it('prices move with the clock: only the markets whose content changed are written, with the new sync time', async () => {
    const before = await versions();
    clock.set(new Date(T0.getTime() + 30 * MINUTE));
    const out = await sync();
    const after = await versions();
    const rewritten = [...after.values()].filter((r) => before.get(r.polymarket_id)?.xmin !== r.xmin).map((r) => r.polymarket_id);
    const changedHash = [...after.values()].filter((r) => before.get(r.polymarket_id)?.content_hash !== r.content_hash).map((r) => r.polymarket_id);
    // Each simulated market steps once in 30 minutes (its price and volume); the recorded ones never move.
    expect(out).toMatchObject({ inserted: 0, changed: 12, unchanged: 13 });
    expect(rewritten.sort()).toEqual(changedHash.sort());
    expect(rewritten.every((id) => Number(id) >= SIMULATED_MARKET_BASE)).toBe(true);
    expect((await row(rewritten[0])).synced_at).toEqual(clock.now());
    expect((await row('503051')).synced_at).toEqual(T0);
  });

  it('a market closes: missing from the listing, looked up by id and stored closed (pending); 45 minutes later it resolves and its resolve job is queued', async () => {
    const next = server.world.nextClose(clock.now());
    if (!next) throw new Error('the replay world has a market to close');
    clock.set(new Date(next.at.getTime() + MINUTE));
    const closing = await sync();
    // The slot's next market opens as the old one closes.
    expect(closing).toMatchObject({ lookedUp: 1, closed: 1, resolved: 0, inserted: 1 });
    expect(await row(next.marketId)).toMatchObject({ closed: true, is_active: false, resolution: null, closed_time: next.at, accepting_orders: false });

    clock.set(new Date(next.at.getTime() + SIMULATED_RESOLVE_DELAY_MS + MINUTE));
    const resolving = await sync();
    expect(resolving).toMatchObject({ lookedUp: 1, closed: 0, resolved: 1, resolveJobs: 1 });
    const stored = await findMarket(db.dataSource, (await row(next.marketId)).id);
    expect(['yes', 'no', 'void']).toContain(stored?.resolution);
    expect(stored?.resolvedAt).toEqual(next.at);
    const resolveJob = await job(predictionsJobIds.resolve(stored!.id));
    expect(resolveJob?.data).toEqual({ marketId: stored!.id });
    expect(marketView(stored!)).toMatchObject({ isActive: false, closed: true, resolvedAt: next.at.toISOString(), polymarketUrl: `https://polymarket.com/event/simulated-event-${next.marketId}` });

    // Resolved: not looked up any more.
    expect(await sync()).toMatchObject({ lookedUp: 0, resolved: 0 });
  });

  it('a failed page fails the sync with its reason and keeps what was stored, even the pages read before it', async () => {
    clock.set(new Date(clock.now().getTime() + 30 * MINUTE));
    const before = await versions();
    // Events: 2 pages; markets: the second page fails (HTTP 500 on both attempts).
    server.passNext(3);
    server.failNext(2, 500);
    const http = await sync().catch((e: unknown) => e);
    expect(http).toBeInstanceOf(PredictionsSourceError);
    expect(http).toMatchObject({ reason: 'http', status: 500, message: '/markets?offset=10&limit=10: HTTP 500' });
    expect(await versions()).toEqual(before);

    server.passNext(3);
    server.malformNext(1, JSON.stringify([{ id: '42', question: 'Broken?', outcomes: '["Yes","No"]', outcomePrices: '["0.5","0.5","0"]' }]));
    const malformed = await sync().catch((e: unknown) => e);
    expect(malformed).toMatchObject({ reason: 'malformed', retryable: false, message: expect.stringMatching(/^\/markets\?offset=10&limit=10\[0\] market 42: outcomePrices has 3 prices for 2 outcomes$/) });
    expect(await versions()).toEqual(before);
    const health = (await db.dataSource.query(`SELECT consecutive_failures, last_error FROM source_health WHERE source = 'polymarket-gamma'`))[0];
    expect(health.last_error).toMatch(/outcomePrices has 3 prices/);

    // Through the job: a malformed answer fails it at once (no retry can fix it), with the reason.
    const [handler] = createPredictionsHandlers({ config: () => loadPredictionsConfig({}), source: async () => source }).filter((h) => h.name === 'predictions.sync');
    server.malformNext(1, '{"error":"maintenance"}');
    const failed = await handler.run({}, { ...context(), redis }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(UnrecoverableError);
    expect((failed as Error).message).toBe('predictions.sync: /events?offset=0&limit=500: expected a JSON array of events, got object');
    expect(await versions()).toEqual(before);

    expect((await sync()).changed).toBeGreaterThan(0);
  });
});

describe('predictions.snapshot', () => {
  let followed: number;
  let forecast: number;

  it('records one snapshot per tracked market (forecast, followed market, followed category) at the slot start; a second run in the slot writes nothing', async () => {
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('snap@test.local') RETURNING id`);
    const simulated = (await db.dataSource.query(
      `SELECT id FROM prediction_markets WHERE is_active AND polymarket_id::bigint >= $1 AND category <> 'Politics' ORDER BY id LIMIT 2`,
      [SIMULATED_MARKET_BASE],
    )) as { id: number }[];
    [followed, forecast] = simulated.map((r) => r.id);
    await db.dataSource.query(`INSERT INTO prediction_follows (user_id, market_id) VALUES ($1, $2)`, [userId, followed]);
    await db.dataSource.query(`INSERT INTO prediction_follows (user_id, category) VALUES ($1, 'Politics')`, [userId]);
    await db.dataSource.query(
      `INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made) VALUES ($1, $2, 0.6, 0.5, 'probability', '0.6', $3)`,
      [userId, forecast, clock.now()],
    );
    // A closed market someone follows is not tracked.
    const [{ id: closedId }] = await db.dataSource.query(`SELECT id FROM prediction_markets WHERE closed LIMIT 1`);
    await db.dataSource.query(`INSERT INTO prediction_follows (user_id, market_id) VALUES ($1, $2)`, [userId, closedId]);
    const politics = Number((await db.dataSource.query(`SELECT count(*) FROM prediction_markets WHERE is_active AND category = 'Politics'`))[0].count);

    clock.set(new Date('2026-03-03T10:07:00Z'));
    const out = await snapshotMarkets(context(), source, { minutes: 15 });
    expect(out).toMatchObject({ takenAt: '2026-03-03T10:00:00.000Z', tracked: 2 + politics, recorded: 2 + politics, fromBook: 2 + politics, fromGamma: 0, clobErrors: 0 });
    const snaps = (await db.dataSource.query(`SELECT DISTINCT market_id, source FROM prediction_market_snapshots`)) as { market_id: number; source: string }[];
    expect(snaps.map((s) => s.market_id)).toEqual(expect.arrayContaining([followed, forecast]));
    expect(snaps.map((s) => s.market_id)).not.toContain(closedId);
    expect(new Set(snaps.map((s) => s.source))).toEqual(new Set(['replay']));

    clock.set(new Date('2026-03-03T10:12:00Z'));
    expect(await snapshotMarkets(context(), source, { minutes: 15 })).toMatchObject({ takenAt: '2026-03-03T10:00:00.000Z', recorded: 0 });
  });

  it("the market's price at a moment: the newest snapshot at or before it (mid of the book, with bid and ask), else the synced row", async () => {
    clock.set(new Date('2026-03-03T10:16:00Z'));
    await snapshotMarkets(context(), source, { minutes: 15 });
    const at = await priceAt(db.dataSource, followed, new Date('2026-03-03T10:14:00Z'));
    expect(at).toMatchObject({ at: new Date('2026-03-03T10:00:00Z') });
    expect(Number(at!.bestAsk) - Number(at!.bestBid)).toBeCloseTo(0.01, 4);
    expect(Number(at!.price)).toBeCloseTo((Number(at!.bestAsk) + Number(at!.bestBid)) / 2, 4);
    expect((await marketHistory(db.dataSource, followed, new Date('2026-03-01T00:00:00Z'))).map((p) => p.at)).toEqual(['2026-03-03T10:00:00.000Z', '2026-03-03T10:15:00.000Z']);
    // Not tracked: the row's price as of its sync.
    const nvidia = await row('503051');
    expect(await priceAt(db.dataSource, nvidia.id, clock.now())).toEqual({ price: '0.1200', bestBid: null, bestAsk: null, at: nvidia.synced_at });
    expect(await priceAt(db.dataSource, 99_999, clock.now())).toBeNull();
  });

  it('thins snapshots older than 90 days to the last of each UTC day, and keeps the recent ones whole', async () => {
    const old = ['2025-11-28T01:00:00Z', '2025-11-28T05:00:00Z', '2025-11-28T23:45:00Z', '2025-11-29T02:00:00Z'];
    for (const at of old) {
      await db.dataSource.query(`INSERT INTO prediction_market_snapshots (market_id, taken_at, price, source) VALUES ($1, $2, 0.5, 'replay')`, [followed, at]);
    }
    clock.set(new Date('2026-03-03T10:31:00Z'));
    expect(await snapshotMarkets(context(), source, { minutes: 15 })).toMatchObject({ thinned: 2 });
    const kept = (await marketHistory(db.dataSource, followed, new Date('2025-01-01T00:00:00Z'))).map((p) => p.at);
    expect(kept).toEqual(['2025-11-28T23:45:00.000Z', '2025-11-29T02:00:00.000Z', '2026-03-03T10:00:00.000Z', '2026-03-03T10:15:00.000Z', '2026-03-03T10:30:00.000Z']);
  });
});

describe('the markets browser', () => {
  it('pages every sort with keyset cursors (each market once, in order); filters by words, category and status; refuses a foreign cursor', async () => {
    const total = Number((await db.dataSource.query(`SELECT count(*) FROM prediction_markets`))[0].count);
    for (const sort of ['volume', 'liquidity', 'newest'] as const) {
      const ids: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await listMarkets(db.dataSource, { status: 'all', sort, limit: 7, cursor }, clock.now());
        ids.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(new Set(ids).size).toBe(total);
    }
    const byVolume = await listMarkets(db.dataSource, { status: 'active', sort: 'volume', limit: 200 }, clock.now());
    const volumes = byVolume.rows.map((r) => (r.volume24h === null ? -1 : Number(r.volume24h)));
    expect(volumes.slice(0, volumes.indexOf(-1) < 0 ? undefined : volumes.indexOf(-1))).toEqual([...volumes.filter((v) => v >= 0)].sort((a, b) => b - a));
    expect(byVolume.categories).toEqual(expect.arrayContaining([{ category: 'Politics', markets: expect.any(Number) }]));
    expect(byVolume.source.kind).toBe('replay');

    const cup = await listMarkets(db.dataSource, { q: 'SIMULATED CUP', status: 'active', sort: 'newest', limit: 10 }, clock.now());
    expect(cup.rows).toHaveLength(4);
    expect((await listMarkets(db.dataSource, { q: '100%_', status: 'all', sort: 'newest', limit: 10 }, clock.now())).rows).toHaveLength(0);
    const politics = await listMarkets(db.dataSource, { category: 'Politics', status: 'active', sort: 'liquidity', limit: 50 }, clock.now());
    expect(politics.rows.map((r) => r.polymarketId)).toEqual(expect.arrayContaining(['559657', '559659']));
    expect((await listMarkets(db.dataSource, { status: 'closed', sort: 'newest', limit: 50 }, clock.now())).rows.every((r) => r.closed)).toBe(true);
    const soon = await listMarkets(db.dataSource, { status: 'active', sort: 'closing_soon', closingWithinDays: 30, limit: 3 }, clock.now());
    const ends = soon.rows.map((r) => r.endDate as string);
    expect(ends).toEqual([...ends].sort());
    expect(ends.every((end) => end >= clock.now().toISOString())).toBe(true);

    const page = await listMarkets(db.dataSource, { status: 'all', sort: 'volume', limit: 3 }, clock.now());
    const refused = (cursor: string, sort: 'volume' | 'newest') => listMarkets(db.dataSource, { status: 'all', sort, limit: 3, cursor }, clock.now()).catch((e: unknown) => e);
    expect(await refused(page.nextCursor as string, 'newest')).toMatchObject({ code: 'bad_cursor', field: 'cursor' });
    expect(await refused('garbage', 'volume')).toBeInstanceOf(PredictionsError);
    expect(await refused(Buffer.from(JSON.stringify(['volume', '1; DROP TABLE users', 1])).toString('base64url'), 'volume')).toMatchObject({ code: 'bad_cursor' });
  });
});
