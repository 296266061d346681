import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { barsUpTo, StoredBarCache, StoredBarColumns, type StoredBarRow } from '../../src/alerts/alert-bars.store';
import { evaluateClosedBars, storedBarCacheOf } from '../../src/alerts/alert-evaluation';
import { alertIndexFor } from '../../src/alerts/alert-index-cache';
import { PRICE_FIELDS } from '../../src/alerts/volatility-indicators';
import { AlertsHarness } from './alerts-harness';

const ALL = PRICE_FIELDS.open | PRICE_FIELDS.high | PRICE_FIELDS.low | PRICE_FIELDS.close | PRICE_FIELDS.logReturn | PRICE_FIELDS.trueRange;

/** Rows newest first, as barsUpTo returns them, for bars `from`..`to` (open time i s, written by transaction tx(i)). */
function rows(from: number, to: number, tx = (i: number) => 100 + i, price = (i: number) => 100 + i / 8): StoredBarRow[] {
  const out: StoredBarRow[] = [];
  for (let i = to; i >= from; i--) {
    const p = price(i).toFixed(10);
    // As the query computes it: xmin x 2^21 + open time in seconds mod 2^21.
    out.push({ openTime: i * 1000, version: tx(i) * 2 ** 21 + (i % 2 ** 21), open: p, high: p, low: p, close: p });
  }
  return out;
}

/** The closes the columns hold, oldest first (after loading them all); their derived values must be those of these bars. */
function closes(columns: StoredBarColumns): number[] {
  columns.load(columns.length, ALL);
  const window = (column: Float64Array) => Array.from(column.subarray(columns.start, columns.start + columns.length));
  const values = window(columns.close);
  const highs = window(columns.high);
  const lows = window(columns.low);
  expect(window(columns.logReturn).slice(1)).toEqual(values.slice(1).map((c, k) => Math.log(c / values[k])));
  expect(window(columns.trueRange).slice(1)).toEqual(values.slice(1).map((_, k) => Math.max(highs[k + 1] - lows[k + 1], Math.abs(highs[k + 1] - values[k]), Math.abs(lows[k + 1] - values[k]))));
  return values;
}

const expected = (from: number, to: number, price = (i: number) => 100 + i / 8) => Array.from({ length: to - from + 1 }, (_, k) => Number(price(from + k).toFixed(10)));

describe('StoredBarColumns: the doubles of a symbol interval kept between bar closes', () => {
  it('converts a bar close’s new bar only, keeping the others while their row version is unchanged', () => {
    const columns = new StoredBarColumns();
    columns.align(rows(0, 9), 10);
    expect(closes(columns)).toEqual(expected(0, 9));
    // The next bar close: bar 10 is new. The kept bars are not read again: their strings here say 0, their versions did not change.
    const next = rows(1, 10).map((r, k) => (k === 0 ? r : { ...r, open: '0', high: '0', low: '0', close: '0' }));
    columns.align(next, 10);
    expect(closes(columns)).toEqual(expected(1, 10));
  });

  it('converts a bar again when its row was rewritten (a new version), and reads gaps and other windows correctly', () => {
    const columns = new StoredBarColumns();
    columns.align(rows(0, 9), 10);
    closes(columns);
    // Bar 7 rewritten by transaction 999 with another price; bar 11 arrives, bar 10 never did (a gap).
    const price = (i: number) => (i === 7 ? 555 : 100 + i / 8);
    const withGap = rows(2, 11, (i) => (i === 7 ? 999 : 100 + i), price).filter((r) => r.openTime !== 10_000);
    columns.align(withGap, 10);
    expect(closes(columns)).toEqual(expected(2, 11, price).filter((_, k) => k !== 8));
    // Back to an older window (another job re-checking its own bar close), then a larger one.
    columns.align(rows(0, 9), 10);
    expect(closes(columns)).toEqual(expected(0, 9));
    const longer = rows(0, 30);
    columns.align(longer, 25);
    expect(closes(columns)).toEqual(expected(6, 30));
    columns.align(longer, 5);
    expect(closes(columns)).toEqual(expected(26, 30));
    // Fewer rows than asked for: all of them.
    columns.align(rows(0, 2), 10);
    expect(closes(columns)).toEqual(expected(0, 2));
  });

  it('converts only the fields and the bars a condition loads', () => {
    const columns = new StoredBarColumns();
    const bars = rows(0, 9).map((r) => ({ ...r, open: 'not a number' }));
    columns.align(bars, 10);
    columns.load(3, PRICE_FIELDS.close);
    expect(Array.from(columns.close.subarray(columns.start + 7, columns.start + 10))).toEqual(expected(7, 9));
    columns.load(10, PRICE_FIELDS.high | PRICE_FIELDS.low);
    expect(columns.high[columns.start]).toBe(100);
    // The opens (not numbers here) were never converted.
    expect(Array.from(columns.open.subarray(columns.start, columns.start + 10))).toEqual(Array(10).fill(0));
  });
});

describe('StoredBarColumns and bars written by one transaction', () => {
  it('tells them apart by their open times: a bar backfilled into a gap moves the older ones, which are converted again', () => {
    const columns = new StoredBarColumns();
    const backfill = () => 7;
    const price = (i: number) => 50 + i;
    // One backfill wrote bars 0-9 but 5; bar 10 closes.
    columns.align(rows(0, 10, backfill, price).filter((r) => r.openTime !== 5000), 8);
    expect(closes(columns)).toEqual(expected(2, 10, price).filter((_, k) => k !== 3));
    // The same transaction id, bar 5 inserted later by another one: the bars before it sit one place back.
    const later = rows(0, 11, (i) => (i === 5 ? 8 : 7), price);
    columns.align(later, 8);
    expect(closes(columns)).toEqual(expected(4, 11, price));
  });
});

