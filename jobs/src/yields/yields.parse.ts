// Pure parsers of the yields sources: DefiLlama's /pools records (one by one, as the streaming parser
// hands them over) and /chart/{pool} answer, and the Uniswap v3 subgraph's GraphQL answers.
import { JSONParser } from '@streamparser/json';
import { z } from 'zod';

/** An answer that is not the source's documented shape: the job fails with this reason, nothing is written. */
export class YieldsSourceError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'YieldsSourceError';
  }
}

/** One DefiLlama /pools record, validated (fields as the published OpenAPI names them). */
export interface DefiLlamaPool {
  pool: string;
  chain: string;
  project: string;
  symbol: string;
  tvlUsd: number;
  apy: number | null;
  apyBase: number | null;
  apyReward: number | null;
  apyMean30d: number | null;
  apyBase7d: number | null;
  stablecoin: boolean;
  ilRisk: string | null;
  exposure: string | null;
  poolMeta: string | null;
  mu: number | null;
  sigma: number | null;
  outlier: boolean | null;
  underlyingTokens: string[];
  il7d: number | null;
  volumeUsd1d: number | null;
  volumeUsd7d: number | null;
  predictions: { predictedClass: string | null; predictedProbability: number | null; binnedConfidence: number | null } | null;
}

/** Why a record was left out (counted in the ingest's result). */
export type PoolSkipReason = 'invalid' | 'missing' | 'absurd';

/** Largest TVL taken as real (USD): above is a source bug (the subgraph has shown 261 billion for a junk pool). */
export const MAX_TVL_USD = 1e12;
/** APY / APR bounds taken as real (percent per year); outside is absurd (and would not fit numeric(12,4)). */
export const MIN_APY = -100;
export const MAX_APY = 1e6;
/** Bounds of mu and sigma (numeric(16,6)). */
export const MAX_MU_SIGMA = 1e9;

const num = z.number();
const optNum = num.nullish();
const optStr = z.string().nullish();

const recordSchema = z.object({
  pool: z.string().min(1).max(100),
  chain: z.string().min(1).max(40),
  project: z.string().min(1).max(60),
  symbol: z.string().min(1),
  tvlUsd: num.nullish(),
  apy: optNum,
  apyBase: optNum,
  apyReward: optNum,
  apyMean30d: optNum,
  apyBase7d: optNum,
  stablecoin: z.boolean().nullish(),
  ilRisk: optStr,
  exposure: optStr,
  poolMeta: optStr,
  mu: optNum,
  sigma: optNum,
  outlier: z.boolean().nullish(),
  underlyingTokens: z.array(z.string()).nullish(),
  il7d: optNum,
  volumeUsd1d: optNum,
  volumeUsd7d: optNum,
  predictions: z
    .object({ predictedClass: optStr, predictedProbability: optNum, binnedConfidence: optNum })
    .partial()
    .nullish(),
});

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);
const within = (x: number | null | undefined, lo: number, hi: number) => x === null || x === undefined || (Number.isFinite(x) && x >= lo && x <= hi);

/**
 * One /pools record: the pool, or why it is left out. `invalid`: not the published shape (a string
 * where a number goes, no pool id...); `missing`: no TVL; `absurd`: a negative or impossible TVL,
 * an APY or volume out of range.
 */
