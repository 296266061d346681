import type { DataSource, EntityManager } from 'typeorm';
import { tokenAmount, WHALES_CHAIN, NATIVE_LOG_INDEX } from './whales.store';
import type {
  WhaleAddressLabel,
  WhaleAddressPage,
  WhaleDirection,
  WhaleFeedSource,
  WhaleNetflowPoint,
  WhalePriceSource,
  WhaleTransactionType,
  WhaleTransferView,
} from './whales.shapes';
import { whaleWatchOfAddress } from './whales-watchlists.store';

type Db = DataSource | EntityManager;

export const WHALE_FEED_MAX_LIMIT = 100;
export const WHALE_LARGEST_ROWS = 20;
export const WHALE_ADDRESS_TRANSFERS = 50;
const ADDRESS_NETFLOW_DAYS = 30;

/** The block explorer page of a transaction. */
export const explorerTxUrl = (hash: string) => `https://etherscan.io/tx/${hash}`;

/** Feed cursor: `<block number>.<row id>` of the last row of the page (rows are ordered by both, newest first). */
export const WHALE_CURSOR_PATTERN = /^\d{1,20}\.\d{1,20}$/;

// The transfer with both sides' public labels and the viewer's own labels ($1 = viewer id, or null).
const VIEW_SELECT = `
  SELECT t.id::text AS id, t.hash, t.log_index, t.token_address, t.token_symbol, k.symbol AS known_symbol, k.decimals AS known_decimals,
         t.from_address, t.to_address, t.value::text AS value, t.amount::text AS amount, t.usd_value::text AS usd_value, t.price_status,
         t.usd_price::text AS usd_price, t.price_source, t.transaction_type, t.is_whale, t.block_number::text AS block_number, t.block_hash, t.timestamp,
         fa.label AS from_label, fa.address_type AS from_type, fa.exchange_name AS from_exchange, fw.custom_label AS from_custom, fa.id IS NOT NULL AS from_known,
         ta.label AS to_label, ta.address_type AS to_type, ta.exchange_name AS to_exchange, tw.custom_label AS to_custom, ta.id IS NOT NULL AS to_known
  FROM whale_transactions t
  LEFT JOIN whale_tokens k ON k.address = t.token_address
  LEFT JOIN whale_addresses fa ON fa.address = t.from_address
  LEFT JOIN whale_addresses ta ON ta.address = t.to_address
  LEFT JOIN user_watchlists fw ON fw.address_id = fa.id AND fw.user_id = $1
  LEFT JOIN user_watchlists tw ON tw.address_id = ta.id AND tw.user_id = $1`;

function label(address: string | null, known: boolean, l: unknown, type: unknown, exchange: unknown, custom: unknown): WhaleAddressLabel | null {
  if (address === null || !known) return null;
  return {
    address,
    label: (l as string | null) ?? null,
    addressType: (type as string | null) ?? null,
    exchangeName: (exchange as string | null) ?? null,
    customLabel: (custom as string | null) ?? null,
  };
}

function toView(r: Record<string, unknown>): WhaleTransferView {
  const native = r.token_address === null;
  const decimals = r.known_decimals as number | null;
  const amount = (r.amount as string | null) ?? (decimals === null || decimals === undefined ? null : tokenAmount(BigInt(r.value as string), decimals));
  const logIndex = Number(r.log_index);
  const hash = r.hash as string;
  return {
    txHash: hash,
    logIndex: logIndex === NATIVE_LOG_INDEX ? null : logIndex,
    token: r.token_address as string | null,
    tokenSymbol: native ? 'ETH' : ((r.known_symbol as string | null) ?? ((r.token_symbol as string) || null)),
    from: r.from_address as string,
    to: r.to_address as string | null,
    amount,
    rawAmount: r.value as string,
    usdValue: r.usd_value as string | null,
    priceStatus: r.price_status as 'priced' | 'unknown',
    transactionType: ((r.transaction_type as string | null) ?? 'transfer') as WhaleTransactionType,
    isWhale: r.is_whale as boolean,
    blockNumber: r.block_number as string,
    blockHash: r.block_hash as string,
    blockTime: (r.timestamp as Date).toISOString(),
    fromLabel: label(r.from_address as string, r.from_known as boolean, r.from_label, r.from_type, r.from_exchange, r.from_custom),
    toLabel: label(r.to_address as string | null, r.to_known as boolean, r.to_label, r.to_type, r.to_exchange, r.to_custom),
    usdPrice: r.usd_price as string | null,
    priceSource: r.price_source as WhalePriceSource | null,
    explorerUrl: explorerTxUrl(hash),
    id: `${hash}:${logIndex}`,
  };
}

