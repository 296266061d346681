import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { SEEDS, runSeeds } from '../../src/seeds/seeds';
import { WhaleLabelsError, isExchangeWalletTag, normalizeAddress, parseLabelFile, seedWhaleLabelSets, upsertWhaleLabels } from '../../src/whales/whales-labels';

// Address labels: the seeded public list (data/labels) and `whales import-labels` files. Real PostgreSQL.

const BINANCE_14 = '0x28c6c06298d514db089934071355e5743bf21d60';
const CHECKSUMMED = '0x28C6c06298d514Db089934071355E5743bf21d60';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('label files', () => {
  it('accepts lowercase and EIP-55 addresses (stored lowercase), and refuses a bad checksum', () => {
    expect(normalizeAddress(CHECKSUMMED)).toBe(BINANCE_14);
    expect(normalizeAddress(BINANCE_14)).toBe(BINANCE_14);
    expect(normalizeAddress('0x28c6C06298d514db089934071355e5743bf21d60')).toBeNull();
    expect(normalizeAddress('0x28c6c06298d514db0899340713')).toBeNull();
  });

  it('reads CSV with documented columns; a column left out stays undefined, an empty cell is null', () => {
    const rows = parseLabelFile(
      'labels.csv',
      `address,label,address_type,exchange_name,balance_threshold\n${CHECKSUMMED},Binance 14,Exchange,Binance,1000000000000000000000\n0x00000000219ab540356cbb839cbe05303d7705fa,Deposit contract,,,\n`,
    );
    expect(rows).toEqual([
      { address: BINANCE_14, label: 'Binance 14', addressType: 'exchange', exchangeName: 'Binance', balanceThreshold: '1000000000000000000000' },
      { address: '0x00000000219ab540356cbb839cbe05303d7705fa', label: 'Deposit contract', addressType: null, exchangeName: null, balanceThreshold: null },
    ]);
    expect(parseLabelFile('l.json', JSON.stringify([{ address: BINANCE_14, exchangeName: 'Binance', isActive: false }]))).toEqual([
      { address: BINANCE_14, exchangeName: 'Binance', isActive: false },
    ]);
  });

  it('lists every bad row by line and field', () => {
    const error = (() => {
      try {
        parseLabelFile(
          'bad.csv',
          `address,label,address_type,balance_threshold\n0x28c6C06298d514db089934071355e5743bf21d60,A,exchange,1\n${BINANCE_14},B,casino,1.5\n${BINANCE_14},C,fund,2\n`,
        );
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(WhaleLabelsError);
    expect((error as WhaleLabelsError).errors).toEqual([
      'line 2: address: expected an EIP-55 checksummed or lowercase 0x + 40 hex address',
      expect.stringMatching(/^line 3: address_type: one of exchange, fund/),
      'line 3: balance_threshold: expected a non-negative integer (wei)',
    ]);
    expect(() => parseLabelFile('x.json', '[{"address":"0x28c6c06298d514db089934071355e5743bf21d60","owner":"me"}]')).toThrow(/row 1: unknown column "owner"/);
    expect(() => parseLabelFile('x.json', `[{"address":"${BINANCE_14}"},{"address":"${CHECKSUMMED}"}]`)).toThrow(/listed twice/);
  });
});

describe('upserts and the seed', () => {
  it('upserts by address: a new row gets addedBy, an existing one keeps it and the columns the file leaves out', async () => {
    await db.dataSource.query(`INSERT INTO whale_addresses (address, added_by, balance_threshold) VALUES ('0x1111111111111111111111111111111111111111', 'user', 5)`);
    const done = await db.dataSource.transaction((m) =>
      upsertWhaleLabels(
        m,
        [
          { address: '0x1111111111111111111111111111111111111111', label: 'Fund X', addressType: 'fund' },
          { address: '0x2222222222222222222222222222222222222222', label: 'Y', exchangeName: 'Y' },
        ],
        { source: 'import:test.csv', addedBy: 'import' },
      ),
    );
    expect(done).toEqual({ inserted: 1, updated: 1 });
    const rows = await db.dataSource.query(
      `SELECT address, label, address_type, added_by, balance_threshold::text, label_source, is_active FROM whale_addresses WHERE address LIKE '0x1111%' OR address LIKE '0x2222%' ORDER BY address`,
    );
    expect(rows).toEqual([
      { address: '0x1111111111111111111111111111111111111111', label: 'Fund X', address_type: 'fund', added_by: 'user', balance_threshold: '5', label_source: 'import:test.csv', is_active: true },
      { address: '0x2222222222222222222222222222222222222222', label: 'Y', address_type: null, added_by: 'import', balance_threshold: null, label_source: 'import:test.csv', is_active: true },
    ]);
  });

  it('seeds exchange wallets (no token contracts or deployers) and funds from the public lists, once', async () => {
    expect(isExchangeWalletTag('Binance 14', 'Binance')).toBe(true);
    expect(isExchangeWalletTag('Crypto.com: MultiSig 3', 'Crypto.com')).toBe(true);
    expect(isExchangeWalletTag('Binance: BNB Token', 'Binance')).toBe(false);
    expect(isExchangeWalletTag('Tether: USDT Stablecoin', 'Bitfinex')).toBe(false);
    const expected = seedWhaleLabelSets().reduce((n, set) => n + set.rows.length, 0);
    expect(expected).toBeGreaterThan(130);

    const seed = SEEDS.filter((s) => s.name === '2026-12-whale-labels');
    expect(await runSeeds(db.dataSource, seed)).toEqual(['2026-12-whale-labels']);
    expect(await runSeeds(db.dataSource, seed)).toEqual([]);
    const [counts] = await db.dataSource.query(
      `SELECT count(*) FILTER (WHERE address_type = 'exchange')::int AS exchanges, count(*) FILTER (WHERE address_type = 'fund')::int AS funds,
              count(DISTINCT exchange_name)::int AS names
         FROM whale_addresses WHERE added_by = 'system'`,
    );
    expect(counts.exchanges + counts.funds).toBe(expected);
    expect(counts).toMatchObject({ funds: 13, names: 8 });
    const [binance] = await db.dataSource.query(`SELECT label, address_type, exchange_name, label_source FROM whale_addresses WHERE address = $1`, [BINANCE_14]);
    expect(binance).toEqual({ label: 'Binance 14', address_type: 'exchange', exchange_name: 'Binance', label_source: expect.stringMatching(/^brianleect\/etherscan-labels@37bde48dde27:accounts\/binance.csv$/) });
    expect(await db.dataSource.query(`SELECT 1 FROM whale_addresses WHERE address = '0xdac17f958d2ee523a2206206994597c13d831ec7'`)).toEqual([]);
  });
});