describe('StoredBarColumns over many bar closes', () => {
  it('holds the right bars as its window slides along its columns and moves back, with rewrites on the way', () => {
    const columns = new StoredBarColumns();
    const price = (i: number) => 100 + Math.sin(i) * 10;
    for (let newest = 20; newest < 200; newest++) {
      // Every 17th close rewrites the bar 5 back (a new transaction and another price), which later closes keep.
      const rewritten = (i: number) => i % 17 === 0 && newest >= i + 5;
      const tx = (i: number) => (rewritten(i) ? 10_000 + i : 100 + i);
      const p = (i: number) => (rewritten(i) ? price(i) + 1 : price(i));
      columns.align(rows(0, newest, tx, p), 21);
      expect(closes(columns)).toEqual(expected(newest - 20, newest, p));
    }
  });
});

describe('StoredBarCache', () => {
  it('keeps a symbol interval’s columns for two intervals and a minute after their last bar close', () => {
    const cache = new StoredBarCache();
    const first = cache.columnsFor('BTCUSDT', '1h', 3_600_000, rows(0, 9), 10, 0);
    expect(cache.columnsFor('BTCUSDT', '1h', 3_600_000, rows(1, 10), 10, 3_600_000)).toBe(first);
    expect(cache.columnsFor('BTCUSDT', '4h', 14_400_000, rows(1, 10), 10, 3_600_000)).not.toBe(first);
    cache.sweep(3_600_000 + 7_260_000);
    expect(cache.size).toBe(2);
    cache.sweep(3_600_000 + 7_260_001);
    expect(cache.size).toBe(1);
  });
});

describe('volatility conditions on stored bars across bar closes (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let h: AlertsHarness;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  beforeEach(() => {
    h = new AlertsHarness(db);
  });

  afterEach(async () => {
    await h.close();
    await db.dataSource.query('TRUNCATE users, markets, alerts, alert_logs, notifications, price_bars CASCADE');
  });

  afterAll(async () => {
    await db.drop();
  });

  const HOUR = 3_600_000;
  const FIRST = Date.parse('2026-11-23T00:00:00Z');
  const openAt = (i: number) => new Date(FIRST + i * HOUR);

  async function insertBars(marketId: number, closes: number[]) {
    await db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, source)
       SELECT $1, '1h', u.open_time, u.close, u.close + 0.5, u.close - 0.5, u.close, 'simulated' FROM unnest($2::timestamptz[], $3::numeric[]) AS u(open_time, close)`,
      [marketId, closes.map((_, i) => openAt(i)), closes.map(String)],
    );
  }

  it('reads rows newest first, each with a version that changes when its bar is written again', async () => {
    const marketId = await h.market('VOLX');
    await insertBars(marketId, [10, 11, 12, 13]);
    const before = await barsUpTo(db.dataSource, 'VOLX', '1h', openAt(3), 10);
    expect(before.newestOpenTime).toEqual(openAt(3));
    expect(before.rows.map((r) => r.close)).toEqual(['13.0000000000', '12.0000000000', '11.0000000000', '10.0000000000']);
    expect(before.rows.map((r) => r.openTime)).toEqual([3, 2, 1, 0].map((i) => openAt(i).getTime()));
    expect(before.rows.every((r) => Number.isInteger(r.version) && r.version > 0)).toBe(true);
    await db.dataSource.query(`UPDATE price_bars SET high = high + 1 WHERE market_id = $1 AND open_time = $2`, [marketId, openAt(1)]);
    const after = await barsUpTo(db.dataSource, 'VOLX', '1h', openAt(3), 10);
    expect(after.rows.map((r, k) => r.openTime === before.rows[k].openTime && r.version === before.rows[k].version)).toEqual([true, true, false, true]);
  });

  it('sees a bar rewritten between two bar closes (the process keeps the others converted)', async () => {
    const userId = await h.user('vol-cache@example.test');
    const marketId = await h.market('VOLY');
    // 30 quiet hourly bars: an ATR(5) of 1 (high - low), 1 % of a close of 100.
    await insertBars(marketId, Array.from({ length: 30 }, () => 100));
    const alertId = await h.alert(userId, 'VOLY', { type: 'atr_above', period: 5, unit: 'price', level: 1.5 }, { interval: '1h' });
    h.clock.set(openAt(29));
    const quiet = await evaluateClosedBars({ bars: [{ symbol: 'VOLY', interval: '1h', openTime: openAt(28).toISOString() }] }, h.context);
    expect(quiet.fired).toBe(0);
    const cache = storedBarCacheOf(await alertIndexFor(h.context));
    expect(cache.size).toBe(1);
    // A provider's candle rewrites bar 27 with a wide range (true range 21): ATR(5) at bar 29 = 1 + 20 x (4/5)^2 / 5 = 3.56.
    await db.dataSource.query(`UPDATE price_bars SET high = 110, low = 89 WHERE market_id = $1 AND open_time = $2`, [marketId, openAt(27)]);
    h.clock.set(openAt(30));
    const next = await evaluateClosedBars({ bars: [{ symbol: 'VOLY', interval: '1h', openTime: openAt(29).toISOString() }] }, h.context);
    expect(next.fired).toBe(1);
    const [log] = await h.logs(alertId);
    expect(log.message).toBe('VOLY 1h ATR(5) 3.56 is above 1.5');
  });
});