export function parseDefiLlamaPool(raw: unknown): { ok: true; pool: DefiLlamaPool } | { ok: false; reason: PoolSkipReason; detail: string } {
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: 'invalid', detail: `${issue?.path.join('.') || 'record'}: ${issue?.message ?? 'bad shape'}` };
  }
  const r = parsed.data;
  if (r.tvlUsd === null || r.tvlUsd === undefined) return { ok: false, reason: 'missing', detail: 'tvlUsd missing' };
  if (!finite(r.tvlUsd) || r.tvlUsd < 0 || r.tvlUsd > MAX_TVL_USD) return { ok: false, reason: 'absurd', detail: `tvlUsd ${r.tvlUsd}` };
  for (const key of ['apy', 'apyBase', 'apyReward', 'apyMean30d', 'apyBase7d', 'il7d'] as const) {
    if (!within(r[key], MIN_APY, MAX_APY)) return { ok: false, reason: 'absurd', detail: `${key} ${r[key]}` };
  }
  for (const key of ['volumeUsd1d', 'volumeUsd7d'] as const) {
    if (!within(r[key], 0, MAX_TVL_USD * 100)) return { ok: false, reason: 'absurd', detail: `${key} ${r[key]}` };
  }
  for (const key of ['mu', 'sigma'] as const) {
    if (!within(r[key], -MAX_MU_SIGMA, MAX_MU_SIGMA)) return { ok: false, reason: 'absurd', detail: `${key} ${r[key]}` };
  }
  const p = r.predictions;
  return {
    ok: true,
    pool: {
      pool: r.pool,
      chain: r.chain,
      project: r.project,
      symbol: r.symbol,
      tvlUsd: r.tvlUsd,
      apy: r.apy ?? null,
      apyBase: r.apyBase ?? null,
      apyReward: r.apyReward ?? null,
      apyMean30d: r.apyMean30d ?? null,
      apyBase7d: r.apyBase7d ?? null,
      stablecoin: r.stablecoin ?? false,
      ilRisk: r.ilRisk ? r.ilRisk.slice(0, 10) : null,
      exposure: r.exposure ? r.exposure.slice(0, 10) : null,
      poolMeta: r.poolMeta ? r.poolMeta.slice(0, 100) : null,
      mu: r.mu ?? null,
      sigma: r.sigma ?? null,
      outlier: r.outlier ?? null,
      underlyingTokens: (r.underlyingTokens ?? []).filter((t) => t.length > 0 && t.length <= 200),
      il7d: r.il7d ?? null,
      volumeUsd1d: r.volumeUsd1d ?? null,
      volumeUsd7d: r.volumeUsd7d ?? null,
      predictions: p
        ? {
            predictedClass: p.predictedClass ? p.predictedClass.slice(0, 20) : null,
            predictedProbability: finite(p.predictedProbability) ? p.predictedProbability : null,
            binnedConfidence: finite(p.binnedConfidence) ? p.binnedConfidence : null,
          }
        : null,
    },
  };
}

export interface PoolsStreamResult {
  /** Records in the answer's data array. */
  seen: number;
  accepted: number;
  skipped: Record<PoolSkipReason, number>;
  /** The first few skip details, for the log. */
  examples: string[];
}

/** More than this share of records left out means the answer's shape changed: the job fails rather than storing a thin snapshot. */
export const MAX_SKIPPED_SHARE = 0.5;

/**
 * Streams a /pools body (`{ status: "success", data: [ ...records ] }`) through a streaming JSON
 * parser: each record is validated and handed to `onPool` as soon as it is complete, so the body
 * is never held whole (nor twice). Throws YieldsSourceError when the body is not that shape
 * (not JSON, no data array, status not success, no valid record, or more than MAX_SKIPPED_SHARE left out).
 */
