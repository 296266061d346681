import type { DataSource, EntityManager } from 'typeorm';
import type { WhaleExchangeSummary, WhaleNetflowPoint, WhaleNetflowSeries } from './whales.shapes';

type Db = DataSource | EntityManager;

// WHALES_CHAIN of whales.store.ts, which imports this file.
const WHALES_CHAIN_NAME = 'ethereum';

/**
 * Exchange netflow (whale_netflows): per exchange, token and UTC hour or day, the token units and
 * USD that entered and left the exchange's labelled wallets (whale_addresses, address_type
 * 'exchange', grouped by exchange_name).
 *
 * What counts: a transfer to one of an exchange's wallets from anywhere that is not a wallet of the
 * same exchange is an inflow of that exchange; from one of its wallets to anywhere else, an outflow.
 * Moves between two wallets of one exchange count for neither; a move from exchange A to exchange B
 * is an outflow of A and an inflow of B. Unpriced transfers (usd_value null) count in `transfers`
 * and `unpriced_transfers` and their token amount, but add nothing to the USD sums.
 *
 * Exactness: hour rows are recomputed from whale_transactions, and day rows as the sum of their hour
 * rows, for every bucket a block touches, in the transaction that records the block or rolls it
 * back (whales.store.ts). Labels read at recompute time: a label import rebuilds the buckets of
 * the transfers of the addresses it relabels (importWhaleLabels, whales-labels.ts), and
 * recomputeNetflowRange rebuilds a whole period.
 */

export const NETFLOW_BUCKETS = ['hour', 'day'] as const;
export type NetflowBucket = (typeof NETFLOW_BUCKETS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const BUCKET_MS: Record<NetflowBucket, number> = { hour: HOUR_MS, day: DAY_MS };

/** Start of the UTC hour or day containing `at`. */
export function bucketStart(at: Date, bucket: NetflowBucket): Date {
  const size = BUCKET_MS[bucket];
  return new Date(Math.floor(at.getTime() / size) * size);
}

/** Serialises recomputes of one chain and day (two scanners, the scanner and an import). */
async function lockDay(manager: Db, chain: string, day: Date): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`whale_netflows:${chain}:${day.toISOString()}`]);
}

async function recomputeHour(manager: Db, chain: string, hour: Date): Promise<void> {
  await manager.query(`DELETE FROM whale_netflows WHERE chain = $1 AND bucket = 'hour' AND bucket_start = $2`, [chain, hour]);
  await manager.query(
    `WITH ex AS (
       SELECT address, exchange_name FROM whale_addresses
        WHERE is_active AND address_type = 'exchange' AND exchange_name IS NOT NULL
     ),
     t AS (
       SELECT t.token_address, t.token_symbol, t.amount, t.usd_value, t.from_address, t.to_address
         FROM whale_transactions t
        WHERE t.chain = $1 AND t.timestamp >= $2 AND t.timestamp < $2::timestamptz + interval '1 hour'
          AND (t.to_address IN (SELECT address FROM ex) OR t.from_address IN (SELECT address FROM ex))
     ),
     flows AS (
       SELECT et.exchange_name, 'in' AS dir, t.* FROM t JOIN ex et ON et.address = t.to_address LEFT JOIN ex ef ON ef.address = t.from_address
        WHERE ef.exchange_name IS DISTINCT FROM et.exchange_name
       UNION ALL
       SELECT ef.exchange_name, 'out' AS dir, t.* FROM t JOIN ex ef ON ef.address = t.from_address LEFT JOIN ex et ON et.address = t.to_address
        WHERE et.exchange_name IS DISTINCT FROM ef.exchange_name
     )
     INSERT INTO whale_netflows (chain, exchange_name, token_key, token_symbol, bucket, bucket_start, inflow_amount, outflow_amount,
                                 inflow_usd, outflow_usd, transfers, unpriced_transfers)
     SELECT $1, f.exchange_name, coalesce(f.token_address, 'eth'),
            CASE WHEN f.token_address IS NULL THEN 'ETH' ELSE coalesce(max(k.symbol), nullif(max(f.token_symbol), '')) END,
            'hour', $2,
            coalesce(sum(f.amount) FILTER (WHERE f.dir = 'in'), 0), coalesce(sum(f.amount) FILTER (WHERE f.dir = 'out'), 0),
            coalesce(sum(f.usd_value) FILTER (WHERE f.dir = 'in'), 0), coalesce(sum(f.usd_value) FILTER (WHERE f.dir = 'out'), 0),
            count(*), count(*) FILTER (WHERE f.usd_value IS NULL)
       FROM flows f LEFT JOIN whale_tokens k ON k.address = f.token_address
      GROUP BY f.exchange_name, f.token_address`,
    [chain, hour],
  );
}

