import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import type { AlertCondition } from '../../src/alerts/alert-conditions';
import { evaluateClosedBars } from '../../src/alerts/alert-evaluation';
import { alertIndexFor } from '../../src/alerts/alert-index-cache';
import { historyPoints } from '../../src/alerts/alert-price-history';
import { priceHistory, storeQuotes } from '../../src/prices/latest-prices.store';
import { formatDecimal } from '../../src/alerts/alert-message';
import { AlertsHarness } from './alerts-harness';

/**
 * Every condition family through the real evaluation path: prices stored in Redis as the prices
 * jobs store them, the alerts.evaluate processor, the index, the locked re-check and the writes.
 */
describe('alerts: evaluation of crafted price sequences (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let h: AlertsHarness;
  let userId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  beforeEach(async () => {
    h = new AlertsHarness(db);
    userId = await h.user(`trader-${h.prefix}@example.test`);
  });

  afterEach(async () => {
    await h.close();
    await db.dataSource.query('TRUNCATE users, markets, alerts, alert_logs, notifications, price_bars CASCADE');
  });

  afterAll(async () => {
    await db.drop();
  });

  /** One every_time alert (no cooldown) on a fresh symbol; the indices of the prices that fired it, and its logs. */
  async function run(condition: AlertCondition, prices: string[]) {
    const symbol = `T${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const alertId = await h.alert(userId, symbol, condition);
    const fired = await h.sequence(symbol, prices);
    return { fired, logs: await h.logs(alertId), alertId, symbol };
  }

  describe('levels and crossings', () => {
    it('crossing_up fires on reaching the level exactly and on a gap through it, not on leaving it', async () => {
      const { fired, logs, symbol } = await run({ type: 'crossing_up', value: '100' }, ['95', '100', '101', '99', '105', '110']);
      expect(fired).toEqual([1, 4]);
      expect(logs.map((l) => Number(l.value))).toEqual([100, 105]);
      expect(logs[0].message).toBe(`${symbol} crossed above 100 (now 100.00)`);
      expect(logs[1].message).toBe(`${symbol} crossed above 100 (now 105.00)`);
    });

    it('crossing_down fires on the level and on a gap down through it', async () => {
      const { fired } = await run({ type: 'crossing_down', value: '100' }, ['105', '100', '99', '101', '90']);
      expect(fired).toEqual([1, 4]);
    });

    it('crossing fires both ways and says which way', async () => {
      const { fired, logs, symbol } = await run({ type: 'crossing', value: '60000' }, ['59990', '60012.5', '60012.5', '59000']);
      expect(fired).toEqual([1, 3]);
      expect(logs.map((l) => l.message)).toEqual([
        `${symbol} crossed above 60,000 (now 60,012.50)`,
        `${symbol} crossed below 60,000 (now 59,000.00)`,
      ]);
    });

    it('the first price seen never counts as a crossing (no previous price)', async () => {
      const { fired } = await run({ type: 'crossing_up', value: '100' }, ['150', '160']);
      expect(fired).toEqual([]);
    });

    it('greater_than is strict and compares decimals exactly', async () => {
      const { fired, logs, symbol } = await run({ type: 'greater_than', value: '100' }, ['100', '100.0000000001', '99', '100.5']);
      expect(fired).toEqual([1, 3]);
      expect(logs[0].message).toBe(`${symbol} is above 100 (now 100.0000000001)`);
    });

    it('less_than is strict', async () => {
      const { fired } = await run({ type: 'less_than', value: '0.3' }, ['0.3', '0.2999999999', '0.31']);
      expect(fired).toEqual([1]);
    });
  });

  describe('channels', () => {
    it('entering_channel: a bound counts as inside; a jump clean across is not an entry', async () => {
      const { fired, logs, symbol } = await run({ type: 'entering_channel', low: '90', high: '110' }, ['80', '90', '111', '80', '120', '110']);
      expect(fired).toEqual([1, 5]);
      expect(logs[0].message).toBe(`${symbol} entered the 90 - 110 channel (now 90.00)`);
    });

    it('exiting_channel: fires only once the price is beyond a bound', async () => {
      const { fired } = await run({ type: 'exiting_channel', low: '90', high: '110' }, ['100', '110', '110.5', '100', '89.99']);
      expect(fired).toEqual([2, 4]);
    });

    it('inside_channel and outside_channel hold as levels', async () => {
      const inside = await run({ type: 'inside_channel', low: '90', high: '110' }, ['80', '90', '115', '110']);
      expect(inside.fired).toEqual([1, 3]);
      const outside = await run({ type: 'outside_channel', low: '90', high: '110' }, ['100', '110', '110.01', '89']);
      expect(outside.fired).toEqual([2, 3]);
    });
  });

  describe('moving conditions (history from the price store)', () => {
    it('moving_up fires when the rise from the window low reaches the amount exactly', async () => {
      const { fired, logs, symbol } = await run({ type: 'moving_up', amount: '50', minutes: 5 }, ['1000', '1020', '1049.99', '1050']);
      expect(fired).toEqual([3]);
      expect(logs[0].message).toBe(`${symbol} rose 50.00 within 5 minutes (from 1,000.00, now 1,050.00)`);
    });

    it('moving_down forgets prices older than its window', async () => {
      // A minute apart: at the 7th price (t+6m) the 1000 of t0 has left the 5-minute window.
      const { fired } = await run({ type: 'moving_down', amount: '30', minutes: 5 }, ['1000', '990', '985', '980', '975', '970', '969', '940']);
      expect(fired).toEqual([5, 7]);
    });

    it('moving_up_percent and moving_down_percent use exact percentages of the window extreme', async () => {
      const up = await run({ type: 'moving_up_percent', percent: '2', minutes: 10 }, ['1000', '1010', '1019.99', '1020']);
      expect(up.fired).toEqual([3]);
      expect(up.logs[0].message).toBe(`${up.symbol} rose 2.00% within 10 minutes (now 1,020.00)`);
      const down = await run({ type: 'moving_down_percent', percent: '1.5', minutes: 10 }, ['2000', '1980', '1970.01', '1970']);
      expect(down.fired).toEqual([3]);
    });

    it('keeps the history parsed in the process: each job reads only the new points, including those other workers stored', async () => {
      const symbol = 'TMOVEINC';
      const alertId = await h.alert(userId, symbol, { type: 'moving_down', amount: '30', minutes: 5 });
      const cache = await alertIndexFor(h.context);
      const redis = h.queues.redis;
      const histories = cache.priceHistories;
      const t0 = Date.parse('2026-11-23T10:00:00Z');
      const at = (minute: number) => new Date(t0 + minute * 60_000);
      // What a full read of the window gives (the evaluator's former way).
      const fullRead = (minute: number) => priceHistory(redis, h.prefix, symbol, at(minute).getTime() - 5 * 60_000);

      expect((await h.price(symbol, '1000', at(0))).fired).toBe(0);
      expect(histories.pointsRead).toBe(1);
      expect((await h.price(symbol, '990', at(1))).fired).toBe(0);
      expect(histories.pointsRead).toBe(2);
      // Another worker stored (and evaluated) this tick: this process never saw it.
      await storeQuotes(redis, h.prefix, [{ symbol, price: '1040', at: at(2), change24hPercent: null, volume24h: null, source: 'simulated', simulated: true }]);
      // Fires only through the missed 1040 (1040 - 1005 >= 30).
      expect((await h.price(symbol, '1005', at(3))).fired).toBe(1);
      expect(histories.pointsRead).toBe(4);
      expect(historyPoints(histories.get(symbol)!)).toEqual(await fullRead(3));
      // Minute 9: the window (since minute 4) no longer holds the first four points; held and full read agree.
      expect((await h.price(symbol, '1001', at(9))).fired).toBe(0);
      expect(histories.pointsRead).toBe(5);
      expect(historyPoints(histories.get(symbol)!)).toEqual(await fullRead(9));
      expect(historyPoints(histories.get(symbol)!).map((p) => p.price)).toEqual(['1001']);
      expect((await h.logs(alertId)).map((l) => Number(l.value))).toEqual([1005]);

      // A longer window than the held history covers: read in full once, then incrementally again.
      await h.alert(userId, symbol, { type: 'moving_up', amount: '100', minutes: 10 });
      expect((await h.price(symbol, '1000', at(10))).fired).toBe(0);
      expect(histories.pointsRead).toBe(5 + 6); // every point since minute 0
      expect(historyPoints(histories.get(symbol)!)).toEqual(await priceHistory(redis, h.prefix, symbol, at(0).getTime()));
      expect((await h.price(symbol, '1002', at(11))).fired).toBe(0);
      expect(histories.pointsRead).toBe(12);
      expect(historyPoints(histories.get(symbol)!)).toEqual(await priceHistory(redis, h.prefix, symbol, at(1).getTime()));
    });

    it('drops the held history of a symbol once it has no moving alert', async () => {
      const symbol = 'TMOVEDROP';
      const alertId = await h.alert(userId, symbol, { type: 'moving_up', amount: '10', minutes: 5 });
      const cache = await alertIndexFor(h.context);
      await h.sequence(symbol, ['100', '101']);
      expect(cache.priceHistories.symbols()).toContain(symbol);
      await h.dataSource.query('UPDATE alerts SET is_active = false WHERE id = $1', [alertId]);
      await cache.reload([alertId]);
      const before = cache.priceHistories.pointsRead;
      await h.price(symbol, '120', '2026-11-23T10:05:00Z');
      expect(cache.priceHistories.symbols()).not.toContain(symbol);
      expect(cache.priceHistories.pointsRead).toBe(before);
    });
  });

  describe('technical conditions on closed bars', () => {
    async function bars(symbol: string, interval: string, closes: number[], firstOpen: string, stepMs: number): Promise<string[]> {
      const marketId = await h.market(symbol);
      const opens = closes.map((_, i) => new Date(Date.parse(firstOpen) + i * stepMs).toISOString());
      await db.dataSource.query(
        `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, source)
         SELECT $1, $2, u.open_time, u.close, u.close, u.close, u.close, 'simulated' FROM unnest($3::timestamptz[], $4::numeric[]) AS u(open_time, close)`,
        [marketId, interval, opens, closes.map(String)],
      );
      return opens;
    }

    it('price_crossing_ma fires on the bar whose close crosses its SMA, keyed by the bar close', async () => {
      const symbol = 'ETHUSDT';
      const alertId = await h.alert(userId, symbol, { type: 'price_crossing_ma', ma: 'sma', period: 3, direction: 'up' }, { interval: '1h' });
      const opens = await bars(symbol, '1h', [10, 10, 10, 10, 9, 12, 13], '2026-11-23T00:00:00Z', 3_600_000);
      h.clock.set('2026-11-23T07:00:00Z');
      // Bar 4 (close 9) is below its SMA; bar 5 (close 12) crosses above it; bar 6 stays above.
      const notYet = await evaluateClosedBars({ bars: [{ symbol, interval: '1h', openTime: opens[4] }] }, h.context);
      const crossing = await evaluateClosedBars({ bars: [{ symbol, interval: '1h', openTime: opens[5] }] }, h.context);
      const after = await evaluateClosedBars({ bars: [{ symbol, interval: '1h', openTime: opens[6] }] }, h.context);
      // Another interval's bar does not touch a 1h alert.
      const otherInterval = await evaluateClosedBars({ bars: [{ symbol, interval: '4h', openTime: opens[5] }] }, h.context);

      expect([notYet.fired, crossing.fired, after.fired, otherInterval.candidates]).toEqual([0, 1, 0, 0]);
      const [log] = await h.logs(alertId);
      expect(log.triggered_at.toISOString()).toBe('2026-11-23T05:59:59.999Z');
      expect(Number(log.value)).toBe(12);
      expect(log.message).toBe('ETHUSDT crossed above its SMA(3) on the 1h chart (close 12.00)');
      const [notification] = await db.dataSource.query('SELECT activity_type, details FROM notifications');
      expect(notification).toMatchObject({ activity_type: 'MARKET_ALERT_TECHNICAL', details: { condition: 'price_crossing_ma', interval: '1h' } });
    });

    it('rsi_below fires on a falling series and stays quiet on a rising one', async () => {
      const falling = await h.alert(userId, 'SOLUSDT', { type: 'rsi_below', level: 30, period: 14 }, { interval: '15m' });
      const rising = await h.alert(userId, 'ADAUSDT', { type: 'rsi_below', level: 30, period: 14 }, { interval: '15m' });
      const down = Array.from({ length: 20 }, (_, i) => 200 - i * 2 + (i % 3 === 0 ? 1 : 0));
      const up = Array.from({ length: 20 }, (_, i) => 100 + i * 2 - (i % 3 === 0 ? 1 : 0));
      const opensDown = await bars('SOLUSDT', '15m', down, '2026-11-23T00:00:00Z', 900_000);
      const opensUp = await bars('ADAUSDT', '15m', up, '2026-11-23T00:00:00Z', 900_000);
      h.clock.set('2026-11-23T06:00:00Z');
      const result = await evaluateClosedBars(
        { bars: [{ symbol: 'SOLUSDT', interval: '15m', openTime: opensDown[19] }, { symbol: 'ADAUSDT', interval: '15m', openTime: opensUp[19] }] },
        h.context,
      );
      expect(result.fired).toBe(1);
      expect((await h.logs(falling)).map((l) => l.message)).toEqual([expect.stringMatching(/^SOLUSDT RSI\(14\) is below 30 on the 15m chart \(RSI \d+\.\d, close 162\.00\)$/)]);
      expect(await h.logs(rising)).toEqual([]);
    });

    it('a closed bar that is not stored yet fires nothing', async () => {
      await h.alert(userId, 'XRPUSDT', { type: 'rsi_above', level: 50, period: 2 }, { interval: '1m' });
      await bars('XRPUSDT', '1m', [1, 2, 3, 4], '2026-11-23T00:00:00Z', 60_000);
      const result = await evaluateClosedBars({ bars: [{ symbol: 'XRPUSDT', interval: '1m', openTime: '2026-11-23T00:10:00.000Z' }] }, h.context);
      expect(result.fired).toBe(0);
    });
  });

  describe('the index only narrows: the database decides', () => {
    it('builds the index from the active, unexpired alerts with their market symbol', async () => {
      const active = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '1' });
      const inactive = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '1' }, { isActive: false });
      const expired = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '1' }, { expiresAt: new Date('2026-11-23T09:00:00Z') });
      const technical = await h.alert(userId, 'BTCUSDT', { type: 'rsi_above', level: 70, period: 14 }, { interval: '1h' });
      const cache = await alertIndexFor(h.context);
      expect([active, inactive, expired, technical].map((id) => cache.index.get(id)?.symbol ?? null)).toEqual(['BTCUSDT', null, null, 'BTCUSDT']);
      expect(cache.intervalOf(technical)).toBe('1h');
      expect(cache.index.technicalAlerts('BTCUSDT').map((a) => a.id)).toEqual([technical]);
    });

    it('an edit the index has not heard of yet: the stored condition decides, then the index takes it', async () => {
      const alertId = await h.alert(userId, 'BTCUSDT', { type: 'crossing_up', value: '100' });
      await h.price('BTCUSDT', '90', '2026-11-23T10:00:00Z');
      // Edited in the database without the change message (lost, or not there yet).
      await db.dataSource.query(`UPDATE alerts SET value = 200, params = $2::jsonb WHERE id = $1`, [alertId, JSON.stringify({ type: 'crossing_up', value: '200' })]);
      const stale = await h.price('BTCUSDT', '150', '2026-11-23T10:01:00Z');
      expect([stale.candidates, stale.fired]).toEqual([1, 0]);
      const cache = await alertIndexFor(h.context);
      expect(cache.index.get(alertId)?.condition).toEqual({ type: 'crossing_up', value: '200' });
      const fresh = await h.price('BTCUSDT', '201', '2026-11-23T10:02:00Z');
      expect(fresh.fired).toBe(1);
      expect((await h.logs(alertId)).map((l) => Number(l.value))).toEqual([201]);
    });
  });

  it('formats prices for people', () => {
    expect([formatDecimal('60012.5', 2), formatDecimal('60000'), formatDecimal('0.00001234', 2), formatDecimal('1234567.1000000000')]).toEqual([
      '60,012.50',
      '60,000',
      '0.00001234',
      '1,234,567.1',
    ]);
  });
});
