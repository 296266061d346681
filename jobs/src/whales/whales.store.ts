import type { DataSource, EntityManager } from 'typeorm';
import { formatUnits, type Address, type Hex } from 'viem';
import type { ParsedTransfer } from './eth.parse';
import type { TokenCache, TokenInfo } from './tokens';
import { retractWhaleAlerts } from './whales-alerts.store';
import { recomputeNetflows } from './whales-netflow.store';
import type { WhalePriceSource, WhaleTransactionType, WhaleTransferCore } from './whales.shapes';

type Db = DataSource | EntityManager;

/** The only chain scanned today; every table carries it so another EVM chain is rows, not a migration. */
export const WHALES_CHAIN = 'ethereum';

/** whale_transactions.log_index of a native ETH transfer (a NULL would not be unique); null in the API and CLI. */
export const NATIVE_LOG_INDEX = -1;

/** The block fields the store keeps (whale_blocks). */
export interface WhaleBlockHeader {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: number;
}

/** A transfer as recorded: the parsed transfer, its token's metadata, and what detection said of it. */
export interface WhaleTransferRecord {
  transfer: ParsedTransfer;
  tokenSymbol: string | null;
  tokenDecimals: number | null;
  transactionType: WhaleTransactionType;
  /** USD at block time; null when unknown (price_status 'unknown'). */
  usdValue: string | null;
  /** USD per token unit at block time (numeric(30,10)); null when unknown. */
  usdPrice?: string | null;
  priceSource?: WhalePriceSource | null;
  /** DefiLlama's confidence (0..1, 4 decimals); null for ETH or when unpriced. */
  priceConfidence?: string | null;
  isWhale: boolean;
}

export interface WhaleCheckpoint {
  number: bigint;
  hash: Hex;
}

// token_symbol is varchar(20) and NOT NULL (the spec's column): longer symbols are cut, an unknown
// one is stored empty and read back as null (whale_tokens keeps the full symbol).
const storedSymbol = (record: WhaleTransferRecord) =>
  record.transfer.token === null ? 'ETH' : (record.tokenSymbol ?? '').slice(0, 20);

/** Token units of a raw amount: exact (bigint arithmetic), null while the decimals are unknown. */
export function tokenAmount(rawAmount: bigint, decimals: number | null): string | null {
  return decimals === null ? null : formatUnits(rawAmount, decimals);
}

/**
 * Inserts transfers; a transfer already recorded (same chain, transaction hash and log index) is
 * left as it is. `blockTime` is the block's time. Returns how many rows were new.
 */