/** Views of a block's transfers that the live feed shows: whale transfers and those touching a watched address (no viewer labels). */
export async function liveTransfersOfBlock(db: Db, chain: string, blockHash: string): Promise<WhaleTransferView[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `${VIEW_SELECT}
     WHERE t.chain = $2 AND t.block_hash = $3
       AND (t.is_whale OR EXISTS (SELECT 1 FROM user_watchlists w WHERE w.address_id IN (fa.id, ta.id)))
     ORDER BY t.log_index`,
    [null, chain, blockHash.toLowerCase()],
  );
  return rows.map(toView);
}

export interface WhaleFeedQuery {
  viewerId: number;
  /** 'ETH' or a token address (lowercase). */
  token?: string;
  minUsd?: string;
  direction?: WhaleDirection;
  exchange?: string;
  /** Every transfer of this address (lowercase). */
  address?: string;
  cursor?: string;
  limit: number;
  chain?: string;
}

/**
 * The feed, newest first: whale transfers (is_whale) and every transfer touching an address the
 * viewer watches; with `address`, every recorded transfer of that address. Filters narrow it.
 */
export async function whaleFeed(db: Db, query: WhaleFeedQuery): Promise<{ rows: WhaleTransferView[]; nextCursor: string | null }> {
  const values: unknown[] = [query.viewerId, query.chain ?? WHALES_CHAIN];
  const where = ['t.chain = $2'];
  const add = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query.address) {
    const a = add(query.address.toLowerCase());
    where.push(`(t.from_address = ${a} OR t.to_address = ${a})`);
  } else {
    where.push(`(t.is_whale OR fw.id IS NOT NULL OR tw.id IS NOT NULL)`);
  }
  if (query.token) where.push(query.token.toUpperCase() === 'ETH' ? 't.token_address IS NULL' : `t.token_address = ${add(query.token.toLowerCase())}`);
  if (query.minUsd !== undefined) where.push(`t.usd_value >= ${add(query.minUsd)}`);
  if (query.direction && query.direction !== 'any') where.push(`t.transaction_type = ${add(query.direction)}`);
  if (query.exchange) {
    const e = add(query.exchange.toLowerCase());
    where.push(`(lower(fa.exchange_name) = ${e} OR lower(ta.exchange_name) = ${e})`);
  }
  if (query.cursor) {
    const [block, id] = query.cursor.split('.');
    where.push(`(t.block_number, t.id) < (${add(block)}::bigint, ${add(id)}::bigint)`);
  }
  const rows: Array<Record<string, unknown>> = await db.query(
    `${VIEW_SELECT} WHERE ${where.join(' AND ')} ORDER BY t.block_number DESC, t.id DESC LIMIT ${add(query.limit + 1)}`,
    values,
  );
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return { rows: page.map(toView), nextCursor: rows.length > query.limit && last ? `${last.block_number}.${last.id}` : null };
}

/** The largest whale transfers of the last `hours` (by USD), for the public research page: small moves never fill it. */
export async function whaleLargest(db: Db, query: { hours: number; now: Date; chain?: string }): Promise<WhaleTransferView[]> {
  const since = new Date(query.now.getTime() - query.hours * 3_600_000);
  const rows: Array<Record<string, unknown>> = await db.query(
    `${VIEW_SELECT} WHERE t.chain = $2 AND t.timestamp >= $3 AND t.is_whale AND t.usd_value IS NOT NULL ORDER BY t.usd_value DESC, t.block_number DESC, t.id DESC LIMIT $4`,
    [null, query.chain ?? WHALES_CHAIN, since, WHALE_LARGEST_ROWS],
  );
  return rows.map(toView);
}

/** Where the rows come from and how far the scanner got. */
export async function whaleFeedSource(db: Db, kind: WhaleFeedSource['kind'], chain: string = WHALES_CHAIN): Promise<WhaleFeedSource> {
  const rows: Array<{ number: string; timestamp: Date | null }> = await db.query(
    `SELECT s.checkpoint_number::text AS number, b.timestamp FROM whale_scan_state s
     LEFT JOIN whale_blocks b ON b.chain = s.chain AND b.number = s.checkpoint_number WHERE s.chain = $1`,
    [chain],
  );
  const row = rows[0];
  return { kind, checkpointBlock: row?.number ?? null, checkpointTime: row?.timestamp ? row.timestamp.toISOString() : null };
}

