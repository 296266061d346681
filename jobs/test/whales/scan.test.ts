import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import type { Address, Hex } from 'viem';
import { fixedClock } from '../../src/runtime/clock';
import { parseBlock, parseTransferLogs } from '../../src/whales/eth.parse';
import { EthRpcClient, EthRpcError, type EthSource } from '../../src/whales/eth-rpc.client';
import { ReplayChain, startReplayRpcServer, type ReplayRpcServer } from '../../src/whales/eth-replay';
import { scanStep, type ScanOptions, type ScanOutcome, type TokenResolver, type WhalesScanContext } from '../../src/whales/whales-scan';
import { readCheckpoint, transfersOfTx } from '../../src/whales/whales.store';
import { DefiLlamaCoinsClient, startCoinsReplayServer, type CoinsReplayServer } from '../../src/whales/defillama-coins.client';
import { createWhalesPricer } from '../../src/whales/whales-pricing';
import { REPLAY_TOKENS } from '../../src/whales/eth-replay';

// A replay node (the recorded London block and the recorded receipts' Transfer logs, renumbered:
// eth-replay.ts) on a local port, the real EthRpcClient, and the real database. Each test scans
// its own chain name, so they share one database.

const EXCHANGE: Address = '0x28c6c06298d514db089934071355e5743bf21d60';
const WHALE: Address = '0x00000000219ab540356cbb839cbe05303d7705fa';
const tokens: TokenResolver = async () => ({ symbol: null, decimals: null });

let db: TestDatabase;
const servers: ReplayRpcServer[] = [];
let coins: CoinsReplayServer | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.dataSource.query(`INSERT INTO whale_addresses (address, label, address_type, exchange_name) VALUES ($1, 'Binance 14', 'exchange', 'Binance')`, [EXCHANGE]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await coins?.close();
  await db.drop();
});

async function node(firstNumber: bigint, length: number): Promise<{ chain: ReplayChain; server: ReplayRpcServer; client: EthRpcClient }> {
  const chain = ReplayChain.fromRecordings({ firstNumber, length });
  const server = await startReplayRpcServer(chain);
  servers.push(server);
  return { chain, server, client: new EthRpcClient({ url: server.url, kind: 'replay', backoffMs: 1, retries: 1 }) };
}

const context = (chain: string, overrides: Partial<WhalesScanContext> = {}): WhalesScanContext => ({
  dataSource: db.dataSource,
  clock: fixedClock('2025-06-01T12:00:00Z'),
  tokens,
  globalUsdThreshold: 1_000_000,
  chain,
  ...overrides,
});

/** Transfers the node holds in block n (native value transfers and ERC-20 Transfer logs). */
const transfersIn = (chain: ReplayChain, n: bigint) => parseBlock(chain.rawBlock(n)).nativeTransfers.length + parseTransferLogs(chain.rawLogs(n, n)).length;

async function scanUntilIdle(ctx: WhalesScanContext, source: EthSource, opts: ScanOptions): Promise<ScanOutcome[]> {
  const outcomes: ScanOutcome[] = [];
  for (let i = 0; i < 100; i++) {
    const outcome = await scanStep(ctx, source, opts);
    outcomes.push(outcome);
    if (outcome.status === 'idle') return outcomes;
  }
  throw new Error('the scanner never caught up');
}

const stored = async (chain: string) => {
  const blocks: { number: string; hash: string; transfers_count: number }[] = await db.dataSource.query(
    `SELECT number, hash, transfers_count FROM whale_blocks WHERE chain = $1 ORDER BY number`,
    [chain],
  );
  const [{ n, distinct }] = await db.dataSource.query(
    `SELECT count(*)::int AS n, count(DISTINCT (hash, log_index))::int AS distinct FROM whale_transactions WHERE chain = $1`,
    [chain],
  );
  return { blocks, transfers: n as number, distinctTransfers: distinct as number };
};

