import { hexToBigInt, isHex, toHex, type Address, type Hex } from 'viem';
import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import { EthParseError, TRANSFER_TOPIC, parseBlock, parseTransferLogs, type ParsedBlock, type ParsedTransfer } from './eth.parse';

/** Where blocks come from: a real node, the replay twin (recorded blocks, eth-replay.ts), or a simulation. */
export type EthSourceKind = 'live' | 'replay' | 'simulated';

/** The source_health row of the Ethereum node. */
export const ETH_RPC_SOURCE = 'ethereum-rpc';

export interface EthSource {
  readonly kind: EthSourceKind;
  /** The number of the newest ('latest') or the finalized block. */
  head(tag: 'latest' | 'finalized'): Promise<bigint>;
  /** Blocks with full transactions, in the order asked, in JSON-RPC batches; a block the node does not have yet fails (retryable). */
  blocks(numbers: readonly bigint[]): Promise<ParsedBlock[]>;
  /** ERC-20 Transfer logs of fromBlock..toBlock (inclusive). */
  transferLogs(fromBlock: bigint, toBlock: bigint): Promise<ParsedTransfer[]>;
  /** eth_call at 'latest' (token metadata). */
  call(to: Address, data: Hex): Promise<Hex>;
}

/**
 * A failed node request. `retryable`: the same request may succeed later (timeout, HTTP 429 or
 * 5xx, a node's rate limit or transient JSON-RPC error, a block the node does not have yet);
 * false when the answer itself is wrong (malformed JSON, a block that does not parse, a
 * refused method or bad params), which no retry fixes.
 */
export class EthRpcError extends Error {
  readonly retryable: boolean;
  readonly status?: number;
  readonly rpcCode?: number;
  /** The node's Retry-After, when it sent one. */
  readonly retryAfterMs?: number;
  /** No answer within the client's timeout. */
  readonly timedOut: boolean;

  constructor(
    message: string,
    retryable: boolean,
    details: { status?: number; rpcCode?: number; retryAfterMs?: number; timedOut?: boolean; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'EthRpcError';
    this.retryable = retryable;
    this.status = details.status;
    this.rpcCode = details.rpcCode;
    this.retryAfterMs = details.retryAfterMs;
    this.timedOut = details.timedOut ?? false;
  }
}

/**
 * JSON-RPC error codes worth retrying: -32005 limit exceeded (EIP-1474; providers' rate limits),
 * -32603 internal error, -32002 resource unavailable. -32000 is geth's catch-all: only its
 * transient messages ("header not found" on a lagging node, timeouts) are retried.
 */
const RETRYABLE_RPC_CODES = new Set([-32005, -32603, -32002]);
const TRANSIENT_MESSAGE = /header not found|timeout|timed out|rate|too many|busy|try again|unavailable/i;

function rpcErrorIsRetryable(code: number | undefined, message: string): boolean {
  if (code !== undefined && RETRYABLE_RPC_CODES.has(code)) return true;
  return code === -32000 && TRANSIENT_MESSAGE.test(message);
}

export interface EthRpcClientOptions {
  url: string;
  kind?: EthSourceKind;
  /** Per HTTP request (default 10 s). A timeout is not retried within the call (it already waited): the error is retryable. */
  timeoutMs?: number;
  /** Most JSON-RPC calls per HTTP batch (default 50); larger block lists go in several batches. */
  maxBatch?: number;
  /** Awaited before every HTTP request: the shared rate limit (e.g. a Redis token bucket) of the deployment. */
  acquire?: () => Promise<void>;
  /** Records each call's success or failure in source_health under 'ethereum-rpc'. */
  health?: SourceHealthDeps;
  fetch?: typeof fetch;
  /** Retries within one call after HTTP 429/5xx or a retryable JSON-RPC error (default 3). */
  retries?: number;
  /** The first retry's delay (default 500 ms), doubled on each retry; a Retry-After header wins (capped at 30 s). */
  backoffMs?: number;
}

interface RpcCall {
  method: string;
  params: unknown[];
}

type RpcAnswer = { ok: true; result: unknown } | { ok: false; code?: number; message: string };

const MAX_RETRY_AFTER_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL without credentials or query (providers put API keys in the path too: only the origin is shown). */
function shownUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the node';
  }
}