/** An address's page: labels, the viewer's watch, newest transfers, 30 days of daily USD in/out, and per-token totals. */
export async function whaleAddressPage(db: Db, query: { address: string; viewerId: number; now: Date; chain?: string }): Promise<WhaleAddressPage> {
  const address = query.address.toLowerCase();
  const chain = query.chain ?? WHALES_CHAIN;
  const watch = await whaleWatchOfAddress(db, query.viewerId, address);
  const known: Array<{ label: string | null; address_type: string | null; exchange_name: string | null }> = await db.query(
    `SELECT label, address_type, exchange_name FROM whale_addresses WHERE address = $1`,
    [address],
  );
  const transfers = await whaleFeed(db, { viewerId: query.viewerId, address, limit: WHALE_ADDRESS_TRANSFERS, chain });
  const dayMs = 86_400_000;
  const today = Math.floor(query.now.getTime() / dayMs) * dayMs;
  const from = new Date(today - (ADDRESS_NETFLOW_DAYS - 1) * dayMs);
  const flows: Array<{ start: Date; inflow: string; outflow: string; transfers: number; unpriced: number }> = await db.query(
    `SELECT s.start,
            coalesce(sum(t.usd_value) FILTER (WHERE t.to_address = $2), 0)::numeric(24,2)::text AS inflow,
            coalesce(sum(t.usd_value) FILTER (WHERE t.from_address = $2), 0)::numeric(24,2)::text AS outflow,
            count(t.id)::int AS transfers, count(t.id) FILTER (WHERE t.usd_value IS NULL)::int AS unpriced
       FROM generate_series($3::timestamptz, $4::timestamptz, interval '1 day') AS s(start)
       LEFT JOIN whale_transactions t ON t.chain = $1 AND (t.from_address = $2 OR t.to_address = $2)
            AND t.timestamp >= s.start AND t.timestamp < s.start + interval '1 day'
      GROUP BY s.start ORDER BY s.start`,
    [chain, address, from, new Date(today)],
  );
  const netflow: WhaleNetflowPoint[] = flows.map((r) => ({
    start: new Date(r.start).toISOString(),
    inflowUsd: r.inflow,
    outflowUsd: r.outflow,
    netflowUsd: subtractUsd(r.inflow, r.outflow),
    transfers: r.transfers,
    unpricedTransfers: r.unpriced,
  }));
  const balances: Array<Record<string, unknown>> = await db.query(
    `SELECT t.token_address, CASE WHEN t.token_address IS NULL THEN 'ETH' ELSE max(coalesce(k.symbol, NULLIF(t.token_symbol, ''))) END AS symbol,
            bool_and(t.amount IS NOT NULL) AS all_amounts,
            sum(t.amount) FILTER (WHERE t.to_address = $2)::text AS in_amount, sum(t.amount) FILTER (WHERE t.from_address = $2)::text AS out_amount,
            bool_and(t.usd_value IS NOT NULL) AS all_priced,
            (coalesce(sum(t.usd_value) FILTER (WHERE t.to_address = $2), 0) - coalesce(sum(t.usd_value) FILTER (WHERE t.from_address = $2), 0))::numeric(24,2)::text AS net_usd
       FROM whale_transactions t LEFT JOIN whale_tokens k ON k.address = t.token_address
      WHERE t.chain = $1 AND (t.from_address = $2 OR t.to_address = $2) AND t.from_address IS DISTINCT FROM t.to_address
      GROUP BY t.token_address ORDER BY t.token_address NULLS FIRST`,
    [chain, address],
  );
  return {
    label: {
      address,
      label: known[0]?.label ?? null,
      addressType: known[0]?.address_type ?? null,
      exchangeName: known[0]?.exchange_name ?? null,
      customLabel: watch?.customLabel ?? null,
    },
    watch,
    transfers: transfers.rows,
    netflow,
    balanceChanges: balances.map((b) => ({
      token: b.token_address as string | null,
      tokenSymbol: b.symbol as string | null,
      // Unknown decimals leave an amount unknown: a sum would be wrong, so the total is null.
      inAmount: b.all_amounts ? ((b.in_amount as string | null) ?? '0') : null,
      outAmount: b.all_amounts ? ((b.out_amount as string | null) ?? '0') : null,
      netUsd: b.all_priced ? (b.net_usd as string) : null,
    })),
  };
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
