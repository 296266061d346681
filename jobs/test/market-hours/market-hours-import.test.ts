import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, ExchangeCalendarFileError, calendarsFromFile, parseExchangeCalendarFile, readExchangeCalendarFile, type ExchangeCalendarFile } from '../../src/market-hours/market-hours.import';
import { importExchangeCalendarFile, loadExchangeCalendars } from '../../src/market-hours/market-hours.store';
import { sessionsBetween } from '../../src/market-hours/market-hours';
import { SEEDS, runSeeds } from '../../src/seeds/seeds';

const bundledText = () => fs.readFileSync(BUNDLED_EXCHANGE_CALENDARS_PATH, 'utf8');
const bundled = (): ExchangeCalendarFile => parseExchangeCalendarFile(bundledText(), 'bundled');

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ExchangeCalendarFileError) return error.problems;
    throw error;
  }
  throw new Error('expected an ExchangeCalendarFileError');
}

describe('market-hours: the bundled calendar data file', () => {
  it('holds at least 30 exchanges, including every MIC the issue names', () => {
    const ids = bundled().exchanges.map((e) => e.id);
    const named = 'XNYS XNAS XLON XETR XPAR XAMS XSWX XTSE BVMF XTKS XHKG XSHG XSHE XKRX XNSE XBOM XASX XSES XTAI XJSE XSAU XIST XMEX XNZE XSTO XOSL XMAD XMIL XWAR XCSE';
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(ids).toEqual(expect.arrayContaining(named.split(' ')));
  });

  it('gives every exchange calendar entries for 2026 and 2027, each with a source', () => {
    for (const ex of bundled().exchanges) {
      const years = new Set(ex.calendar.map((d) => d.date.slice(0, 4)));
      expect({ id: ex.id, has2026: years.has('2026'), has2027: years.has('2027') }).toEqual({ id: ex.id, has2026: true, has2027: true });
      expect(ex.calendarSource.length).toBeGreaterThan(10);
    }
  });

  it('lists no calendar day on a weekday the exchange does not trade anyway', () => {
    for (const calendar of calendarsFromFile(bundled())) {
      for (const date of calendar.days.keys()) {
        const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
        expect({ id: calendar.exchange.id, date, trades: calendar.exchange.weekdays.includes(weekday) }).toEqual({
          id: calendar.exchange.id,
          date,
          trades: true,
        });
      }
    }
  });
});

describe('market-hours: calendar files that cannot be imported', () => {
  const withExchange = (patch: (ex: Record<string, unknown>) => void) => {
    const file = JSON.parse(bundledText());
    patch(file.exchanges[1]);
    return JSON.stringify(file);
  };

  it('names the field that is wrong, with the exchange it belongs to', () => {
    const problems = problemsOf(() => parseExchangeCalendarFile(withExchange((ex) => (ex.timezone = 'Mars/Olympus'))));
    expect(problems).toEqual(['exchanges[1] (XNAS).timezone: is not an IANA time zone']);
  });

  it('rejects a malformed time, a break outside the session and a duplicate date', () => {
    const text = withExchange((ex) => {
      ex.open = '9:30';
      ex.breakStart = '17:00';
      ex.breakEnd = '18:00';
      const calendar = ex.calendar as unknown[];
      calendar.push(calendar[0]);
    });
    const problems = problemsOf(() => parseExchangeCalendarFile(text));
    expect(problems).toEqual(
      expect.arrayContaining([
        'exchanges[1] (XNAS).open: must be HH:MM (24-hour)',
        expect.stringMatching(/^exchanges\[1\] \(XNAS\)\.calendar\[\d+\] \(2025-01-01\)\.date: date 2025-01-01 listed twice$/),
      ]),
    );
  });

  it('rejects an early close without its close time and an unknown kind', () => {
    const text = withExchange((ex) => {
      ex.calendar = [
        { date: '2026-11-27', kind: 'early_close', name: 'Day after Thanksgiving' },
        { date: '2026-11-26', kind: 'closed' },
      ];
    });
    const problems = problemsOf(() => parseExchangeCalendarFile(text));
    expect(problems).toEqual([
      'exchanges[1] (XNAS).calendar[0] (2026-11-27).close: an early_close needs "close"',
      expect.stringMatching(/^exchanges\[1\] \(XNAS\)\.calendar\[1\] \(2026-11-26\)\.kind: /),
    ]);
  });

  it('rejects text that is not JSON, and a missing file', () => {
    expect(problemsOf(() => parseExchangeCalendarFile('{ nope'))[0]).toMatch(/^not valid JSON/);
    expect(problemsOf(() => readExchangeCalendarFile(path.join(os.tmpdir(), 'no-such-calendar.json')))).toEqual(['no such file']);
  });
});

