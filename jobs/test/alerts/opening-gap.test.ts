import fs from 'node:fs';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { alertConditionSchema, type VolatilityCondition } from '../../src/alerts/alert-conditions';
import { evaluateClosedBars } from '../../src/alerts/alert-evaluation';
import { alertsBarDemand } from '../../src/alerts/alert-bar-demand';
import { alertConditionInputSchema, conditionMarketIssue } from '../../src/alerts/alert-input';
import { openingGapBarDemand, previousCloseWindow, sessionOpenedBy } from '../../src/alerts/opening-gap';
import { isVolatilityConditionMet, measureVolatility, volatilityAlertMessage, type VolatilityContext } from '../../src/alerts/volatility-conditions';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, parseExchangeCalendarFile } from '../../src/market-hours/market-hours.import';
import { importExchangeCalendarFile } from '../../src/market-hours/market-hours.store';
import { bundledCalendar } from '../market-hours/market-hours-fixtures';
import { AlertsHarness } from './alerts-harness';

// The NYSE calendar as bundled: in November 2026 New York is on EST (UTC-5), so the session opens
// at 14:30Z and closes at 21:00Z; Thanksgiving (Thursday 26th) is a holiday and Friday 27th closes early at 13:00 (18:00Z).
const xnys = () => bundledCalendar('XNYS');
const parse = (input: Record<string, unknown>) => alertConditionSchema.parse(input) as VolatilityCondition;
const gapContext = (open: number, previousClose: number): VolatilityContext => ({ interval: '1m', marketType: 'stock', gap: { open, previousClose } });
const bar = (open: number) => [{ open, high: open, low: open, close: open }];

describe('opening_gap: which bar opens a session, and which session it is compared with', () => {
  it('is the bar containing the session open: the 09:30 minute bar, the 09:00 hourly bar, the daily bar', () => {
    const opened = sessionOpenedBy(xnys(), new Date('2026-11-25T14:30:00Z'), '1m');
    expect(opened?.session.date).toBe('2026-11-25');
    expect(opened?.previous.date).toBe('2026-11-24');
    expect(opened?.previous.close.toISOString()).toBe('2026-11-24T21:00:00.000Z');
    expect(sessionOpenedBy(xnys(), new Date('2026-11-25T14:00:00Z'), '1h')?.session.date).toBe('2026-11-25');
    // A daily bar opening at midnight New York time holds the 09:30 open.
    expect(sessionOpenedBy(xnys(), new Date('2026-11-25T05:00:00Z'), '1d')?.session.date).toBe('2026-11-25');
  });

  it('is no other bar: the next minute, a pre-market bar, a weekend or holiday bar', () => {
    expect(sessionOpenedBy(xnys(), new Date('2026-11-25T14:31:00Z'), '1m')).toBeNull();
    expect(sessionOpenedBy(xnys(), new Date('2026-11-25T14:29:00Z'), '1m')).toBeNull();
    expect(sessionOpenedBy(xnys(), new Date('2026-11-25T15:00:00Z'), '1h')).toBeNull();
    expect(sessionOpenedBy(xnys(), new Date('2026-11-28T14:30:00Z'), '1m')).toBeNull(); // Saturday
    expect(sessionOpenedBy(xnys(), new Date('2026-11-26T14:30:00Z'), '1m')).toBeNull(); // Thanksgiving
  });

  it('skips a holiday and a weekend back to the last trading day (and its early close)', () => {
    const afterHoliday = sessionOpenedBy(xnys(), new Date('2026-11-27T14:30:00Z'), '1m');
    expect(afterHoliday?.previous.date).toBe('2026-11-25');
    const monday = sessionOpenedBy(xnys(), new Date('2026-11-30T14:30:00Z'), '1m');
    expect(monday?.previous.date).toBe('2026-11-27');
    expect(monday?.previous.close.toISOString()).toBe('2026-11-27T18:00:00.000Z');
    // The close is read from bars opening within the previous session (one interval before its open at most).
    expect(previousCloseWindow(monday!.previous, '1m')).toEqual({ from: new Date('2026-11-27T14:29:00.001Z'), before: new Date('2026-11-27T18:00:00Z') });
  });

  it('asks for bars reaching the previous session across 10 h of extended-hours bars', () => {
    expect(openingGapBarDemand('1m')).toBe(602); // 2 + 600
    expect(openingGapBarDemand('15m')).toBe(42); // 2 + 40
    expect(openingGapBarDemand('1h')).toBe(12); // 2 + 10
    expect(openingGapBarDemand('1d')).toBe(3); // 2 + 1
  });
});

