import type { DataSource } from 'typeorm';
import type { Address, Hex } from 'viem';
import type { Clock } from '../runtime/clock';
import type { Logger } from '../runtime/logger';
import type { ParsedBlock, ParsedTransfer } from './eth.parse';
import type { EthSource } from './eth-rpc.client';
import { classifyTransfer, isWhaleTransfer, type DetectionLabel } from './whales-detect';
import { watchedAddressIndex } from './whales-watched-index';
import { storedUsdPrice, tokenKey, usdValueOf, type WhalesPricer } from './whales-pricing';
import {
  WHALES_CHAIN,
  addressLabels,
  clearCheckpoint,
  readCheckpoint,
  recordBlock,
  rollbackFrom,
  setCheckpoint,
  storedBlockHashes,
  tokenAmount,
  type WhaleCheckpoint,
  type WhaleTransferRecord,
} from './whales.store';

/** Symbol and decimals of a token contract (TokenDirectory in the workers; null fields when unknown). */
export type TokenResolver = (token: Address) => Promise<{ symbol: string | null; decimals: number | null }>;

export interface WhalesScanContext {
  dataSource: DataSource;
  clock: Clock;
  logger?: Logger;
  tokens: TokenResolver;
  /** USD value from which any transfer is a whale transfer (WHALES_GLOBAL_USD_THRESHOLD). */
  globalUsdThreshold: number;
  /** USD prices at block time (whales-pricing.ts); absent: every transfer is recorded unpriced. */
  pricer?: WhalesPricer;
  chain?: string;
}

export interface ScanOptions {
  /** Blocks behind the head that are scanned (default 12); ignored with `finalized`. */
  confirmations?: number;
  /** Follow the node's `finalized` tag instead of head - confirmations. */
  finalized?: boolean;
  /** Blocks one step reads at most (default 50): a long outage is caught up in bounded batches. */
  maxBatch?: number;
  /** Where the first scan starts when there is no checkpoint (WHALES_START_BLOCK); default: the target itself. */
  startBlock?: bigint | null;
}

export type ScanOutcome =
  | { status: 'idle'; target: number; checkpoint: number | null }
  /** `recorded`: the blocks recorded by this step, in order (the processor queues their alerts). */
  | { status: 'scanned'; from: number; to: number; target: number; blocks: number; transfers: number; recorded: RecordedBlock[] }
  /**
   * A parent hash did not match: `reorg` recorded blocks were rolled back (from `rolledBackFrom`); the next step rescans them.
   * `recorded`: blocks this step recorded before it met the reorg (below the fork, so they stand).
   */
  | { status: 'reorg'; reorg: number; rolledBackFrom: number; blocks: number; transfers: number; recorded: RecordedBlock[] };

/** A block recorded by a scan step. */
export interface RecordedBlock {
  /** Decimal string (block numbers outgrow nothing today, but the API keeps them as strings). */
  number: string;
  hash: string;
  /** The block's addresses the in-memory filter holds (labelled or watched): the only ones its alerts job looks up. */
  addresses: string[];
}

/** The node's answers contradict each other or the stored chain in a way a retry resolves. */
export class WhalesScanError extends Error {
  readonly retryable = true;
}

export const DEFAULT_CONFIRMATIONS = 12;
export const DEFAULT_SCAN_BATCH = 50;
/** A reorg deeper than this is not followed automatically (mainnet finality is 64 blocks). */
export const MAX_REORG_DEPTH = 128;
const WALK_BACK_FIRST = 4n;