export async function recordTransfers(manager: Db, chain: string, blockTime: Date, records: readonly WhaleTransferRecord[]): Promise<number> {
  if (!records.length) return 0;
  const cols = {
    hash: [] as string[],
    logIndex: [] as number[],
    from: [] as string[],
    to: [] as (string | null)[],
    value: [] as string[],
    symbol: [] as string[],
    token: [] as (string | null)[],
    amount: [] as (string | null)[],
    usd: [] as (string | null)[],
    priceStatus: [] as string[],
    usdPrice: [] as (string | null)[],
    priceSource: [] as (string | null)[],
    priceConfidence: [] as (string | null)[],
    isWhale: [] as boolean[],
    blockNumber: [] as string[],
    blockHash: [] as string[],
    type: [] as string[],
  };
  for (const record of records) {
    const t = record.transfer;
    cols.hash.push(t.txHash.toLowerCase());
    cols.logIndex.push(t.logIndex ?? NATIVE_LOG_INDEX);
    cols.from.push(t.from.toLowerCase());
    cols.to.push(t.to?.toLowerCase() ?? null);
    cols.value.push(t.rawAmount.toString());
    cols.symbol.push(storedSymbol(record));
    cols.token.push(t.token?.toLowerCase() ?? null);
    cols.amount.push(tokenAmount(t.rawAmount, t.token === null ? 18 : record.tokenDecimals));
    cols.usd.push(record.usdValue);
    cols.priceStatus.push(record.usdValue === null ? 'unknown' : 'priced');
    // The price is kept even when the value is not (unknown decimals): it says what was known.
    cols.usdPrice.push(record.usdPrice ?? null);
    cols.priceSource.push(record.usdPrice ? (record.priceSource ?? null) : null);
    cols.priceConfidence.push(record.usdPrice ? (record.priceConfidence ?? null) : null);
    cols.isWhale.push(record.isWhale);
    cols.blockNumber.push(t.blockNumber.toString());
    cols.blockHash.push(t.blockHash.toLowerCase());
    cols.type.push(record.transactionType);
  }
  // One statement per block (hundreds of logs): arrays unnested, duplicates skipped on the unique key.
  const rows: Array<{ n: number }> = await manager.query(
    `WITH inserted AS (
       INSERT INTO whale_transactions (chain, timestamp, hash, log_index, from_address, to_address, value, token_symbol, token_address,
                                       amount, usd_value, price_status, is_whale, block_number, block_hash, transaction_type,
                                       usd_price, price_source, price_confidence)
       SELECT $1, $2, * FROM unnest($3::varchar[], $4::int[], $5::varchar[], $6::varchar[], $7::numeric[], $8::varchar[], $9::varchar[],
                                    $10::numeric[], $11::numeric[], $12::varchar[], $13::boolean[], $14::bigint[], $15::varchar[], $16::varchar[],
                                    $17::numeric[], $18::varchar[], $19::numeric[])
       ON CONFLICT ON CONSTRAINT uq_whale_transactions_chain_hash_log_index DO NOTHING
       RETURNING 1
     ) SELECT count(*)::int AS n FROM inserted`,
    [
      chain,
      blockTime,
      cols.hash,
      cols.logIndex,
      cols.from,
      cols.to,
      cols.value,
      cols.symbol,
      cols.token,
      cols.amount,
      cols.usd,
      cols.priceStatus,
      cols.isWhale,
      cols.blockNumber,
      cols.blockHash,
      cols.type,
      cols.usdPrice,
      cols.priceSource,
      cols.priceConfidence,
    ],
  );
  // Exchange netflow of the block's hour and day, in the same transaction (whales-netflow.store.ts).
  if (rows[0].n > 0) await recomputeNetflows(manager, chain, [blockTime]);
  return rows[0].n;
}

/**
 * Records a scanned block: its whale_blocks row and its transfers. Idempotent: a block or a transfer
 * already recorded is left as it is (ON CONFLICT DO NOTHING on the unique keys). Run it in the
 * transaction that advances the checkpoint (whales-scan.ts), so a block is recorded whole or not at all.
 */
export async function recordBlock(
  manager: Db,
  chain: string,
  block: WhaleBlockHeader,
  transfers: readonly WhaleTransferRecord[],
  scannedAt: Date = new Date(),
): Promise<{ blockInserted: boolean; transfersInserted: number }> {
  const inserted: unknown[] = await manager.query(
    `INSERT INTO whale_blocks (chain, number, hash, parent_hash, timestamp, transfers_count, scanned_at)
     VALUES ($1, $2, $3, $4, to_timestamp($5), $6, $7)
     ON CONFLICT (chain, number) DO NOTHING
     RETURNING 1`,
    [chain, block.number.toString(), block.hash.toLowerCase(), block.parentHash.toLowerCase(), block.timestamp, transfers.length, scannedAt],
  );
  const transfersInserted = await recordTransfers(manager, chain, new Date(block.timestamp * 1000), transfers);
  return { blockInserted: inserted.length > 0, transfersInserted };
}

/**
 * Deletes the blocks numbered `number` and above and every transfer recorded from them (a reorg
 * orphaned them): their alerts are retracted first (whales-alerts.store.ts), and the netflow
 * buckets they touched are recomputed after. The checkpoint is the caller's to reset, in the same
 * transaction (call this inside one: it is all or nothing).
 */
