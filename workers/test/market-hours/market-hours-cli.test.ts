import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { BUNDLED_EXCHANGE_CALENDARS_PATH } from '@tickerbell/jobs/market-hours';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

const NYSE_FILE = path.join(__dirname, '..', '..', '..', 'jobs', 'test', 'fixtures', 'market-hours', 'nyse_holidays_early_closes_2025-2027.csv');

describe('operator CLI: market-hours', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'market-hours-cli-'));

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const cli = (args: string[]) => runCliCaptured(['market-hours', ...args], db.url, prefix);

  it('import loads a calendar file and prints what changed; a second import changes nothing', async () => {
    const first = await cli(['import', BUNDLED_EXCHANGE_CALENDARS_PATH]);
    expect(first).toMatchObject({ code: 0, err: '' });
    const printed = JSON.parse(first.out);
    expect(printed.exchanges.inserted).toBeGreaterThanOrEqual(30);

    const second = JSON.parse((await cli(['import', BUNDLED_EXCHANGE_CALENDARS_PATH])).out);
    expect(second.exchanges).toEqual({ inserted: 0, updated: 0, unchanged: printed.exchanges.inserted });
    expect(second.days).toMatchObject({ inserted: 0, updated: 0, removed: 0 });
  });

  it('import of a bad file exits non-zero naming what is wrong, and writes nothing', async () => {
    const bad = JSON.parse(fs.readFileSync(BUNDLED_EXCHANGE_CALENDARS_PATH, 'utf8'));
    bad.exchanges[0].close = '25:00';
    bad.exchanges[0].name = 'Changed name that must not be stored';
    const file = path.join(tmp, 'bad.json');
    fs.writeFileSync(file, JSON.stringify(bad));

    const result = await cli(['import', file]);

    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toContain(`cannot import ${file}`);
    expect(result.err).toContain('exchanges[0] (XNYS).close: must be HH:MM (24-hour)');
    const [{ name }] = await db.dataSource.query(`SELECT name FROM exchanges WHERE id = 'XNYS'`);
    expect(name).toBe('New York Stock Exchange');
  });

  it('import of a missing file says so', async () => {
    const result = await cli(['import', path.join(tmp, 'missing.json')]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/cannot import \S+missing\.json:\n  no such file/);
  });

  it('sessions prints every XNYS 2026 session as UTC instants, without the NYSE closures', async () => {
    const result = await cli(['sessions', '--exchange', 'XNYS', '--from', '2026-01-01', '--to', '2026-12-31']);
    expect(result.code).toBe(0);
    const { sessions } = JSON.parse(result.out) as { sessions: { date: string; open: string; close: string; breakStart: null }[] };

    const closures = fs
      .readFileSync(NYSE_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('2026-') && line.endsWith(',closed'))
      .map((line) => line.slice(0, 10));
    let weekdays = 0;
    for (let d = new Date('2026-01-01T00:00:00Z'); d.getUTCFullYear() === 2026; d = new Date(d.getTime() + 86_400_000)) {
      if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) weekdays++;
    }
    expect(sessions).toHaveLength(weekdays - closures.length);
    expect(sessions.map((s) => s.date)).not.toEqual(expect.arrayContaining([closures[0]]));
    expect(sessions[0]).toEqual({
      date: '2026-01-02',
      open: '2026-01-02T14:30:00.000Z',
      close: '2026-01-02T21:00:00.000Z',
      breakStart: null,
      breakEnd: null,
      kind: 'regular',
    });
    expect(sessions.find((s) => s.date === '2026-11-27')?.close).toBe('2026-11-27T18:00:00.000Z');
  });

  it('events prints each notification event with its kind and UTC instant', async () => {
    const result = await cli(['events', '--exchange', 'xnys', '--from', '2026-11-27T00:00:00Z', '--to', '2026-11-28T00:00:00Z']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out);
    expect(printed.exchange).toBe('XNYS');
    expect(printed.events.map((e: { kind: string; at: string }) => [e.kind, e.at])).toEqual([
      ['opening_soon', '2026-11-27T14:20:00.000Z'],
      ['opened', '2026-11-27T14:30:00.000Z'],
      ['closing_soon', '2026-11-27T17:50:00.000Z'],
      ['closed', '2026-11-27T18:00:00.000Z'],
    ]);
  });

  it.each([
    [['sessions', '--exchange', 'XNYS', '--from', '2026-02-30', '--to', '2026-03-01'], '--from must be a date YYYY-MM-DD, got "2026-02-30"'],
    [['events', '--exchange', 'XNYS', '--from', '2026-11-27T00:00:00', '--to', '2026-11-28T00:00:00Z'], '--from must be an ISO 8601 instant with a zone'],
    [['events', '--exchange', 'XNYS', '--from', '2026-11-28T00:00:00Z', '--to', '2026-11-27T00:00:00Z'], '--to must be after --from'],
    [['sessions', '--exchange', 'ZZZZ', '--from', '2026-01-01', '--to', '2026-01-31'], 'unknown exchange ZZZZ'],
  ])('rejects bad options plainly: %j', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.err).toContain(message);
  });
});
