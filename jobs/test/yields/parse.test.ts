import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../../src/runtime/clock';
import { DefiLlamaYieldsClient } from '../../src/yields/defillama-yields.client';
import { UniswapSubgraphClient } from '../../src/yields/uniswap-subgraph.client';
import {
  chunksOf,
  feeTierOfPoolMeta,
  parseDefiLlamaChart,
  parseDefiLlamaPool,
  parseSubgraphDays,
  parseSubgraphPools,
  streamDefiLlamaPools,
  YieldsSourceError,
  type DefiLlamaPool,
} from '../../src/yields/yields.parse';
import {
  openApiExampleChartPoint,
  openApiExamplePool,
  RECORDED_USDC_WETH_POOL,
  replayPoolRecord,
  startSubgraphReplayServer,
  startYieldsReplayServer,
  USDC,
  WETH,
  YIELDS_DATA_DIR,
} from '../../src/yields/yields-replay';

// The parsers on the recorded shapes (DefiLlama's published example record, the real subgraph
// answers), the streaming parse of a large /pools answer, and the two clients against their replay twins.

const recording = JSON.parse(readFileSync(join(YIELDS_DATA_DIR, 'uniswap_v3_subgraph_responses_2022-03.json'), 'utf8')) as Record<string, unknown>;
const example = openApiExamplePool();

async function collect(body: string, size = 4096) {
  const pools: DefiLlamaPool[] = [];
  const result = await streamDefiLlamaPools(chunksOf(body, size), (p) => pools.push(p));
  return { pools, result };
}

