import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  encodeFunctionResult,
  erc20Abi,
  hexToBigInt,
  isAddress,
  isHex,
  keccak256,
  pad,
  stringToHex,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { TRANSFER_TOPIC } from './eth.parse';

/** This folder's recordings (data/README.md gives each one's origin). */
export const WHALES_RECORDINGS_DIR = join(__dirname, 'data');

export const WHALES_REPLAY_FILES = {
  /** Mainnet block 15,136,987 (London, full transactions): every replay block is built from it. */
  block: 'eth_getBlockByNumber_result_fulltx_mainnet_15136987_0xe6f8db_london.json',
  /** Two mainnet receipts of block 17,451,262 (transaction indexes 2 and 12): their logs (3 ERC-20 Transfers) go in every replay block. */
  receipts: ['eth_getTransactionReceipt_result_mainnet_block17451262_txidx2.json', 'eth_getTransactionReceipt_result_mainnet_block17451262_txidx12.json'],
} as const;

/** 'finalized' answers the block this far below the head (two epochs of 32 slots, as on mainnet after the Merge). */
export const REPLAY_FINALIZED_DEPTH = 64n;
/** Seconds between replay blocks (a mainnet slot). */
export const REPLAY_BLOCK_SECONDS = 12;

/**
 * Tokens the replay node answers decimals() and symbol() for: SIMULATED contracts (their addresses
 * start 0x7e57, no such tokens exist) so tests and the offline demo exercise the eth_call fallback
 * of the token directory; one answers its symbol as bytes32, as MKR-era tokens do. Calls to any
 * other address answer "0x", as a node does for an address without code.
 */
export const REPLAY_TOKENS: readonly { address: Address; symbol: string; decimals: number; symbolAsBytes32: boolean }[] = [
  { address: '0x7e57000000000000000000000000000000000001', symbol: 'RPLY', decimals: 6, symbolAsBytes32: false },
  { address: '0x7e57000000000000000000000000000000000002', symbol: 'RB32', decimals: 8, symbolAsBytes32: true },
];

type Json = Record<string, unknown>;

interface ChainTx {
  hash: Hex;
  /** The recorded (or built) transaction object; number/hash/index fields are rewritten when served. */
  body: Json;
}
interface ChainLog {
  txHash: Hex;
  body: Json;
}

interface Recordings {
  block: Json;
  /** The receipts' logs with the index of the transaction they belong to. */
  logs: { txIndex: number; body: Json }[];
}

let recordings: Recordings | undefined;
function loadRecordings(): Recordings {
  if (recordings) return recordings;
  const read = (file: string) => JSON.parse(readFileSync(join(WHALES_RECORDINGS_DIR, file), 'utf8')) as Json;
  const block = read(WHALES_REPLAY_FILES.block);
  const logs: Recordings['logs'] = [];
  for (const file of WHALES_REPLAY_FILES.receipts) {
    const receipt = read(file);
    for (const log of receipt.logs as Json[]) logs.push({ txIndex: Number(hexToBigInt(receipt.transactionIndex as Hex)), body: log });
  }
  recordings = { block, logs };
  return recordings;
}

const clone = <T>(value: T): T => structuredClone(value);
const hashOf = (...parts: (string | bigint | number)[]): Hex => keccak256(stringToHex(parts.join(':')));

/**
 * A deterministic chain for offline runs and tests, built by varying values inside real recorded
 * blocks (nothing is invented but the variations listed here):
 * - every block is the recorded London block 15,136,987 (header and its 14 full transactions),
 *   renumbered from `firstNumber`, with a new deterministic hash (seed, number, reorg generation),
 *   `parentHash` linking it to the block before, and its timestamp 12 s after the previous one;
 * - its transactions keep their recorded values (from, to, value, input...) but get new
 *   deterministic hashes (seed, number, index) and point at the new block (blockHash, blockNumber);
 * - the two recorded 2023 receipts' logs (WETH Deposit, 3 ERC-20 Transfers, a Uniswap Sync and
 *   Swap) are re-pointed at the new block: their transactionHash is the block's transaction of the
 *   same index (2 and 12), logIndex renumbered from 0 in the block;
 * - roots, logsBloom, size, miner and gas figures are the recorded block's, not recomputed.
 * Tests add transfers (withTransfer) and reorganize the tip (reorg).
 */