describe('opening_gap: the gap against its threshold', () => {
  // Previous close 80: an open of 82 gaps (82 - 80) / 80 = +2.5 %; 82.0008 gaps +2.501 %; 77.9992 gaps -2.501 %.
  it('measures the signed gap in percent of the previous close', () => {
    expect(measureVolatility(parse({ type: 'opening_gap', percent: 2.5 }), bar(82), gapContext(82, 80))).toEqual({ value: 2.5, threshold: 2.5, reference: 80, met: false });
    expect(measureVolatility(parse({ type: 'opening_gap', percent: 2.5 }), bar(77.9992), gapContext(77.9992, 80))?.value).toBe(-2.501);
  });

  it('does not fire on a gap equal to the threshold, fires just above it', () => {
    const up = parse({ type: 'opening_gap', percent: 2.5, direction: 'up' });
    expect(isVolatilityConditionMet(up, bar(82), gapContext(82, 80))).toBe(false);
    expect(isVolatilityConditionMet(up, bar(82.0008), gapContext(82.0008, 80))).toBe(true);
    const down = parse({ type: 'opening_gap', percent: 2.5, direction: 'down' });
    expect(isVolatilityConditionMet(down, bar(78), gapContext(78, 80))).toBe(false); // -2.5 % exactly
    expect(isVolatilityConditionMet(down, bar(77.9992), gapContext(77.9992, 80))).toBe(true);
  });

  it('follows its direction: up only above, down only below, any either way', () => {
    const cases: [string, number, boolean][] = [
      ['up', 82.0008, true],
      ['up', 77.9992, false],
      ['down', 82.0008, false],
      ['down', 77.9992, true],
      ['any', 82.0008, true],
      ['any', 77.9992, true],
      ['any', 81, false], // +1.25 %
    ];
    for (const [direction, open, met] of cases) {
      expect([direction, open, isVolatilityConditionMet(parse({ type: 'opening_gap', percent: 2.5, direction }), bar(open), gapContext(open, 80))]).toEqual([direction, open, met]);
    }
  });

  it('is undefined without a session open or a positive previous close', () => {
    const condition = parse({ type: 'opening_gap', percent: 1 });
    expect(measureVolatility(condition, bar(90), { interval: '1m', marketType: 'stock' })).toBeNull();
    expect(measureVolatility(condition, bar(90), { interval: '1m', marketType: 'stock', gap: null })).toBeNull();
    expect(measureVolatility(condition, bar(90), gapContext(90, 0))).toBeNull();
  });

  it('says the gap, the open, the previous close and the threshold', () => {
    expect(volatilityAlertMessage('AAPL', parse({ type: 'opening_gap', percent: 2.5, direction: 'up' }), bar(82.0008), gapContext(82.0008, 80))).toBe(
      'AAPL 1m opening gap +2.5 % up (open 82.0008 against the previous close 80) is more than 2.5 % up',
    );
    expect(volatilityAlertMessage('AAPL', parse({ type: 'opening_gap', percent: 2 }), bar(76), gapContext(76, 80))).toBe(
      'AAPL 1m opening gap -5 % down (open 76 against the previous close 80) is more than 2 % either way',
    );
  });
});

describe('opening_gap: validation', () => {
  const issues = (input: Record<string, unknown>) => {
    const result = alertConditionInputSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };

  it('defaults the direction to any', () => {
    expect(alertConditionSchema.parse({ type: 'opening_gap', percent: 3 })).toEqual({ type: 'opening_gap', percent: 3, direction: 'any' });
  });

  it('refuses a missing, zero, negative or too large percent, another direction and unknown fields, by name', () => {
    expect(issues({ type: 'opening_gap' })).toEqual(['percent']);
    expect(issues({ type: 'opening_gap', percent: 0 })).toEqual(['percent']);
    expect(issues({ type: 'opening_gap', percent: -2 })).toEqual(['percent']);
    expect(issues({ type: 'opening_gap', percent: 1000.5 })).toEqual(['percent']);
    expect(issues({ type: 'opening_gap', percent: 2, direction: 'sideways' })).toEqual(['direction']);
    expect(issues({ type: 'opening_gap', percent: 2, period: 3 })).toEqual(['']);
  });

  it('is refused for a market without sessions, naming condition.type', () => {
    const gap = alertConditionSchema.parse({ type: 'opening_gap', percent: 2 });
    expect(conditionMarketIssue(gap, { symbol: 'BTCUSDT', type: 'crypto' })).toEqual({
      field: 'condition.type',
      message: 'an opening gap needs a market with sessions (a stock or an ETF); BTCUSDT is crypto',
    });
    expect(conditionMarketIssue(gap, { symbol: 'AAPL', type: 'stock' })).toBeNull();
    expect(conditionMarketIssue(gap, { symbol: 'SPY', type: 'etf' })).toBeNull();
    expect(conditionMarketIssue(alertConditionSchema.parse({ type: 'rsi_above', level: 70 }), { symbol: 'BTCUSDT', type: 'crypto' })).toBeNull();
  });
});

