// The reads of the yields API: pools table, pool page and series, public top pools, source view.
import type { DataSource, EntityManager } from 'typeorm';
import { YieldsError, trimDecimal, yieldAlertsOfPool } from './yields-alerts.store';
import {
  YIELD_POOLS_DEFAULT_LIMIT,
  YIELD_POOLS_MAX_LIMIT,
  YIELD_POOL_SORTS,
  YIELD_SERIES_MAX_DAYS,
  YIELD_TOP_MAX_LIMIT,
  type YieldAprSource,
  type YieldDataSource,
  type YieldPoolDetail,
  type YieldPoolPage,
  type YieldPoolRow,
  type YieldPoolsPage,
  type YieldPoolsQuery,
  type YieldPrediction,
  type YieldScoreBreakdown,
  type YieldScoreComponent,
  type YieldSeriesPage,
  type YieldSeriesPoint,
  type YieldSnapshotView,
  type YieldSourceHealthView,
  type YieldTopPage,
  type YieldsSourceView,
} from './yields.shapes';

type Db = DataSource | EntityManager;

/** The source_health rows of the yields sources. */
export const DEFILLAMA_YIELDS_SOURCE = 'defillama-yields';
export const UNISWAP_SUBGRAPH_SOURCE = 'uniswap-subgraph';

/** The public top list leaves out pools under this TVL (USD): too small to matter, easy to distort. */
export const YIELD_TOP_MIN_TVL_USD = 1_000_000;
/** Days of the pool page's series. */
export const YIELD_POOL_PAGE_DAYS = 30;

const dec = (v: unknown): string | null => (v === null || v === undefined ? null : trimDecimal(String(v)));
const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v ? new Date(String(v)).toISOString() : null);

// The pool's latest snapshot counts only while it is tracked (an untracked pool shows DefiLlama's current /pools values).
const POOL_FROM = `yield_pools p LEFT JOIN yield_data d ON d.id = p.latest_data_id AND p.tracked`;
const TVL = `COALESCE(d.tvl_usd, p.tvl_usd)`;
const APR = `COALESCE(d.apr, p.apy)`;
const SORT_EXPR: Record<(typeof YIELD_POOL_SORTS)[number], string> = { tvl: TVL, apr: APR, score: 'd.yield_score' };

const ROW_COLUMNS = `p.id, p.pool_id, p.chain, p.dex, p.symbol, p.fee_tier, p.stablecoin, p.il_risk, p.exposure, p.tracked, p.last_seen_at,
  ${TVL}::text AS tvl_usd, ${APR}::text AS apr, d.apr_source, COALESCE(d.defillama_apy, p.apy)::text AS defillama_apy, d.apr_disagrees,
  d.vtr::text AS vtr, d.yield_score::text AS yield_score, d.timestamp AS snapshot_at, d.id::text AS data_id`;

function toPoolRow(r: Record<string, unknown>): YieldPoolRow {
  return {
    id: Number(r.id),
    poolId: r.pool_id as string,
    chain: r.chain as string,
    dex: r.dex as string,
    symbol: r.symbol as string,
    feeTier: Number(r.fee_tier) > 0 ? Number(r.fee_tier) : null,
    stablecoin: r.stablecoin as boolean,
    ilRisk: (r.il_risk as string | null) ?? null,
    exposure: (r.exposure as string | null) ?? null,
    tracked: r.tracked as boolean,
    tvlUsd: dec(r.tvl_usd),
    apr: dec(r.apr),
    aprSource: r.data_id ? ((r.apr_source as YieldAprSource | null) ?? null) : r.apr !== null ? 'defillama' : null,
    defillamaApy: dec(r.defillama_apy),
    aprDisagrees: (r.apr_disagrees as boolean | null) ?? null,
    vtr: dec(r.vtr),
    yieldScore: dec(r.yield_score),
    asOf: iso(r.snapshot_at ?? r.last_seen_at),
  };
}