/** A native ETH transfer a replay block carries besides the recorded ones (ReplayChain.fromRecordings' `simulate`). */
export interface SimulatedTransfer {
  from: Address;
  to: Address;
  /** Wei. */
  rawAmount: bigint;
}

export class ReplayChain {
  private headNumber: bigint;
  /** Bumped for a block each time a reorg replaces it: its hash changes. */
  private readonly generation = new Map<bigint, number>();
  /** Transactions added by withTransfer, by block number (future blocks too: they appear once appended). */
  private readonly extras = new Map<bigint, { tx: ChainTx; logs: Json[] }[]>();
  /** Transactions orphaned by a reorg and never re-included. */
  private readonly dropped = new Set<string>();
  private extraCount = 0;

  private constructor(
    readonly first: bigint,
    length: number,
    private readonly seed: string,
    private readonly startTimestamp: number,
    private readonly recorded: Recordings,
    /** Simulated value transfers a block carries besides the recorded ones (deterministic by number). */
    private readonly simulate: (n: bigint) => readonly SimulatedTransfer[] = () => [],
  ) {
    this.headNumber = first + BigInt(length) - 1n;
  }

  /**
   * `firstNumber` defaults to the recorded block's number, `length` to 128 blocks, `seed` to
   * 'tickerbell-replay'; `startTimestamp` (unix s, an addition) to the recorded block's timestamp.
   */
  static fromRecordings(
    opts: { firstNumber?: bigint; length?: number; seed?: string; startTimestamp?: number; simulate?: (n: bigint) => readonly SimulatedTransfer[] } = {},
  ): ReplayChain {
    const recorded = loadRecordings();
    const length = opts.length ?? 128;
    if (!Number.isInteger(length) || length < 1) throw new Error(`replay: length must be a positive integer, got ${length}`);
    return new ReplayChain(
      opts.firstNumber ?? hexToBigInt(recorded.block.number as Hex),
      length,
      opts.seed ?? 'tickerbell-replay',
      opts.startTimestamp ?? Number(hexToBigInt(recorded.block.timestamp as Hex)),
      recorded,
      opts.simulate,
    );
  }

  get head(): bigint {
    return this.headNumber;
  }

  /** The block 'finalized' answers: REPLAY_FINALIZED_DEPTH below the head (never before the first block). */
  get finalized(): bigint {
    const n = this.headNumber - REPLAY_FINALIZED_DEPTH;
    return n < this.first ? this.first : n;
  }

  /** The current hash of block n (changes when a reorg replaces it). */
  hashOf(n: bigint): Hex {
    if (n === this.first - 1n) return hashOf(this.seed, 'parent-of-first', n);
    return hashOf(this.seed, 'block', n, this.generation.get(n) ?? 0);
  }

  private contains(n: bigint): boolean {
    return n >= this.first && n <= this.headNumber;
  }

  private transactionsOf(n: bigint): ChainTx[] {
    const recordedTxs = (this.recorded.block.transactions as Json[]).map((body, i) => ({ hash: hashOf(this.seed, 'tx', n, i), body }));
    // Simulated value transfers: the recorded plain value transfer (index 8) with another sender, receiver and value.
    const template = (this.recorded.block.transactions as Json[])[8];
    const simulated = this.simulate(n).map((t, i) => ({
      hash: hashOf(this.seed, 'simulated', n, i),
      body: { ...clone(template), from: t.from.toLowerCase(), to: t.to.toLowerCase(), value: toHex(t.rawAmount), input: '0x' },
    }));
    const added = (this.extras.get(n) ?? []).map((extra) => extra.tx);
    return [...recordedTxs, ...simulated, ...added].filter((tx) => !this.dropped.has(tx.hash));
  }

