import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EthParseError, TRANSFER_TOPIC, parseBlock, parseReceipt, parseTransferLogs, unwrapJsonRpc } from '../../src/whales/eth.parse';
import { WHALES_RECORDINGS_DIR } from '../../src/whales/eth-replay';

const recorded = (file: string): unknown => JSON.parse(readFileSync(join(WHALES_RECORDINGS_DIR, file), 'utf8'));
const LONDON = 'eth_getBlockByNumber_result_fulltx_mainnet_15136987_0xe6f8db_london.json';
const LONDON_HASHES = 'eth_getBlockByNumber_result_txhashes_mainnet_15136987_0xe6f8db_london.json';
const PARITY_BLOCK = 'eth_jsonrpc_getBlockByNumber_0x76250_fulltx_2015_parity.json';
const PARITY_LOGS = 'eth_getFilterLogs_ERC20_Transfer_mainnet_block_0x76250_2015_parity_ethereum-etl.json';
const RECEIPT_TYPE2 = 'eth_getTransactionReceipt_result_mainnet_block17451262_txidx2.json';
const RECEIPT_LEGACY = 'eth_getTransactionReceipt_result_mainnet_block17451262_txidx12.json';
const london = () => recorded(LONDON) as Record<string, unknown> & { transactions: Record<string, unknown>[] };

const message = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EthParseError);
    return (error as Error).message;
  }
  throw new Error('expected an EthParseError');
};

describe('unwrapJsonRpc', () => {
  it('answers the result of an envelope, and passes a bare result unchanged', () => {
    expect(unwrapJsonRpc({ jsonrpc: '2.0', id: 7, result: '0x10' })).toBe('0x10');
    expect(unwrapJsonRpc({ jsonrpc: '2.0', id: 7, result: null })).toBeNull();
    const bare = recorded(RECEIPT_LEGACY);
    expect(unwrapJsonRpc(bare)).toBe(bare);
  });

  it('throws the node error of an error envelope, and refuses an envelope with neither', () => {
    expect(message(() => unwrapJsonRpc({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'limit exceeded' } }))).toBe('json-rpc error -32005: limit exceeded');
    expect(message(() => unwrapJsonRpc({ jsonrpc: '2.0', id: 1 }))).toBe('envelope: neither result nor error');
  });
});

