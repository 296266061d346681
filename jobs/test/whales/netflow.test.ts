import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import type { Address, Hex } from 'viem';
import { keccak256, stringToHex } from 'viem';
import type { ParsedTransfer } from '../../src/whales/eth.parse';
import { importWhaleLabels } from '../../src/whales/whales-labels';
import { exchangeNetflows, netflowSeries, NetflowRangeError, recomputeNetflowRange } from '../../src/whales/whales-netflow.store';
import type { WhaleTransactionType } from '../../src/whales/whales.shapes';
import { recordBlock, rollbackFrom, type WhaleTransferRecord } from '../../src/whales/whales.store';

// whale_netflows kept exact by the store: the buckets a recorded block touches are recomputed in
// its transaction, those of rolled-back blocks in the rollback's. Real PostgreSQL.

const CHAIN = 'netflow-test';
const BINANCE_14: Address = '0x28c6c06298d514db089934071355e5743bf21d60';
const BINANCE_7: Address = '0xbe0eb53f46cd790cd13851d5eff43d12404d33e8';
const COINBASE_1: Address = '0x71660c4005ba85c37ccec55d0c4493e66fe775d3';
const WHALE: Address = '0x00000000219ab540356cbb839cbe05303d7705fa';
const USDC: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ETH = 10n ** 18n;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.dataSource.query(
    `INSERT INTO whale_addresses (address, label, address_type, exchange_name) VALUES
       ($1, 'Binance 14', 'exchange', 'Binance'), ($2, 'Binance 7', 'exchange', 'Binance'), ($3, 'Coinbase 1', 'exchange', 'Coinbase'),
       ($4, 'Kraken (inactive)', 'exchange', 'Kraken')`,
    [BINANCE_14, BINANCE_7, COINBASE_1, '0x2910543af39aba0cd09dbb2d50200b3e800a63d2'],
  );
  await db.dataSource.query(`UPDATE whale_addresses SET is_active = false WHERE exchange_name = 'Kraken'`);
});
afterAll(() => db.drop());

const hash = (...parts: (string | number | bigint)[]): Hex => keccak256(stringToHex(parts.join(':')));

let nextLog = 0;
function record(
  block: bigint,
  t: { token?: Address | null; from: Address; to: Address; raw: bigint; usd: string | null; decimals?: number; type?: WhaleTransactionType },
): WhaleTransferRecord {
  const transfer: ParsedTransfer = {
    txHash: hash('tx', block, nextLog),
    logIndex: t.token ? nextLog++ : (nextLog++, null),
    token: t.token ?? null,
    from: t.from,
    to: t.to,
    rawAmount: t.raw,
    blockNumber: block,
    blockHash: hash('block', block),
  };
  return {
    transfer,
    tokenSymbol: t.token ? 'USDC' : 'ETH',
    tokenDecimals: t.token ? (t.decimals ?? 6) : 18,
    transactionType: t.type ?? 'transfer',
    usdValue: t.usd,
    usdPrice: t.usd === null ? null : '2000',
    priceSource: t.usd === null ? null : 'prices',
    isWhale: false,
  };
}

async function scanBlock(number: bigint, at: string, records: WhaleTransferRecord[]) {
  await db.dataSource.transaction((manager) =>
    recordBlock(manager, CHAIN, { number, hash: hash('block', number), parentHash: hash('block', number - 1n), timestamp: Date.parse(at) / 1000 }, records),
  );
}

const rows = async (bucket: 'hour' | 'day') =>
  db.dataSource.query(
    `SELECT exchange_name, token_key, token_symbol, bucket_start, inflow_amount::text, outflow_amount::text, inflow_usd::text, outflow_usd::text,
            transfers, unpriced_transfers
       FROM whale_netflows WHERE chain = $1 AND bucket = $2 ORDER BY bucket_start, exchange_name, token_key`,
    [CHAIN, bucket],
  );

