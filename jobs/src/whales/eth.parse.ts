import {
  decodeEventLog,
  erc20Abi,
  formatBlock,
  formatLog,
  formatTransaction,
  hexToBigInt,
  hexToNumber,
  isAddress,
  isHex,
  size,
  toEventSelector,
  type Address,
  type Hex,
  type RpcBlock,
  type RpcLog,
  type RpcTransaction,
} from 'viem';
import { z } from 'zod';

/**
 * Pure parsers of Ethereum JSON-RPC answers (eth_getBlockByNumber with full transactions,
 * eth_getLogs / eth_getFilterLogs, eth_getTransactionReceipt). Only the fields the whales scanner
 * uses are checked; everything else a node sends (Parity's `author`/`sealFields`/`publicKey`,
 * PoW `difficulty`, blob fields...) is ignored, so both the 2015 and the post-London shapes parse.
 */

/** A malformed answer. The message names the field, e.g. "block.parentHash: expected 32-byte hex". */
export class EthParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EthParseError';
  }
}

export interface ParsedTransfer {
  txHash: Hex;
  /** The log's index in its block; null for native ETH (a transaction's value). */
  logIndex: number | null;
  /** Lowercase contract address; null = ETH. */
  token: Address | null;
  /** Lowercase. */
  from: Address;
  /** Lowercase; null = contract creation. */
  to: Address | null;
  rawAmount: bigint;
  blockNumber: bigint;
  blockHash: Hex;
}

export interface ParsedBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: number;
  /** Null before London (block 12,965,000). */
  baseFeePerGas: bigint | null;
  transactionCount: number;
  /** Transactions with value > 0, in block order. */
  nativeTransfers: ParsedTransfer[];
}

/** keccak256('Transfer(address,address,uint256)'): topic0 of ERC-20 (and ERC-721) transfers. */
export const TRANSFER_TOPIC: Hex = toEventSelector('Transfer(address,address,uint256)');

const hexString = (what: string, ok: (value: Hex) => boolean) =>
  z.string({ error: `expected ${what}` }).refine((value) => isHex(value, { strict: true }) && ok(value as Hex), `expected ${what}`);
const hash32 = hexString('32-byte hex', (value) => size(value) === 32);
/** A JSON-RPC QUANTITY: 0x-prefixed hex, at least one digit. */
const quantity = hexString('hex quantity', (value) => value.length > 2);
const address = z.string({ error: 'expected a 20-byte address' }).refine((value) => isAddress(value, { strict: false }), 'expected a 20-byte address');

const transactionSchema = z.object({
  hash: hash32,
  from: address,
  // Null (or absent on some nodes) for a contract creation.
  to: address.nullish(),
  value: quantity,
  blockHash: hash32.nullish(),
  blockNumber: quantity.nullish(),
  transactionIndex: quantity.nullish(),
});

const blockSchema = z.object({
  // Null for a pending block: the scanner only reads mined ones.
  number: quantity,
  hash: hash32,
  parentHash: hash32,
  timestamp: quantity,
  baseFeePerGas: quantity.nullish(),
  transactions: z.array(z.unknown(), { error: 'expected an array' }),
});

const logSchema = z.object({
  address,
  topics: z.array(hexString('hex', () => true), { error: 'expected an array' }),
  data: hexString('hex', () => true),
  blockNumber: quantity,
  blockHash: hash32,
  transactionHash: hash32,
  logIndex: quantity,
  removed: z.boolean().optional(),
});

const receiptSchema = z.object({
  transactionHash: hash32,
  blockNumber: quantity,
  blockHash: hash32,
  logs: z.array(z.unknown(), { error: 'expected an array' }),
});

