import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { DefiLlamaYieldsClient } from '../../src/yields/defillama-yields.client';
import { UniswapSubgraphClient } from '../../src/yields/uniswap-subgraph.client';
import { ingestSnapshot, type IngestOptions, type IngestSources } from '../../src/yields/yields-ingest';
import { YieldsSourceError } from '../../src/yields/yields.parse';
import { listPools, poolPage, topPools, yieldsSourceView } from '../../src/yields/yields-read.store';
import {
  RECORDED_USDC_WETH_POOL,
  REPLAY_USDC_WETH_POOL,
  replayPoolUuid,
  openApiExamplePool,
  startSubgraphReplayServer,
  startYieldsReplayServer,
  type SubgraphReplayServer,
  type YieldsReplayServer,
} from '../../src/yields/yields-replay';
import { pruneYieldData } from '../../src/yields/yields.store';

// The hourly ingest against the replay twins with a fixed clock: a snapshot stored whole (or not at
// all), skipped and absurd pools counted, the subgraph's days used (or not), the tracked set, /chart
// backfills, the reads of the API, and retention. Real PostgreSQL.

const POOLS = 400;

describe('yields ingest (real PostgreSQL, replay twins)', () => {
  let db: TestDatabase;
  let llama: YieldsReplayServer;
  let graph: SubgraphReplayServer;
  let sources: IngestSources;
  const clock = fixedClock('2025-06-02T10:15:00Z');
  const options: IngestOptions = { topPerChain: 20, chartBackfillPerRun: 3, subgraphChain: 'Ethereum' };
  const template = openApiExamplePool();
  const rowsAt = async (iso: string) => Number((await db.dataSource.query(`SELECT count(*)::int AS n FROM yield_data WHERE timestamp = $1`, [iso]))[0].n);
  const poolRow = async (poolId: string) =>
    (await db.dataSource.query(`SELECT id, pool_address, tracked, last_seen_at, tvl_usd::float8 AS tvl FROM yield_pools WHERE pool_id = $1`, [poolId]))[0] as
      | { id: number; pool_address: string | null; tracked: boolean; last_seen_at: Date; tvl: number }
      | undefined;
  const dataOf = async (poolId: string, iso: string) =>
    (
      await db.dataSource.query(
        `SELECT d.* , d.apr::float8 AS apr_n, d.fee_apr24h::float8 AS fee24, d.fee_apr7d::float8 AS fee7, d.fee_apr30d::float8 AS fee30, d.defillama_apy::float8 AS llama
         FROM yield_data d JOIN yield_pools p ON p.id = d.pool_id WHERE p.pool_id = $1 AND d.timestamp = $2`,
        [poolId, iso],
      )
    )[0] as Record<string, unknown> | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    llama = await startYieldsReplayServer({ now: () => clock.now(), pools: POOLS });
    graph = await startSubgraphReplayServer({ now: () => clock.now() });
    const health = { dataSource: db.dataSource, clock };
    sources = {
      pools: new DefiLlamaYieldsClient({ baseUrl: llama.url, kind: 'replay', health }),
      subgraph: new UniswapSubgraphClient({ url: graph.url, kind: 'replay', health }),
    };
  });

  afterAll(async () => {
    await Promise.all([llama.close(), graph.close()]);
    await db.drop();
  });

  it('stores one snapshot of the tracked pools, with the subgraph\'s days for the matched Uniswap v3 pool', async () => {
    const outcome = await ingestSnapshot({ dataSource: db.dataSource, clock }, sources, options);
    expect(outcome).toMatchObject({ status: 'stored', snapshotAt: '2025-06-02T10:00:00.000Z', seen: POOLS, accepted: POOLS, subgraphPools: 1, subgraphError: null, chartBackfilled: 3 });
    expect(outcome.stored).toBe(outcome.tracked);
    expect(await rowsAt('2025-06-02T10:00:00Z')).toBe(outcome.tracked);
    // Every pool is known; only the tracked ones (top 20 of each chain) have a row.
    const [{ known, tracked }] = await db.dataSource.query(`SELECT count(*)::int AS known, count(*) FILTER (WHERE tracked)::int AS tracked FROM yield_pools`);
    expect(known).toBe(POOLS);
    expect(tracked).toBe(outcome.tracked);

    const pool = await poolRow(REPLAY_USDC_WETH_POOL);
    expect(pool).toMatchObject({ pool_address: RECORDED_USDC_WETH_POOL, tracked: true });
    const row = await dataOf(REPLAY_USDC_WETH_POOL, '2025-06-02T10:00:00Z');
    expect(row).toMatchObject({ data_source: 'uniswap-subgraph', apr_source: 'computed' });
    // The recorded day: 356,130 USD of fees on 391.6 M USD is 33.2 % a year; the replay varies it a little per day.
    expect(row!.fee24 as number).toBeGreaterThan(25);
    expect(row!.fee24 as number).toBeLessThan(42);
    expect(row!.fee30 as number).toBeGreaterThan(28);
    expect(row!.fee30 as number).toBeLessThan(38);
    expect(row!.score_components).toHaveLength(7);

    // DefiLlama's own example record (Lido stETH, the largest on Ethereum): its APY, nothing computed.
    const lido = await dataOf('747c1d2a-c668-4682-b9f9-296708a3dd90', '2025-06-02T10:00:00Z');
    expect(lido).toMatchObject({ data_source: 'defillama', apr_source: 'defillama', apr_n: 2.84, llama: 2.84, fee24: null, outlier: false });
    expect(lido!.predictions).toEqual({ predictedClass: 'Stable/Up', predictedProbability: 74, binnedConfidence: 2 });

    // The /chart backfill: 30 daily rows for each of the 3 largest tracked pools without history.
    const [{ charts, pools }] = await db.dataSource.query(`SELECT count(*)::int AS charts, count(DISTINCT pool_id)::int AS pools FROM yield_data WHERE data_source = 'defillama-chart'`);
    expect({ charts, pools }).toEqual({ charts: 90, pools: 3 });

    const health = await db.dataSource.query(`SELECT source, details FROM source_health WHERE source IN ('defillama-yields', 'uniswap-subgraph') ORDER BY source`);
    expect(health).toEqual([
      { source: 'defillama-yields', details: { kind: 'replay' } },
      { source: 'uniswap-subgraph', details: { kind: 'replay' } },
    ]);
  });

  it('a second run of the same hour stores nothing more', async () => {
    const before = await rowsAt('2025-06-02T10:00:00Z');
    clock.advance(20 * 60_000);
    expect(await ingestSnapshot({ dataSource: db.dataSource, clock }, sources, options)).toMatchObject({ status: 'exists', snapshotAt: '2025-06-02T10:00:00.000Z' });
    expect(await rowsAt('2025-06-02T10:00:00Z')).toBe(before);
  });

  it('skips and counts pools with missing or absurd values, keeping the rest', async () => {
    clock.set('2025-06-02T11:05:00Z');
    llama.override(replayPoolUuid(template, 5), { tvlUsd: -1000 });
    llama.override(replayPoolUuid(template, 6), { tvlUsd: null });
    llama.override(replayPoolUuid(template, 7), { apy: 'NaN' });
    llama.override(replayPoolUuid(template, 8), { apy: 9e9 });
    try {
      const outcome = await ingestSnapshot({ dataSource: db.dataSource, clock }, sources, options);
      expect(outcome).toMatchObject({ status: 'stored', seen: POOLS, accepted: POOLS - 4, skipped: { invalid: 1, missing: 1, absurd: 2 } });
      expect(outcome.skippedExamples).toEqual(expect.arrayContaining(['absurd: tvlUsd -1000', 'missing: tvlUsd missing']));
      // A skipped pool keeps its last good values and gets no row this hour.
      expect(await dataOf(replayPoolUuid(template, 5), '2025-06-02T11:00:00Z')).toBeUndefined();
      expect((await poolRow(replayPoolUuid(template, 5)))!.tvl).toBeGreaterThan(0);
    } finally {
      for (const i of [5, 6, 7, 8]) llama.override(replayPoolUuid(template, i), null);
    }
  });

  it('a /pools answer that fails its schema fails the ingest and writes nothing', async () => {
    clock.set('2025-06-02T12:05:00Z');
    const seenBefore = (await poolRow(REPLAY_USDC_WETH_POOL))!.last_seen_at;
    for (const body of ['{"status":"success","data":[{"pool":"a","chain":"Ethereum"', '{"status":"error","message":"rate limited"}']) {
      llama.setPoolsBody(body);
      await expect(ingestSnapshot({ dataSource: db.dataSource, clock }, sources, options)).rejects.toBeInstanceOf(YieldsSourceError);
    }
    llama.setPoolsBody(null);
    expect(await rowsAt('2025-06-02T12:00:00Z')).toBe(0);
    expect((await poolRow(REPLAY_USDC_WETH_POOL))!.last_seen_at).toEqual(seenBefore);
    const [health] = await db.dataSource.query(`SELECT consecutive_failures, last_error FROM source_health WHERE source = 'defillama-yields'`);
    expect(health).toMatchObject({ consecutive_failures: 2, last_error: expect.stringMatching(/status is "error"/) });
  });

  it('without the subgraph the snapshot is still whole: DefiLlama\'s volume x fee tier', async () => {
    graph.failNext(1, 502);
    const outcome = await ingestSnapshot({ dataSource: db.dataSource, clock }, sources, options);
    expect(outcome).toMatchObject({ status: 'stored', snapshotAt: '2025-06-02T12:00:00.000Z', subgraphPools: 0, subgraphError: expect.stringMatching(/HTTP 502/) });
    const row = await dataOf(REPLAY_USDC_WETH_POOL, '2025-06-02T12:00:00Z');
    expect(row).toMatchObject({ data_source: 'defillama', apr_source: 'computed' });
    // The replay's DefiLlama record is built from the same recorded day: its fee APR agrees.
    expect(row!.apr_disagrees).toBe(false);
  });

  it('tracks a pool outside the top N once it has an alert', async () => {
    const small = await db.dataSource.query(`SELECT id, pool_id FROM yield_pools WHERE NOT tracked ORDER BY tvl_usd LIMIT 1`);
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('yields-ingest@example.test') RETURNING id`);
    await db.dataSource.query(`INSERT INTO yield_alerts (user_id, pool_id, alert_type, threshold) VALUES ($1, $2, 'apr', 5)`, [userId, small[0].id]);
    clock.set('2025-06-02T13:05:00Z');
    await ingestSnapshot({ dataSource: db.dataSource, clock }, sources, options);
    expect(await dataOf(small[0].pool_id, '2025-06-02T13:00:00Z')).toMatchObject({ data_source: expect.any(String) });
    expect((await poolRow(small[0].pool_id))!.tracked).toBe(true);
  });

  it('serves the pools table, a pool page and the public top list from the snapshot', async () => {
    const first = await listPools(db.dataSource, { chain: 'ethereum', sort: 'tvl', limit: 5 });
    expect(first.rows).toHaveLength(5);
    expect(first.rows[0]).toMatchObject({ poolId: '747c1d2a-c668-4682-b9f9-296708a3dd90', tvlUsd: '32493036117', apr: '2.84', aprSource: 'defillama', tracked: true });
    const second = await listPools(db.dataSource, { chain: 'ethereum', sort: 'tvl', limit: 5, cursor: first.nextCursor! });
    expect(second.rows.map((r) => r.id)).not.toContain(first.rows[4].id);
    expect(Number(second.rows[0].tvlUsd)).toBeLessThanOrEqual(Number(first.rows[4].tvlUsd));
    const usdc = await listPools(db.dataSource, { token: 'weth', dex: 'uniswap-v3', minTvl: 100_000_000 });
    expect(usdc.rows.map((r) => r.poolId)).toContain(REPLAY_USDC_WETH_POOL);
    const byScore = await listPools(db.dataSource, { sort: 'score', limit: 200 });
    const scores = byScore.rows.map((r) => r.yieldScore).filter((s) => s !== null).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    await expect(listPools(db.dataSource, { cursor: 'garbage' })).rejects.toMatchObject({ code: 'invalid', field: 'cursor' });

    const id = (await poolRow(REPLAY_USDC_WETH_POOL))!.id;
    const page = await poolPage(db.dataSource, id, clock.now());
    expect(page.pool).toMatchObject({ poolAddress: RECORDED_USDC_WETH_POOL, feeTier: 3000, token0: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', underlyingTokens: expect.any(Array) });
    expect(page.latest).toMatchObject({ timestamp: '2025-06-02T13:00:00.000Z', dataSource: 'uniswap-subgraph', score: { components: expect.any(Array) } });
    expect(page.series.map((p) => p.timestamp)).toEqual(['2025-06-02T13:00:00.000Z']);
    await expect(poolPage(db.dataSource, 999_999, clock.now())).rejects.toMatchObject({ code: 'not_found' });

    const top = await topPools(db.dataSource, 10);
    expect(top.rows.length).toBeGreaterThan(0);
    expect(top.rows[0].score?.components).toHaveLength(7);
    const source = await yieldsSourceView(db.dataSource);
    expect(source).toMatchObject({ kind: 'replay', lastSnapshotAt: '2025-06-02T13:00:00.000Z', poolsKnown: POOLS });
    expect(source.note).toMatch(/simulated/);
  });

  it('prunes: thins hourly rows past their retention to one a day, deletes the oldest', async () => {
    const id = (await poolRow(REPLAY_USDC_WETH_POOL))!.id;
    // 3 rows a day, 12 and 40 days ago.
    for (const daysAgo of [12, 40]) {
      for (const hour of [1, 5, 9]) {
        const at = new Date(Date.parse('2025-06-02T00:00:00Z') - daysAgo * 86_400_000 + hour * 3_600_000);
        await db.dataSource.query(`INSERT INTO yield_data (pool_id, timestamp, data_source, tvl_usd) VALUES ($1, $2, 'defillama', 1)`, [id, at]);
      }
    }
    const outcome = await pruneYieldData(db.dataSource, clock.now(), { hourlyDays: 7, retentionDays: 31 });
    expect(outcome).toMatchObject({ deleted: 3, thinned: 2 });
    const left = await db.dataSource.query(`SELECT timestamp FROM yield_data WHERE pool_id = $1 AND timestamp < '2025-05-30' ORDER BY timestamp`, [id]);
    expect(left.map((r: { timestamp: Date }) => r.timestamp.toISOString())).toEqual(['2025-05-21T09:00:00.000Z']);
  });
});