describe('parseBlock', () => {
  it('reads the post-London block 15,136,987: header, base fee, and its 7 value transfers out of 14 transactions', () => {
    const block = parseBlock(recorded(LONDON));
    expect(block).toMatchObject({
      number: 15136987n,
      hash: '0xf5bda634715a9d8af2693b600a725a0db285f0267f25b7f60f5b9c502691aef8',
      parentHash: '0x5749469a59b1207d4b6d42dd9e31c059aa1586fe070573bf6e5442a626726959',
      timestamp: Date.parse('2022-07-13T22:35:50Z') / 1000,
      baseFeePerGas: 0x42110b4f7n,
      transactionCount: 14,
    });
    expect(block.nativeTransfers).toHaveLength(7);
    expect(block.nativeTransfers.every((t) => t.rawAmount > 0n && t.token === null && t.logIndex === null && t.blockHash === block.hash)).toBe(true);
    // Transaction index 1 (type 0x2) pays 0x3f97f4857ac000 wei to OpenSea's Seaport.
    expect(block.nativeTransfers[0]).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      logIndex: null,
      token: null,
      from: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      to: '0x00000000006c3852cbef3e08e8df289169ede581',
      rawAmount: 0x3f97f4857ac000n,
      blockNumber: 15136987n,
      blockHash: block.hash,
    });
  });

  it('reads the 2015 Parity block (in its JSON-RPC envelope, no base fee, Parity-only fields ignored)', () => {
    const block = parseBlock(unwrapJsonRpc(recorded(PARITY_BLOCK)));
    expect(block).toMatchObject({ number: 0x76250n, baseFeePerGas: null, transactionCount: 4, timestamp: 0x5638c858 });
    expect(block.nativeTransfers.map((t) => [t.to, t.rawAmount])).toEqual([
      ['0x9e669f970ec0f49bb735f20799a7e7c4a1c274e2', 0x2714d78692b000n],
      ['0x743b8aeedc163c0e3a0fe9f3910d146c48e70da8', 0x153c6ea30e6ee800n],
    ]);
  });

  it('keeps a contract creation (to null) and lowercases checksummed addresses', () => {
    const raw = london();
    raw.transactions[1] = { ...raw.transactions[1], to: null, from: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' };
    const [creation] = parseBlock(raw).nativeTransfers;
    expect(creation).toMatchObject({ to: null, from: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' });
  });

  it('refuses the hashes-only form of a block, naming the transaction', () => {
    expect(message(() => parseBlock(recorded(LONDON_HASHES)))).toMatch(/^block\.transactions\[0\]: expected a transaction object, got a hash/);
  });

  it.each([
    ['parentHash', '0x1234', 'block.parentHash: expected 32-byte hex'],
    ['hash', undefined, 'block.hash: missing'],
    ['number', 'fifteen', 'block.number: expected hex quantity'],
    ['number', null, 'block.number: expected hex quantity'],
    ['timestamp', '0x', 'block.timestamp: expected hex quantity'],
    ['transactions', {}, 'block.transactions: expected an array'],
  ])('names the malformed field: %s = %p', (field, value, expected) => {
    const raw = london();
    if (value === undefined) delete raw[field];
    else raw[field] = value;
    expect(message(() => parseBlock(raw))).toBe(expected);
  });

  it('names a malformed transaction field by its index, and refuses a non-object', () => {
    const raw = london();
    raw.transactions[3] = { ...raw.transactions[3], value: '0xnope' };
    expect(message(() => parseBlock(raw))).toBe('block.transactions[3].value: expected hex quantity');
    const other = london();
    other.transactions[5] = { ...other.transactions[5], from: '0x123' };
    expect(message(() => parseBlock(other))).toBe('block.transactions[5].from: expected a 20-byte address');
    expect(message(() => parseBlock(null))).toBe('block: expected an object, got null');
    expect(message(() => parseBlock('0xabc'))).toBe('block: expected an object, got string');
  });

  it('refuses a transaction that names another block', () => {
    const raw = london();
    raw.transactions[0] = { ...raw.transactions[0], blockHash: `0x${'ab'.repeat(32)}` };
    expect(message(() => parseBlock(raw))).toMatch(/^block\.transactions\[0\]\.blockHash: 0xabab.* is not the block's hash/);
  });
});

describe('parseTransferLogs and parseReceipt', () => {
  it('TRANSFER_TOPIC is the keccak of Transfer(address,address,uint256)', () => {
    expect(TRANSFER_TOPIC).toBe('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
  });

  it('reads the 2015 Parity-shaped logs (transactionLogIndex, type "mined", no removed)', () => {
    const transfers = parseTransferLogs(unwrapJsonRpc(recorded(PARITY_LOGS)) as unknown[]);
    expect(transfers).toEqual([
      {
        txHash: '0x04cbcb236043d8fb7839e07bbc7f5eed692fb2ca55d897f1101eac3e3ad4fab8',
        logIndex: 0,
        token: '0xf4eced2f682ce333f96f2d8966c613ded8fc95dd',
        from: '0x1b63142628311395ceafeea5667e7c9026c862ca',
        to: '0xac4df82fe37ea2187bc8c011a23d743b4f39019a',
        rawAmount: 100000n,
        blockNumber: 0x76250n,
        blockHash: '0x246edb4b351d93c27926f4649bcf6c24366e2a7c7c718dc9158eea20c03bc6ae',
      },
      expect.objectContaining({ logIndex: 1, rawAmount: 200000n, to: '0x66f183060253cfbe45beff1e6e7ebbe318c81e56' }),
    ]);
  });

  it('reads the type-2 receipt: 2 Transfers among 5 logs (WETH Deposit, Sync and Swap skipped)', () => {
    const receipt = parseReceipt(recorded(RECEIPT_TYPE2));
    expect(receipt).toMatchObject({
      txHash: '0x5524a0af14b83f8900b50d08dea2332df23d367f1541268b943e4c588418f8b3',
      blockNumber: 17451262n,
      blockHash: '0xf0bc137c355238b0e075507ba17456aff47ee376cea24c590d5b044705cb5877',
    });
    expect(receipt.transfers.map((t) => [t.logIndex, t.token, t.from, t.to, t.rawAmount])).toEqual([
      [0x11, '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', '0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad', '0x817d342132d79cebfd6303e87558d6599f3c3a8b', 0x470de4df820000n],
      [0x12, '0x01f6f4d612649741c895c1dacdbc98f359594d43', '0x817d342132d79cebfd6303e87558d6599f3c3a8b', '0x018862eb5b3d719016cd6542c81cfce24a6ad16c', 305648594148651829n],
    ]);
  });

  it('reads the legacy receipt: one SHIB Transfer of 312,203.11 tokens (18 decimals)', () => {
    const receipt = parseReceipt(recorded(RECEIPT_LEGACY));
    expect(receipt.transfers).toEqual([
      expect.objectContaining({ logIndex: 0x47, token: '0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce', rawAmount: 0x421c908a67f030560c00n, txHash: receipt.txHash }),
    ]);
  });

  it('skips removed logs, ERC-721 transfers (4 topics) and Transfer-shaped logs whose data is not one uint256', () => {
    const [log] = (unwrapJsonRpc(recorded(PARITY_LOGS)) as Record<string, unknown>[]).map((l) => ({ ...l }));
    const topics = log.topics as string[];
    const logs = [
      { ...log, removed: true },
      { ...log, topics: [...topics, `0x${'00'.repeat(31)}07`], data: '0x' },
      { ...log, data: '0x' },
      { ...log, data: `${log.data as string}${'00'.repeat(32)}` },
      { ...log, topics: [`0x${'11'.repeat(32)}`, topics[1], topics[2]] },
      log,
    ];
    expect(parseTransferLogs(logs)).toHaveLength(1);
  });

  it('names the malformed field of a log or a receipt', () => {
    const [log] = unwrapJsonRpc(recorded(PARITY_LOGS)) as Record<string, unknown>[];
    expect(message(() => parseTransferLogs([log, { ...log, blockHash: null }]))).toBe('logs[1].blockHash: expected 32-byte hex');
    expect(message(() => parseTransferLogs([{ ...log, topics: 'x' }]))).toBe('logs[0].topics: expected an array');
    expect(message(() => parseTransferLogs([{ ...log, address: '0xzz' }]))).toBe('logs[0].address: expected a 20-byte address');
    const receipt = recorded(RECEIPT_TYPE2) as Record<string, unknown>;
    expect(message(() => parseReceipt({ ...receipt, transactionHash: undefined }))).toBe('receipt.transactionHash: missing');
    const logs = (receipt.logs as Record<string, unknown>[]).map((l, i) => (i === 2 ? { ...l, data: 'zz' } : l));
    expect(message(() => parseReceipt({ ...receipt, logs }))).toBe('receipt.logs[2].data: expected hex');
  });
});