/** Pools cursor: `<sort value or "-">~<pool id>` of the page's last row. */
function encodeCursor(value: string | null, id: number): string {
  return `${value ?? '-'}~${id}`;
}
function decodeCursor(cursor: string): { value: string | null; id: number } {
  const m = /^(-|-?\d{1,30}(?:\.\d{1,12})?)~(\d{1,12})$/.exec(cursor);
  if (!m) throw new YieldsError('invalid', 'cursor is not one this API gave', 'cursor');
  return { value: m[1] === '-' ? null : m[1], id: Number(m[2]) };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The pools table: every active pool, its latest tracked snapshot (or, untracked, DefiLlama's current
 * TVL and APY), filtered and sorted (descending, pools without the value last), in keyset pages.
 * YieldsError invalid naming the field for a bad sort, limit or cursor.
 */
export async function listPools(db: Db, query: YieldPoolsQuery = {}): Promise<YieldPoolsPage> {
  const sort = query.sort ?? 'tvl';
  if (!(YIELD_POOL_SORTS as readonly string[]).includes(sort)) throw new YieldsError('invalid', `sort must be one of ${YIELD_POOL_SORTS.join(', ')}`, 'sort');
  const limit = query.limit ?? YIELD_POOLS_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > YIELD_POOLS_MAX_LIMIT) throw new YieldsError('invalid', `limit must be from 1 to ${YIELD_POOLS_MAX_LIMIT}`, 'limit');
  const expr = SORT_EXPR[sort];
  const values: unknown[] = [];
  const where = ['p.is_active'];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  if (query.chain) where.push(`lower(p.chain) = lower(${param(query.chain)})`);
  if (query.dex) where.push(`lower(p.dex) = lower(${param(query.dex)})`);
  if (query.stablecoin !== undefined) where.push(`p.stablecoin = ${param(query.stablecoin)}`);
  if (query.minTvl !== undefined) {
    if (!Number.isFinite(query.minTvl) || query.minTvl < 0) throw new YieldsError('invalid', 'minTvl must be a number of USD, 0 or more', 'minTvl');
    where.push(`${TVL} >= ${param(query.minTvl)}`);
  }
  if (query.token) {
    const token = query.token.trim();
    if (/^0x[0-9a-fA-F]{40}$/.test(token)) where.push(`p.underlying_tokens @> ${param(JSON.stringify([token.toLowerCase()]))}::jsonb`);
    else {
      const like = param(`%${escapeLike(token)}%`);
      where.push(`(p.symbol ILIKE ${like} OR p.token0_symbol ILIKE ${like} OR p.token1_symbol ILIKE ${like})`);
    }
  }
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    const id = param(c.id);
    where.push(c.value === null ? `(${expr} IS NULL AND p.id < ${id})` : `(${expr} < ${param(c.value)}::numeric OR (${expr} = $${values.length}::numeric AND p.id < ${id}) OR ${expr} IS NULL)`);
  }
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${ROW_COLUMNS}, (${expr})::text AS sort_value FROM ${POOL_FROM} WHERE ${where.join(' AND ')}
     ORDER BY ${expr} DESC NULLS LAST, p.id DESC LIMIT ${param(limit + 1)}`,
    values,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(toPoolRow),
    nextCursor: rows.length > limit && last ? encodeCursor((last.sort_value as string | null) ?? null, Number(last.id)) : null,
    source: await yieldsSourceView(db),
  };
}

const SNAPSHOT_COLUMNS = `d.id::text AS id, d.timestamp, d.data_source, d.tvl_usd::text AS tvl_usd, d.volume_usd::text AS volume_usd, d.volume_usd7d::text AS volume_usd7d,
  d.fees_usd::text AS fees_usd, d.apr::text AS apr, d.apr_source, d.fee_apr24h::text AS fee_apr24h, d.fee_apr7d::text AS fee_apr7d, d.fee_apr30d::text AS fee_apr30d,
  d.vtr::text AS vtr, d.yield_score::text AS yield_score, d.defillama_apy::text AS defillama_apy, d.apy_base::text AS apy_base, d.apy_reward::text AS apy_reward,
  d.apy_mean30d::text AS apy_mean30d, d.apr_mean30d::text AS apr_mean30d, d.apr_sigma30d::text AS apr_sigma30d, d.mu::text AS mu, d.sigma::text AS sigma,
  d.outlier, d.il7d::text AS il7d, d.apr_disagrees, d.predictions, d.score_components`;

/** The stored score components as the breakdown (total from the row's yield_score). */
export function scoreBreakdownOf(yieldScore: unknown, components: unknown): YieldScoreBreakdown | null {
  if (!Array.isArray(components)) return null;
  return { total: yieldScore === null || yieldScore === undefined ? null : Number(yieldScore), components: components as YieldScoreComponent[] };
}

function predictionOf(p: unknown): YieldPrediction | null {
  if (!p || typeof p !== 'object') return null;
  const o = p as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { predictedClass: typeof o.predictedClass === 'string' ? o.predictedClass : null, predictedProbability: n(o.predictedProbability), binnedConfidence: n(o.binnedConfidence) };
}

function toSnapshot(r: Record<string, unknown>): YieldSnapshotView {
  return {
    id: r.id as string,
    timestamp: iso(r.timestamp) as string,
    dataSource: r.data_source as YieldDataSource,
    tvlUsd: dec(r.tvl_usd),
    volumeUsd: dec(r.volume_usd),
    volumeUsd7d: dec(r.volume_usd7d),
    feesUsd: dec(r.fees_usd),
    apr: dec(r.apr),
    aprSource: (r.apr_source as YieldAprSource | null) ?? null,
    feeApr24h: dec(r.fee_apr24h),
    feeApr7d: dec(r.fee_apr7d),
    feeApr30d: dec(r.fee_apr30d),
    vtr: dec(r.vtr),
    yieldScore: dec(r.yield_score),
    defillamaApy: dec(r.defillama_apy),
    apyBase: dec(r.apy_base),
    apyReward: dec(r.apy_reward),
    apyMean30d: dec(r.apy_mean30d),
    aprMean30d: dec(r.apr_mean30d),
    aprSigma30d: dec(r.apr_sigma30d),
    mu: dec(r.mu),
    sigma: dec(r.sigma),
    outlier: (r.outlier as boolean | null) ?? null,
    il7d: dec(r.il7d),
    aprDisagrees: (r.apr_disagrees as boolean | null) ?? null,
    prediction: predictionOf(r.predictions),
    score: scoreBreakdownOf(r.yield_score, r.score_components),
  };
}

/**
 * A pool's page (our id): details, latest tracked snapshot with its score breakdown, 30 daily points
 * up to `now`, and the viewer's alerts on it (none without `viewerId`). YieldsError not_found.
 */
export async function poolPage(db: Db, poolId: number, now: Date, viewerId?: number): Promise<YieldPoolPage> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${ROW_COLUMNS}, p.token0, p.token1, p.token0_symbol, p.token1_symbol, p.underlying_tokens, p.pool_address, p.pool_meta, p.is_active
     FROM ${POOL_FROM} WHERE p.id = $1`,
    [poolId],
  );
  if (!rows.length) throw new YieldsError('not_found', 'No such pool');
  const r = rows[0];
  const pool: YieldPoolDetail = {
    ...toPoolRow(r),
    token0: r.token0 as string,
    token1: r.token1 as string,
    token0Symbol: r.token0_symbol as string,
    token1Symbol: r.token1_symbol as string,
    underlyingTokens: Array.isArray(r.underlying_tokens) ? (r.underlying_tokens as string[]) : [],
    poolAddress: (r.pool_address as string | null) ?? null,
    poolMeta: (r.pool_meta as string | null) ?? null,
    isActive: r.is_active as boolean,
  };
  let latest: YieldSnapshotView | null = null;
  if (r.data_id) {
    const snap: Array<Record<string, unknown>> = await db.query(`SELECT ${SNAPSHOT_COLUMNS} FROM yield_data d WHERE d.id = $1`, [r.data_id]);
    latest = snap.length ? toSnapshot(snap[0]) : null;
  }
  const [series, alerts, source] = await Promise.all([
    dailyPoints(db, poolId, YIELD_POOL_PAGE_DAYS, now),
    viewerId === undefined ? Promise.resolve([]) : yieldAlertsOfPool(db, viewerId, poolId),
    yieldsSourceView(db),
  ]);
  return { pool, latest, series, alerts, source };
}

