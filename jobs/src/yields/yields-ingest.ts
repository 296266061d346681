// The hourly ingest: DefiLlama /pools streamed, the tracked set chosen, the Uniswap v3 subgraph's
// daily data and DefiLlama's /chart history fetched for the tracked pools, the analytics computed,
// and the whole snapshot written in one transaction (stored whole or not at all).
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { Logger } from '../runtime/logger';
import type { YieldPoolsSource } from './defillama-yields.client';
import type { UniswapSubgraphSource } from './uniswap-subgraph.client';
import { aprBaseline, aprDisagrees, feeApr, tvlVariation, volumeToTvl, windowFees, yieldScore, BASELINE_MIN_DAYS, type YieldDay } from './yields-analytics';
import { feeTierOfPoolMeta, isEvmAddress, type ChartPoint, type DefiLlamaPool, type PoolSkipReason, type SubgraphDay } from './yields.parse';
import {
  alertedPoolIds,
  dailyHistory,
  insertYieldData,
  knownPools,
  setPoolAddresses,
  snapshotStored,
  upsertPools,
  type DailyHistory,
  type DataInsert,
  type PoolUpsert,
} from './yields.store';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface IngestDeps {
  dataSource: DataSource;
  clock: Clock;
  logger?: Logger;
}

export interface IngestSources {
  pools: YieldPoolsSource;
  /** Null: no subgraph (our fee APR from DefiLlama's volume x fee tier only). */
  subgraph: UniswapSubgraphSource | null;
}

export interface IngestOptions {
  topPerChain: number;
  chartBackfillPerRun: number;
  /** The DefiLlama chain name the subgraph serves. */
  subgraphChain: string;
}

export interface IngestOutcome {
  status: 'stored' | 'exists';
  /** The hour of the snapshot (ISO). */
  snapshotAt: string;
  seen: number;
  accepted: number;
  skipped: Record<PoolSkipReason, number>;
  skippedExamples: string[];
  tracked: number;
  /** yield_data rows of the snapshot. */
  stored: number;
  subgraphPools: number;
  /** Subgraph pools whose TVL disagreed too much with DefiLlama's (their fee APR taken from DefiLlama instead). */
  subgraphDistrusted: number;
  subgraphError: string | null;
  chartBackfilled: number;
  chartErrors: number;
  ms: number;
  /** Where the time went: streaming /pools, the subgraph and /chart (with the history read), the transaction. */
  phases: { streamMs: number; enrichMs: number; writeMs: number };
}

/** The snapshot's hour: the clock floored to the hour (one snapshot per hour, however often the job runs). */
export const snapshotHour = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Subgraph TVL taken as sound when within this factor of DefiLlama's (the subgraph has shown TVLs
 * off by orders of magnitude, e.g. 261 billion USD for a pool of two junk tokens).
 */
export const SUBGRAPH_TVL_TRUST_FACTOR = 5;
/** Tracked pools per subgraph discovery request (their tokens go in one token0_in / token1_in list). */
const DISCOVERY_CHUNK = 50;
/** Pools per poolDayDatas request (31 days each stays within the 1,000-entity page). */
const DAYS_CHUNK = 25;
/** Days of subgraph data asked for: 30 complete days and today. */
const SUBGRAPH_DAYS = 31;

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** The yield_pools fields of a /pools record. */
export function poolUpsertOf(p: DefiLlamaPool, tracked: boolean): PoolUpsert {
  const [a, b] = p.underlyingTokens;
  const parts = p.symbol.split('-');
  const evm = (t: string | undefined) => (t && isEvmAddress(t) ? t.toLowerCase() : '');
  return {
    poolId: p.pool,
    defillamaPoolId: p.pool.length <= 36 ? p.pool : null,
    symbol: cut(p.symbol, 50),
    token0: evm(a),
    token1: evm(b),
    token0Symbol: cut(parts[0] ?? '', 20),
    token1Symbol: cut(parts[1] ?? '', 20),
    feeTier: p.exposure === 'multi' ? feeTierOfPoolMeta(p.poolMeta) : 0,
    dex: cut(p.project, 30),
    chain: p.chain,
    project: p.project,
    poolMeta: p.poolMeta,
    underlyingTokens: p.underlyingTokens.map((t) => (isEvmAddress(t) ? t.toLowerCase() : t)),
    stablecoin: p.stablecoin,
    ilRisk: p.ilRisk,
    exposure: p.exposure,
    tracked,
    tvlUsd: p.tvlUsd,
    apy: p.apy,
  };
}