/** "transactions.3.value" -> "transactions[3].value" */
function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`), prefix);
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function check<T>(schema: z.ZodType<T>, raw: unknown, prefix: string): T {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new EthParseError(`${prefix}: expected an object, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`);
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const missing = valueAt(raw, issue.path) === undefined;
  throw new EthParseError(`${fieldPath(prefix, issue.path)}: ${missing ? 'missing' : issue.message}`);
}

const lower = (value: string) => value.toLowerCase() as Address;

/**
 * {jsonrpc, id, result} -> result. A JSON-RPC error envelope throws (with the node's code and
 * message); anything without a `jsonrpc` member is taken as a bare result and passes unchanged
 * (the recordings hold both forms).
 */
export function unwrapJsonRpc(doc: unknown): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !('jsonrpc' in doc)) return doc;
  const envelope = doc as { result?: unknown; error?: unknown };
  if (envelope.error !== undefined && envelope.error !== null) {
    const { code, message } = (typeof envelope.error === 'object' ? envelope.error : {}) as { code?: unknown; message?: unknown };
    throw new EthParseError(`json-rpc error ${typeof code === 'number' ? code : '?'}: ${typeof message === 'string' ? message : JSON.stringify(envelope.error)}`);
  }
  if (!('result' in envelope)) throw new EthParseError('envelope: neither result nor error');
  return envelope.result;
}

/**
 * A block from eth_getBlockByNumber(n, true): its header fields and its native ETH transfers
 * (transactions with value > 0). Both the pre-London shape (no baseFeePerGas; Parity's extra
 * fields) and EIP-1559 blocks parse. A block with transaction hashes only (the `false` form)
 * throws: its ETH transfers cannot be read from it.
 */
export function parseBlock(raw: unknown): ParsedBlock {
  const fields = check(blockSchema, raw, 'block');
  const txs = fields.transactions.map((tx, i) => {
    if (typeof tx === 'string') {
      throw new EthParseError(`block.transactions[${i}]: expected a transaction object, got a hash (ask eth_getBlockByNumber with full transactions)`);
    }
    return check(transactionSchema, tx, `block.transactions[${i}]`);
  });
  const block = formatBlock({
    number: fields.number as Hex,
    hash: fields.hash as Hex,
    parentHash: fields.parentHash as Hex,
    timestamp: fields.timestamp as Hex,
    baseFeePerGas: (fields.baseFeePerGas ?? undefined) as Hex | undefined,
  } as Partial<RpcBlock>);
  const number = block.number as bigint;
  const hash = block.hash as Hex;
  const nativeTransfers: ParsedTransfer[] = [];
  txs.forEach((fieldsOfTx, i) => {
    const tx = formatTransaction({
      hash: fieldsOfTx.hash as Hex,
      from: fieldsOfTx.from as Address,
      to: (fieldsOfTx.to ?? null) as Address | null,
      value: fieldsOfTx.value as Hex,
      blockHash: (fieldsOfTx.blockHash ?? undefined) as Hex | undefined,
      blockNumber: (fieldsOfTx.blockNumber ?? undefined) as Hex | undefined,
    } as Partial<RpcTransaction>);
    // A transaction that names another block means the node mixed answers up.
    if (tx.blockHash !== null && tx.blockHash.toLowerCase() !== hash.toLowerCase()) {
      throw new EthParseError(`block.transactions[${i}].blockHash: ${tx.blockHash} is not the block's hash ${hash}`);
    }
    if (!tx.value) return;
    nativeTransfers.push({
      txHash: lower(tx.hash) as Hex,
      logIndex: null,
      token: null,
      from: lower(tx.from),
      to: tx.to ? lower(tx.to) : null,
      rawAmount: tx.value,
      blockNumber: number,
      blockHash: lower(hash) as Hex,
    });
  });
  return {
    number,
    hash: lower(hash) as Hex,
    parentHash: lower(block.parentHash) as Hex,
    timestamp: hexToNumber(fields.timestamp as Hex),
    baseFeePerGas: block.baseFeePerGas,
    transactionCount: txs.length,
    nativeTransfers,
  };
}

/**
 * ERC-20 transfers among logs (eth_getLogs, eth_getFilterLogs, a receipt's logs). Kept: topic0 =
 * Transfer with exactly 3 topics (ERC-721 indexes the token id as a 4th topic: skipped) and
 * 32 bytes of data. Skipped: other events, `removed: true` (a log undone by a reorg), and
 * contracts that emit the Transfer signature with other data (decodeEventLog refuses them).
 * Parity's shape (`transactionLogIndex`, `type: "mined"`, no `removed`) parses the same:
 * `logIndex` is the index in the block there too.
 */
export function parseTransferLogs(logs: unknown[], prefix = 'logs'): ParsedTransfer[] {
  if (!Array.isArray(logs)) throw new EthParseError(`${prefix}: expected an array`);
  const transfers: ParsedTransfer[] = [];
  logs.forEach((raw, i) => {
    const fields = check(logSchema, raw, `${prefix}[${i}]`);
    if (fields.removed === true) return;
    const topics = fields.topics as Hex[];
    if (topics.length !== 3 || topics[0].toLowerCase() !== TRANSFER_TOPIC || size(fields.data as Hex) !== 32) return;
    let args: { from: Address; to: Address; value: bigint };
    try {
      args = decodeEventLog({ abi: erc20Abi, eventName: 'Transfer', topics: topics as [Hex, ...Hex[]], data: fields.data as Hex, strict: true }).args;
    } catch {
      return;
    }
    const log = formatLog({
      address: fields.address as Address,
      blockNumber: fields.blockNumber as Hex,
      blockHash: fields.blockHash as Hex,
      transactionHash: fields.transactionHash as Hex,
      logIndex: fields.logIndex as Hex,
    } as Partial<RpcLog>);
    transfers.push({
      txHash: lower(log.transactionHash as Hex) as Hex,
      logIndex: log.logIndex as number,
      token: lower(log.address),
      from: lower(args.from),
      to: lower(args.to),
      rawAmount: args.value,
      blockNumber: log.blockNumber as bigint,
      blockHash: lower(log.blockHash as Hex) as Hex,
    });
  });
  return transfers;
}

/** An eth_getTransactionReceipt result: the transaction, its block, and its ERC-20 transfers. */
export function parseReceipt(raw: unknown): { txHash: Hex; blockNumber: bigint; blockHash: Hex; transfers: ParsedTransfer[] } {
  const fields = check(receiptSchema, raw, 'receipt');
  return {
    txHash: lower(fields.transactionHash) as Hex,
    blockNumber: hexToBigInt(fields.blockNumber as Hex),
    blockHash: lower(fields.blockHash) as Hex,
    transfers: parseTransferLogs(fields.logs, 'receipt.logs'),
  };
}