export async function rollbackFrom(manager: EntityManager, chain: string, number: bigint): Promise<{ blocks: number; transfers: number }> {
  const times: Array<{ at: Date }> = await manager.query(
    `SELECT DISTINCT date_trunc('hour', timestamp) AS at FROM whale_transactions WHERE chain = $1 AND block_number >= $2`,
    [chain, number.toString()],
  );
  await retractWhaleAlerts(manager, chain, number);
  // A counted DELETE answers one row (a DELETE's own answer through TypeORM is [rows, affected]).
  const [{ n: transfers }]: { n: number }[] = await manager.query(
    `WITH d AS (DELETE FROM whale_transactions WHERE chain = $1 AND block_number >= $2 RETURNING 1) SELECT count(*)::int AS n FROM d`,
    [chain, number.toString()],
  );
  const [{ n: blocks }]: { n: number }[] = await manager.query(
    `WITH d AS (DELETE FROM whale_blocks WHERE chain = $1 AND number >= $2 RETURNING 1) SELECT count(*)::int AS n FROM d`,
    [chain, number.toString()],
  );
  await recomputeNetflows(
    manager,
    chain,
    times.map((t) => new Date(t.at)),
  );
  return { blocks, transfers };
}

/** The last block fully recorded by the scanner, or null before the first scan. */
export async function readCheckpoint(db: Db, chain: string): Promise<WhaleCheckpoint | null> {
  const rows: Array<{ checkpoint_number: string; checkpoint_hash: string }> = await db.query(
    `SELECT checkpoint_number, checkpoint_hash FROM whale_scan_state WHERE chain = $1`,
    [chain],
  );
  return rows.length ? { number: BigInt(rows[0].checkpoint_number), hash: rows[0].checkpoint_hash as Hex } : null;
}

/** Moves the checkpoint (forward after a block, back after a rollback). Same transaction as the rows it vouches for. */
export async function setCheckpoint(manager: Db, chain: string, checkpoint: WhaleCheckpoint, now: Date): Promise<void> {
  await manager.query(
    `INSERT INTO whale_scan_state (chain, checkpoint_number, checkpoint_hash, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (chain) DO UPDATE SET checkpoint_number = EXCLUDED.checkpoint_number, checkpoint_hash = EXCLUDED.checkpoint_hash,
       updated_at = EXCLUDED.updated_at`,
    [chain, checkpoint.number.toString(), checkpoint.hash.toLowerCase(), now],
  );
}

/** Forgets the checkpoint (a rollback below the first recorded block): the next scan starts afresh. */
export async function clearCheckpoint(manager: Db, chain: string): Promise<void> {
  await manager.query(`DELETE FROM whale_scan_state WHERE chain = $1`, [chain]);
}

/** The stored hashes of blocks `from`..`to` (those recorded), by number. */
export async function storedBlockHashes(db: Db, chain: string, from: bigint, to: bigint): Promise<Map<bigint, Hex>> {
  const rows: Array<{ number: string; hash: string }> = await db.query(
    `SELECT number, hash FROM whale_blocks WHERE chain = $1 AND number BETWEEN $2 AND $3`,
    [chain, from.toString(), to.toString()],
  );
  return new Map(rows.map((r) => [BigInt(r.number), r.hash as Hex]));
}

/** The time of a recorded block, when it is the block with that hash (receipts carry no time). */
export async function storedBlockTime(db: Db, chain: string, number: bigint, hash: Hex): Promise<Date | null> {
  const rows: Array<{ timestamp: Date }> = await db.query(
    `SELECT timestamp FROM whale_blocks WHERE chain = $1 AND number = $2 AND hash = $3`,
    [chain, number.toString(), hash.toLowerCase()],
  );
  return rows[0]?.timestamp ?? null;
}

/** What detection needs of a watched address (whale_addresses: the system list and users' watched addresses). */
export interface WhaleAddressLabel {
  address: string;
  addressType: string | null;
  exchangeName: string | null;
  label: string | null;
  /** Token base units (wei for ETH), or null. */
  balanceThreshold: bigint | null;
}

/** The active whale_addresses rows among `addresses` (lowercase), by address. */
export async function addressLabels(db: Db, addresses: readonly string[]): Promise<Map<string, WhaleAddressLabel>> {
  if (!addresses.length) return new Map();
  const rows: Array<{ address: string; address_type: string | null; exchange_name: string | null; label: string | null; balance_threshold: string | null }> =
    await db.query(
      `SELECT address, address_type, exchange_name, label, balance_threshold FROM whale_addresses
       WHERE is_active AND address = ANY($1::varchar[])`,
      [[...new Set(addresses.map((a) => a.toLowerCase()))]],
    );
  return new Map(
    rows.map((r) => [
      r.address,
      {
        address: r.address,
        addressType: r.address_type,
        exchangeName: r.exchange_name,
        label: r.label,
        balanceThreshold: r.balance_threshold === null ? null : BigInt(r.balance_threshold),
      },
    ]),
  );
}

