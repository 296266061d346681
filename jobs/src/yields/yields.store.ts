// The writes and reads of the yields ingest: pools upserted from /pools, one snapshot's rows,
// /chart backfills, the history the analytics need, and the prune job's deletes.
import type { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

/** A yield_pools row as the ingest writes it (from a /pools record). */
export interface PoolUpsert {
  poolId: string;
  defillamaPoolId: string | null;
  symbol: string;
  token0: string;
  token1: string;
  token0Symbol: string;
  token1Symbol: string;
  feeTier: number;
  dex: string;
  chain: string;
  project: string;
  poolMeta: string | null;
  underlyingTokens: string[];
  stablecoin: boolean;
  ilRisk: string | null;
  exposure: string | null;
  tracked: boolean;
  tvlUsd: number;
  apy: number | null;
}

/** A yield_data row (numbers as JS numbers; rounded by PostgreSQL to the column's scale). */
export interface DataInsert {
  poolId: number;
  timestamp: Date;
  dataSource: string;
  tvlUsd: number | null;
  volumeUsd: number | null;
  volumeUsd7d: number | null;
  feesUsd: number | null;
  apr: number | null;
  aprSource: string | null;
  feeApr24h: number | null;
  feeApr7d: number | null;
  feeApr30d: number | null;
  vtr: number | null;
  yieldScore: number | null;
  scoreComponents: unknown[] | null;
  defillamaApy: number | null;
  apyBase: number | null;
  apyReward: number | null;
  apyMean30d: number | null;
  aprMean30d: number | null;
  aprSigma30d: number | null;
  mu: number | null;
  sigma: number | null;
  outlier: boolean | null;
  il7d: number | null;
  aprDisagrees: boolean | null;
  predictions: Record<string, unknown> | null;
}

/** Rows per statement (a jsonb parameter of ~1 MB). */
const BATCH = 1000;

/** Whether the hourly snapshot at `at` is stored (the ingest of that hour is then done). */
export async function snapshotStored(db: Db, at: Date): Promise<boolean> {
  const rows: unknown[] = await db.query(`SELECT 1 FROM yield_data WHERE timestamp = $1 AND data_source <> 'defillama-chart' LIMIT 1`, [at]);
  return rows.length > 0;
}

/** The newest hourly snapshot's time (chart backfills left out), or null. */
export async function latestSnapshotAt(db: Db): Promise<Date | null> {
  const [row]: Array<{ at: Date | null }> = await db.query(`SELECT max(timestamp) AS at FROM yield_data WHERE data_source <> 'defillama-chart'`);
  return row?.at ?? null;
}

/** The source ids (yield_pools.pool_id) of the pools with at least one active alert of a live user. */
export async function alertedPoolIds(db: Db): Promise<Set<string>> {
  const rows: Array<{ pool_id: string }> = await db.query(
    `SELECT DISTINCT p.pool_id FROM yield_alerts a JOIN yield_pools p ON p.id = a.pool_id JOIN users u ON u.id = a.user_id AND u.deleted_at IS NULL WHERE a.is_active`,
  );
  return new Set(rows.map((r) => r.pool_id));
}

export interface KnownPool {
  id: number;
  poolId: string;
  poolAddress: string | null;
}

/** The stored pools among these source ids. */
export async function knownPools(db: Db, poolIds: readonly string[]): Promise<Map<string, KnownPool>> {
  const out = new Map<string, KnownPool>();
  for (let i = 0; i < poolIds.length; i += 5000) {
    const rows: Array<{ id: number; pool_id: string; pool_address: string | null }> = await db.query(
      `SELECT id, pool_id, pool_address FROM yield_pools WHERE pool_id = ANY($1)`,
      [poolIds.slice(i, i + 5000)],
    );
    for (const r of rows) out.set(r.pool_id, { id: Number(r.id), poolId: r.pool_id, poolAddress: r.pool_address });
  }
  return out;
}

export interface DailyHistory {
  /** Mean APR of each UTC day with data, oldest first. */
  aprs: number[];
  /** Mean TVL of each UTC day with data, oldest first. */
  tvls: number[];
  /** Days covered. */
  days: number;
  /** The mean TVL of the last 7 days (null without any). */
  tvl7d: number | null;
}

/** Each pool's daily means of APR and TVL over [from, to) (the 30 days before the snapshot's day). */
export async function dailyHistory(db: Db, poolIds: readonly number[], from: Date, to: Date): Promise<Map<number, DailyHistory>> {
  const out = new Map<number, DailyHistory>();
  const week: Map<number, number[]> = new Map();
  const weekFrom = to.getTime() - 7 * 86_400_000;
  for (let i = 0; i < poolIds.length; i += 5000) {
    const rows: Array<{ pool_id: number; day: Date; apr: number | null; tvl: number | null }> = await db.query(
      `SELECT pool_id, date_trunc('day', timestamp AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day, avg(apr)::float8 AS apr, avg(tvl_usd)::float8 AS tvl
       FROM yield_data WHERE pool_id = ANY($1) AND timestamp >= $2 AND timestamp < $3 GROUP BY 1, 2 ORDER BY 1, 2`,
      [poolIds.slice(i, i + 5000), from, to],
    );
    for (const r of rows) {
      const id = Number(r.pool_id);
      let h = out.get(id);
      if (!h) out.set(id, (h = { aprs: [], tvls: [], days: 0, tvl7d: null }));
      h.days++;
      if (r.apr !== null) h.aprs.push(Number(r.apr));
      if (r.tvl !== null) {
        h.tvls.push(Number(r.tvl));
        if (new Date(r.day).getTime() >= weekFrom) {
          const w = week.get(id) ?? [];
          w.push(Number(r.tvl));
          week.set(id, w);
        }
      }
    }
  }
  for (const [id, w] of week) (out.get(id) as DailyHistory).tvl7d = w.reduce((a, b) => a + b, 0) / w.length;
  return out;
}

/**
 * Upserts pools by source id (all the /pools answer's valid records). The subgraph's pool address
 * is kept (set by setPoolAddresses); the tracked flag follows the answer's tracked set.
 * Answers the ids by source id.
 */
export async function upsertPools(manager: EntityManager, pools: readonly PoolUpsert[], now: Date): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < pools.length; i += BATCH) {
    const rows: Array<{ id: number; pool_id: string }> = await manager.query(
      `INSERT INTO yield_pools (pool_id, defillama_pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier, dex, chain, project, pool_meta,
         underlying_tokens, stablecoin, il_risk, exposure, tracked, tvl_usd, apy, last_seen_at, is_active, created_at, updated_at)
       SELECT x."poolId", x."defillamaPoolId", x.symbol, x.token0, x.token1, x."token0Symbol", x."token1Symbol", x."feeTier", x.dex, x.chain, x.project, x."poolMeta",
         x."underlyingTokens", x.stablecoin, x."ilRisk", x.exposure, x.tracked, x."tvlUsd", x.apy, $2, true, $2, $2
       FROM jsonb_to_recordset($1::jsonb) AS x("poolId" text, "defillamaPoolId" text, symbol text, token0 text, token1 text, "token0Symbol" text, "token1Symbol" text,
         "feeTier" int, dex text, chain text, project text, "poolMeta" text, "underlyingTokens" jsonb, stablecoin boolean, "ilRisk" text, exposure text,
         tracked boolean, "tvlUsd" numeric, apy numeric)
       ON CONFLICT (pool_id) DO UPDATE SET defillama_pool_id = EXCLUDED.defillama_pool_id, symbol = EXCLUDED.symbol, token0 = EXCLUDED.token0, token1 = EXCLUDED.token1,
         token0_symbol = EXCLUDED.token0_symbol, token1_symbol = EXCLUDED.token1_symbol, fee_tier = EXCLUDED.fee_tier, dex = EXCLUDED.dex, chain = EXCLUDED.chain,
         project = EXCLUDED.project, pool_meta = EXCLUDED.pool_meta, underlying_tokens = EXCLUDED.underlying_tokens, stablecoin = EXCLUDED.stablecoin,
         il_risk = EXCLUDED.il_risk, exposure = EXCLUDED.exposure, tracked = EXCLUDED.tracked, tvl_usd = EXCLUDED.tvl_usd, apy = EXCLUDED.apy,
         last_seen_at = EXCLUDED.last_seen_at, is_active = true, updated_at = EXCLUDED.updated_at
       RETURNING id, pool_id`,
      [JSON.stringify(pools.slice(i, i + BATCH)), now],
    );
    for (const r of rows) ids.set(r.pool_id, Number(r.id));
  }
  return ids;
}