describe('market-hours: importing calendars into PostgreSQL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(() => db.drop());

  const count = async (table: string): Promise<number> =>
    (await db.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

  it('inserts every exchange and day, and a second import of the same file changes nothing', async () => {
    const file = bundled();
    const days = file.exchanges.reduce((n, e) => n + e.calendar.length, 0);

    const first = await importExchangeCalendarFile(db.dataSource, file);
    const stampsBefore = await db.dataSource.query('SELECT max(updated_at) AS at FROM exchange_calendar_days');
    const second = await importExchangeCalendarFile(db.dataSource, file);

    expect(first).toEqual({
      exchanges: { inserted: file.exchanges.length, updated: 0, unchanged: 0 },
      days: { inserted: days, updated: 0, unchanged: 0, removed: 0 },
    });
    expect(second).toEqual({
      exchanges: { inserted: 0, updated: 0, unchanged: file.exchanges.length },
      days: { inserted: 0, updated: 0, unchanged: days, removed: 0 },
    });
    expect(await count('exchanges')).toBe(file.exchanges.length);
    expect(await count('exchange_calendar_days')).toBe(days);
    expect(await db.dataSource.query('SELECT max(updated_at) AS at FROM exchange_calendar_days')).toEqual(stampsBefore);
  });

  it('reads back from the database exactly the calendars of the file', async () => {
    const fromDb = await loadExchangeCalendars(db.dataSource);
    const fromFile = calendarsFromFile(bundled()).sort((a, b) => a.exchange.id.localeCompare(b.exchange.id));
    expect(fromDb.map((c) => c.exchange)).toEqual(fromFile.map((c) => c.exchange));
    expect(fromDb.map((c) => [...c.days.values()])).toEqual(fromFile.map((c) => [...c.days.values()]));
    const xnys = fromDb.find((c) => c.exchange.id === 'XNYS');
    expect(xnys && sessionsBetween(xnys, '2026-11-27', '2026-11-27')[0].close.toISOString()).toBe('2026-11-27T18:00:00.000Z');
  });

  it('applies an edited file: changed hours and days are updated, a removed day is deleted', async () => {
    const file = bundled();
    const xlon = file.exchanges.find((e) => e.id === 'XLON');
    if (!xlon) throw new Error('XLON missing from the bundled file');
    xlon.close = '16:35';
    const removed = xlon.calendar.shift();
    xlon.calendar[0] = { ...xlon.calendar[0], name: 'Renamed holiday' };

    const result = await importExchangeCalendarFile(db.dataSource, file);

    expect(result.exchanges).toEqual({ inserted: 0, updated: 1, unchanged: file.exchanges.length - 1 });
    expect(result.days).toMatchObject({ inserted: 0, updated: 1, removed: 1 });
    const [stored] = await loadExchangeCalendars(db.dataSource, ['XLON']);
    expect(stored.exchange.close).toBe('16:35');
    expect(stored.days.has(removed?.date ?? '')).toBe(false);
    expect(stored.days.get(xlon.calendar[0].date)?.name).toBe('Renamed holiday');
  });

  it('stores each day with its source: its own, or the exchange calendar source', async () => {
    const rows: { date: string; source: string }[] = await db.dataSource.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, source FROM exchange_calendar_days WHERE exchange_id = 'XNYS' AND date IN ('2022-11-24', '2026-11-26') ORDER BY date`,
    );
    expect(rows[0].source).toMatch(/exchange_calendars .*xnys\.csv/);
    expect(rows[1].source).toMatch(/^NYSE holidays/);
  });

  it('the seed loads the bundled calendars once', async () => {
    const fresh = await createTestDatabase();
    try {
      const seed = SEEDS.filter((s) => s.name === '2026-11-market-hours');
      expect(await runSeeds(fresh.dataSource, seed)).toEqual(['2026-11-market-hours']);
      expect(await runSeeds(fresh.dataSource, seed)).toEqual([]);
      const [{ n }] = await fresh.dataSource.query('SELECT count(*)::int AS n FROM exchanges');
      expect(n).toBe(bundled().exchanges.length);
    } finally {
      await fresh.drop();
    }
  });
});