export async function streamDefiLlamaPools(body: AsyncIterable<Uint8Array | string>, onPool: (pool: DefiLlamaPool) => void): Promise<PoolsStreamResult> {
  const result: PoolsStreamResult = { seen: 0, accepted: 0, skipped: { invalid: 0, missing: 0, absurd: 0 }, examples: [] };
  let status: unknown;
  let dataIsArray: boolean | null = null;
  let rootIsObject: boolean | null = null;
  const parser = new JSONParser({ paths: ['$.status', '$.data', '$.data.*'], keepStack: false });
  parser.onValue = ({ value, key, parent, stack }) => {
    if (stack.length === 1) {
      rootIsObject ??= parent !== null && typeof parent === 'object' && !Array.isArray(parent);
      if (key === 'status') status = value;
      if (key === 'data') dataIsArray = Array.isArray(value);
      return;
    }
    // A record of data[] (data itself is emitted last, emptied: keepStack false).
    if (!Array.isArray(parent)) {
      dataIsArray = false;
      return;
    }
    result.seen++;
    const parsed = parseDefiLlamaPool(value);
    if (parsed.ok) {
      result.accepted++;
      onPool(parsed.pool);
    } else {
      result.skipped[parsed.reason]++;
      if (result.examples.length < 5) result.examples.push(`${parsed.reason}: ${parsed.detail}`);
    }
  };
  try {
    for await (const chunk of body) {
      if (parser.isEnded) {
        if (typeof chunk === 'string' ? chunk.trim() !== '' : chunk.some((b) => b > 32)) throw new Error('data after the end of the JSON document');
        continue;
      }
      parser.write(chunk);
    }
    if (!parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof YieldsSourceError) throw error;
    throw new YieldsSourceError(`/pools: the answer is not JSON (${error instanceof Error ? error.message : String(error)})`, false);
  }
  if (rootIsObject === false) throw new YieldsSourceError('/pools: expected an object { status, data }', false);
  if (status !== 'success') throw new YieldsSourceError(`/pools: status is ${JSON.stringify(status)}, not "success"`, false);
  if (dataIsArray !== true) throw new YieldsSourceError('/pools: data is not an array of pools', false);
  if (result.accepted === 0) throw new YieldsSourceError(`/pools: no valid pool among ${result.seen} records${result.examples[0] ? ` (${result.examples[0]})` : ''}`, false);
  const skipped = result.seen - result.accepted;
  if (skipped > result.seen * MAX_SKIPPED_SHARE) {
    throw new YieldsSourceError(`/pools: ${skipped} of ${result.seen} records left out (${result.examples.join('; ')}): the answer's shape has changed`, false);
  }
  return result;
}

/** Reads a string or buffer as a one-chunk stream (tests, the CLI's import of a file). */
export async function* chunksOf(text: string | Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array | string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

// ---------------------------------------------------------------------------------------------
// /chart/{pool}

export interface ChartPoint {
  timestamp: Date;
  tvlUsd: number | null;
  apy: number | null;
  apyBase: number | null;
  apyReward: number | null;
}

const chartSchema = z.object({
  status: z.literal('success'),
  data: z.array(z.unknown()),
});
const chartPointSchema = z.object({
  timestamp: z.string().refine((s) => Number.isFinite(Date.parse(s)), 'an ISO 8601 time'),
  tvlUsd: optNum,
  apy: optNum,
  apyBase: optNum,
  apyReward: optNum,
});

/** /chart/{pool}: daily points; points that do not parse or are absurd are left out. Throws YieldsSourceError on a wrong envelope. */
export function parseDefiLlamaChart(doc: unknown): ChartPoint[] {
  const env = chartSchema.safeParse(doc);
  if (!env.success) throw new YieldsSourceError(`/chart: expected { status: "success", data: [...] } (${env.error.issues[0]?.message ?? 'bad shape'})`, false);
  const out: ChartPoint[] = [];
  for (const raw of env.data.data) {
    const p = chartPointSchema.safeParse(raw);
    if (!p.success) continue;
    const { tvlUsd, apy, apyBase, apyReward } = p.data;
    if (!within(tvlUsd, 0, MAX_TVL_USD) || !within(apy, MIN_APY, MAX_APY) || !within(apyBase, MIN_APY, MAX_APY) || !within(apyReward, MIN_APY, MAX_APY)) continue;
    out.push({ timestamp: new Date(p.data.timestamp), tvlUsd: tvlUsd ?? null, apy: apy ?? null, apyBase: apyBase ?? null, apyReward: apyReward ?? null });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Uniswap v3 subgraph

export interface SubgraphPool {
  /** Pool contract, lowercase. */
  id: string;
  feeTier: number;
  token0: string;
  token1: string;
  token0Symbol: string | null;
  token1Symbol: string | null;
  totalValueLockedUSD: number | null;
  volumeUSD: number | null;
}

export interface SubgraphDay {
  pool: string;
  /** Unix seconds of the UTC day's start. */
  date: number;
  volumeUSD: number | null;
  tvlUSD: number | null;
  feesUSD: number | null;
}

const decimalString = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: 'not a number' });
    return z.NEVER;
  }
  return n;
});
const addr = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address').transform((s) => s.toLowerCase());
const tokenSchema = z.object({ id: addr, symbol: z.string().nullish() });
const poolSchema = z.object({
  id: addr,
  feeTier: decimalString,
  token0: tokenSchema,
  token1: tokenSchema,
  totalValueLockedUSD: decimalString.nullish(),
  volumeUSD: decimalString.nullish(),
});
const daySchema = z.object({
  date: z.number().int(),
  pool: z.object({ id: addr }).optional(),
  volumeUSD: decimalString.nullish(),
  tvlUSD: decimalString.nullish(),
  feesUSD: decimalString.nullish(),
});

