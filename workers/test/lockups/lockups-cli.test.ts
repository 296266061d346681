import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { testQueuePrefix } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

// `import lockups <file>`: a CSV built here (made-up tickers), its row errors by line with nothing
// written, then a clean import and the same file again.

describe('CLI: import lockups <file>', () => {
  let db: TestDatabase;
  let dir: string;
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-lockups-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);

  it('prints every row error by line and writes nothing; a good file imports once', async () => {
    const header = 'ticker,company_name,ipo_date,lockup_expiration_date,shares_locked_up,total_shares_outstanding,vc_backed,industry';
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `${header}\nACME,Acme,2025-01-10,2025-07-09,100,1000,yes,Software\nBETA,,2025-01-10,someday,,,,\n`);
    const failed = await cli(['import', 'lockups', bad]);
    expect(failed.code).toBe(1);
    expect(failed.err).toBe(
      `error: ${bad}: 2 problems; nothing was written:\n  line 3, company_name: required\n` +
        '  line 3, lockup_expiration_date: "someday" is not a date YYYY-MM-DD (leave it empty when unknown: the event is marked for review)\n',
    );
    expect(await db.dataSource.query('SELECT count(*)::int AS n FROM lockup_events')).toEqual([{ n: 0 }]);

    const good = join(dir, 'good.csv');
    writeFileSync(good, `${header}\nACME,Acme,2025-01-10,2025-07-09,100,1000,yes,Software\n`);
    expect(await cli(['import', 'lockups', good])).toEqual({ code: 0, out: `${good}: 1 row, 1 offering: 1 event inserted, 0 updated\n`, err: '' });
    expect((await cli(['import', 'lockups', good])).out).toBe(`${good}: 1 row, 1 offering: 0 events inserted, 1 updated\n`);
    expect((await cli(['import', 'lockups', join(dir, 'none.csv')])).err).toMatch(/^error: no such file: /);
  });
});