/** The tracked set: the top `topPerChain` pools by TVL of each chain, and every pool in `alerted`. */
export function trackedSet(pools: readonly DefiLlamaPool[], topPerChain: number, alerted: ReadonlySet<string>): Set<string> {
  const byChain = new Map<string, DefiLlamaPool[]>();
  for (const p of pools) {
    const list = byChain.get(p.chain);
    if (list) list.push(p);
    else byChain.set(p.chain, [p]);
  }
  const out = new Set<string>();
  for (const list of byChain.values()) {
    list.sort((x, y) => y.tvlUsd - x.tvlUsd || (x.pool < y.pool ? -1 : 1));
    for (const p of list.slice(0, topPerChain)) out.add(p.pool);
  }
  for (const p of pools) if (alerted.has(p.pool)) out.add(p.pool);
  return out;
}

export interface SnapshotInputs {
  pool: DefiLlamaPool;
  feeTier: number;
  /** The subgraph's days of this pool (trusted), or null. */
  days: YieldDay[] | null;
  history: DailyHistory | null;
}

/**
 * The analytics of one tracked pool at `now` (pure): fee APRs (the subgraph's daily fees when
 * trusted, else DefiLlama's 1-day and 7-day volume x the fee tier), apr and whose it is, vtr, the
 * disagreement flag, the 30-day baseline and the score with its components.
 */
export function snapshotValues(input: SnapshotInputs, now: Date): Omit<DataInsert, 'poolId' | 'timestamp'> {
  const { pool: p, feeTier, days, history } = input;
  const fee = feeTier / 1_000_000;
  let volumeUsd: number | null = p.volumeUsd1d;
  let volumeUsd7d: number | null = p.volumeUsd7d;
  let feesUsd: number | null = null;
  let apr24: number | null = null;
  let apr7: number | null = null;
  let apr30: number | null = null;
  let dataSource = 'defillama';
  if (days) {
    const w1 = windowFees(days, 1, now);
    const w7 = windowFees(days, 7, now);
    const w30 = windowFees(days, 30, now);
    apr24 = w1?.apr ?? null;
    apr7 = w7?.apr ?? null;
    apr30 = w30?.apr ?? null;
    if (w1) {
      feesUsd = w1.feesUsd;
      volumeUsd = w1.volumeUsd ?? volumeUsd;
      dataSource = 'uniswap-subgraph';
    }
    if (w7 && w7.volumeUsd !== null) volumeUsd7d = w7.volumeUsd;
  }
  if (apr24 === null && fee > 0 && p.volumeUsd1d !== null) {
    feesUsd = p.volumeUsd1d * fee;
    apr24 = feeApr(feesUsd, 1, p.tvlUsd);
  }
  if (apr7 === null && fee > 0 && p.volumeUsd7d !== null) {
    // The week's mean TVL from our stored days and today's value.
    const tvl7 = history?.tvl7d != null ? (history.tvl7d * 6 + p.tvlUsd) / 7 : p.tvlUsd;
    apr7 = feeApr(p.volumeUsd7d * fee, 7, tvl7);
  }
  const computed = apr24 !== null;
  const apr = computed ? (apr24 as number) + (p.apyReward ?? 0) : p.apy;
  const vtr = volumeToTvl(volumeUsd, p.tvlUsd);
  const baseline = aprBaseline(history?.aprs ?? [], p.apyMean30d);
  const tvls = [...(history?.tvls ?? []), p.tvlUsd];
  const score = yieldScore({
    feeApr: apr7 ?? apr24,
    apyBase: p.apyBase,
    vtr,
    tvlCv: tvlVariation(tvls),
    mu: p.mu,
    sigma: p.sigma,
    outlier: p.outlier,
    apy: p.apy,
    apyReward: p.apyReward,
    apr,
    mean30d: baseline.mean,
  });
  return {
    dataSource,
    tvlUsd: p.tvlUsd,
    volumeUsd,
    volumeUsd7d,
    feesUsd,
    apr,
    aprSource: apr === null ? null : computed ? 'computed' : 'defillama',
    feeApr24h: apr24,
    feeApr7d: apr7,
    feeApr30d: apr30,
    vtr,
    yieldScore: score.total,
    scoreComponents: score.components,
    defillamaApy: p.apy,
    apyBase: p.apyBase,
    apyReward: p.apyReward,
    apyMean30d: p.apyMean30d,
    aprMean30d: baseline.mean,
    aprSigma30d: baseline.sigma,
    mu: p.mu,
    sigma: p.sigma,
    outlier: p.outlier,
    il7d: p.il7d,
    aprDisagrees: aprDisagrees(apr24, p.apyBase),
    predictions: p.predictions,
  };
}