/** The subgraph's pool contracts, once matched. */
export async function setPoolAddresses(manager: EntityManager, addresses: ReadonlyMap<number, string>): Promise<void> {
  if (!addresses.size) return;
  await manager.query(
    `UPDATE yield_pools p SET pool_address = x.address FROM unnest($1::int[], $2::text[]) AS x(id, address) WHERE p.id = x.id AND p.pool_address IS DISTINCT FROM x.address`,
    [[...addresses.keys()], [...addresses.values()]],
  );
}

const DATA_COLUMNS: Array<[keyof DataInsert, string, string]> = [
  ['poolId', 'pool_id', 'int'],
  ['timestamp', 'timestamp', 'timestamptz'],
  ['dataSource', 'data_source', 'text'],
  ['tvlUsd', 'tvl_usd', 'numeric'],
  ['volumeUsd', 'volume_usd', 'numeric'],
  ['volumeUsd7d', 'volume_usd7d', 'numeric'],
  ['feesUsd', 'fees_usd', 'numeric'],
  ['apr', 'apr', 'numeric'],
  ['aprSource', 'apr_source', 'text'],
  ['feeApr24h', 'fee_apr24h', 'numeric'],
  ['feeApr7d', 'fee_apr7d', 'numeric'],
  ['feeApr30d', 'fee_apr30d', 'numeric'],
  ['vtr', 'vtr', 'numeric'],
  ['yieldScore', 'yield_score', 'numeric'],
  ['scoreComponents', 'score_components', 'jsonb'],
  ['defillamaApy', 'defillama_apy', 'numeric'],
  ['apyBase', 'apy_base', 'numeric'],
  ['apyReward', 'apy_reward', 'numeric'],
  ['apyMean30d', 'apy_mean30d', 'numeric'],
  ['aprMean30d', 'apr_mean30d', 'numeric'],
  ['aprSigma30d', 'apr_sigma30d', 'numeric'],
  ['mu', 'mu', 'numeric'],
  ['sigma', 'sigma', 'numeric'],
  ['outlier', 'outlier', 'boolean'],
  ['il7d', 'il7d', 'numeric'],
  ['aprDisagrees', 'apr_disagrees', 'boolean'],
  ['predictions', 'predictions', 'jsonb'],
];