const range = (from: bigint, to: bigint): bigint[] => {
  const out: bigint[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
};

/**
 * Turns parsed transfers into rows: token metadata, USD at block time (`blockTime`, with the
 * context's pricer: ETH from the stored bars, tokens from DefiLlama; a transfer without a price or
 * decimals is stored with usd_value null, price_status 'unknown'), exchange direction, whale flag.
 */
export async function prepareTransfers(
  ctx: Pick<WhalesScanContext, 'dataSource' | 'tokens' | 'globalUsdThreshold' | 'pricer'>,
  transfers: readonly ParsedTransfer[],
  blockTime?: Date,
): Promise<WhaleTransferRecord[]> {
  return (await prepareBlockTransfers(ctx, transfers, blockTime)).records;
}

/** prepareTransfers, with the addresses of the transfers that the in-memory filter holds (labelled or watched). */
export async function prepareBlockTransfers(
  ctx: Pick<WhalesScanContext, 'dataSource' | 'tokens' | 'globalUsdThreshold' | 'pricer'>,
  transfers: readonly ParsedTransfer[],
  blockTime?: Date,
): Promise<{ records: WhaleTransferRecord[]; addresses: string[] }> {
  const addresses = new Set<string>();
  const tokens = new Set<Address>();
  for (const t of transfers) {
    addresses.add(t.from);
    if (t.to) addresses.add(t.to);
    if (t.token) tokens.add(t.token);
  }
  // Only the addresses the in-memory filter says may be labelled or watched are read (whales-watched-index.ts).
  const watched = await watchedAddressIndex(ctx.dataSource);
  const hits = watched.filter(addresses);
  const labels = await addressLabels(ctx.dataSource, hits);
  const lookup = (address: string): DetectionLabel | undefined => labels.get(address);
  const meta = new Map<string, { symbol: string | null; decimals: number | null }>();
  for (const token of tokens) meta.set(token, await ctx.tokens(token));
  const prices =
    ctx.pricer && blockTime && transfers.length ? await ctx.pricer.prices([...new Set(transfers.map((t) => t.token))], blockTime) : new Map();
  const records = transfers.map((transfer): WhaleTransferRecord => {
    const token = transfer.token ? meta.get(transfer.token) : undefined;
    const decimals = transfer.token ? (token?.decimals ?? null) : 18;
    const price = prices.get(tokenKey(transfer.token)) ?? null;
    const usdPrice = storedUsdPrice(price);
    const usdValue = usdPrice === null ? null : usdValueOf(decimals === null ? null : tokenAmount(transfer.rawAmount, decimals), price);
    return {
      transfer,
      tokenSymbol: transfer.token ? (token?.symbol ?? null) : 'ETH',
      tokenDecimals: decimals,
      transactionType: classifyTransfer(transfer, lookup),
      usdValue,
      usdPrice,
      priceSource: usdPrice === null ? null : (price?.source ?? null),
      priceConfidence: usdPrice === null ? null : (price?.confidence ?? null),
      isWhale: isWhaleTransfer(transfer, usdValue, lookup, ctx.globalUsdThreshold),
    };
  });
  return { records, addresses: hits };
}

/**
 * Finds where the stored chain leaves the node's: walking back from `below`, the lowest stored
 * block whose hash differs from the node's (blocks under it agree). Returns that block's number
 * and the node's hash of the block before it (the new checkpoint).
 */
async function findForkPoint(ctx: WhalesScanContext, source: EthSource, chain: string, below: bigint): Promise<{ fork: bigint; anchor: WhaleCheckpoint | null }> {
  const [{ lowest }]: Array<{ lowest: string | null }> = await ctx.dataSource.query(`SELECT min(number) AS lowest FROM whale_blocks WHERE chain = $1`, [chain]);
  // Nothing is compared below the block before the first one recorded.
  const floor = lowest === null ? below : BigInt(lowest) > 0n ? BigInt(lowest) - 1n : 0n;
  let fork = below + 1n;
  // Most reorgs are 1 or 2 blocks: compare a few blocks first, then twice as many each time.
  let size = WALK_BACK_FIRST;
  for (let high = below; high >= floor; high -= size, size *= 2n) {
    if (below - high >= BigInt(MAX_REORG_DEPTH)) {
      throw new WhalesScanError(`reorg deeper than ${MAX_REORG_DEPTH} blocks below ${below + 1n}: not followed automatically`);
    }
    const low = high - size + 1n > floor ? high - size + 1n : floor;
    const stored = await storedBlockHashes(ctx.dataSource, chain, low, high);
    const nodeBlocks = new Map((await source.blocks(range(low, high))).map((b) => [b.number, b]));
    for (let n = high; n >= low; n--) {
      const node = nodeBlocks.get(n);
      if (!node) throw new WhalesScanError(`block ${n} missing from the node's answer`);
      const mine = stored.get(n);
      // Not stored (below the first scanned block) or the same block: the chains agree from here down.
      if (mine === undefined || mine === node.hash) return { fork, anchor: { number: n, hash: node.hash } };
      fork = n;
    }
  }
  return { fork, anchor: null };
}

/**
 * One scan step: from the checkpoint + 1 up to head - confirmations (or the finalized block), at
 * most `maxBatch` blocks. Each block is recorded with its transfers and the checkpoint in one
 * transaction, so a failure (a missing block, a malformed answer, the database) leaves the
 * checkpoint on the last block recorded whole, and the next step resumes there. A block whose parent
 * hash is not the stored hash of the block before it means a reorg: the orphaned blocks and their
 * transfers are deleted, the checkpoint moves back to the common ancestor, and the step ends.
 */
export async function scanStep(ctx: WhalesScanContext, source: EthSource, opts: ScanOptions = {}): Promise<ScanOutcome> {
  const chain = ctx.chain ?? WHALES_CHAIN;
  const confirmations = BigInt(opts.confirmations ?? DEFAULT_CONFIRMATIONS);
  const maxBatch = BigInt(opts.maxBatch ?? DEFAULT_SCAN_BATCH);
  const target = opts.finalized ? await source.head('finalized') : (await source.head('latest')) - confirmations;

  const checkpoint = await readCheckpoint(ctx.dataSource, chain);
  const from = checkpoint ? checkpoint.number + 1n : (opts.startBlock ?? target);
  const to = from + maxBatch - 1n < target ? from + maxBatch - 1n : target;
  if (from > to || to < 0n) return { status: 'idle', target: Number(target), checkpoint: checkpoint ? Number(checkpoint.number) : null };

  const blocks = await source.blocks(range(from, to));
  const logs = await source.transferLogs(from, to);
  const byNumber = new Map<bigint, ParsedBlock>(blocks.map((b) => [b.number, b]));
  const logsOf = new Map<bigint, ParsedTransfer[]>();
  for (const log of logs) {
    const block = byNumber.get(log.blockNumber);
    if (!block) continue;
    // eth_getBlockByNumber and eth_getLogs are two calls: a reorg in between shows as logs of another block.
    if (log.blockHash !== block.hash) {
      throw new WhalesScanError(`logs of block ${log.blockNumber} belong to block ${log.blockHash}, not ${block.hash} (the chain moved between two calls)`);
    }
    const list = logsOf.get(log.blockNumber) ?? [];
    list.push(log);
    logsOf.set(log.blockNumber, list);
  }

  let previous: WhaleCheckpoint | null = checkpoint;
  const recordedBlocks: RecordedBlock[] = [];
  let transfers = 0;
  for (const n of range(from, to)) {
    const block = byNumber.get(n);
    if (!block) throw new WhalesScanError(`block ${n} missing from the node's answer`);

    if (previous && block.parentHash !== previous.hash) {
      const { fork, anchor } = await findForkPoint(ctx, source, chain, n - 1n);
      const now = ctx.clock.now();
      const removed = await ctx.dataSource.transaction(async (manager) => {
        const gone = await rollbackFrom(manager, chain, fork);
        if (anchor) await setCheckpoint(manager, chain, anchor, now);
        else await clearCheckpoint(manager, chain);
        return gone;
      });
      const depth = Number(n - fork);
      ctx.logger?.warn({ chain, block: Number(n), depth, fork: Number(fork), removed }, 'whales: reorg, orphaned blocks rolled back');
      return { status: 'reorg', reorg: depth, rolledBackFrom: Number(fork), blocks: recordedBlocks.length, transfers, recorded: recordedBlocks };
    }

    const { records, addresses } = await prepareBlockTransfers(ctx, [...block.nativeTransfers, ...(logsOf.get(n) ?? [])], new Date(block.timestamp * 1000));
    const now = ctx.clock.now();
    const expected = previous;
    await ctx.dataSource.transaction(async (manager) => {
      // Another scanner (the Redis lock should prevent it) may have moved the checkpoint since it was read.
      const current = await manager.query(`SELECT checkpoint_number, checkpoint_hash FROM whale_scan_state WHERE chain = $1 FOR UPDATE`, [chain]);
      const same = expected
        ? current.length === 1 && BigInt(current[0].checkpoint_number) === expected.number && current[0].checkpoint_hash === expected.hash
        : current.length === 0;
      if (!same) throw new WhalesScanError(`the ${chain} checkpoint moved during the scan step (another scanner?)`);
      await recordBlock(manager, chain, block, records, now);
      await setCheckpoint(manager, chain, { number: block.number, hash: block.hash }, now);
    });
    previous = { number: block.number, hash: block.hash as Hex };
    recordedBlocks.push({ number: block.number.toString(), hash: block.hash.toLowerCase(), addresses });
    transfers += records.length;
  }
  return { status: 'scanned', from: Number(from), to: Number(to), target: Number(target), blocks: recordedBlocks.length, transfers, recorded: recordedBlocks };
}
