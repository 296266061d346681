// The replay twins of the yields sources (offline demo, tests, bench): local HTTP servers speaking
// DefiLlama's /pools and /chart/{pool} and the Uniswap v3 subgraph's GraphQL, answering in the
// recorded shapes (data/README.md says what is real and what is simulated).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const YIELDS_DATA_DIR = join(__dirname, 'data');
export const DEFILLAMA_YIELDS_OPENAPI = join(YIELDS_DATA_DIR, 'defillama_yields_openapi_excerpt.json');
export const UNISWAP_SUBGRAPH_RECORDING = join(YIELDS_DATA_DIR, 'uniswap_v3_subgraph_responses_2022-03.json');

const HOUR_MS = 3_600_000;
const DAY_S = 86_400;

/** A deterministic number in [0, 1) from a label (cyrb53, a fast non-cryptographic string hash). */
function unit(label: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return ((2097151 & h2) * 4294967296 + (h1 >>> 0)) / 2 ** 53;
}

type ExampleSchema = { type?: unknown; example?: unknown; properties?: Record<string, ExampleSchema> };

/** The /pools record of the OpenAPI excerpt: each field its published `example` (Lido stETH on Ethereum), in the published order. */
export function openApiExamplePool(path = DEFILLAMA_YIELDS_OPENAPI): Record<string, unknown> {
  const spec = JSON.parse(readFileSync(path, 'utf8')) as {
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: ExampleSchema }> }> } }>;
  };
  const items = (spec.paths['/pools'].get.responses['200'].content['application/json'].schema.properties?.data as unknown as { items: ExampleSchema }).items;
  const record: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(items.properties ?? {})) {
    record[key] = field.type === 'object' && field.properties ? Object.fromEntries(Object.entries(field.properties).map(([k, f]) => [k, f.example])) : field.example;
  }
  return record;
}

/** The /chart/{pool} point of the excerpt: { timestamp, tvlUsd, apy, apyBase, apyReward }. */
export function openApiExampleChartPoint(path = DEFILLAMA_YIELDS_OPENAPI): Record<string, unknown> {
  const spec = JSON.parse(readFileSync(path, 'utf8')) as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: ExampleSchema }> }> } }> };
  const items = (spec.paths['/chart/{pool}'].get.responses['200'].content['application/json'].schema.properties?.data as unknown as { items: ExampleSchema }).items;
  return Object.fromEntries(Object.entries(items.properties ?? {}).map(([k, f]) => [k, f.example]));
}

/** The replay's Uniswap v3 USDC/WETH 0.3 % pool on Ethereum: matched to the recorded subgraph pool 0x8ad599c3…. */
export const REPLAY_USDC_WETH_POOL = 'c5ffbf3e-6e3b-4f4b-8d4a-2a7f3f5b1a01';
export const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
export const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
export const RECORDED_USDC_WETH_POOL = '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8';
/** The recorded 2022-03-16 poolDayData of that pool (fees and TVL, USD). */
export const RECORDED_USDC_WETH_DAY = { feesUSD: 356129.9553516688, tvlUSD: 391636206.1125493 };

const CHAINS = ['Ethereum', 'Ethereum', 'Ethereum', 'Arbitrum', 'Arbitrum', 'Base', 'Base', 'Optimism', 'Polygon', 'BSC', 'Avalanche', 'Solana', 'Sui', 'Fantom', 'Linea', 'Scroll'];
const PROJECTS: Array<{ project: string; exposure: 'single' | 'multi'; poolMeta: string | null; fee: number }> = [
  { project: 'uniswap-v3', exposure: 'multi', poolMeta: '0.3%', fee: 0.003 },
  { project: 'uniswap-v3', exposure: 'multi', poolMeta: '0.05%', fee: 0.0005 },
  { project: 'uniswap-v3', exposure: 'multi', poolMeta: '1%', fee: 0.01 },
  { project: 'curve-dex', exposure: 'multi', poolMeta: null, fee: 0.0004 },
  { project: 'balancer-v2', exposure: 'multi', poolMeta: null, fee: 0.002 },
  { project: 'aave-v3', exposure: 'single', poolMeta: null, fee: 0 },
  { project: 'compound-v3', exposure: 'single', poolMeta: null, fee: 0 },
  { project: 'lido', exposure: 'single', poolMeta: null, fee: 0 },
  { project: 'pendle', exposure: 'single', poolMeta: 'For buying PT', fee: 0 },
];
const TOKENS = ['USDC', 'USDT', 'DAI', 'WETH', 'WBTC', 'LINK', 'UNI', 'ARB', 'OP', 'MATIC', 'CRV', 'LDO', 'FRAX', 'GHO', 'PEPE', 'AAVE'];
const STABLES = new Set(['USDC', 'USDT', 'DAI', 'FRAX', 'GHO']);