/**
 * An Ethereum node over HTTP JSON-RPC (any provider or a local node; the replay twin serves the
 * same protocol). Blocks are fetched in JSON-RPC batches; HTTP 429/5xx and transient JSON-RPC
 * errors are retried a few times with exponential backoff inside the call; every answer is
 * parsed by the pure parsers (eth.parse.ts). The URL is never logged or put in errors beyond its
 * origin, since providers embed API keys in it.
 */
export class EthRpcClient implements EthSource {
  readonly kind: EthSourceKind;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxBatch: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private nextId = 1;

  constructor(private readonly opts: EthRpcClientOptions) {
    this.kind = opts.kind ?? 'live';
    this.fetchImpl = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.maxBatch = Math.max(1, opts.maxBatch ?? 50);
    this.retries = Math.max(0, opts.retries ?? 3);
    this.backoffMs = opts.backoffMs ?? 500;
  }

  async head(tag: 'latest' | 'finalized'): Promise<bigint> {
    return this.withHealth(async () => {
      if (tag === 'latest') return this.quantity(await this.single({ method: 'eth_blockNumber', params: [] }), 'eth_blockNumber');
      const block = await this.single({ method: 'eth_getBlockByNumber', params: ['finalized', false] });
      if (block === null) throw new EthRpcError('eth_getBlockByNumber(finalized): the node has no finalized block', false);
      return this.quantity((block as { number?: unknown }).number, 'eth_getBlockByNumber(finalized).number');
    });
  }

  async blocks(numbers: readonly bigint[]): Promise<ParsedBlock[]> {
    if (numbers.length === 0) return [];
    return this.withHealth(
      async () => {
        const out: ParsedBlock[] = [];
        for (let i = 0; i < numbers.length; i += this.maxBatch) {
          const chunk = numbers.slice(i, i + this.maxBatch);
          const answers = await this.batch(chunk.map((n) => ({ method: 'eth_getBlockByNumber', params: [toHex(n), true] })));
          chunk.forEach((n, j) => {
            const result = answers[j];
            // A node behind a load balancer may not have the block yet: ask again later.
            if (result === null) throw new EthRpcError(`block ${n} missing`, true);
            let block: ParsedBlock;
            try {
              block = parseBlock(result);
            } catch (error) {
              throw this.malformed(`eth_getBlockByNumber(${n})`, error);
            }
            if (block.number !== n) throw new EthRpcError(`eth_getBlockByNumber(${n}): the node answered block ${block.number}`, false);
            out.push(block);
          });
        }
        return out;
      },
      (blocks) => (blocks.length ? new Date(blocks[blocks.length - 1].timestamp * 1000) : null),
    );
  }

  async transferLogs(fromBlock: bigint, toBlock: bigint): Promise<ParsedTransfer[]> {
    return this.withHealth(async () => {
      const logs = await this.single({ method: 'eth_getLogs', params: [{ fromBlock: toHex(fromBlock), toBlock: toHex(toBlock), topics: [TRANSFER_TOPIC] }] });
      if (!Array.isArray(logs)) throw new EthRpcError(`eth_getLogs(${fromBlock}..${toBlock}): expected an array of logs`, false);
      try {
        return parseTransferLogs(logs);
      } catch (error) {
        throw this.malformed(`eth_getLogs(${fromBlock}..${toBlock})`, error);
      }
    });
  }

  /** Not recorded in source_health: a contract that reverts (not a token) says nothing about the node. */
  async call(to: Address, data: Hex): Promise<Hex> {
    const result = await this.single({ method: 'eth_call', params: [{ to, data }, 'latest'] });
    if (typeof result !== 'string' || !isHex(result, { strict: true })) throw new EthRpcError(`eth_call(${to}): expected hex data`, false);
    return result;
  }

  private malformed(what: string, error: unknown): EthRpcError {
    const message = error instanceof EthParseError ? error.message : String(error);
    return new EthRpcError(`${what}: malformed answer: ${message}`, false, { cause: error });
  }