async function dailyPoints(db: Db, poolId: number, days: number, end: Date): Promise<YieldSeriesPoint[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT DISTINCT ON (date_trunc('day', d.timestamp AT TIME ZONE 'UTC')) d.timestamp, d.tvl_usd::text AS tvl_usd, d.volume_usd::text AS volume_usd,
       d.fees_usd::text AS fees_usd, d.apr::text AS apr, d.fee_apr24h::text AS fee_apr24h, d.defillama_apy::text AS defillama_apy, d.yield_score::text AS yield_score, d.data_source
     FROM yield_data d WHERE d.pool_id = $1 AND d.timestamp > $2 AND d.timestamp <= $3
     ORDER BY date_trunc('day', d.timestamp AT TIME ZONE 'UTC'), d.timestamp DESC`,
    [poolId, new Date(end.getTime() - days * 86_400_000), end],
  );
  return rows.map((x) => ({
    timestamp: iso(x.timestamp) as string,
    tvlUsd: dec(x.tvl_usd),
    volumeUsd: dec(x.volume_usd),
    feesUsd: dec(x.fees_usd),
    apr: dec(x.apr),
    feeApr24h: dec(x.fee_apr24h),
    defillamaApy: dec(x.defillama_apy),
    yieldScore: dec(x.yield_score),
    dataSource: x.data_source as YieldDataSource,
  }));
}

/**
 * A pool's daily points (the last snapshot of each UTC day) over `days` days (1..YIELD_SERIES_MAX_DAYS)
 * ending at `now`, or at the pool's newest snapshot when `now` is not given. YieldsError not_found / invalid (days).
 */
export async function poolSeries(db: Db, poolId: number, days: number, now?: Date): Promise<YieldSeriesPage> {
  if (!Number.isInteger(days) || days < 1 || days > YIELD_SERIES_MAX_DAYS) throw new YieldsError('invalid', `days must be from 1 to ${YIELD_SERIES_MAX_DAYS}`, 'days');
  const pools: Array<{ newest: Date | null }> = await db.query(`SELECT (SELECT max(timestamp) FROM yield_data WHERE pool_id = p.id) AS newest FROM yield_pools p WHERE p.id = $1`, [poolId]);
  if (!pools.length) throw new YieldsError('not_found', 'No such pool');
  const end = now ?? pools[0].newest;
  return { poolId, days, points: end ? await dailyPoints(db, poolId, days, end) : [] };
}

/** The public research list: tracked pools of at least YIELD_TOP_MIN_TVL_USD with a score, best first, each with its breakdown. */
export async function topPools(db: Db, limit = 20): Promise<YieldTopPage> {
  const n = Math.min(Math.max(1, Math.floor(limit)), YIELD_TOP_MAX_LIMIT);
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${ROW_COLUMNS}, d.score_components FROM ${POOL_FROM}
     WHERE p.is_active AND p.tracked AND d.yield_score IS NOT NULL AND d.tvl_usd >= $1
     ORDER BY d.yield_score DESC, d.tvl_usd DESC, p.id LIMIT $2`,
    [YIELD_TOP_MIN_TVL_USD, n],
  );
  return { rows: rows.map((r) => ({ ...toPoolRow(r), score: scoreBreakdownOf(r.yield_score, r.score_components) })), source: await yieldsSourceView(db) };
}