function uuidOf(label: string): string {
  const h = createHash('sha256').update(label).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
const addresses = new Map<string, string>();
/** A made-up token address per label (memoised: a few hundred tokens serve every replay pool). */
function evmAddress(label: string): string {
  let a = addresses.get(label);
  if (!a) addresses.set(label, (a = `0x${createHash('sha256').update(label).digest('hex').slice(0, 40)}`));
  return a;
}
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** How the replay's values move with the clock: a slow daily wave per pool, so hourly snapshots differ. */
function wave(seed: string, hour: number, amplitude: number, periodHours: number): number {
  return 1 + amplitude * Math.sin((2 * Math.PI * hour) / periodHours + unit(`${seed}:phase`) * 2 * Math.PI);
}

/** Every SPIKE_EVERY_HOURS hours, for SPIKE_HOURS hours, one pool in SPIKE_SHARE has its APY tripled (alerts have something to find offline). */
export const REPLAY_SPIKE_EVERY_HOURS = 24;
const SPIKE_HOURS = 2;
const SPIKE_SHARE = 50;

/**
 * Record `i` of the replay's /pools answer at `hour` (hours since the Unix epoch). Record 0 is the
 * OpenAPI example verbatim (its values do not move); record 1 the Uniswap v3 USDC/WETH 0.3 % pool
 * whose TVL and fees follow the recorded subgraph day; the others vary the example's fields
 * (chain, project, symbol, TVL, APYs, mu/sigma, predictions) from the index and the hour. Simulated.
 */
export function replayPoolRecord(template: Record<string, unknown>, i: number, hour: number): Record<string, unknown> {
  if (i === 0) return { ...template };
  if (i === 1) {
    const tvl = RECORDED_USDC_WETH_DAY.tvlUSD * wave('usdc-weth:tvl', hour, 0.02, 24 * 7);
    const volume1d = (RECORDED_USDC_WETH_DAY.feesUSD / 0.003) * wave('usdc-weth:vol', hour, 0.15, 24 * 5);
    const apyBase = ((volume1d * 0.003 * 365) / tvl) * 100;
    return {
      ...template,
      chain: 'Ethereum',
      project: 'uniswap-v3',
      symbol: 'USDC-WETH',
      tvlUsd: round(tvl, 0),
      apyBase: round(apyBase, 5),
      apyReward: null,
      apy: round(apyBase, 5),
      pool: REPLAY_USDC_WETH_POOL,
      apyPct1D: round(apyBase * 0.01, 3),
      apyPct7D: round(-apyBase * 0.02, 3),
      apyPct30D: round(apyBase * 0.05, 3),
      stablecoin: false,
      ilRisk: 'yes',
      exposure: 'multi',
      predictions: { predictedClass: 'Stable/Up', predictedProbability: 61, binnedConfidence: 1 },
      poolMeta: '0.3%',
      mu: round(apyBase * 1.1, 5),
      sigma: round(apyBase * 0.04, 5),
      count: 1141,
      outlier: false,
      underlyingTokens: [USDC, WETH],
      il7d: -0.42,
      apyBase7d: round(apyBase * 0.97, 5),
      apyMean30d: round(apyBase * 1.02, 5),
      volumeUsd1d: round(volume1d, 0),
      volumeUsd7d: round(volume1d * 7 * 0.98, 0),
    };
  }
  const r = (k: string) => unit(`pool:${i}:${k}`);
  const chain = CHAINS[Math.floor(r('chain') * CHAINS.length)];
  const p = PROJECTS[Math.floor(r('project') * PROJECTS.length)];
  const a = TOKENS[Math.floor(r('t0') * TOKENS.length)];
  let b = TOKENS[Math.floor(r('t1') * TOKENS.length)];
  if (b === a) b = TOKENS[(TOKENS.indexOf(a) + 1) % TOKENS.length];
  const multi = p.exposure === 'multi';
  const symbol = multi ? `${a}-${b}` : a;
  // TVL log-uniform from 10 k to 2 bn USD; a pool's TVL moves a few percent over the week.
  const tvl = 10 ** (4 + r('tvl') * 5.3) * wave(`pool:${i}:tvl`, hour, 0.04, 24 * 7);
  const volume1d = p.fee > 0 ? tvl * (0.02 + r('vtr') * 0.6) * wave(`pool:${i}:vol`, hour, 0.3, 24 * 3) : null;
  const fromFees = volume1d !== null ? ((volume1d * p.fee * 365) / tvl) * 100 : null;
  let apyBase = fromFees ?? r('base') * 12 * wave(`pool:${i}:base`, hour, 0.1, 24);
  const apyReward = r('reward') < 0.3 ? round(r('rewardsize') * 15, 5) : null;
  if ((i + Math.floor(hour / REPLAY_SPIKE_EVERY_HOURS)) % SPIKE_SHARE === 0 && hour % REPLAY_SPIKE_EVERY_HOURS < SPIKE_HOURS) apyBase *= 3;
  const apy = apyBase + (apyReward ?? 0);
  const underlying = multi ? [evmAddress(`token:${chain}:${a}`), evmAddress(`token:${chain}:${b}`)] : [evmAddress(`token:${chain}:${a}`)];
  const stable = multi ? STABLES.has(a) && STABLES.has(b) : STABLES.has(a);
  const mu = apy * (0.8 + r('mu') * 0.6);
  return {
    ...template,
    chain,
    project: p.project,
    symbol,
    tvlUsd: round(tvl, 0),
    apyBase: round(apyBase, 5),
    apyReward,
    apy: round(apy, 5),
    rewardTokens: apyReward !== null ? [evmAddress(`reward:${p.project}`)] : null,
    pool: uuidOf(`tickerbell-yields-replay:${i}`),
    apyPct1D: round((r('d1') - 0.5) * 0.2 * apy, 3),
    apyPct7D: round((r('d7') - 0.5) * 0.4 * apy, 3),
    apyPct30D: r('d30') < 0.2 ? null : round((r('d30') - 0.5) * 0.6 * apy, 3),
    stablecoin: stable,
    ilRisk: multi && !stable ? 'yes' : 'no',
    exposure: p.exposure,
    predictions: { predictedClass: r('pred') < 0.4 ? 'Down' : 'Stable/Up', predictedProbability: Math.round(50 + r('prob') * 49), binnedConfidence: 1 + Math.floor(r('conf') * 3) },
    poolMeta: p.poolMeta,
    mu: round(mu, 5),
    sigma: round(mu * (0.01 + r('sigma') * (r('outlier') < 0.05 ? 3 : 0.3)), 5),
    count: 30 + Math.floor(r('count') * 1200),
    outlier: r('outlier') < 0.05,
    underlyingTokens: underlying,
    il7d: multi && !stable ? round(-r('il') * 2, 4) : null,
    apyBase7d: round(apyBase * (0.9 + r('b7') * 0.2), 5),
    apyMean30d: round(apyBase * (0.85 + r('m30') * 0.3) + (apyReward ?? 0), 5),
    volumeUsd1d: volume1d === null ? null : round(volume1d, 0),
    volumeUsd7d: volume1d === null ? null : round(volume1d * 7 * (0.9 + r('v7') * 0.2), 0),
  };
}

/** The replay pool UUID of record `i` (record 0: the OpenAPI example's, 1: REPLAY_USDC_WETH_POOL). */
export function replayPoolUuid(template: Record<string, unknown>, i: number): string {
  return i === 0 ? String(template.pool) : i === 1 ? REPLAY_USDC_WETH_POOL : uuidOf(`tickerbell-yields-replay:${i}`);
}

export interface YieldsReplayServer {
  url: string;
  /** Paths asked, in order. */
  requests: string[];
  /** Records in the /pools answer (default 2,000). */
  setPoolCount(count: number): void;
  /** Fields merged into a pool's record (by UUID) from now on; null removes. */
  override(pool: string, fields: Record<string, unknown> | null): void;
  /** The next `n` requests answer HTTP `status`. */
  failNext(n: number, status: number): void;
  /** The next /pools answers this body as is (bad-input tests); null: back to normal. */
  setPoolsBody(body: string | null): void;
  close(): Promise<void>;
}

export interface YieldsReplayOptions {
  /** The clock: the answer follows its hour. */
  now: () => Date;
  /** Default 2,000. */
  pools?: number;
}

/**
 * DefiLlama yields' replay twin on 127.0.0.1: /pools streams `{ status, data }` record by record
 * (replayPoolRecord, so a 15,000-pool answer is never built in memory either), /chart/{pool} answers
 * 30 daily points ending yesterday around the pool's current values, in the excerpt's point shape.
 */
export async function startYieldsReplayServer(opts: YieldsReplayOptions): Promise<YieldsReplayServer> {
  const template = openApiExamplePool();
  let count = opts.pools ?? 2000;
  const overrides = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  let failures = 0;
  let failStatus = 500;
  let rawBody: string | null = null;
  let uuids: Map<string, number> | null = null;
  // The serialised answer of the last hour asked (the records only change with the hour, the count and the overrides).
  let cached: { hour: number; parts: string[] } | null = null;
  const indexOf = (pool: string) => {
    if (!uuids || uuids.size !== count) uuids = new Map(Array.from({ length: count }, (_, i) => [replayPoolUuid(template, i), i]));
    return uuids.get(pool);
  };
  const recordAt = (i: number, hour: number) => {
    const record = replayPoolRecord(template, i, hour);
    const extra = overrides.get(record.pool as string);
    return extra ? { ...record, ...extra } : record;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    requests.push(url.pathname);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (failures > 0) {
      failures--;
      return send(failStatus, { status: 'error', message: 'replay: failing as asked' });
    }
    const hour = Math.floor(opts.now().getTime() / HOUR_MS);
    if (url.pathname === '/pools') {
      if (rawBody !== null) return send(200, rawBody);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (cached?.hour !== hour) cached = { hour, parts: [] };
      void streamPools(res, count, (i) => recordAt(i, hour), cached.parts);
      return;
    }
    const chart = /^\/chart\/([^/]+)$/.exec(url.pathname);
    if (chart) {
      const i = indexOf(decodeURIComponent(chart[1]));
      if (i === undefined) return send(400, { status: 'error', message: 'pool not found' });
      const today = Math.floor(opts.now().getTime() / 1000 / DAY_S) * DAY_S;
      const data = Array.from({ length: 30 }, (_, k) => {
        const day = today - (30 - k) * DAY_S;
        const rec = recordAt(i, Math.floor(day / 3600));
        return {
          timestamp: new Date(day * 1000).toISOString(),
          tvlUsd: rec.tvlUsd,
          apy: rec.apy,
          apyBase: rec.apyBase,
          apyReward: rec.apyReward,
        };
      });
      return send(200, { status: 'success', data });
    }
    send(404, { status: 'error', message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setPoolCount(n) {
      count = n;
      cached = null;
    },
    override(pool, fields) {
      cached = null;
      if (fields) overrides.set(pool, fields);
      else overrides.delete(pool);
    },
    failNext(n, status) {
      failures = n;
      failStatus = status;
    },
    setPoolsBody(body) {
      rawBody = body;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Writes `{"status":"success","data":[…]}` in chunks of 250 records, waiting for the socket to drain;
 * each chunk is serialised once into `cache` (by position) and served from there afterwards.
 */
async function streamPools(res: ServerResponse, count: number, record: (i: number) => Record<string, unknown>, cache: string[]): Promise<void> {
  const write = (text: string) => (res.write(text) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', () => resolve())));
  try {
    await write('{"status":"success","data":[');
    for (let i = 0, k = 0; i < count; i += 250, k++) {
      if (cache[k] === undefined) {
        const parts: string[] = [];
        for (let j = i; j < Math.min(count, i + 250); j++) parts.push(JSON.stringify(record(j)));
        cache[k] = parts.join(',');
      }
      await write((i > 0 ? ',' : '') + cache[k]);
      if (res.destroyed) return;
    }
    res.end(']}');
  } catch {
    res.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The Uniswap v3 subgraph's replay twin

interface RecordedSubgraph {
  pools_by_id_response: { data: { pools: Array<Record<string, unknown> & { id: string; token0: { id: string }; token1: { id: string } }> } };
  poolDayDatas_response_pool_0xa850: { data: { poolDayDatas: Array<Record<string, unknown>> } };
}

export interface SubgraphReplayServer {
  url: string;
  /** Request bodies (operationName and variables), in order. */
  requests: Array<{ operationName: string | null; variables: Record<string, unknown>; authorization: string | null }>;
  failNext(n: number, status: number): void;
  /** The next answer is a GraphQL `errors` response with this message. */
  graphqlErrorNext(message: string): void;
  close(): Promise<void>;
}

/**
 * The subgraph's replay twin: POST `{ query, variables }`. `pools(where: token0_in/token1_in)` answers
 * the recorded pools (verbatim) whose tokens are both in $tokens; `poolDayDatas(where: pool_in,
 * date_gte)` answers, for the recorded USDC/WETH pool, one day per UTC day from 35 days ago to today
 * built from its recorded 2022-03-16 day (fees and TVL varied a little per day, volume = fees / 0.3 %),
 * and for the recorded 0xa850 pool its four recorded days verbatim (2021–2022, so outside any recent window).
 */
export async function startSubgraphReplayServer(opts: { now: () => Date; recording?: string }): Promise<SubgraphReplayServer> {
  const recorded = JSON.parse(readFileSync(opts.recording ?? UNISWAP_SUBGRAPH_RECORDING, 'utf8')) as RecordedSubgraph;
  const pools = recorded.pools_by_id_response.data.pools;
  const a850 = recorded.poolDayDatas_response_pool_0xa850.data.poolDayDatas;
  const requests: SubgraphReplayServer['requests'] = [];
  let failures = 0;
  let failStatus = 500;
  let graphqlError: string | null = null;

  const daysOf = (pool: string, since: number): Array<Record<string, unknown>> => {
    if (pool === RECORDED_USDC_WETH_POOL) {
      const today = Math.floor(opts.now().getTime() / 1000 / DAY_S) * DAY_S;
      const out: Array<Record<string, unknown>> = [];
      for (let day = today - 35 * DAY_S; day <= today; day += DAY_S) {
        if (day < since) continue;
        // Today's bucket is still filling: a share of a full day.
        const share = day === today ? ((opts.now().getTime() / 1000 - today) / DAY_S) : 1;
        const fees = RECORDED_USDC_WETH_DAY.feesUSD * wave(`usdc-weth-day:${day}`, 0, 0.15, 1) * share;
        out.push({
          date: day,
          pool: { id: pool },
          volumeUSD: String(fees / 0.003),
          tvlUSD: String(RECORDED_USDC_WETH_DAY.tvlUSD * wave(`usdc-weth-tvl:${day}`, 0, 0.02, 1)),
          feesUSD: String(fees),
          __typename: 'PoolDayData',
        });
      }
      return out;
    }
    if (pool === '0xa850478adaace4c08fc61de44d8cf3b64f359bec') return a850.filter((d) => Number(d.date) >= since).map((d) => ({ ...d, pool: { id: pool } }));
    return [];
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      let body: { operationName?: string; query?: string; variables?: Record<string, unknown> };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { errors: [{ message: 'replay: body is not JSON' }] });
      }
      const variables = body.variables ?? {};
      requests.push({ operationName: body.operationName ?? null, variables, authorization: (req.headers.authorization as string | undefined) ?? null });
      if (failures > 0) {
        failures--;
        return send(failStatus, { errors: [{ message: 'replay: failing as asked' }] });
      }
      if (graphqlError !== null) {
        const message = graphqlError;
        graphqlError = null;
        return send(200, { errors: [{ message }] });
      }
      const query = body.query ?? '';
      if (/\bpoolDayDatas\s*\(/.test(query)) {
        const ids = Array.isArray(variables.pools) ? (variables.pools as string[]).map((p) => p.toLowerCase()) : [];
        const since = Number(variables.since ?? 0);
        const skip = Number(variables.skip ?? 0);
        const all = ids.flatMap((id) => daysOf(id, since)).sort((x, y) => Number(x.date) - Number(y.date));
        return send(200, { data: { poolDayDatas: all.slice(skip, skip + 1000) } });
      }
      if (/\bpools\s*\(/.test(query)) {
        const tokens = new Set(Array.isArray(variables.tokens) ? (variables.tokens as string[]).map((t) => t.toLowerCase()) : []);
        return send(200, { data: { pools: pools.filter((p) => tokens.has(p.token0.id) && tokens.has(p.token1.id)) } });
      }
      send(200, { errors: [{ message: 'replay: only pools and poolDayDatas are served' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/subgraphs/name/uniswap/uniswap-v3`,
    requests,
    failNext(n, status) {
      failures = n;
      failStatus = status;
    },
    graphqlErrorNext(message) {
      graphqlError = message;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