  private logsOf(n: bigint): ChainLog[] {
    const recordedLogs = this.recorded.logs.map(({ txIndex, body }) => ({ txHash: hashOf(this.seed, 'tx', n, txIndex), body }));
    const added = (this.extras.get(n) ?? []).flatMap((extra) => extra.logs.map((body) => ({ txHash: extra.tx.hash, body })));
    return [...recordedLogs, ...added].filter((log) => !this.dropped.has(log.txHash));
  }

  /** Block n as eth_getBlockByNumber(n, true) answers it (the JSON-RPC result), or null beyond the head. */
  rawBlock(n: bigint): Record<string, unknown> | null {
    if (!this.contains(n)) return null;
    const hash = this.hashOf(n);
    const transactions = this.transactionsOf(n).map((tx, i) => ({
      ...clone(tx.body),
      blockHash: hash,
      blockNumber: toHex(n),
      hash: tx.hash,
      transactionIndex: toHex(i),
    }));
    return {
      ...clone(this.recorded.block),
      number: toHex(n),
      hash,
      parentHash: this.hashOf(n - 1n),
      timestamp: toHex(this.startTimestamp + Number(n - this.first) * REPLAY_BLOCK_SECONDS),
      transactions,
    };
  }

  /** The logs of blocks from..to (inclusive, clipped to the chain), as eth_getLogs answers them (unfiltered). */
  rawLogs(from: bigint, to: bigint): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (let n = from < this.first ? this.first : from; n <= to && n <= this.headNumber; n++) {
      const hash = this.hashOf(n);
      const indexOfTx = new Map(this.transactionsOf(n).map((tx, i) => [tx.hash, i]));
      this.logsOf(n).forEach((log, i) => {
        out.push({
          ...clone(log.body),
          blockHash: hash,
          blockNumber: toHex(n),
          transactionHash: log.txHash,
          transactionIndex: toHex(indexOfTx.get(log.txHash) ?? 0),
          logIndex: toHex(i),
          removed: false,
        });
      });
    }
    return out;
  }

  /** Mines `count` more blocks (default 1). */
  append(count = 1): void {
    this.headNumber += BigInt(count);
  }

  /**
   * Replaces the last `depth` blocks with new ones (new hashes, so the first replaced block's
   * parent is unchanged and the scanner sees the fork at the block above it). Their transactions
   * are re-included, except `dropTxHash` (and its logs), which the new fork leaves out.
   */
  reorg(depth: number, opts: { dropTxHash?: Hex } = {}): void {
    if (!Number.isInteger(depth) || depth < 1 || BigInt(depth) > this.headNumber - this.first + 1n) {
      throw new Error(`replay: cannot reorganize ${depth} blocks of a chain of ${this.headNumber - this.first + 1n}`);
    }
    const from = this.headNumber - BigInt(depth) + 1n;
    if (opts.dropTxHash) {
      const wanted = opts.dropTxHash.toLowerCase();
      let found = false;
      for (let n = from; n <= this.headNumber && !found; n++) found = this.transactionsOf(n).some((tx) => tx.hash === wanted);
      if (!found) throw new Error(`replay: transaction ${opts.dropTxHash} is not in the last ${depth} blocks`);
      this.dropped.add(wanted);
    }
    for (let n = from; n <= this.headNumber; n++) this.generation.set(n, (this.generation.get(n) ?? 0) + 1);
  }

  /**
   * Adds a transfer to block n (an existing block or a future one) in a new transaction: native ETH
   * (token null: a value transfer, built from the recorded block's plain value transfer at index 8)
   * or an ERC-20 Transfer (a transfer(to, amount) call to the token and its Transfer log). The
   * block keeps its hash. Answers the new transaction's hash.
   */
  withTransfer(n: bigint, t: { token: Address | null; from: Address; to: Address; rawAmount: bigint }): Hex {
    if (n < this.first) throw new Error(`replay: block ${n} is before the chain's first block ${this.first}`);
    for (const [name, value] of [['from', t.from], ['to', t.to], ['token', t.token ?? t.from]] as const) {
      if (!isAddress(value, { strict: false })) throw new Error(`replay: ${name} is not an address: ${value}`);
    }
    const hash = hashOf(this.seed, 'extra', n, this.extraCount++);
    const template = (this.recorded.block.transactions as Json[])[8];
    const from = t.from.toLowerCase() as Address;
    const to = t.to.toLowerCase() as Address;
    let entry: { tx: ChainTx; logs: Json[] };
    if (t.token === null) {
      entry = { tx: { hash, body: { ...clone(template), from, to, value: toHex(t.rawAmount), input: '0x' } }, logs: [] };
    } else {
      const token = t.token.toLowerCase() as Address;
      entry = {
        tx: { hash, body: { ...clone(template), from, to: token, value: '0x0', input: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, t.rawAmount] }) } },
        logs: [
          {
            address: token,
            topics: [TRANSFER_TOPIC, pad(from), pad(to)],
            data: encodeAbiParameters([{ type: 'uint256' }], [t.rawAmount]),
          },
        ],
      };
    }
    const list = this.extras.get(n) ?? [];
    list.push(entry);
    this.extras.set(n, list);
    return hash;
  }
}