/** Stored bars around Thanksgiving through the real evaluation path (PostgreSQL, Redis, the trigger writes). */
describe('opening_gap: evaluation on stored bars (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let h: AlertsHarness;
  let userId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    await importExchangeCalendarFile(db.dataSource, parseExchangeCalendarFile(fs.readFileSync(BUNDLED_EXCHANGE_CALENDARS_PATH, 'utf8'), 'bundled'));
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

  /** 1m bars [open time, open, close] of a market. */
  async function bars(symbol: string, rows: [string, number, number][]): Promise<void> {
    const marketId = await h.market(symbol);
    await db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, source)
       SELECT $1, '1m', u.open_time, u.open, greatest(u.open, u.close), least(u.open, u.close), u.close, 'simulated'
         FROM unnest($2::timestamptz[], $3::numeric[], $4::numeric[]) AS u(open_time, open, close)`,
      [marketId, rows.map((r) => r[0]), rows.map((r) => String(r[1])), rows.map((r) => String(r[2]))],
    );
  }

  // Wednesday's session ends with a close of 80 (the 15:59 bar); an after-hours bar (16:30) and
  // Friday's pre-market bar (08:00) are not sessions and are not read; Thursday is Thanksgiving.
  const aroundThanksgiving: [string, number, number][] = [
    ['2026-11-25T20:58:00Z', 79.5, 79.8],
    ['2026-11-25T20:59:00Z', 79.8, 80],
    ['2026-11-25T21:30:00Z', 80, 90],
    ['2026-11-27T13:00:00Z', 85, 85],
    ['2026-11-27T14:30:00Z', 82, 82.4],
    ['2026-11-27T14:31:00Z', 82.4, 90],
  ];

  it('fires on the session-opening bar when the gap over the last trading day close is above the threshold, not when equal', async () => {
    await h.market('GAPQ', 'stock');
    await bars('GAPQ', aroundThanksgiving);
    const above = await h.alert(userId, 'GAPQ', { type: 'opening_gap', percent: 2.4, direction: 'up' }, { interval: '1m' });
    const equal = await h.alert(userId, 'GAPQ', { type: 'opening_gap', percent: 2.5, direction: 'any' }, { interval: '1m' });
    const down = await h.alert(userId, 'GAPQ', { type: 'opening_gap', percent: 1, direction: 'down' }, { interval: '1m' });
    h.clock.set('2026-11-27T14:32:00Z');

    const opening = await evaluateClosedBars({ bars: [{ symbol: 'GAPQ', interval: '1m', openTime: '2026-11-27T14:30:00.000Z' }] }, h.context);
    // The next bar jumps 9 % above its own open but opens no session.
    const next = await evaluateClosedBars({ bars: [{ symbol: 'GAPQ', interval: '1m', openTime: '2026-11-27T14:31:00.000Z' }] }, h.context);

    expect([opening.fired, next.candidates]).toEqual([1, 0]);
    const [log] = await h.logs(above);
    // (82 - 80) / 80 = +2.5 % against Wednesday's close (not the after-hours 90 or the pre-market 85).
    expect(log.message).toBe('GAPQ 1m opening gap +2.5 % up (open 82 against the previous close 80) is more than 2.4 % up');
    expect(log.triggered_at.toISOString()).toBe('2026-11-27T14:30:59.999Z');
    expect(await h.logs(equal)).toEqual([]);
    expect(await h.logs(down)).toEqual([]);
    const [notification] = await db.dataSource.query('SELECT activity_type, details FROM notifications');
    expect(notification).toMatchObject({ activity_type: 'MARKET_ALERT_VOLATILITY', details: { condition: 'opening_gap', interval: '1m' } });
  });

  it('does not fire for a market without sessions, nor without a stored close in the previous session', async () => {
    await h.market('GAPC', 'crypto');
    await bars('GAPC', aroundThanksgiving);
    const crypto = await h.alert(userId, 'GAPC', { type: 'opening_gap', percent: 1, direction: 'any' }, { interval: '1m' });
    await h.market('GAPN', 'stock');
    await bars('GAPN', aroundThanksgiving.slice(2)); // Wednesday's session bars missing
    const noClose = await h.alert(userId, 'GAPN', { type: 'opening_gap', percent: 1, direction: 'any' }, { interval: '1m' });
    h.clock.set('2026-11-27T14:32:00Z');
    const result = await evaluateClosedBars(
      { bars: ['GAPC', 'GAPN'].map((symbol) => ({ symbol, interval: '1m' as const, openTime: '2026-11-27T14:30:00.000Z' })) },
      h.context,
    );
    expect(result.fired).toBe(0);
    expect([await h.logs(crypto), await h.logs(noClose)]).toEqual([[], []]);
  });

  it('asks the prices poll for bars reaching the previous session', async () => {
    const marketId = await h.market('GAPD', 'stock');
    await h.alert(userId, 'GAPD', { type: 'opening_gap', percent: 2, direction: 'any' }, { interval: '1m' });
    expect(await alertsBarDemand.barDemand(db.dataSource, [marketId], h.clock.now())).toEqual([{ marketId, interval: '1m', needed: 602 }]);
  });
});