/** The largest magnitude each numeric column holds (numeric(p, s)): a value past it is stored as null rather than failing the snapshot. */
const COLUMN_MAX: Partial<Record<keyof DataInsert, number>> = {
  tvlUsd: 1e22,
  volumeUsd: 1e22,
  volumeUsd7d: 1e22,
  feesUsd: 1e22,
  mu: 1e10,
  sigma: 1e10,
};
const NUMERIC_12_4 = 1e8;

function fit(key: keyof DataInsert, value: unknown): unknown {
  if (typeof value !== 'number') return value;
  if (!Number.isFinite(value)) return null;
  const max = COLUMN_MAX[key] ?? NUMERIC_12_4;
  return Math.abs(value) < max ? value : null;
}

/**
 * Inserts snapshot rows (ON CONFLICT (pool_id, timestamp) DO NOTHING: a chart day stored already);
 * answers the new row id by pool id. With `latest`, each pool's latest_data_id is set to its row.
 */
export async function insertYieldData(manager: EntityManager, rows: readonly DataInsert[], now: Date, options: { latest: boolean }): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  const names = DATA_COLUMNS.map(([, column]) => column);
  const record = DATA_COLUMNS.map(([key, , type]) => `x."${key}"::${type === 'timestamptz' ? 'timestamptz' : type}`);
  const types = DATA_COLUMNS.map(([key, , type]) => `"${key}" ${type === 'timestamptz' ? 'text' : type}`);
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH).map((r) => Object.fromEntries(DATA_COLUMNS.map(([key]) => [key, key === 'timestamp' ? r.timestamp.toISOString() : fit(key, r[key])])));
    const inserted: Array<{ id: string; pool_id: number }> = await manager.query(
      `INSERT INTO yield_data (${names.join(', ')}, created_at)
       SELECT ${record.join(', ')}, $2 FROM jsonb_to_recordset($1::jsonb) AS x(${types.join(', ')})
       ON CONFLICT (pool_id, timestamp) DO NOTHING RETURNING id::text AS id, pool_id`,
      [JSON.stringify(chunk), now],
    );
    for (const r of inserted) ids.set(Number(r.pool_id), r.id);
  }
  if (options.latest && ids.size) {
    await manager.query(
      `UPDATE yield_pools p SET latest_data_id = x.data_id FROM unnest($1::int[], $2::bigint[]) AS x(id, data_id) WHERE p.id = x.id`,
      [[...ids.keys()], [...ids.values()]],
    );
  }
  return ids;
}