async function recomputeDay(manager: Db, chain: string, day: Date): Promise<void> {
  await manager.query(`DELETE FROM whale_netflows WHERE chain = $1 AND bucket = 'day' AND bucket_start = $2`, [chain, day]);
  await manager.query(
    `INSERT INTO whale_netflows (chain, exchange_name, token_key, token_symbol, bucket, bucket_start, inflow_amount, outflow_amount,
                                 inflow_usd, outflow_usd, transfers, unpriced_transfers)
     SELECT chain, exchange_name, token_key, max(token_symbol), 'day', $2, sum(inflow_amount), sum(outflow_amount),
            sum(inflow_usd), sum(outflow_usd), sum(transfers), sum(unpriced_transfers)
       FROM whale_netflows
      WHERE chain = $1 AND bucket = 'hour' AND bucket_start >= $2 AND bucket_start < $2::timestamptz + interval '1 day'
      GROUP BY chain, exchange_name, token_key`,
    [chain, day],
  );
}

/**
 * Recomputes the hour and day buckets containing `times` (block times) from whale_transactions.
 * Run it in the transaction that wrote or deleted the transfers of those times.
 */
export async function recomputeNetflows(manager: Db, chain: string, times: readonly Date[]): Promise<void> {
  const hours = new Map<number, Date>();
  for (const t of times) {
    const h = bucketStart(t, 'hour');
    hours.set(h.getTime(), h);
  }
  const days = new Map<number, Date[]>();
  for (const h of hours.values()) {
    const d = bucketStart(h, 'day').getTime();
    days.set(d, [...(days.get(d) ?? []), h]);
  }
  // Locks in a fixed order: two transactions touching the same days never wait on each other in a cycle.
  for (const d of [...days.keys()].sort((a, b) => a - b)) {
    const day = new Date(d);
    await lockDay(manager, chain, day);
    for (const hour of days.get(d)!) await recomputeHour(manager, chain, hour);
    await recomputeDay(manager, chain, day);
  }
}

/** Rebuilds every bucket from `from` to `to` (after a label import changed who is an exchange, or a backfill). */
export async function recomputeNetflowRange(manager: Db, chain: string, from: Date, to: Date): Promise<number> {
  const times: Date[] = [];
  for (let t = bucketStart(from, 'hour').getTime(); t <= to.getTime(); t += HOUR_MS) times.push(new Date(t));
  await recomputeNetflows(manager, chain, times);
  return times.length;
}

// ---------------------------------------------------------------------------------------------
// Reads for the API (A: whales-read.store.ts / routes). Shapes as whales.shapes.ts declares them.

export type NetflowPoint = WhaleNetflowPoint;
export type NetflowSeriesResult = WhaleNetflowSeries;
export type ExchangeNetflowSummary = WhaleExchangeSummary;

/** Most points netflowSeries answers (e.g. 83 days of hours, 5 years of days). */
export const NETFLOW_MAX_POINTS = 2000;

/** A series request the store refuses (too many points, from after to): the API answers 400. */
export class NetflowRangeError extends Error {
  constructor(
    readonly field: 'from' | 'to',
    message: string,
  ) {
    super(message);
    this.name = 'NetflowRangeError';
  }
}

/** 'ETH'/'eth' or a token address -> the token_key ('eth' or the lowercase address); null stays null (every token summed). */
export function netflowTokenKey(token: string | null | undefined): string | null {
  if (token === null || token === undefined || token === '') return null;
  return token.toLowerCase() === 'eth' ? 'eth' : token.toLowerCase();
}

/**
 * One exchange's netflow per bucket from `from` to `to` (both bucket-aligned down; every bucket
 * present, zeros where nothing moved). `token`: 'ETH', a token address, or null for every token
 * summed in USD. The exchange name matches whale_addresses.exchange_name, case-insensitively.
 */