/** The `data` of a GraphQL answer, or YieldsSourceError with its first error message. */
export function graphqlData(doc: unknown, what: string): Record<string, unknown> {
  if (!doc || typeof doc !== 'object') throw new YieldsSourceError(`${what}: the answer is not a GraphQL response`, false);
  const { data, errors } = doc as { data?: unknown; errors?: Array<{ message?: unknown }> };
  if (Array.isArray(errors) && errors.length) {
    const message = String(errors[0]?.message ?? 'error');
    // Indexers answer overload and deployment problems this way; a retry may succeed.
    throw new YieldsSourceError(`${what}: GraphQL error: ${message.slice(0, 300)}`, /timeout|overloaded|unavailable|too many|rate|indexing/i.test(message));
  }
  if (!data || typeof data !== 'object') throw new YieldsSourceError(`${what}: no data in the GraphQL response`, false);
  return data as Record<string, unknown>;
}

/** `{ data: { pools: [...] } }` (the recorded shape, `__typename` and the other fields ignored). */
export function parseSubgraphPools(doc: unknown): SubgraphPool[] {
  const data = graphqlData(doc, 'pools');
  if (!Array.isArray(data.pools)) throw new YieldsSourceError('pools: data.pools is not an array', false);
  return data.pools.map((raw, i) => {
    const p = poolSchema.safeParse(raw);
    if (!p.success) throw new YieldsSourceError(`pools[${i}]: ${p.error.issues[0]?.path.join('.')} ${p.error.issues[0]?.message}`, false);
    return {
      id: p.data.id,
      feeTier: p.data.feeTier,
      token0: p.data.token0.id,
      token1: p.data.token1.id,
      token0Symbol: p.data.token0.symbol ?? null,
      token1Symbol: p.data.token1.symbol ?? null,
      totalValueLockedUSD: p.data.totalValueLockedUSD ?? null,
      volumeUSD: p.data.volumeUSD ?? null,
    };
  });
}

/** `{ data: { poolDayDatas: [...] } }`; `pool` from each record's pool.id, else `defaultPool`. */
export function parseSubgraphDays(doc: unknown, defaultPool?: string): SubgraphDay[] {
  const data = graphqlData(doc, 'poolDayDatas');
  if (!Array.isArray(data.poolDayDatas)) throw new YieldsSourceError('poolDayDatas: data.poolDayDatas is not an array', false);
  return data.poolDayDatas.map((raw, i) => {
    const d = daySchema.safeParse(raw);
    if (!d.success) throw new YieldsSourceError(`poolDayDatas[${i}]: ${d.error.issues[0]?.path.join('.')} ${d.error.issues[0]?.message}`, false);
    const pool = d.data.pool?.id ?? defaultPool?.toLowerCase();
    if (!pool) throw new YieldsSourceError(`poolDayDatas[${i}]: no pool id`, false);
    return { pool, date: d.data.date, volumeUSD: d.data.volumeUSD ?? null, tvlUSD: d.data.tvlUSD ?? null, feesUSD: d.data.feesUSD ?? null };
  });
}

/** The fee tier of a DefiLlama poolMeta that is only a percentage ("0.3%" -> 3000, "0.05%" -> 500); 0 otherwise. */
export function feeTierOfPoolMeta(poolMeta: string | null): number {
  const m = poolMeta ? /^\s*(\d{1,2}(?:\.\d{1,4})?)\s*%\s*$/.exec(poolMeta) : null;
  if (!m) return 0;
  const tier = Math.round(Number(m[1]) * 10_000);
  return tier > 0 && tier <= 1_000_000 ? tier : 0;
}

/** Whether a string is an EVM address. */
export const isEvmAddress = (s: string) => /^0x[0-9a-fA-F]{40}$/.test(s);