/** The pair key of a pool: its two tokens sorted, and its fee tier. */
const pairKey = (a: string, b: string, feeTier: number) => `${[a.toLowerCase(), b.toLowerCase()].sort().join('/')}/${feeTier}`;

/**
 * One hourly snapshot. Streams /pools (a body that fails its schema throws: nothing is written),
 * chooses the tracked set, enriches it from the subgraph and /chart (their failures are logged and
 * counted, the rows then use DefiLlama's numbers), computes the analytics and writes everything in
 * one transaction under an advisory lock. A second run for the same hour finds it stored ('exists').
 */
export async function ingestSnapshot(deps: IngestDeps, sources: IngestSources, options: IngestOptions): Promise<IngestOutcome> {
  const started = Date.now();
  const now = deps.clock.now();
  const at = snapshotHour(now);
  const base = {
    snapshotAt: at.toISOString(),
    seen: 0,
    accepted: 0,
    skipped: { invalid: 0, missing: 0, absurd: 0 },
    skippedExamples: [] as string[],
    tracked: 0,
    stored: 0,
    subgraphPools: 0,
    subgraphDistrusted: 0,
    subgraphError: null as string | null,
    chartBackfilled: 0,
    chartErrors: 0,
    phases: { streamMs: 0, enrichMs: 0, writeMs: 0 },
  };
  if (await snapshotStored(deps.dataSource, at)) return { status: 'exists', ...base, ms: Date.now() - started };

  const pools: DefiLlamaPool[] = [];
  const streamed = await sources.pools.pools((p) => pools.push(p));
  // DefiLlama lists a few pools twice: the first record wins.
  const unique = new Map<string, DefiLlamaPool>();
  for (const p of pools) if (!unique.has(p.pool)) unique.set(p.pool, p);
  const all = [...unique.values()];
  pools.length = 0;
  const streamedAt = Date.now();

  const tracked = trackedSet(all, options.topPerChain, await alertedPoolIds(deps.dataSource));
  const trackedPools = all.filter((p) => tracked.has(p.pool));
  const known = await knownPools(deps.dataSource, trackedPools.map((p) => p.pool));
  const dayStart = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const history = await dailyHistory(
    deps.dataSource,
    [...known.values()].map((k) => k.id),
    new Date(dayStart.getTime() - 30 * DAY_MS),
    dayStart,
  );
  const historyOf = (p: DefiLlamaPool): DailyHistory | null => {
    const k = known.get(p.pool);
    return k ? (history.get(k.id) ?? null) : null;
  };

  // /chart backfill: tracked pools with under BASELINE_MIN_DAYS days of history, the largest first.
  const charts = new Map<string, ChartPoint[]>();
  let chartErrors = 0;
  if (options.chartBackfillPerRun > 0) {
    const needy = trackedPools.filter((p) => (historyOf(p)?.days ?? 0) < BASELINE_MIN_DAYS).sort((x, y) => y.tvlUsd - x.tvlUsd);
    for (const p of needy.slice(0, options.chartBackfillPerRun)) {
      try {
        const points = (await sources.pools.chart(p.pool)).filter((c) => c.timestamp.getTime() >= dayStart.getTime() - 30 * DAY_MS && c.timestamp.getTime() < dayStart.getTime());
        charts.set(p.pool, points);
      } catch (error) {
        chartErrors++;
        deps.logger?.warn({ pool: p.pool, err: error instanceof Error ? error.message : String(error) }, 'yields: /chart backfill failed');
      }
    }
  }

  // The subgraph: tracked Uniswap v3 pools of its chain with two EVM tokens and a fee tier.
  const subgraphDays = new Map<string, YieldDay[]>();
  const addresses = new Map<string, string>();
  let subgraphError: string | null = null;
  let distrusted = 0;
  if (sources.subgraph) {
    const candidates = trackedPools.filter(
      (p) =>
        p.project === 'uniswap-v3' &&
        p.chain === options.subgraphChain &&
        p.underlyingTokens.length === 2 &&
        p.underlyingTokens.every(isEvmAddress) &&
        p.exposure === 'multi' &&
        feeTierOfPoolMeta(p.poolMeta) > 0,
    );
    try {
      for (const p of candidates) {
        const address = known.get(p.pool)?.poolAddress;
        if (address) addresses.set(p.pool, address);
      }
      const unmatched = candidates.filter((p) => !addresses.has(p.pool));
      for (let i = 0; i < unmatched.length; i += DISCOVERY_CHUNK) {
        const chunk = unmatched.slice(i, i + DISCOVERY_CHUNK);
        const found = await sources.subgraph.poolsOfTokens(chunk.flatMap((p) => p.underlyingTokens));
        const byPair = new Map(found.map((f) => [pairKey(f.token0, f.token1, f.feeTier), f.id]));
        for (const p of chunk) {
          const id = byPair.get(pairKey(p.underlyingTokens[0], p.underlyingTokens[1], feeTierOfPoolMeta(p.poolMeta)));
          if (id) addresses.set(p.pool, id);
        }
      }
      const since = Math.floor(dayStart.getTime() / 1000) - (SUBGRAPH_DAYS - 1) * 86_400;
      const matched = candidates.filter((p) => addresses.has(p.pool));
      const byAddress = new Map(matched.map((p) => [addresses.get(p.pool) as string, p]));
      for (let i = 0; i < matched.length; i += DAYS_CHUNK) {
        const chunk = matched.slice(i, i + DAYS_CHUNK).map((p) => addresses.get(p.pool) as string);
        const days: SubgraphDay[] = await sources.subgraph.poolDays(chunk, since);
        for (const d of days) {
          const p = byAddress.get(d.pool);
          if (!p) continue;
          const list = subgraphDays.get(p.pool) ?? [];
          list.push({ date: d.date, tvlUsd: d.tvlUSD, volumeUsd: d.volumeUSD, feesUsd: d.feesUSD });
          subgraphDays.set(p.pool, list);
        }
      }
      // The known TVL bugs: a pool whose last full day's TVL is far from DefiLlama's is not used.
      for (const p of matched) {
        const days = subgraphDays.get(p.pool);
        const last = days?.filter((d) => d.date * 1000 < dayStart.getTime() && (d.tvlUsd ?? 0) > 0).at(-1);
        const ratio = last && p.tvlUsd > 0 ? (last.tvlUsd as number) / p.tvlUsd : null;
        if (days && (ratio === null || ratio > SUBGRAPH_TVL_TRUST_FACTOR || ratio < 1 / SUBGRAPH_TVL_TRUST_FACTOR)) {
          subgraphDays.delete(p.pool);
          distrusted++;
        }
      }
    } catch (error) {
      subgraphError = error instanceof Error ? error.message : String(error);
      subgraphDays.clear();
      deps.logger?.warn({ err: subgraphError }, 'yields: subgraph unavailable, fee APRs from DefiLlama this hour');
    }
  }

  // The analytics of every tracked pool (its /chart days count as history).
  const values = trackedPools.map((p) => {
    let h = historyOf(p);
    const chart = charts.get(p.pool);
    if (chart?.length) {
      const aprs = chart.map((c) => c.apy).filter((x): x is number => x !== null);
      const tvls = chart.map((c) => c.tvlUsd).filter((x): x is number => x !== null);
      const week = chart.filter((c) => c.timestamp.getTime() >= dayStart.getTime() - 7 * DAY_MS && c.tvlUsd !== null).map((c) => c.tvlUsd as number);
      h = { aprs, tvls, days: chart.length, tvl7d: week.length ? week.reduce((a, b) => a + b, 0) / week.length : null };
    }
    return { pool: p, values: snapshotValues({ pool: p, feeTier: feeTierOfPoolMeta(p.poolMeta), days: subgraphDays.get(p.pool) ?? null, history: h }, now) };
  });

  let stored = 0;
  const enrichedAt = Date.now();
  await deps.dataSource.transaction(async (manager) => {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('yields:ingest'))`);
    if (await snapshotStored(manager, at)) return;
    const ids = await upsertPools(manager, all.map((p) => poolUpsertOf(p, tracked.has(p.pool))), now);
    const chartRows: DataInsert[] = [];
    for (const [pool, points] of charts) {
      const poolId = ids.get(pool);
      if (poolId === undefined) continue;
      for (const c of points) chartRows.push(chartRow(poolId, c));
    }
    if (chartRows.length) await insertYieldData(manager, chartRows, now, { latest: false });
    const rows: DataInsert[] = values.map(({ pool, values: v }) => ({ ...v, poolId: ids.get(pool.pool) as number, timestamp: at }));
    stored = (await insertYieldData(manager, rows, now, { latest: true })).size;
    const found = new Map<number, string>();
    for (const [pool, address] of addresses) {
      const id = ids.get(pool);
      if (id !== undefined) found.set(id, address);
    }
    await setPoolAddresses(manager, found);
  });
  if (stored === 0 && trackedPools.length > 0) return { status: 'exists', ...base, ms: Date.now() - started };
  return {
    status: 'stored',
    snapshotAt: at.toISOString(),
    seen: streamed.seen,
    accepted: streamed.accepted,
    skipped: streamed.skipped,
    skippedExamples: streamed.examples,
    tracked: trackedPools.length,
    stored,
    subgraphPools: subgraphDays.size,
    subgraphDistrusted: distrusted,
    subgraphError,
    chartBackfilled: charts.size,
    chartErrors,
    ms: Date.now() - started,
    phases: { streamMs: streamedAt - started, enrichMs: enrichedAt - streamedAt, writeMs: Date.now() - enrichedAt },
  };
}

/** A /chart day as a yield_data row (DefiLlama's TVL and APY; nothing computed). */
function chartRow(poolId: number, c: ChartPoint): DataInsert {
  return {
    poolId,
    timestamp: c.timestamp,
    dataSource: 'defillama-chart',
    tvlUsd: c.tvlUsd,
    volumeUsd: null,
    volumeUsd7d: null,
    feesUsd: null,
    apr: c.apy,
    aprSource: c.apy === null ? null : 'defillama',
    feeApr24h: null,
    feeApr7d: null,
    feeApr30d: null,
    vtr: null,
    yieldScore: null,
    scoreComponents: null,
    defillamaApy: c.apy,
    apyBase: c.apyBase,
    apyReward: c.apyReward,
    apyMean30d: null,
    aprMean30d: null,
    aprSigma30d: null,
    mu: null,
    sigma: null,
    outlier: null,
    il7d: null,
    aprDisagrees: null,
    predictions: null,
  };
}
