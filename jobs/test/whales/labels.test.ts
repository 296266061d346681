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
    // Numbered wallets of every exchange, the spelling of the prefix aside; never their tokens or deployers.
    expect(isExchangeWalletTag('Huobi 12', 'Huobi')).toBe(true);
    expect(isExchangeWalletTag('Huobi: Old Address 34', 'Huobi')).toBe(true);
    expect(isExchangeWalletTag('Kucoin 7', 'KuCoin')).toBe(true);
    expect(isExchangeWalletTag('FTX Exchange 2', 'FTX Exchange')).toBe(true);
    expect(isExchangeWalletTag('Huobi Token', 'Huobi')).toBe(false);
    expect(isExchangeWalletTag('OKX: OKB Token', 'OKX')).toBe(false);
    expect(isExchangeWalletTag('OKX DEX: Aggregation Router', 'OKX')).toBe(false);
    expect(isExchangeWalletTag('KuCoin: Deployer', 'KuCoin')).toBe(false);
    const sets = seedWhaleLabelSets();
    const expected = sets.reduce((n, set) => n + set.rows.length, 0);
    const exchangeRows = sets.flatMap((set) => set.rows).filter((r) => r.addressType === 'exchange').length;
    expect(exchangeRows).toBe(308);
    expect(expected).toBe(321);

    const seed = SEEDS.filter((s) => s.name === '2026-12-whale-labels');
    expect(await runSeeds(db.dataSource, seed)).toEqual(['2026-12-whale-labels']);
    expect(await runSeeds(db.dataSource, seed)).toEqual([]);
    const [counts] = await db.dataSource.query(
      `SELECT count(*) FILTER (WHERE address_type = 'exchange')::int AS exchanges, count(*) FILTER (WHERE address_type = 'fund')::int AS funds,
              count(DISTINCT exchange_name)::int AS names
         FROM whale_addresses WHERE added_by = 'system'`,
    );
    expect(counts.exchanges + counts.funds).toBe(expected);
    expect(counts).toMatchObject({ exchanges: 308, funds: 13, names: 22 });
    const [binance] = await db.dataSource.query(`SELECT label, address_type, exchange_name, label_source FROM whale_addresses WHERE address = $1`, [BINANCE_14]);
    expect(binance).toEqual({ label: 'Binance 14', address_type: 'exchange', exchange_name: 'Binance', label_source: expect.stringMatching(/^brianleect\/etherscan-labels@37bde48dde27:accounts\/binance.csv$/) });
    expect(await db.dataSource.query(`SELECT 1 FROM whale_addresses WHERE address = '0xdac17f958d2ee523a2206206994597c13d831ec7'`)).toEqual([]);
    // The exchanges added to the list: a wallet of each classified, token contracts left out.
    const labelOf = async (address: string) =>
      (await db.dataSource.query(`SELECT label, address_type, exchange_name, label_source FROM whale_addresses WHERE address = $1`, [address]))[0] ?? null;
    expect(await labelOf('0x6cc5f688a315f3dc28a7781717a9a798a59fda7b')).toEqual({
      label: 'OKX',
      address_type: 'exchange',
      exchange_name: 'OKX',
      label_source: 'brianleect/etherscan-labels@1ed02d58f3ac:data/etherscan/accounts/okx.csv',
    });
    expect(await labelOf('0x5c52cc7c96bde8594e5b77d5b76d042cb5fae5f2')).toMatchObject({ label: 'OKX 3', address_type: 'exchange', exchange_name: 'OKX' });
    expect(await labelOf('0x46705dfff24256421a05d056c29e81bdc09723b8')).toMatchObject({ label: 'Huobi 12', address_type: 'exchange', exchange_name: 'Huobi' });
    expect(await labelOf('0xb8e6d31e7b212b2b7250ee9c26c56cebbfbe6b23')).toMatchObject({ label: 'Kucoin 7', exchange_name: 'KuCoin' });
    expect(await labelOf('0x0d0707963952f2fba59dd06f2b425ace40b492fe')).toMatchObject({ label: 'Gate.io', exchange_name: 'Gate.io' });
    expect(await labelOf('0x2faf487a4414fe77e2327f0bf4ae2a264a776ad2')).toMatchObject({ label: 'FTX Exchange', exchange_name: 'FTX' });
    expect(await labelOf('0xc9cf0ec93d764f5c9571fd12f764bae7fc87c84e')).toMatchObject({ label: 'Upbit: Cold Wallet', exchange_name: 'Upbit' });
    // OKB, HT, FTT and KCS token contracts, and a deployer, are not exchange wallets.
    for (const token of [
      '0x7eb6c83ab7d8d9b8618c0ed973cbef71d1921ef2',
      '0x6f259637dcd74c767781e37bc6133cd6a68aa161',
      '0x50d1c9771902476076ecfc8b2a83ad6b9355a4c9',
      '0x2602669a92fccf44e5319ff51b0f453aab9db021',
      '0x899b5d52671830f567bf43a14684eb14e1f945fe',
    ]) {
      expect(await labelOf(token)).toBeNull();
    }
    const names = (await db.dataSource.query(`SELECT DISTINCT exchange_name FROM whale_addresses WHERE address_type = 'exchange' ORDER BY 1`)).map(
      (r: { exchange_name: string }) => r.exchange_name,
    );
    expect(names).toEqual(expect.arrayContaining(['Binance', 'Bithumb', 'Gate.io', 'Huobi', 'KuCoin', 'OKX', 'Poloniex', 'Upbit']));
  });
});