export async function netflowSeries(
  db: Db,
  query: { exchange: string; token?: string | null; bucket: NetflowBucket; from: Date; to: Date; chain?: string },
): Promise<NetflowSeriesResult> {
  const first = bucketStart(query.from, query.bucket);
  const last = bucketStart(query.to, query.bucket);
  if (last < first) throw new NetflowRangeError('from', 'from must not be after to');
  const count = (last.getTime() - first.getTime()) / BUCKET_MS[query.bucket] + 1;
  if (count > NETFLOW_MAX_POINTS) throw new NetflowRangeError('from', `at most ${NETFLOW_MAX_POINTS} ${query.bucket} buckets per series (asked ${count})`);
  const token = netflowTokenKey(query.token);
  const rows: Array<{ start: Date; inflow: string; outflow: string; transfers: number; unpriced: number }> = await db.query(
    `SELECT s.start, coalesce(sum(n.inflow_usd), 0)::numeric(24,2)::text AS inflow, coalesce(sum(n.outflow_usd), 0)::numeric(24,2)::text AS outflow,
            coalesce(sum(n.transfers), 0)::int AS transfers, coalesce(sum(n.unpriced_transfers), 0)::int AS unpriced
       FROM generate_series($4::timestamptz, $5::timestamptz, make_interval(secs => $6)) AS s(start)
       LEFT JOIN whale_netflows n ON n.chain = $1 AND lower(n.exchange_name) = lower($2) AND n.bucket = $3 AND n.bucket_start = s.start
            AND ($7::varchar IS NULL OR n.token_key = $7)
      GROUP BY s.start ORDER BY s.start`,
    [query.chain ?? WHALES_CHAIN_NAME, query.exchange, query.bucket, first, last, BUCKET_MS[query.bucket] / 1000, token],
  );
  return {
    exchange: query.exchange,
    token,
    bucket: query.bucket,
    points: rows.map((r) => ({
      start: new Date(r.start).toISOString(),
      inflowUsd: r.inflow,
      outflowUsd: r.outflow,
      netflowUsd: subtractUsd(r.inflow, r.outflow),
      transfers: r.transfers,
      unpricedTransfers: r.unpriced,
    })),
  };
}

/**
 * Every labelled exchange (whale_addresses address_type 'exchange') with its flows since `since`
 * (from the start of that hour): busiest first, then by name; exchanges without flows answer zeros.
 */
export async function exchangeNetflows(db: Db, query: { since: Date; chain?: string }): Promise<ExchangeNetflowSummary[]> {
  const rows: Array<{ exchange: string; inflow: string; outflow: string; transfers: number }> = await db.query(
    `SELECT e.exchange_name AS exchange, coalesce(sum(n.inflow_usd), 0)::numeric(24,2)::text AS inflow,
            coalesce(sum(n.outflow_usd), 0)::numeric(24,2)::text AS outflow, coalesce(sum(n.transfers), 0)::int AS transfers
       FROM (SELECT DISTINCT exchange_name FROM whale_addresses WHERE is_active AND address_type = 'exchange' AND exchange_name IS NOT NULL) e
       LEFT JOIN whale_netflows n ON n.chain = $1 AND n.exchange_name = e.exchange_name AND n.bucket = 'hour' AND n.bucket_start >= $2
      GROUP BY e.exchange_name
      ORDER BY coalesce(sum(n.inflow_usd + n.outflow_usd), 0) DESC, e.exchange_name`,
    [query.chain ?? WHALES_CHAIN_NAME, bucketStart(query.since, 'hour')],
  );
  return rows.map((r) => ({
    exchange: r.exchange,
    inflowUsd24h: r.inflow,
    outflowUsd24h: r.outflow,
    netflowUsd24h: subtractUsd(r.inflow, r.outflow),
    transfers24h: r.transfers,
  }));
}

/** a - b of two 2-decimal strings, exactly (cents as bigint). */
function subtractUsd(a: string, b: string): string {
  const cents = (v: string) => {
    const negative = v.startsWith('-');
    const [whole, frac = ''] = v.replace('-', '').split('.');
    const c = BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
    return negative ? -c : c;
  };
  const d = cents(a) - cents(b);
  const abs = d < 0n ? -d : d;
  return `${d < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
