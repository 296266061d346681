import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { WHALES_RECORDINGS_DIR } from '@tickerbell/jobs/whales';
import { testQueuePrefix } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

// The recorded real answers (jobs/src/whales/data, copies of ../shared/fixtures/ethereum).
const recorded = (file: string) => join(WHALES_RECORDINGS_DIR, file);
const BLOCK_2015 = recorded('eth_jsonrpc_getBlockByNumber_0x76250_fulltx_2015_parity.json');
const LOGS_2015 = recorded('eth_getFilterLogs_ERC20_Transfer_mainnet_block_0x76250_2015_parity_ethereum-etl.json');
const BLOCK_LONDON = recorded('eth_getBlockByNumber_result_fulltx_mainnet_15136987_0xe6f8db_london.json');
const RECEIPT_2 = recorded('eth_getTransactionReceipt_result_mainnet_block17451262_txidx2.json');
const RECEIPT_12 = recorded('eth_getTransactionReceipt_result_mainnet_block17451262_txidx12.json');
const HASHES_ONLY = recorded('eth_getBlockByNumber_result_txhashes_mainnet_15136987_0xe6f8db_london.json');

describe('CLI: import whales and whales transfers (the recorded real answers)', () => {
  let db: TestDatabase;
  let dir: string;
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-whales-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);
  const count = async () => (await db.dataSource.query(`SELECT count(*)::int AS n FROM whale_transactions`))[0].n as number;

  it('records a 2015 block with its Parity logs, a London block, and two 2023 receipts (their block time given)', async () => {
    const result = await cli(['import', 'whales', LOGS_2015, BLOCK_2015, BLOCK_LONDON, RECEIPT_2, RECEIPT_12, '--block-time', '2023-06-11T20:00:00Z']);
    expect(result).toEqual({
      code: 0,
      err: '',
      out:
        `${LOGS_2015}: logs, 2 transfers (2 new)\n` +
        `${BLOCK_2015}: block, 2 transfers (2 new)\n` +
        `${BLOCK_LONDON}: block, 7 transfers (7 new)\n` +
        `${RECEIPT_2}: receipts, 2 transfers (2 new)\n` +
        `${RECEIPT_12}: receipts, 1 transfer (1 new)\n`,
    });
    expect(await count()).toBe(14);
    // The Parity logs take their time from the block imported with them.
    const [log] = await db.dataSource.query(`SELECT timestamp, block_number FROM whale_transactions WHERE log_index = 0 AND block_number = 483920`);
    const [block] = await db.dataSource.query(`SELECT timestamp FROM whale_blocks WHERE number = 483920`);
    expect(log.timestamp).toEqual(block.timestamp);
  });

  it('changes nothing the second time', async () => {
    const result = await cli(['import', 'whales', BLOCK_LONDON, RECEIPT_12, '--block-time', '2023-06-11T20:00:00Z']);
    expect(result.out).toBe(`${BLOCK_LONDON}: block, 7 transfers (0 new)\n${RECEIPT_12}: receipts, 1 transfer (0 new)\n`);
    expect(await count()).toBe(14);
  });

  it("prints a transaction's transfers as JSON: ERC-20 with the token's decimals, native ETH with null log index and token", async () => {
    const weth = await cli(['whales', 'transfers', '--tx', '0x5524a0af14b83f8900b50d08dea2332df23d367f1541268b943e4c588418f8b3']);
    expect(weth.code).toBe(0);
    expect(JSON.parse(weth.out)).toEqual([
      {
        logIndex: 17,
        token: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
        tokenSymbol: 'WETH',
        from: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        to: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        amount: '0.02',
        rawAmount: '20000000000000000',
        usdValue: null,
      },
      // Not in the token list, and the import is offline (no eth_call): symbol and amount unknown, said so.
      expect.objectContaining({ logIndex: 18, token: '0x01f6f4d612649741c895c1dacdbc98f359594d43', tokenSymbol: null, amount: null, rawAmount: '305648594148651829', usdValue: null }),
    ]);
    const shib = JSON.parse((await cli(['whales', 'transfers', '--tx', '0x4b5650349045b1f3e002c04d064ad563261a3f8a1236e99d2b5261e945e951ef'])).out);
    expect(shib).toEqual([
      {
        logIndex: 71,
        token: '0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce',
        tokenSymbol: 'SHIB',
        from: '0xde74eef3cfb2dbc8d08a6838a1dcea4a6d775f77',
        to: '0xcffad3200574698b78f32232aa9d63eabd290703',
        amount: '312203.11195483',
        rawAmount: '312203111954830000000000', // 0x421c908a67f030560c00
        usdValue: null,
      },
    ]);
    const london = JSON.parse(readFileSync(BLOCK_LONDON, 'utf8'));
    const tx = london.transactions.find((t: { value: string }) => BigInt(t.value) === 50_000_000_000_000_000n);
    expect(JSON.parse((await cli(['whales', 'transfers', '--tx', tx.hash])).out)).toEqual([
      { logIndex: null, token: null, tokenSymbol: 'ETH', from: tx.from.toLowerCase(), to: tx.to.toLowerCase(), amount: '0.05', rawAmount: '50000000000000000', usdValue: null },
    ]);
  });

  it('refuses a bad file naming the file and the field, and writes nothing of the import', async () => {
    const bad = join(dir, 'cut-parent.json');
    const block = JSON.parse(readFileSync(BLOCK_2015, 'utf8'));
    block.result.parentHash = block.result.parentHash.slice(0, 40);
    block.result.number = '0x76251';
    writeFileSync(bad, JSON.stringify(block));
    const before = await count();
    const result = await cli(['import', 'whales', RECEIPT_2, bad]);
    expect(result).toEqual({ code: 1, out: '', err: `error: ${bad}: block.parentHash: expected 32-byte hex (nothing imported)\n` });

    const hashesOnly = await cli(['import', 'whales', HASHES_ONLY]);
    expect(hashesOnly.code).toBe(1);
    expect(hashesOnly.err).toContain(`${HASHES_ONLY}: block.transactions[0]: expected a transaction object`);

    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{"jsonrpc": "2.0", "result": {');
    expect((await cli(['import', 'whales', notJson])).err).toMatch(new RegExp(`^error: ${notJson}: not JSON`));
    expect(await count()).toBe(before);
  });

  it("refuses receipts whose block time is unknown, and a malformed --tx", async () => {
    const other = join(dir, 'receipt-elsewhere.json');
    const receipt = JSON.parse(readFileSync(RECEIPT_12, 'utf8'));
    receipt.transactionHash = '0x' + 'ab'.repeat(32);
    writeFileSync(other, JSON.stringify({ jsonrpc: '2.0', id: 1, result: receipt }));
    const result = await cli(['import', 'whales', other]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${other}: blockNumber 17451262 (0xf0bc137c355238b0e075507ba17456aff47ee376cea24c590d5b044705cb5877): block time unknown`);
    expect(await cli(['whales', 'transfers', '--tx', '0x1234'])).toMatchObject({ code: 1, err: 'error: --tx: expected a transaction hash (0x + 64 hex digits), got 0x1234\n' });
  });

  it('imports address labels from CSV (upsert by address, stored lowercase), and refuses a bad file by line, writing nothing', async () => {
    const good = join(dir, 'labels.csv');
    writeFileSync(good, 'address,label,address_type,exchange_name\n0x28C6c06298d514Db089934071355E5743bf21d60,Binance 14,exchange,Binance\n0x71660c4005ba85c37ccec55d0c4493e66fe775d3,Coinbase 1,exchange,Coinbase\n');
    expect(await cli(['whales', 'import-labels', good])).toEqual({ code: 0, err: '', out: `${good}: 2 addresses (2 new, 0 updated); 0 recorded transfers reclassified\n` });
    expect(await cli(['whales', 'import-labels', good])).toMatchObject({ code: 0, out: `${good}: 2 addresses (0 new, 2 updated); 0 recorded transfers reclassified\n` });
    const labelled = () => db.dataSource.query(`SELECT address, label, exchange_name FROM whale_addresses WHERE label_source = 'import:labels.csv' ORDER BY address`);
    expect(await labelled()).toEqual([
      { address: '0x28c6c06298d514db089934071355e5743bf21d60', label: 'Binance 14', exchange_name: 'Binance' },
      { address: '0x71660c4005ba85c37ccec55d0c4493e66fe775d3', label: 'Coinbase 1', exchange_name: 'Coinbase' },
    ]);

    const bad = join(dir, 'bad-labels.json');
    writeFileSync(bad, JSON.stringify([{ address: '0x1111111111111111111111111111111111111111', label: 'ok' }, { address: '0xnope', label: 'x' }]));
    const refused = await cli(['whales', 'import-labels', bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${bad}: 1 invalid row (nothing imported)`);
    expect(refused.err).toContain('row 2: address: expected an EIP-55 checksummed or lowercase 0x + 40 hex address');
    expect(await db.dataSource.query(`SELECT 1 FROM whale_addresses WHERE address = '0x1111111111111111111111111111111111111111'`)).toEqual([]);
  });

  it('reclassifies the transfers recorded before a label import and rebuilds their exchange netflow, and says how many', async () => {
    // The 2023 SHIB transfer (receipt 12, recorded above at 20:00 UTC) went to an address no label named then.
    const SHIB_TX = '0x4b5650349045b1f3e002c04d064ad563261a3f8a1236e99d2b5261e945e951ef';
    const CRYPTO_COM_5 = '0xcffad3200574698b78f32232aa9d63eabd290703';
    const typeOf = async () => (await db.dataSource.query(`SELECT transaction_type FROM whale_transactions WHERE hash = $1`, [SHIB_TX]))[0].transaction_type;
    const netflow = () =>
      db.dataSource.query(
        `SELECT exchange_name, token_symbol, bucket, bucket_start, inflow_amount::text, outflow_amount::text, transfers, unpriced_transfers
           FROM whale_netflows WHERE chain = 'ethereum' ORDER BY bucket, exchange_name`,
      );
    expect(await typeOf()).toBe('transfer');
    expect(await netflow()).toEqual([]);

    const labels = join(dir, 'crypto-com.csv');
    writeFileSync(labels, `address,label,address_type,exchange_name\n${CRYPTO_COM_5},Crypto.com 5,exchange,Crypto.com\n`);
    expect(await cli(['whales', 'import-labels', labels])).toEqual({
      code: 0,
      err: '',
      out: `${labels}: 1 address (1 new, 0 updated); 1 recorded transfer reclassified, exchange netflow rebuilt for 1 hour\n`,
    });
    expect(await typeOf()).toBe('exchange_inflow');
    const flow = { exchange_name: 'Crypto.com', token_symbol: 'SHIB', inflow_amount: '312203.11195483', outflow_amount: '0', transfers: 1, unpriced_transfers: 1 };
    expect(await netflow()).toEqual([
      { ...flow, bucket: 'day', bucket_start: new Date('2023-06-11T00:00:00Z') },
      { ...flow, bucket: 'hour', bucket_start: new Date('2023-06-11T20:00:00Z') },
    ]);

    // Retired: the transfer is a plain one again and the exchange's netflow of that day is gone.
    const retired = join(dir, 'retired.json');
    writeFileSync(retired, JSON.stringify([{ address: CRYPTO_COM_5, isActive: false }]));
    expect((await cli(['whales', 'import-labels', retired])).out).toBe(
      `${retired}: 1 address (0 new, 1 updated); 1 recorded transfer reclassified, exchange netflow rebuilt for 1 hour\n`,
    );
    expect(await typeOf()).toBe('transfer');
    expect(await netflow()).toEqual([]);
  });
});