/** Pools not seen in /pools for this long are marked inactive (hidden from the tables; their alerts stay). */
export const POOL_INACTIVE_AFTER_DAYS = 7;

export interface PruneOutcome {
  thinned: number;
  deleted: number;
  deactivated: number;
}

/**
 * Retention: hourly snapshots older than `hourlyDays` are thinned to the last snapshot of each UTC
 * day (per pool); every row older than `retentionDays` is deleted; pools unseen for
 * POOL_INACTIVE_AFTER_DAYS are marked inactive. In batches of `batch` rows, each its own statement.
 */
export async function pruneYieldData(db: DataSource, now: Date, options: { hourlyDays: number; retentionDays: number; batch?: number }): Promise<PruneOutcome> {
  const batch = options.batch ?? 10_000;
  const hourlyBefore = new Date(now.getTime() - options.hourlyDays * 86_400_000);
  const retainAfter = new Date(now.getTime() - options.retentionDays * 86_400_000);
  let deleted = 0;
  for (;;) {
    const [, n]: [unknown, number] = await db.query(`DELETE FROM yield_data WHERE id IN (SELECT id FROM yield_data WHERE timestamp < $1 LIMIT $2)`, [retainAfter, batch]);
    deleted += n;
    if (n < batch) break;
  }
  let thinned = 0;
  for (;;) {
    // Keep, per pool and UTC day, the newest row; the rest of the day goes. Never a pool's latest row.
    const [, n]: [unknown, number] = await db.query(
      `DELETE FROM yield_data WHERE id IN (
         SELECT id FROM (
           SELECT d.id, row_number() OVER (PARTITION BY d.pool_id, date_trunc('day', d.timestamp AT TIME ZONE 'UTC') ORDER BY d.timestamp DESC) AS rn
           FROM yield_data d WHERE d.timestamp < $1 AND d.timestamp >= $2
         ) ranked WHERE rn > 1 AND NOT EXISTS (SELECT 1 FROM yield_pools p WHERE p.latest_data_id = ranked.id) LIMIT $3)`,
      [hourlyBefore, retainAfter, batch],
    );
    thinned += n;
    if (n < batch) break;
  }
  const [, deactivated]: [unknown, number] = await db.query(`UPDATE yield_pools SET is_active = false, tracked = false WHERE is_active AND last_seen_at < $1`, [
    new Date(now.getTime() - POOL_INACTIVE_AFTER_DAYS * 86_400_000),
  ]);
  return { thinned, deleted, deactivated };
}
