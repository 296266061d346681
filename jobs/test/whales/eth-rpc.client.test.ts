import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { parseBlock, parseTransferLogs } from '../../src/whales/eth.parse';
import { ETH_RPC_SOURCE, EthRpcClient, EthRpcError, type EthRpcClientOptions } from '../../src/whales/eth-rpc.client';
import { REPLAY_FINALIZED_DEPTH, REPLAY_TOKENS, ReplayChain, startReplayRpcServer, type ReplayRpcServer } from '../../src/whales/eth-replay';

const FIRST = 20_000_000n;
const ALICE = '0x1111111111111111111111111111111111111111';
const BOB = '0x2222222222222222222222222222222222222222';

let chain: ReplayChain;
let node: ReplayRpcServer;
const client = (opts: Partial<EthRpcClientOptions> = {}) => new EthRpcClient({ url: node.url, kind: 'replay', backoffMs: 5, timeoutMs: 2000, ...opts });
const rejection = async (promise: Promise<unknown>): Promise<EthRpcError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EthRpcError);
  return error as EthRpcError;
};

beforeAll(async () => {
  chain = ReplayChain.fromRecordings({ firstNumber: FIRST, length: 100, seed: 'client-test' });
  node = await startReplayRpcServer(chain);
});
afterAll(() => node.close());
beforeEach(() => {
  node.requests.length = 0;
});

describe('replay chain', () => {
  it('links recorded blocks into a chain: renumbered, new hashes, parentHash of the block before, 12 s apart, unique transaction hashes', () => {
    const a = parseBlock(chain.rawBlock(FIRST + 10n));
    const b = parseBlock(chain.rawBlock(FIRST + 11n));
    expect(b).toMatchObject({ number: FIRST + 11n, parentHash: a.hash, timestamp: a.timestamp + 12, transactionCount: 14, baseFeePerGas: 0x42110b4f7n });
    expect(a.hash).not.toBe(b.hash);
    expect(new Set([...a.nativeTransfers, ...b.nativeTransfers].map((t) => t.txHash)).size).toBe(14);
    expect(chain.rawBlock(chain.head + 1n)).toBeNull();
  });

  it('carries the recorded receipts\' 3 ERC-20 Transfers in every block, re-pointed at its transactions', () => {
    const n = FIRST + 5n;
    const transfers = parseTransferLogs(chain.rawLogs(n, n));
    const txHashes = (chain.rawBlock(n)?.transactions as { hash: string }[]).map((tx) => tx.hash);
    expect(transfers.map((t) => t.token)).toEqual([
      '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
      '0x01f6f4d612649741c895c1dacdbc98f359594d43',
      '0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce',
    ]);
    expect(transfers.map((t) => t.txHash)).toEqual([txHashes[2], txHashes[2], txHashes[12]]);
  });

  it('reorganizes the tip: new hashes above the unchanged parent, the dropped transaction and its log gone', () => {
    const own = ReplayChain.fromRecordings({ firstNumber: 1000n, length: 10, seed: 'reorg' });
    const tx = own.withTransfer(1008n, { token: REPLAY_TOKENS[0].address, from: ALICE, to: BOB, rawAmount: 5n });
    const before = [1007n, 1008n, 1009n].map((n) => parseBlock(own.rawBlock(n)));
    own.reorg(2, { dropTxHash: tx });
    const after = [1007n, 1008n, 1009n].map((n) => parseBlock(own.rawBlock(n)));
    expect(after[0].hash).toBe(before[0].hash);
    expect(after[1]).toMatchObject({ parentHash: before[0].hash, transactionCount: 14 });
    expect(after[1].hash).not.toBe(before[1].hash);
    expect(after[2].parentHash).toBe(after[1].hash);
    expect(parseTransferLogs(own.rawLogs(1008n, 1008n)).map((t) => t.txHash)).not.toContain(tx);
    expect(() => own.reorg(1, { dropTxHash: tx })).toThrow(/is not in the last 1 blocks/);
  });
});