// ---------------------------------------------------------------------------------------------
// A local JSON-RPC node serving a ReplayChain (the workers' offline source and the tests' node).

export interface ReplayRpcServer {
  url: string;
  /** Every JSON-RPC call received (each member of a batch), in order; `batch` is the size of the HTTP request's batch (0 = single). */
  requests: { method: string; params: unknown[]; batch: number }[];
  /** The next `n` HTTP requests answer `status` (429 and 503 say Retry-After: 0). */
  failNext(n: number, status: number): void;
  /** The next `n` HTTP requests never get an answer (until close): the client's timeout ends them. */
  hangNext(n: number): void;
  /** The next `n` HTTP requests answer JSON-RPC errors (every member of a batch). */
  rpcErrorNext(n: number, code: number, message: string): void;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function blockTag(chain: ReplayChain, tag: unknown): bigint | null {
  if (tag === 'latest' || tag === 'pending' || tag === undefined) return chain.head;
  if (tag === 'finalized') return chain.finalized;
  if (tag === 'safe') return chain.head - 32n < chain.first ? chain.first : chain.head - 32n;
  if (tag === 'earliest') return chain.first;
  if (typeof tag === 'string' && isHex(tag, { strict: true }) && tag.length > 2) return hexToBigInt(tag);
  throw new RpcFault(-32602, `invalid block tag ${JSON.stringify(tag)}`);
}

function topicMatches(filter: unknown, topic: unknown): boolean {
  if (filter === null || filter === undefined) return true;
  const options = Array.isArray(filter) ? filter : [filter];
  return typeof topic === 'string' && options.some((option) => typeof option === 'string' && option.toLowerCase() === topic.toLowerCase());
}

function ethCall(params: unknown[]): Hex {
  const { to, data, input } = (params[0] ?? {}) as { to?: string; data?: string; input?: string };
  const calldata = data ?? input;
  if (typeof to !== 'string' || !isAddress(to, { strict: false })) throw new RpcFault(-32602, 'eth_call: missing "to" address');
  const token = REPLAY_TOKENS.find((candidate) => candidate.address === to.toLowerCase());
  if (!token || typeof calldata !== 'string' || !isHex(calldata)) return '0x';
  let functionName: string;
  try {
    functionName = decodeFunctionData({ abi: erc20Abi, data: calldata }).functionName;
  } catch {
    throw new RpcFault(3, 'execution reverted');
  }
  if (functionName === 'decimals') return encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: token.decimals });
  if (functionName === 'symbol') {
    return token.symbolAsBytes32 ? stringToHex(token.symbol, { size: 32 }) : encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: token.symbol });
  }
  if (functionName === 'name') return encodeFunctionResult({ abi: erc20Abi, functionName: 'name', result: `Replay ${token.symbol} (simulated)` });
  throw new RpcFault(3, 'execution reverted');
}