describe('whale_netflows', () => {
  it('sums inflows and outflows per exchange, token, hour and day; moves inside one exchange count for neither', async () => {
    await scanBlock(100n, '2025-05-01T10:15:00Z', [
      record(100n, { from: WHALE, to: BINANCE_14, raw: 10n * ETH, usd: '20000.00' }), // Binance inflow
      record(100n, { from: BINANCE_14, to: BINANCE_7, raw: 5n * ETH, usd: '10000.00' }), // internal: nothing
      record(100n, { from: BINANCE_14, to: COINBASE_1, raw: 2n * ETH, usd: '4000.00' }), // Binance outflow, Coinbase inflow
      record(100n, { token: USDC, from: COINBASE_1, to: WHALE, raw: 100_000_000n, usd: null }), // Coinbase outflow, unpriced
    ]);
    await scanBlock(101n, '2025-05-01T11:05:00Z', [record(101n, { from: WHALE, to: BINANCE_7, raw: 1n * ETH, usd: '2000.00' })]);

    const hour10 = new Date('2025-05-01T10:00:00Z');
    const hour11 = new Date('2025-05-01T11:00:00Z');
    expect(await rows('hour')).toEqual([
      { exchange_name: 'Binance', token_key: 'eth', token_symbol: 'ETH', bucket_start: hour10, inflow_amount: '10', outflow_amount: '2', inflow_usd: '20000.00', outflow_usd: '4000.00', transfers: 2, unpriced_transfers: 0 },
      { exchange_name: 'Coinbase', token_key: USDC, token_symbol: 'USDC', bucket_start: hour10, inflow_amount: '0', outflow_amount: '100', inflow_usd: '0.00', outflow_usd: '0.00', transfers: 1, unpriced_transfers: 1 },
      { exchange_name: 'Coinbase', token_key: 'eth', token_symbol: 'ETH', bucket_start: hour10, inflow_amount: '2', outflow_amount: '0', inflow_usd: '4000.00', outflow_usd: '0.00', transfers: 1, unpriced_transfers: 0 },
      { exchange_name: 'Binance', token_key: 'eth', token_symbol: 'ETH', bucket_start: hour11, inflow_amount: '1', outflow_amount: '0', inflow_usd: '2000.00', outflow_usd: '0.00', transfers: 1, unpriced_transfers: 0 },
    ]);
    expect((await rows('day')).map((r: Record<string, unknown>) => [r.exchange_name, r.token_key, r.inflow_usd, r.outflow_usd, r.transfers])).toEqual([
      ['Binance', 'eth', '22000.00', '4000.00', 3],
      ['Coinbase', USDC, '0.00', '0.00', 1],
      ['Coinbase', 'eth', '4000.00', '0.00', 1],
    ]);
  });

  it('a block adding to a bucket recomputes it; a rollback recomputes the buckets of the orphaned blocks', async () => {
    await scanBlock(102n, '2025-05-01T11:40:00Z', [record(102n, { from: WHALE, to: BINANCE_7, raw: 3n * ETH, usd: '6000.00' })]);
    expect((await rows('hour')).at(-1)).toMatchObject({ exchange_name: 'Binance', inflow_amount: '4', inflow_usd: '8000.00', transfers: 2 });
    expect((await rows('day'))[0]).toMatchObject({ exchange_name: 'Binance', inflow_usd: '28000.00', transfers: 4 });
    await db.dataSource.transaction((manager) => rollbackFrom(manager, CHAIN, 101n));
    expect((await rows('hour')).map((r: { bucket_start: Date }) => r.bucket_start.toISOString())).not.toContain('2025-05-01T11:00:00.000Z');
    const [binanceDay] = await rows('day');
    expect(binanceDay).toMatchObject({ exchange_name: 'Binance', inflow_usd: '20000.00', outflow_usd: '4000.00', transfers: 2 });
  });

  it('answers a series with every bucket (zeros where nothing moved) and per-exchange summaries for the API', async () => {
    const series = await netflowSeries(db.dataSource, {
      exchange: 'binance',
      token: 'ETH',
      bucket: 'hour',
      from: new Date('2025-05-01T09:30:00Z'),
      to: new Date('2025-05-01T11:59:00Z'),
      chain: CHAIN,
    });
    expect(series).toEqual({
      exchange: 'binance',
      token: 'eth',
      bucket: 'hour',
      points: [
        { start: '2025-05-01T09:00:00.000Z', inflowUsd: '0.00', outflowUsd: '0.00', netflowUsd: '0.00', transfers: 0, unpricedTransfers: 0 },
        { start: '2025-05-01T10:00:00.000Z', inflowUsd: '20000.00', outflowUsd: '4000.00', netflowUsd: '16000.00', transfers: 2, unpricedTransfers: 0 },
        { start: '2025-05-01T11:00:00.000Z', inflowUsd: '0.00', outflowUsd: '0.00', netflowUsd: '0.00', transfers: 0, unpricedTransfers: 0 },
      ],
    });
    const allTokens = await netflowSeries(db.dataSource, { exchange: 'Coinbase', token: null, bucket: 'day', from: new Date('2025-05-01T00:00:00Z'), to: new Date('2025-05-01T00:00:00Z'), chain: CHAIN });
    expect(allTokens.points).toEqual([{ start: '2025-05-01T00:00:00.000Z', inflowUsd: '4000.00', outflowUsd: '0.00', netflowUsd: '4000.00', transfers: 2, unpricedTransfers: 1 }]);
    await expect(netflowSeries(db.dataSource, { exchange: 'Binance', bucket: 'hour', from: new Date('2020-01-01Z'), to: new Date('2025-01-01Z') })).rejects.toThrow(NetflowRangeError);

    expect(await exchangeNetflows(db.dataSource, { since: new Date('2025-04-30T12:00:00Z'), chain: CHAIN })).toEqual([
      { exchange: 'Binance', inflowUsd24h: '20000.00', outflowUsd24h: '4000.00', netflowUsd24h: '16000.00', transfers24h: 2 },
      { exchange: 'Coinbase', inflowUsd24h: '4000.00', outflowUsd24h: '0.00', netflowUsd24h: '4000.00', transfers24h: 2 },
    ]);
  });

  it('rebuilds a period from the transfers after the labels change', async () => {
    await db.dataSource.query(`UPDATE whale_addresses SET exchange_name = 'Binance' WHERE address = $1`, [COINBASE_1]);
    await db.dataSource.transaction((manager) => recomputeNetflowRange(manager, CHAIN, new Date('2025-05-01T00:00:00Z'), new Date('2025-05-01T23:59:59Z')));
    // Coinbase 1 is now a Binance wallet: the 2 ETH move is internal, the USDC leaves Binance.
    expect((await rows('day')).map((r: Record<string, unknown>) => [r.exchange_name, r.token_key, r.inflow_usd, r.outflow_usd, r.transfers])).toEqual([
      ['Binance', USDC, '0.00', '0.00', 1],
      ['Binance', 'eth', '20000.00', '0.00', 1],
    ]);
    await db.dataSource.query(`UPDATE whale_addresses SET exchange_name = 'Coinbase' WHERE address = $1`, [COINBASE_1]);
  });

  it('a label import classifies the transfers recorded before it again and rebuilds their netflow, in its transaction', async () => {
    const OKX_3: Address = '0x5c52cc7c96bde8594e5b77d5b76d042cb5fae5f2';
    const OTHER: Address = '0x3333333333333333333333333333333333333333';
    // Scanned while OKX 3 was unlabelled: two plain transfers, and an inflow to Binance.
    await scanBlock(200n, '2025-05-02T08:10:00Z', [
      record(200n, { from: WHALE, to: OKX_3, raw: 10n * ETH, usd: '20000.00' }),
      record(200n, { from: OKX_3, to: OTHER, raw: 4n * ETH, usd: '8000.00' }),
      record(200n, { from: OKX_3, to: BINANCE_14, raw: 1n * ETH, usd: '2000.00', type: 'exchange_inflow' }),
    ]);
    const types = async () =>
      (
        await db.dataSource.query(`SELECT from_address, to_address, transaction_type FROM whale_transactions WHERE block_number = 200 ORDER BY log_index, id`)
      ).map((r: { from_address: string; to_address: string; transaction_type: string }) => `${r.from_address.slice(0, 6)}>${r.to_address.slice(0, 6)} ${r.transaction_type}`);
    const day2 = async () =>
      (await rows('day'))
        .filter((r: { bucket_start: Date }) => r.bucket_start.toISOString() === '2025-05-02T00:00:00.000Z')
        .map((r: Record<string, unknown>) => [r.exchange_name, r.inflow_amount, r.outflow_amount, r.inflow_usd, r.outflow_usd, r.transfers]);
    const before = await rows('hour');
    expect(await day2()).toEqual([['Binance', '1', '0', '2000.00', '0.00', 1]]);

    const okx = [{ source: 'import:okx.csv', rows: [{ address: OKX_3, label: 'OKX 3', addressType: 'exchange' as const, exchangeName: 'OKX' }] }];
    const imported = await db.dataSource.transaction((manager) => importWhaleLabels(manager, okx, { addedBy: 'import' }));
    expect(imported).toEqual({ inserted: 1, updated: 0, relabelled: 1, reclassified: 3, netflowHours: 1 });
    expect(await types()).toEqual([
      '0x0000>0x5c52 exchange_inflow',
      '0x5c52>0x3333 exchange_outflow',
      // Between two exchanges: a plain transfer, an outflow of OKX and an inflow of Binance in netflow.
      '0x5c52>0x28c6 transfer',
    ]);
    expect(await day2()).toEqual([
      ['Binance', '1', '0', '2000.00', '0.00', 1],
      ['OKX', '10', '5', '20000.00', '10000.00', 3],
    ]);
    // The day before is untouched.
    expect((await rows('hour')).filter((r: { bucket_start: Date }) => r.bucket_start < new Date('2025-05-02Z'))).toEqual(
      before.filter((r: { bucket_start: Date }) => r.bucket_start < new Date('2025-05-02Z')),
    );

    // The same file again changes nothing; a label that is no longer an exchange's takes it all back.
    expect(await db.dataSource.transaction((manager) => importWhaleLabels(manager, okx))).toMatchObject({ updated: 1, relabelled: 0, reclassified: 0, netflowHours: 0 });
    const retired = [{ source: 'import:retired.csv', rows: [{ address: OKX_3, isActive: false }] }];
    expect(await db.dataSource.transaction((manager) => importWhaleLabels(manager, retired))).toMatchObject({ relabelled: 1, reclassified: 3, netflowHours: 1 });
    expect(await types()).toEqual(['0x0000>0x5c52 transfer', '0x5c52>0x3333 transfer', '0x5c52>0x28c6 exchange_inflow']);
    expect(await day2()).toEqual([['Binance', '1', '0', '2000.00', '0.00', 1]]);
  });
});