describe('EthRpcClient against the replay node', () => {
  it('reads the head and the finalized block (head - 64)', async () => {
    expect(await client().head('latest')).toBe(chain.head);
    expect(await client().head('finalized')).toBe(chain.head - REPLAY_FINALIZED_DEPTH);
    expect(node.requests.map((r) => r.method)).toEqual(['eth_blockNumber', 'eth_getBlockByNumber']);
  });

  it('fetches blocks in one JSON-RPC batch, in the order asked', async () => {
    const numbers = [FIRST + 3n, FIRST + 1n, FIRST + 2n];
    const blocks = await client().blocks(numbers);
    expect(blocks.map((b) => b.number)).toEqual(numbers);
    expect(blocks[0]).toEqual(parseBlock(chain.rawBlock(FIRST + 3n)));
    expect(node.requests).toEqual(numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true], batch: 3 })));
  });

  it('splits a long list into batches of maxBatch, taking a rate-limit token before each HTTP request', async () => {
    let tokens = 0;
    const blocks = await client({ maxBatch: 2, acquire: async () => void tokens++ }).blocks([0n, 1n, 2n, 3n, 4n].map((i) => FIRST + i));
    expect(blocks).toHaveLength(5);
    expect(node.requests.map((r) => r.batch)).toEqual([2, 2, 2, 2, 1]);
    expect(tokens).toBe(3);
  });

  it('fails with a retryable "block N missing" when the node has no such block yet', async () => {
    const error = await rejection(client().blocks([chain.head, chain.head + 1n]));
    expect(error.message).toBe(`block ${chain.head + 1n} missing`);
    expect(error.retryable).toBe(true);
  });

  it('reads the Transfer logs of a range (topic0 filter), ERC-20 and added ones included', async () => {
    const n = FIRST + 40n;
    const tx = chain.withTransfer(n, { token: REPLAY_TOKENS[1].address, from: ALICE, to: BOB, rawAmount: 10n ** 20n });
    const transfers = await client().transferLogs(n - 1n, n);
    expect(node.requests[0].params[0]).toEqual({ fromBlock: `0x${(n - 1n).toString(16)}`, toBlock: `0x${n.toString(16)}`, topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'] });
    expect(transfers).toHaveLength(7);
    expect(transfers[6]).toMatchObject({ txHash: tx, token: REPLAY_TOKENS[1].address, from: ALICE, to: BOB, rawAmount: 10n ** 20n, blockNumber: n, logIndex: 6 });
  });

  it('backs off and retries after HTTP 429 and 5xx, then answers', async () => {
    node.failNext(1, 429);
    node.failNext(2, 502);
    const started = Date.now();
    expect(await client({ backoffMs: 20 }).head('latest')).toBe(chain.head);
    // 429 said Retry-After: 0; the two 502s waited 20 ms then 40 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(node.requests.map((r) => r.method)).toEqual(['eth_blockNumber']);
  });

  it('gives up after its retries with a retryable error naming the status, and does not retry a 4xx', async () => {
    node.failNext(4, 503);
    const exhausted = await rejection(client({ retries: 3 }).head('latest'));
    expect(exhausted).toMatchObject({ retryable: true, status: 503, message: expect.stringMatching(/^eth_blockNumber at http:\/\/127\.0\.0\.1:\d+: HTTP 503$/) });
    node.failNext(1, 401);
    expect(await rejection(client().head('latest'))).toMatchObject({ retryable: false, status: 401 });
    expect(await client().head('latest')).toBe(chain.head);
  });

  it('ends a request the node does not answer in time (retryable, not retried within the call)', async () => {
    node.hangNext(1);
    const error = await rejection(client({ timeoutMs: 150 }).blocks([FIRST]));
    expect(error.message).toMatch(/no answer within 150 ms/);
    expect(error).toMatchObject({ retryable: true, timedOut: true });
    expect(await client().head('latest')).toBe(chain.head);
  });

  it('retries a rate-limit JSON-RPC error (-32005), but not an unknown method (-32601)', async () => {
    node.rpcErrorNext(1, -32005, 'limit exceeded');
    expect(await client().head('latest')).toBe(chain.head);
    node.rpcErrorNext(1, -32601, 'the method eth_blockNumber does not exist/is not available');
    const error = await rejection(client().head('latest'));
    expect(error).toMatchObject({ retryable: false, rpcCode: -32601, message: 'eth_blockNumber: JSON-RPC error -32601: the method eth_blockNumber does not exist/is not available' });
  });

  it('fails without retrying on a malformed answer, naming the field', async () => {
    let calls = 0;
    const broken: typeof fetch = async (input, init) => {
      calls++;
      const response = await fetch(input, init);
      const body = (await response.json()) as { result: Record<string, unknown> }[];
      body[0].result.parentHash = '0x12';
      return new Response(JSON.stringify(body), { status: 200 });
    };
    const error = await rejection(client({ fetch: broken }).blocks([FIRST]));
    expect(error).toMatchObject({ retryable: false, message: `eth_getBlockByNumber(${FIRST}): malformed answer: block.parentHash: expected 32-byte hex` });
    const notJson: typeof fetch = async () => (calls++, new Response('<html>gateway</html>', { status: 200 }));
    expect(await rejection(client({ fetch: notJson }).head('latest'))).toMatchObject({ retryable: false, message: 'eth_blockNumber: the answer is not JSON' });
    expect(calls).toBe(2);
  });

  it('answers eth_call (a replay token\'s decimals())', async () => {
    expect(await client().call(REPLAY_TOKENS[0].address, '0x313ce567')).toBe(`0x${'0'.repeat(63)}6`);
  });
});

describe('source health (PostgreSQL)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it("records failures and successes under 'ethereum-rpc', with the newest block's time", async () => {
    const clock = fixedClock('2026-01-05T12:00:00Z');
    const monitored = client({ health: { dataSource: db.dataSource, clock }, retries: 0 });
    node.failNext(1, 503);
    await rejection(monitored.head('latest'));
    const [failed] = await db.dataSource.query(`SELECT * FROM source_health WHERE source = $1`, [ETH_RPC_SOURCE]);
    expect(failed).toMatchObject({ consecutive_failures: 1, last_error: expect.stringMatching(/HTTP 503/) });
    clock.advance(60_000);
    const [block] = await monitored.blocks([FIRST + 2n]);
    const [ok] = await db.dataSource.query(`SELECT * FROM source_health WHERE source = $1`, [ETH_RPC_SOURCE]);
    expect(ok).toMatchObject({ consecutive_failures: 0, last_success_at: new Date('2026-01-05T12:01:00Z'), last_data_at: new Date(block.timestamp * 1000), details: { kind: 'replay' } });
  });
});