interface TransferRow {
  hash: string;
  log_index: number;
  token_address: string | null;
  token_symbol: string;
  known_symbol: string | null;
  known_decimals: number | null;
  from_address: string;
  to_address: string | null;
  value: string;
  amount: string | null;
  usd_value: string | null;
  price_status: 'priced' | 'unknown';
  usd_price: string | null;
  price_source: WhalePriceSource | null;
  price_confidence: string | null;
  transaction_type: string | null;
  is_whale: boolean;
  block_number: string;
  block_hash: string;
  timestamp: Date;
}

/** A recorded transfer with its price (what `whales transfers` and the API start from). */
export interface WhaleTransferRow extends WhaleTransferCore {
  usdPrice: string | null;
  priceSource: WhalePriceSource | null;
  priceConfidence: string | null;
}

/** A transaction's recorded transfers, in log order (native ETH first), for the API and `whales transfers`. */
export async function transfersOfTx(db: Db, hash: string, chain: string = WHALES_CHAIN): Promise<WhaleTransferRow[]> {
  const rows: TransferRow[] = await db.query(
    `SELECT t.hash, t.log_index, t.token_address, t.token_symbol, k.symbol AS known_symbol, k.decimals AS known_decimals,
            t.from_address, t.to_address, t.value::text AS value, t.amount::text AS amount, t.usd_value::text AS usd_value, t.price_status,
            t.usd_price::text AS usd_price, t.price_source, t.price_confidence::text AS price_confidence,
            t.transaction_type, t.is_whale, t.block_number, t.block_hash, t.timestamp
     FROM whale_transactions t LEFT JOIN whale_tokens k ON k.address = t.token_address
     WHERE t.chain = $1 AND t.hash = $2
     ORDER BY t.log_index`,
    [chain, hash.toLowerCase()],
  );
  return rows.map((r) => {
    const native = r.token_address === null;
    // Decimals learnt after the transfer was recorded still give it an amount.
    const amount = r.amount ?? (r.known_decimals === null ? null : tokenAmount(BigInt(r.value), r.known_decimals));
    return {
      txHash: r.hash,
      logIndex: r.log_index === NATIVE_LOG_INDEX ? null : r.log_index,
      token: r.token_address,
      tokenSymbol: native ? 'ETH' : (r.known_symbol ?? (r.token_symbol || null)),
      from: r.from_address,
      to: r.to_address,
      amount,
      rawAmount: r.value,
      usdValue: r.usd_value,
      priceStatus: r.price_status,
      usdPrice: r.usd_price,
      priceSource: r.price_source,
      priceConfidence: r.price_confidence,
      transactionType: (r.transaction_type ?? 'transfer') as WhaleTransactionType,
      isWhale: r.is_whale,
      blockNumber: r.block_number,
      blockHash: r.block_hash,
      blockTime: r.timestamp.toISOString(),
    };
  });
}

/** The token metadata cache of TokenDirectory (tokens.ts) on whale_tokens. */
export class WhaleTokenStore implements TokenCache {
  constructor(private readonly db: Db) {}

  async get(address: Address): Promise<TokenInfo | null> {
    const rows: Array<{ address: string; symbol: string | null; decimals: number | null; source: TokenInfo['source'] }> = await this.db.query(
      `SELECT address, symbol, decimals, source FROM whale_tokens WHERE address = $1`,
      [address.toLowerCase()],
    );
    const r = rows[0];
    return r ? { address: r.address as Address, symbol: r.symbol, decimals: r.decimals, source: r.source } : null;
  }

  async put(info: TokenInfo): Promise<void> {
    await this.db.query(
      `INSERT INTO whale_tokens (address, symbol, decimals, source, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (address) DO UPDATE SET symbol = EXCLUDED.symbol, decimals = EXCLUDED.decimals, source = EXCLUDED.source, updated_at = now()`,
      [info.address.toLowerCase(), info.symbol?.slice(0, 100) ?? null, info.decimals, info.source],
    );
  }
}
