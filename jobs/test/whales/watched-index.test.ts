import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { WatchedAddressIndex, watchedAddressIndex } from '@tickerbell/jobs/whales';

const addr = (i: number) => `0x${i.toString(16).padStart(8, '0')}${'ab'.repeat(12)}${i.toString(16).padStart(8, '0')}`;

describe('WatchedAddressIndex (the in-memory filter of whale_addresses)', () => {
  it('finds every added address, through growth, and (almost) nothing else', () => {
    const index = new WatchedAddressIndex();
    for (let i = 0; i < 5000; i++) index.add(addr(i));
    index.add(addr(7));
    expect(index.size).toBe(5000);
    for (let i = 0; i < 5000; i++) expect(index.has(addr(i))).toBe(true);
    let false_ = 0;
    for (let i = 5000; i < 10000; i++) if (index.has(addr(i))) false_++;
    expect(false_).toBe(0);
    expect(index.filter([addr(1).toUpperCase().replace('0X', '0x'), null, addr(6000), addr(1)])).toEqual([addr(1)]);
  });

  it('the zero address is found like any other', () => {
    const index = new WatchedAddressIndex();
    index.add('0x0000000000000000000000000000000000000000');
    expect(index.has('0x0000000000000000000000000000000000000000')).toBe(true);
  });

  describe('against whale_addresses', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('is built on first use, then picks up the rows added since (one primary-key range read per use)', async () => {
      await db.dataSource.query(`INSERT INTO whale_addresses (address) VALUES ($1), ($2)`, [addr(1), addr(2)]);
      const index = await watchedAddressIndex(db.dataSource);
      expect(index.filter([addr(1), addr(2), addr(3)])).toEqual([addr(1), addr(2)]);
      await db.dataSource.query(`INSERT INTO whale_addresses (address, added_by) VALUES ($1, 'user')`, [addr(3)]);
      expect((await watchedAddressIndex(db.dataSource)).has(addr(3))).toBe(true);
      // Emptied with its ids restarted (as a test reset does): rebuilt, not stuck above the new ids.
      await db.dataSource.query(`TRUNCATE whale_addresses RESTART IDENTITY CASCADE`);
      await db.dataSource.query(`INSERT INTO whale_addresses (address) VALUES ($1)`, [addr(4)]);
      const rebuilt = await watchedAddressIndex(db.dataSource);
      expect(rebuilt.has(addr(4))).toBe(true);
      expect(rebuilt.has(addr(1))).toBe(false);
    });

    it('serialises inserts (the trigger holds an advisory lock until commit), so ids become visible in order', async () => {
      const first = db.dataSource.createQueryRunner();
      const second = db.dataSource.createQueryRunner();
      await first.connect();
      await second.connect();
      try {
        await first.startTransaction();
        await first.query(`INSERT INTO whale_addresses (address) VALUES ($1)`, [addr(10)]);
        await second.startTransaction();
        let secondDone = false;
        const pending = second.query(`INSERT INTO whale_addresses (address) VALUES ($1)`, [addr(11)]).then(() => (secondDone = true));
        // The second writer waits on the advisory lock the first one holds until its commit (its id is not drawn before).
        let waiting = 0;
        for (let tries = 0; waiting === 0 && tries < 500; tries++) {
          [{ waiting }] = await db.dataSource.query(`SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
        }
        expect(waiting).toBe(1);
        expect(secondDone).toBe(false);
        await first.commitTransaction();
        await pending;
        await second.commitTransaction();
        const rows: { address: string }[] = await db.dataSource.query(`SELECT address FROM whale_addresses WHERE address = ANY($1) ORDER BY id`, [[addr(10), addr(11)]]);
        expect(rows.map((r) => r.address)).toEqual([addr(10), addr(11)]);
      } finally {
        await first.release();
        await second.release();
      }
    });
  });
});