describe('DefiLlama /pools records', () => {
  it('reads the published example record (Lido stETH) field by field', () => {
    const parsed = parseDefiLlamaPool(example);
    expect(parsed).toEqual({
      ok: true,
      pool: expect.objectContaining({
        pool: '747c1d2a-c668-4682-b9f9-296708a3dd90',
        chain: 'Ethereum',
        project: 'lido',
        symbol: 'STETH',
        tvlUsd: 32493036117,
        apy: 2.84,
        apyBase: 2.84,
        apyReward: null,
        apyMean30d: 2.73539,
        stablecoin: false,
        ilRisk: 'no',
        exposure: 'single',
        mu: 3.7747,
        sigma: 0.05236,
        outlier: false,
        underlyingTokens: ['0x0000000000000000000000000000000000000000'],
        predictions: { predictedClass: 'Stable/Up', predictedProbability: 74, binnedConfidence: 2 },
      }),
    });
  });

  it('skips missing, absurd and mistyped values with the reason', () => {
    expect(parseDefiLlamaPool({ ...example, tvlUsd: null })).toMatchObject({ ok: false, reason: 'missing' });
    expect(parseDefiLlamaPool({ ...example, tvlUsd: -5 })).toMatchObject({ ok: false, reason: 'absurd' });
    expect(parseDefiLlamaPool({ ...example, tvlUsd: 2e12 })).toMatchObject({ ok: false, reason: 'absurd' });
    expect(parseDefiLlamaPool({ ...example, apy: 5e6 })).toMatchObject({ ok: false, reason: 'absurd', detail: 'apy 5000000' });
    expect(parseDefiLlamaPool({ ...example, tvlUsd: 'NaN' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseDefiLlamaPool({ ...example, pool: undefined })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseDefiLlamaPool('a string')).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('takes the fee tier from a poolMeta that is only a percentage', () => {
    expect([feeTierOfPoolMeta('0.3%'), feeTierOfPoolMeta('0.05%'), feeTierOfPoolMeta('1%'), feeTierOfPoolMeta('0.01 %')]).toEqual([3000, 500, 10000, 100]);
    expect([feeTierOfPoolMeta(null), feeTierOfPoolMeta('For buying PT'), feeTierOfPoolMeta('7 days lock, 0.3%')]).toEqual([0, 0, 0]);
  });
});

describe('streaming /pools', () => {
  it('streams a large answer (3,000 pools, 2 MB; the bench streams 15,000) in small chunks, handing each record over as it completes', async () => {
    const records = Array.from({ length: 3000 }, (_, i) => replayPoolRecord(example, i, 480_000));
    const body = JSON.stringify({ status: 'success', data: records });
    expect(body.length).toBeGreaterThan(2_000_000);
    let firstAt = -1;
    let chunks = 0;
    async function* slow() {
      for await (const c of chunksOf(body, 64 * 1024)) {
        chunks++;
        yield c;
      }
    }
    const pools: string[] = [];
    const result = await streamDefiLlamaPools(slow(), (p) => {
      if (firstAt < 0) firstAt = chunks;
      pools.push(p.pool);
    });
    expect(result).toMatchObject({ seen: 3000, accepted: 3000, skipped: { invalid: 0, missing: 0, absurd: 0 } });
    // The first pool arrived with the first chunk, not after the whole body.
    expect(firstAt).toBe(1);
    expect(chunks).toBeGreaterThan(30);
    expect(new Set(pools).size).toBe(3000);
  });

  it('counts skipped records and keeps the rest', async () => {
    const data = [example, { ...example, pool: 'b', tvlUsd: -1 }, { ...example, pool: 'c', tvlUsd: null }, { ...example, pool: 'd', apy: 'x' }, { ...example, pool: 'e' }, { ...example, pool: 'f' }, { ...example, pool: 'g' }];
    const { pools, result } = await collect(JSON.stringify({ status: 'success', data }), 13);
    expect(pools.map((p) => p.pool)).toEqual(['747c1d2a-c668-4682-b9f9-296708a3dd90', 'e', 'f', 'g']);
    expect(result.skipped).toEqual({ invalid: 1, missing: 1, absurd: 1 });
    expect(result.examples).toHaveLength(3);
  });

  it.each([
    ['not JSON', '<html>502 Bad Gateway</html>', /not JSON/],
    ['a cut answer', JSON.stringify({ status: 'success', data: [example, example] }).slice(0, 500), /not JSON/],
    ['an array', JSON.stringify([example]), /status/],
    ['an error status', JSON.stringify({ status: 'error', data: [] }), /status is "error"/],
    ['data that is not an array', JSON.stringify({ status: 'success', data: { a: example } }), /data is not an array/],
    ['no valid pool', JSON.stringify({ status: 'success', data: [{ pool: 1 }] }), /no valid pool/],
    ['mostly bad records', JSON.stringify({ status: 'success', data: [example, { ...example, tvlUsd: -1 }, { ...example, tvlUsd: -2 }] }), /shape has changed/],
  ])('fails the answer with the reason: %s', async (_what, body, reason) => {
    await expect(collect(body)).rejects.toThrow(reason);
    await expect(collect(body)).rejects.toBeInstanceOf(YieldsSourceError);
  });
});

describe('DefiLlama /chart and the subgraph answers', () => {
  it('reads /chart points in the published shape and leaves out absurd ones', () => {
    const point = openApiExampleChartPoint();
    expect(point).toEqual({ timestamp: '2024-01-01T00:00:00.000Z', tvlUsd: 1500000000, apy: 5.2, apyBase: 3.1, apyReward: 2.1 });
    const points = parseDefiLlamaChart({ status: 'success', data: [point, { ...point, tvlUsd: -1 }, { ...point, timestamp: 'yesterday' }] });
    expect(points).toEqual([{ timestamp: new Date('2024-01-01T00:00:00.000Z'), tvlUsd: 1500000000, apy: 5.2, apyBase: 3.1, apyReward: 2.1 }]);
    expect(() => parseDefiLlamaChart({ status: 'error' })).toThrow(YieldsSourceError);
  });

  it('reads the recorded pools answer (decimal strings, __typename)', () => {
    const pools = parseSubgraphPools(recording.pools_by_id_response);
    expect(pools).toHaveLength(2);
    expect(pools[1]).toEqual({
      id: RECORDED_USDC_WETH_POOL,
      feeTier: 3000,
      token0: USDC,
      token1: WETH,
      token0Symbol: 'USDC',
      token1Symbol: 'WETH',
      totalValueLockedUSD: Number('408211230.2649268727637666561467565'),
      volumeUSD: Number('46675235734.17557247596178718271208'),
    });
  });

  it('reads the recorded poolDayDatas answers, with or without the pool in each record', () => {
    const a850 = parseSubgraphDays(recording.poolDayDatas_response_pool_0xa850, '0xa850478adaace4c08fc61de44d8cf3b64f359bec');
    expect(a850).toHaveLength(4);
    // The known TVL bug, kept as recorded: 261 billion USD in a pool of two junk tokens.
    expect(a850[2]).toMatchObject({ date: 1646611200, tvlUSD: Number('261269729093.816542194433000739702'), feesUSD: 0 });
    const usdcWeth = parseSubgraphDays(recording['poolDayDatas_response_USDC_WETH_0.3pct_2022-03-16']);
    expect(usdcWeth).toEqual([{ pool: RECORDED_USDC_WETH_POOL, date: 1647388800, volumeUSD: null, tvlUSD: Number('391636206.112549300335557572015702'), feesUSD: Number('356129.9553516688861767489783604968') }]);
    expect(() => parseSubgraphDays({ errors: [{ message: 'indexing error' }] })).toThrow(/GraphQL error: indexing error/);
    expect(() => parseSubgraphPools({ data: { pools: [{ id: 'nope' }] } })).toThrow(YieldsSourceError);
  });
});

describe('the clients against their replay twins', () => {
  const clock = fixedClock('2025-06-02T10:15:00Z');

  it('DefiLlama: streams /pools, answers /chart, and says why a request failed', async () => {
    const server = await startYieldsReplayServer({ now: () => clock.now(), pools: 300 });
    try {
      const client = new DefiLlamaYieldsClient({ baseUrl: server.url, kind: 'replay' });
      const pools: DefiLlamaPool[] = [];
      const result = await client.pools((p) => pools.push(p));
      expect(result.accepted).toBe(300);
      expect(pools[0].pool).toBe('747c1d2a-c668-4682-b9f9-296708a3dd90');
      expect(pools[1]).toMatchObject({ project: 'uniswap-v3', symbol: 'USDC-WETH', poolMeta: '0.3%', underlyingTokens: [USDC, WETH] });
      const chart = await client.chart(pools[5].pool);
      expect(chart).toHaveLength(30);
      expect(chart[29].timestamp.toISOString()).toBe('2025-06-01T00:00:00.000Z');

      server.failNext(1, 503);
      await expect(client.pools(() => undefined)).rejects.toMatchObject({ retryable: true, status: 503 });
      server.failNext(1, 404);
      await expect(client.chart('nope')).rejects.toMatchObject({ retryable: false, status: 404 });
      server.setPoolsBody('{"status":"success","data":[{"pool":');
      await expect(client.pools(() => undefined)).rejects.toMatchObject({ retryable: false, message: expect.stringMatching(/not JSON/) });
    } finally {
      await server.close();
    }
  });

  it('DefiLlama: a timeout is a retryable error', async () => {
    const stall = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const client = new DefiLlamaYieldsClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 50, fetch: stall as typeof fetch });
    await expect(client.chart('x')).rejects.toMatchObject({ retryable: true, message: expect.stringMatching(/within 50 ms/) });
  });

  it('subgraph: POSTs the queries with variables and the API key header', async () => {
    const server = await startSubgraphReplayServer({ now: () => clock.now() });
    try {
      const client = new UniswapSubgraphClient({ url: server.url, apiKey: 'secret-key', kind: 'replay' });
      const pools = await client.poolsOfTokens([USDC, WETH.toUpperCase().replace('0X', '0x')]);
      expect(pools.map((p) => p.id)).toEqual([RECORDED_USDC_WETH_POOL]);
      const days = await client.poolDays([RECORDED_USDC_WETH_POOL], Math.floor(Date.parse('2025-05-02T00:00:00Z') / 1000));
      expect(days).toHaveLength(32);
      expect(days[0]).toMatchObject({ pool: RECORDED_USDC_WETH_POOL, date: Date.parse('2025-05-02T00:00:00Z') / 1000 });
      expect(server.requests[0]).toMatchObject({ operationName: 'TrackedPools', authorization: 'Bearer secret-key', variables: { tokens: [USDC, WETH] } });
      server.graphqlErrorNext('bad query');
      await expect(client.poolDays([RECORDED_USDC_WETH_POOL], 0)).rejects.toMatchObject({ retryable: false, message: expect.stringMatching(/GraphQL error: bad query/) });
      server.failNext(1, 429);
      await expect(client.poolsOfTokens([USDC])).rejects.toMatchObject({ retryable: true, status: 429 });
    } finally {
      await server.close();
    }
  });
});