describe('scanStep', () => {
  it('catches up from WHALES_START_BLOCK in bounded batches, stays `confirmations` behind the head, and follows new blocks', async () => {
    const { chain, client } = await node(1000n, 30); // head 1029
    // A labelled sender of block 1016: the blocks holding it hand it to their alerts job (the filter's hits).
    const labelled = (chain.rawBlock(1016n)!.transactions as { from: string; value: string }[]).find((t) => BigInt(t.value) > 0n)!.from.toLowerCase();
    await db.dataSource.query(`INSERT INTO whale_addresses (address, label) VALUES ($1, 'scan test') ON CONFLICT DO NOTHING`, [labelled]);
    const ctx = context('catch-up');
    const outcomes = await scanUntilIdle(ctx, client, { confirmations: 12, maxBatch: 5, startBlock: 1000n });

    expect(outcomes).toEqual([
      { status: 'scanned', from: 1000, to: 1004, target: 1017, blocks: 5, transfers: expect.any(Number), recorded: expect.any(Array) },
      { status: 'scanned', from: 1005, to: 1009, target: 1017, blocks: 5, transfers: expect.any(Number), recorded: expect.any(Array) },
      { status: 'scanned', from: 1010, to: 1014, target: 1017, blocks: 5, transfers: expect.any(Number), recorded: expect.any(Array) },
      { status: 'scanned', from: 1015, to: 1017, target: 1017, blocks: 3, transfers: expect.any(Number), recorded: [1015n, 1016n, 1017n].map((n) => ({ number: String(n), hash: chain.hashOf(n), addresses: expect.any(Array) })) },
      { status: 'idle', target: 1017, checkpoint: 1017 },
    ]);
    // Each recorded block names exactly its addresses that whale_addresses holds.
    for (const outcome of outcomes) {
      for (const block of outcome.status === 'scanned' ? outcome.recorded : []) {
        const expected: { address: string }[] = await db.dataSource.query(
          `SELECT DISTINCT a.address FROM whale_transactions t JOIN whale_addresses a ON a.address IN (t.from_address, t.to_address)
           WHERE t.block_hash = $1 ORDER BY 1`,
          [block.hash],
        );
        expect([...block.addresses].sort()).toEqual(expected.map((r) => r.address));
      }
    }
    expect((outcomes[3] as { recorded: { addresses: string[] }[] }).recorded[1].addresses).toContain(labelled);
    const perBlock = transfersIn(chain, 1000n);
    expect(perBlock).toBeGreaterThan(3); // the recorded block's value transfers and 3 ERC-20 Transfer logs
    const { blocks, transfers, distinctTransfers } = await stored('catch-up');
    expect(blocks.map((b) => Number(b.number))).toEqual(Array.from({ length: 18 }, (_, i) => 1000 + i));
    expect(blocks.every((b, i) => b.hash === chain.hashOf(1000n + BigInt(i)) && b.transfers_count === perBlock)).toBe(true);
    expect([transfers, distinctTransfers]).toEqual([18 * perBlock, 18 * perBlock]);
    expect(await readCheckpoint(db.dataSource, 'catch-up')).toEqual({ number: 1017n, hash: chain.hashOf(1017n) });

    chain.append(2);
    expect(await scanStep(ctx, client, { confirmations: 12, maxBatch: 5 })).toMatchObject({ status: 'scanned', from: 1018, to: 1019, target: 1019 });
  });

  it('starts at the confirmed head when there is no checkpoint and no start block', async () => {
    const { client } = await node(5000n, 20); // head 5019
    expect(await scanStep(context('fresh'), client, { confirmations: 12 })).toMatchObject({ status: 'scanned', from: 5007, to: 5007, target: 5007 });
    expect(await scanStep(context('fresh'), client, { confirmations: 12 })).toEqual({ status: 'idle', target: 5007, checkpoint: 5007 });
  });

  it('follows the finalized tag instead of a number of confirmations', async () => {
    const { client } = await node(6000n, 100); // head 6099, finalized 6035
    expect(await scanStep(context('finalized'), client, { finalized: true, confirmations: 1 })).toMatchObject({ status: 'scanned', from: 6035, to: 6035 });
  });

  it('rolls back a 2-block reorg: the orphaned whale transfer is removed, the rescan records the new blocks once', async () => {
    const { chain, client } = await node(2000n, 10); // head 2009
    const ctx = context('reorg');
    const orphaned = chain.withTransfer(2009n, { token: null, from: WHALE, to: EXCHANGE, rawAmount: 5000n * 10n ** 18n });
    const kept = chain.withTransfer(2008n, { token: '0x7e57000000000000000000000000000000000001', from: EXCHANGE, to: WHALE, rawAmount: 10n ** 12n });
    await scanUntilIdle(ctx, client, { confirmations: 0, maxBatch: 50, startBlock: 2000n });
    expect(await transfersOfTx(db.dataSource, orphaned, 'reorg')).toEqual([
      expect.objectContaining({ logIndex: null, token: null, tokenSymbol: 'ETH', from: WHALE, to: EXCHANGE, rawAmount: '5000000000000000000000', amount: '5000', transactionType: 'exchange_inflow', blockNumber: '2009' }),
    ]);
    expect(await transfersOfTx(db.dataSource, kept, 'reorg')).toEqual([expect.objectContaining({ transactionType: 'exchange_outflow', blockHash: chain.hashOf(2008n) })]);

    chain.reorg(2, { dropTxHash: orphaned });
    chain.append(1);
    const outcome = await scanStep(ctx, client, { confirmations: 0 });
    expect(outcome).toEqual({ status: 'reorg', reorg: 2, rolledBackFrom: 2008, blocks: 0, transfers: 0, recorded: [] });
    expect(await transfersOfTx(db.dataSource, orphaned, 'reorg')).toEqual([]);
    expect(await readCheckpoint(db.dataSource, 'reorg')).toEqual({ number: 2007n, hash: chain.hashOf(2007n) });
    expect((await stored('reorg')).blocks.map((b) => Number(b.number)).at(-1)).toBe(2007);

    expect(await scanStep(ctx, client, { confirmations: 0 })).toMatchObject({ status: 'scanned', from: 2008, to: 2010, blocks: 3 });
    const after = await stored('reorg');
    expect(after.blocks.map((b) => [Number(b.number), b.hash])).toEqual(
      Array.from({ length: 11 }, (_, i) => [2000 + i, chain.hashOf(2000n + BigInt(i))]),
    );
    const expected = Array.from({ length: 11 }, (_, i) => transfersIn(chain, 2000n + BigInt(i))).reduce((a, b) => a + b, 0);
    expect([after.transfers, after.distinctTransfers]).toEqual([expected, expected]);
    expect(await transfersOfTx(db.dataSource, orphaned, 'reorg')).toEqual([]);
    // The re-included transfer now names the new block 2008.
    expect(await transfersOfTx(db.dataSource, kept, 'reorg')).toEqual([expect.objectContaining({ blockHash: chain.hashOf(2008n) })]);
  });

  it('resumes after a step failed half-way (a restart): nothing missed, nothing twice', async () => {
    const { chain, client } = await node(3000n, 40); // head 3039, target 3027
    const tokensPerBlock = new Set(parseTransferLogs(chain.rawLogs(3000n, 3000n)).map((t) => t.token)).size;
    let calls = 0;
    // The token lookup fails in the third block of the second batch: two blocks of it are recorded.
    const flaky: TokenResolver = async (token) => {
      if (++calls === 7 * tokensPerBlock + 1) throw new Error('token directory down');
      return tokens(token);
    };
    const opts = { confirmations: 12, maxBatch: 5, startBlock: 3000n };
    await expect(scanStep(context('restart', { tokens: flaky }), client, opts)).resolves.toMatchObject({ status: 'scanned', to: 3004 });
    await expect(scanStep(context('restart', { tokens: flaky }), client, opts)).rejects.toThrow('token directory down');
    expect(await readCheckpoint(db.dataSource, 'restart')).toEqual({ number: 3006n, hash: chain.hashOf(3006n) });

    // A new process: a new client and context, same database.
    const restarted = new EthRpcClient({ url: servers.at(-1)!.url, kind: 'replay' });
    const outcomes = await scanUntilIdle(context('restart'), restarted, opts);
    expect(outcomes[0]).toMatchObject({ status: 'scanned', from: 3007, to: 3011 });
    const { blocks, transfers, distinctTransfers } = await stored('restart');
    expect(blocks.map((b) => Number(b.number))).toEqual(Array.from({ length: 28 }, (_, i) => 3000 + i));
    expect([transfers, distinctTransfers]).toEqual([28 * transfersIn(chain, 3000n), 28 * transfersIn(chain, 3000n)]);
  });

  it('fails the step on a block the node does not have, without advancing the checkpoint', async () => {
    const { chain, client } = await node(4000n, 20); // head 4019
    const ctx = context('missing');
    await scanStep(ctx, client, { confirmations: 12, startBlock: 4000n });
    const before = await readCheckpoint(db.dataSource, 'missing');
    expect(before).toEqual({ number: 4007n, hash: chain.hashOf(4007n) });
    // A load-balanced provider: eth_blockNumber from a node 15 blocks ahead of the one serving blocks.
    const ahead: EthSource = { kind: client.kind, head: async () => chain.head + 15n, blocks: (n) => client.blocks(n), transferLogs: (f, t) => client.transferLogs(f, t), call: (to, data: Hex) => client.call(to, data) };
    const failure = await scanStep(ctx, ahead, { confirmations: 12, maxBatch: 50 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EthRpcError);
    expect((failure as EthRpcError).message).toMatch(/block 4020 missing/);
    expect((failure as EthRpcError).retryable).toBe(true);
    expect(await readCheckpoint(db.dataSource, 'missing')).toEqual(before);
    expect((await stored('missing')).blocks.map((b) => Number(b.number)).at(-1)).toBe(4007);
  });

  it('values transfers at block time (ETH from the stored bars, tokens from the coins twin) and flags those over the global USD threshold', async () => {
    const { chain, client } = await node(7000n, 3); // head 7002
    coins = await startCoinsReplayServer();
    const blockTime = new Date(parseBlock(chain.rawBlock(7001n)).timestamp * 1000);
    const [{ id }] = await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('ETHUSDT', 'Ethereum / Tether', 'crypto') RETURNING id`);
    await db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, source) VALUES ($1, '1m', $2, 2000, 2000, 2000, 2000, 'binance')`,
      [id, new Date(Math.floor(blockTime.getTime() / 60_000) * 60_000)],
    );
    const RPLY = REPLAY_TOKENS[0]; // 6 decimals, simulated at $2.5
    const big = chain.withTransfer(7001n, { token: null, from: WHALE, to: EXCHANGE, rawAmount: 500n * 10n ** 18n }); // $1,000,000.00 exactly
    const small = chain.withTransfer(7001n, { token: null, from: WHALE, to: EXCHANGE, rawAmount: 499n * 10n ** 18n });
    const token = chain.withTransfer(7001n, { token: RPLY.address, from: EXCHANGE, to: WHALE, rawAmount: 400_000n * 10n ** 6n }); // $1,000,000.00
    const recordedReceipt = parseTransferLogs(chain.rawLogs(7001n, 7001n)).find((t) => t.token === '0x01f6f4d612649741c895c1dacdbc98f359594d43')!.txHash;
    const pricer = createWhalesPricer({ db: db.dataSource, coins: new DefiLlamaCoinsClient({ baseUrl: coins.url, kind: 'replay' }) });
    const resolve: TokenResolver = async (address) => (address === RPLY.address ? { symbol: RPLY.symbol, decimals: RPLY.decimals } : { symbol: null, decimals: 18 });
    await scanStep(context('priced', { pricer, tokens: resolve }), client, { confirmations: 1, startBlock: 7001n });

    expect(await transfersOfTx(db.dataSource, big, 'priced')).toEqual([
      expect.objectContaining({ usdValue: '1000000.00', usdPrice: '2000.0000000000', priceSource: 'prices', priceConfidence: null, priceStatus: 'priced', isWhale: true }),
    ]);
    expect(await transfersOfTx(db.dataSource, small, 'priced')).toEqual([expect.objectContaining({ usdValue: '998000.00', isWhale: false })]);
    expect(await transfersOfTx(db.dataSource, token, 'priced')).toEqual([
      expect.objectContaining({ amount: '400000', usdValue: '1000000.00', priceSource: 'simulated', priceConfidence: '0.9900', transactionType: 'exchange_outflow', isWhale: true }),
    ]);
    // The receipt's WETH and SHIB are simulated offline; its third token has no price: said so.
    const rows = await transfersOfTx(db.dataSource, recordedReceipt, 'priced');
    expect(rows.map((r) => [r.usdValue === null, r.priceStatus, r.priceSource])).toEqual([
      [false, 'priced', 'simulated'],
      [true, 'unknown', null],
    ]);
  });
});