function answer(chain: ReplayChain, method: string, params: unknown[]): unknown {
  switch (method) {
    case 'eth_chainId':
      return '0x1';
    case 'eth_blockNumber':
      return toHex(chain.head);
    case 'eth_getBlockByNumber': {
      const block = chain.rawBlock(blockTag(chain, params[0]) as bigint);
      if (block && params[1] !== true) block.transactions = (block.transactions as Json[]).map((tx) => tx.hash);
      return block;
    }
    case 'eth_getLogs': {
      const filter = (params[0] ?? {}) as { fromBlock?: unknown; toBlock?: unknown; address?: unknown; topics?: unknown[] };
      const from = blockTag(chain, filter.fromBlock) as bigint;
      const to = blockTag(chain, filter.toBlock) as bigint;
      if (to < from) throw new RpcFault(-32602, 'invalid block range params');
      const addresses = filter.address === undefined || filter.address === null ? null : (Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => String(a).toLowerCase());
      const topics = filter.topics ?? [];
      return chain.rawLogs(from, to).filter((log) => {
        if (addresses && !addresses.includes(String(log.address).toLowerCase())) return false;
        const logTopics = log.topics as string[];
        return topics.every((wanted, i) => topicMatches(wanted, logTopics[i]));
      });
    }
    case 'eth_call':
      return ethCall(params);
    default:
      throw new RpcFault(-32601, `the method ${method} does not exist/is not available`);
  }
}

/**
 * Serves `chain` over HTTP JSON-RPC on 127.0.0.1 (a random port): eth_chainId (mainnet, 0x1),
 * eth_blockNumber, eth_getBlockByNumber (a number, 'latest'/'pending' = head, 'safe' = head - 32,
 * 'finalized' = head - 64, 'earliest' = the first block; null beyond the head, as a node answers),
 * eth_getLogs (fromBlock/toBlock, address, topics), eth_call (decimals()/symbol()/name() of
 * REPLAY_TOKENS; "0x" for other addresses). Single requests and batches. `failNext`, `hangNext`
 * and `rpcErrorNext` script faults for the client's tests.
 */
export function startReplayRpcServer(chain: ReplayChain, opts: { failNext?: { count: number; status: number } } = {}): Promise<ReplayRpcServer> {
  const requests: ReplayRpcServer['requests'] = [];
  const faults: ({ kind: 'status'; status: number } | { kind: 'hang' } | { kind: 'rpc'; code: number; message: string })[] = [];
  if (opts.failNext) for (let i = 0; i < opts.failNext.count; i++) faults.push({ kind: 'status', status: opts.failNext.status });
  const hanging = new Set<ServerResponse>();

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const fault = faults.shift();
    if (fault?.kind === 'hang') {
      hanging.add(res);
      return;
    }
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (fault.status === 429 || fault.status === 503) headers['retry-after'] = '0';
      res.writeHead(fault.status, headers).end(`replay: scripted HTTP ${fault.status}`);
      return;
    }
    const send = (payload: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    }
    const batch = Array.isArray(parsed);
    const calls = (batch ? parsed : [parsed]) as RpcRequest[];
    if (batch && calls.length === 0) return send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
    const answers = calls.map((call) => {
      const id = call?.id ?? null;
      const method = typeof call?.method === 'string' ? call.method : '';
      const params = Array.isArray(call?.params) ? call.params : [];
      requests.push({ method, params, batch: batch ? calls.length : 0 });
      if (fault?.kind === 'rpc') return { jsonrpc: '2.0', id, error: { code: fault.code, message: fault.message } };
      try {
        if (!method) throw new RpcFault(-32600, 'invalid request');
        return { jsonrpc: '2.0', id, result: answer(chain, method, params) };
      } catch (error) {
        const code = error instanceof RpcFault ? error.code : -32603;
        return { jsonrpc: '2.0', id, error: { code, message: error instanceof Error ? error.message : String(error) } };
      }
    });
    send(batch ? answers : answers[0]);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });

  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        failNext: (n, status) => {
          for (let i = 0; i < n; i++) faults.push({ kind: 'status', status });
        },
        hangNext: (n) => {
          for (let i = 0; i < n; i++) faults.push({ kind: 'hang' });
        },
        rpcErrorNext: (n, code, message) => {
          for (let i = 0; i < n; i++) faults.push({ kind: 'rpc', code, message });
        },
        close: () =>
          new Promise<void>((done) => {
            for (const res of hanging) res.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