/** Where the numbers come from and how fresh they are (source_health, the latest snapshot, pool counts). */
export async function yieldsSourceView(db: Db): Promise<YieldsSourceView> {
  const [health, [counts]]: [Array<Record<string, unknown>>, Array<Record<string, unknown>>] = await Promise.all([
    db.query(
      `SELECT source, last_success_at, last_error_at, last_error, consecutive_failures, details FROM source_health WHERE source = ANY($1) ORDER BY source`,
      [[DEFILLAMA_YIELDS_SOURCE, UNISWAP_SUBGRAPH_SOURCE]],
    ),
    db.query(
      `SELECT (SELECT max(timestamp) FROM yield_data) AS last_snapshot_at,
         (SELECT count(*)::int FROM yield_pools WHERE is_active) AS known, (SELECT count(*)::int FROM yield_pools WHERE is_active AND tracked) AS tracked`,
    ),
  ]);
  const sources: YieldSourceHealthView[] = health.map((h) => ({
    source: h.source as string,
    lastSuccessAt: iso(h.last_success_at),
    lastErrorAt: iso(h.last_error_at),
    lastError: (h.last_error as string | null) ?? null,
    consecutiveFailures: Number(h.consecutive_failures ?? 0),
  }));
  const kindOf = (source: string) => ((health.find((h) => h.source === source)?.details as { kind?: string } | null)?.kind === 'replay' ? 'replay' : 'live');
  const kind = kindOf(DEFILLAMA_YIELDS_SOURCE);
  const subgraph = kindOf(UNISWAP_SUBGRAPH_SOURCE);
  return {
    kind,
    lastSnapshotAt: iso(counts.last_snapshot_at),
    poolsKnown: Number(counts.known),
    poolsTracked: Number(counts.tracked),
    sources,
    note:
      kind === 'replay'
        ? `DefiLlama yields (offline replay: simulated values in its published shape) and the Uniswap v3 subgraph (${subgraph === 'replay' ? 'offline replay built from recorded March 2022 answers' : 'live'}).`
        : `DefiLlama yields and the Uniswap v3 subgraph (${subgraph === 'replay' ? 'offline replay' : 'live'}).`,
  };
}