  private quantity(value: unknown, what: string): bigint {
    if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length < 3) throw new EthRpcError(`${what}: expected a hex quantity`, false);
    return hexToBigInt(value);
  }

  private async withHealth<T>(run: () => Promise<T>, dataAt: (value: T) => Date | null = () => null): Promise<T> {
    const health = this.opts.health;
    if (!health) return run();
    let value: T;
    try {
      value = await run();
    } catch (error) {
      await recordSourceHealth(health, ETH_RPC_SOURCE, { ok: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await recordSourceHealth(health, ETH_RPC_SOURCE, { ok: true, dataAt: dataAt(value), details: { kind: this.kind } });
    return value;
  }

  private async single(call: RpcCall): Promise<unknown> {
    return (await this.batch([call], false))[0];
  }

  /** Sends the calls (one HTTP request: a batch, or a single call) and answers their results in order. */
  private async batch(calls: RpcCall[], asBatch = true): Promise<unknown[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(calls, asBatch);
      } catch (error) {
        if (!(error instanceof EthRpcError) || !error.retryable || error.timedOut || attempt >= this.retries) throw error;
        await sleep(error.retryAfterMs ?? this.backoffMs * 2 ** attempt);
      }
    }
  }

  private async attempt(calls: RpcCall[], asBatch: boolean): Promise<unknown[]> {
    const what = calls.length === 1 ? calls[0].method : `batch of ${calls.length} ${calls[0].method}`;
    const requests = calls.map((call) => ({ jsonrpc: '2.0', id: this.nextId++, method: call.method, params: call.params }));
    if (this.opts.acquire) await this.opts.acquire();
    let response: Response;
    try {
      response = await this.fetchImpl(this.opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(asBatch ? requests : requests[0]),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new EthRpcError(`${what} at ${shownUrl(this.opts.url)}: ${timedOut ? `no answer within ${this.timeoutMs} ms` : (message ?? String(error))}`, true, {
        cause: error,
        timedOut,
      });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new EthRpcError(`${what}: the answer was cut off`, true, { cause: error });
    }
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      // Retry-After in seconds (the HTTP-date form is rare from nodes: the exponential delay applies then).
      const header = response.headers.get('retry-after');
      const seconds = header === null || header.trim() === '' ? NaN : Number(header);
      const retryAfterMs = retryable && Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
      throw new EthRpcError(`${what} at ${shownUrl(this.opts.url)}: HTTP ${response.status}`, retryable, { status: response.status, retryAfterMs });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new EthRpcError(`${what}: the answer is not JSON`, false, { cause: error });
    }
    // A provider may answer a whole batch with one error object (too large, rate limited).
    const members = Array.isArray(body) ? body : [body];
    if (asBatch && !Array.isArray(body)) this.throwIfError(what, this.answerOf(body));
    const byId = new Map<unknown, RpcAnswer>();
    for (const member of members) byId.set((member as { id?: unknown } | null)?.id, this.answerOf(member));
    return requests.map((request) => {
      const answer = byId.get(request.id);
      if (!answer) throw new EthRpcError(`${what}: no answer for request ${request.id} (${request.method})`, false);
      this.throwIfError(request.method, answer);
      return (answer as { result: unknown }).result;
    });
  }

  private answerOf(member: unknown): RpcAnswer {
    if (member === null || typeof member !== 'object') return { ok: false, message: 'expected a JSON-RPC response object' };
    const { error, result } = member as { error?: { code?: unknown; message?: unknown } | null; result?: unknown };
    if (error !== undefined && error !== null) {
      return { ok: false, code: typeof error.code === 'number' ? error.code : undefined, message: typeof error.message === 'string' ? error.message : JSON.stringify(error) };
    }
    if (!('result' in member)) return { ok: false, message: 'neither result nor error' };
    return { ok: true, result };
  }

  private throwIfError(what: string, answer: RpcAnswer): void {
    if (answer.ok) return;
    if (answer.code === undefined && (answer.message === 'neither result nor error' || answer.message === 'expected a JSON-RPC response object')) {
      throw new EthRpcError(`${what}: malformed answer: ${answer.message}`, false);
    }
    throw new EthRpcError(`${what}: JSON-RPC error ${answer.code ?? '?'}: ${answer.message}`, rpcErrorIsRetryable(answer.code, answer.message), { rpcCode: answer.code });
  }
}
