import { marketEventsBetween, marketStatusAt, regularBreakOf, sessionToJson, sessionsBetween, type MarketSession } from '../../src/market-hours/market-hours';
import { bundledCalendar, readCsv, readSessionFixture } from './market-hours-fixtures';

const iso = (s: MarketSession) => sessionToJson(s);
const at = (s: string) => new Date(s);

describe('market-hours: sessions reproduce the recorded exchange_calendars tables', () => {
  it.each([
    ['XNYS', 'exchange_calendars_XNYS_sessions_2022-2023.csv'],
    ['XTKS', 'exchange_calendars_XTKS_sessions_2025-2026.csv'],
  ])('%s matches %s for every date it covers', (mic, file) => {
    const expected = readSessionFixture(file);
    const first = expected[0].date;
    const last = expected[expected.length - 1].date;

    const actual = sessionsBetween(bundledCalendar(mic), first, last).map(({ date, open, close, breakStart, breakEnd }) => ({
      date,
      open: open.toISOString(),
      close: close.toISOString(),
      breakStart: breakStart?.toISOString() ?? null,
      breakEnd: breakEnd?.toISOString() ?? null,
    }));

    expect(actual).toEqual(expected);
  });

  it('XNYS 2025-2027: no session on each closure of the NYSE file, a 13:00 ET close on each early close', () => {
    const calendar = bundledCalendar('XNYS');
    const rows = readCsv('nyse_holidays_early_closes_2025-2027.csv');
    const sessions = new Map(sessionsBetween(calendar, '2025-01-01', '2027-12-31').map((s) => [s.date, s]));

    for (const row of rows) {
      if (row.status === 'closed') {
        expect({ date: row.date, session: sessions.get(row.date) }).toEqual({ date: row.date, session: undefined });
      } else {
        const session = sessions.get(row.date);
        expect(session?.kind).toBe('early_close');
        const local = session?.close.toLocaleString('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hour12: false });
        expect({ date: row.date, close: local }).toEqual({ date: row.date, close: '13:00' });
      }
    }
  });

  it('regular hours and lunch breaks agree with the exchange_calendars attribute table', () => {
    for (const row of readCsv('exchange_trading_hours_from_exchange_calendars.csv')) {
      const { exchange } = bundledCalendar(row.mic);
      expect({
        id: exchange.id,
        timezone: exchange.timezone,
        open: exchange.open,
        close: exchange.close,
        breakStart: exchange.breakStart,
        breakEnd: exchange.breakEnd,
      }).toEqual({
        id: row.mic,
        timezone: row.iana_timezone,
        open: row.open_local,
        close: row.close_local,
        breakStart: row.lunch_break_start_local || null,
        breakEnd: row.lunch_break_end_local || null,
      });
    }
  });
});

describe('market-hours: daylight saving changes move sessions in UTC', () => {
  const week = (mic: string, from: string, to: string) =>
    sessionsBetween(bundledCalendar(mic), from, to).map((s) => [s.date, iso(s).open, iso(s).close]);

  it('US: XNYS opens an hour earlier in UTC after 2026-03-08 and an hour later after 2026-11-01', () => {
    expect(week('XNYS', '2026-03-05', '2026-03-10')).toEqual([
      ['2026-03-05', '2026-03-05T14:30:00.000Z', '2026-03-05T21:00:00.000Z'],
      ['2026-03-06', '2026-03-06T14:30:00.000Z', '2026-03-06T21:00:00.000Z'],
      ['2026-03-09', '2026-03-09T13:30:00.000Z', '2026-03-09T20:00:00.000Z'],
      ['2026-03-10', '2026-03-10T13:30:00.000Z', '2026-03-10T20:00:00.000Z'],
    ]);
    expect(week('XNYS', '2026-10-29', '2026-11-03')).toEqual([
      ['2026-10-29', '2026-10-29T13:30:00.000Z', '2026-10-29T20:00:00.000Z'],
      ['2026-10-30', '2026-10-30T13:30:00.000Z', '2026-10-30T20:00:00.000Z'],
      ['2026-11-02', '2026-11-02T14:30:00.000Z', '2026-11-02T21:00:00.000Z'],
      ['2026-11-03', '2026-11-03T14:30:00.000Z', '2026-11-03T21:00:00.000Z'],
    ]);
  });

  it('US and UK change on different dates: between 2026-03-08 and 03-29 New York opens 5.5 hours after London instead of 6.5', () => {
    const london = sessionsBetween(bundledCalendar('XLON'), '2026-03-16', '2026-03-16')[0];
    const newYork = sessionsBetween(bundledCalendar('XNYS'), '2026-03-16', '2026-03-16')[0];
    expect(newYork.open.getTime() - london.open.getTime()).toBe(5.5 * 3600_000);
    const londonAfter = sessionsBetween(bundledCalendar('XLON'), '2026-03-30', '2026-03-30')[0];
    const newYorkAfter = sessionsBetween(bundledCalendar('XNYS'), '2026-03-30', '2026-03-30')[0];
    expect(newYorkAfter.open.getTime() - londonAfter.open.getTime()).toBe(6.5 * 3600_000);
  });

  it('UK: XLON moves with British Summer Time (starts 2026-03-29, ends 2026-10-25)', () => {
    expect(week('XLON', '2026-03-26', '2026-03-31')).toEqual([
      ['2026-03-26', '2026-03-26T08:00:00.000Z', '2026-03-26T16:30:00.000Z'],
      ['2026-03-27', '2026-03-27T08:00:00.000Z', '2026-03-27T16:30:00.000Z'],
      ['2026-03-30', '2026-03-30T07:00:00.000Z', '2026-03-30T15:30:00.000Z'],
      ['2026-03-31', '2026-03-31T07:00:00.000Z', '2026-03-31T15:30:00.000Z'],
    ]);
    expect(week('XLON', '2026-10-22', '2026-10-27')).toEqual([
      ['2026-10-22', '2026-10-22T07:00:00.000Z', '2026-10-22T15:30:00.000Z'],
      ['2026-10-23', '2026-10-23T07:00:00.000Z', '2026-10-23T15:30:00.000Z'],
      ['2026-10-26', '2026-10-26T08:00:00.000Z', '2026-10-26T16:30:00.000Z'],
      ['2026-10-27', '2026-10-27T08:00:00.000Z', '2026-10-27T16:30:00.000Z'],
    ]);
  });

  it('Australia: XASX sessions start the previous UTC day in summer; DST ends 2026-04-05 and starts 2026-10-04', () => {
    // 2026-04-03 Good Friday and 2026-04-06 Easter Monday are ASX holidays.
    expect(week('XASX', '2026-04-01', '2026-04-08')).toEqual([
      ['2026-04-01', '2026-03-31T23:00:00.000Z', '2026-04-01T05:00:00.000Z'],
      ['2026-04-02', '2026-04-01T23:00:00.000Z', '2026-04-02T05:00:00.000Z'],
      ['2026-04-07', '2026-04-07T00:00:00.000Z', '2026-04-07T06:00:00.000Z'],
      ['2026-04-08', '2026-04-08T00:00:00.000Z', '2026-04-08T06:00:00.000Z'],
    ]);
    expect(week('XASX', '2026-10-01', '2026-10-06')).toEqual([
      ['2026-10-01', '2026-10-01T00:00:00.000Z', '2026-10-01T06:00:00.000Z'],
      ['2026-10-02', '2026-10-02T00:00:00.000Z', '2026-10-02T06:00:00.000Z'],
      ['2026-10-05', '2026-10-04T23:00:00.000Z', '2026-10-05T05:00:00.000Z'],
      ['2026-10-06', '2026-10-05T23:00:00.000Z', '2026-10-06T05:00:00.000Z'],
    ]);
  });
});

describe('market-hours: status and next transition', () => {
  const XNYS = () => bundledCalendar('XNYS');

  it('is open exactly at the open and closed one millisecond before, with the open as next transition', () => {
    const before = marketStatusAt(XNYS(), at('2026-11-23T14:29:59.999Z'));
    expect(before).toMatchObject({ status: 'closed', nextTransition: { kind: 'open', at: at('2026-11-23T14:30:00Z') } });

    const atOpen = marketStatusAt(XNYS(), at('2026-11-23T14:30:00Z'));
    expect(atOpen).toMatchObject({ status: 'open', nextTransition: { kind: 'close', at: at('2026-11-23T21:00:00Z') } });
    expect(atOpen.session?.date).toBe('2026-11-23');
  });

  it('is closed exactly at the close, and the next transition is the next trading day open', () => {
    expect(marketStatusAt(XNYS(), at('2026-11-23T20:59:59.999Z')).status).toBe('open');
    const atClose = marketStatusAt(XNYS(), at('2026-11-23T21:00:00Z'));
    expect(atClose).toMatchObject({ status: 'closed', nextTransition: { kind: 'open', at: at('2026-11-24T14:30:00Z') } });
  });

  it('reports a weekend, then Monday open', () => {
    const saturday = marketStatusAt(XNYS(), at('2026-11-21T15:00:00Z'));
    expect(saturday).toMatchObject({ status: 'weekend', session: null, nextTransition: { kind: 'open', at: at('2026-11-23T14:30:00Z') } });
  });

  it('reports a holiday by name and skips it: Thanksgiving 2026, next open the day after (an early close)', () => {
    const thanksgiving = marketStatusAt(XNYS(), at('2026-11-26T16:00:00Z'));
    expect(thanksgiving).toMatchObject({
      status: 'holiday',
      holidayName: 'Thanksgiving',
      session: null,
      nextTransition: { kind: 'open', at: at('2026-11-27T14:30:00Z') },
    });
  });

  it('closes at 13:00 ET on an early-close day (2026-11-27 closes 18:00Z)', () => {
    const [session] = sessionsBetween(XNYS(), '2026-11-27', '2026-11-27');
    expect(iso(session)).toMatchObject({ close: '2026-11-27T18:00:00.000Z', kind: 'early_close' });
    expect(marketStatusAt(XNYS(), at('2026-11-27T17:59:59.999Z')).status).toBe('open');
    expect(marketStatusAt(XNYS(), at('2026-11-27T18:00:00Z'))).toMatchObject({
      status: 'closed',
      nextTransition: { kind: 'open', at: at('2026-11-30T14:30:00Z') },
    });
  });

  it('opens late on a late-open day: B3 on Ash Wednesday 2026 opens at 13:00 BRT', () => {
    const saoPaulo = bundledCalendar('BVMF');
    const [ashWednesday] = sessionsBetween(saoPaulo, '2026-02-18', '2026-02-18');
    expect(iso(ashWednesday)).toMatchObject({ open: '2026-02-18T16:00:00.000Z', close: '2026-02-18T20:00:00.000Z', kind: 'late_open' });
    expect(marketStatusAt(saoPaulo, at('2026-02-18T13:00:00Z'))).toMatchObject({
      status: 'closed',
      nextTransition: { kind: 'open', at: at('2026-02-18T16:00:00Z') },
    });
  });

  it('XTKS: lunch from 11:30 to 12:30 JST, with break transitions', () => {
    const tokyo = bundledCalendar('XTKS');
    expect(marketStatusAt(tokyo, at('2026-06-01T02:29:59.999Z'))).toMatchObject({
      status: 'open',
      nextTransition: { kind: 'break_start', at: at('2026-06-01T02:30:00Z') },
    });
    expect(marketStatusAt(tokyo, at('2026-06-01T02:30:00Z'))).toMatchObject({
      status: 'lunch',
      nextTransition: { kind: 'break_end', at: at('2026-06-01T03:30:00Z') },
    });
    expect(marketStatusAt(tokyo, at('2026-06-01T03:30:00Z'))).toMatchObject({
      status: 'open',
      nextTransition: { kind: 'close', at: at('2026-06-01T06:30:00Z') },
    });
  });

  it('XHKG: lunch 12:00-13:00 HKT on a full day; a 12:00 early close has no afternoon and no break', () => {
    const hongKong = bundledCalendar('XHKG');
    const [regular] = sessionsBetween(hongKong, '2026-12-23', '2026-12-23');
    expect(iso(regular)).toEqual({
      date: '2026-12-23',
      open: '2026-12-23T01:30:00.000Z',
      close: '2026-12-23T08:00:00.000Z',
      breakStart: '2026-12-23T04:00:00.000Z',
      breakEnd: '2026-12-23T05:00:00.000Z',
      kind: 'regular',
    });
    expect(marketStatusAt(hongKong, at('2026-12-23T04:30:00Z')).status).toBe('lunch');
    const [christmasEve] = sessionsBetween(hongKong, '2026-12-24', '2026-12-24');
    expect(iso(christmasEve)).toEqual({
      date: '2026-12-24',
      open: '2026-12-24T01:30:00.000Z',
      close: '2026-12-24T04:00:00.000Z',
      breakStart: null,
      breakEnd: null,
      kind: 'early_close',
    });
  });

  it('XSAU trades Sunday to Thursday: Friday and Saturday are its weekend', () => {
    const riyadh = bundledCalendar('XSAU');
    const days = sessionsBetween(riyadh, '2026-11-15', '2026-11-21').map((s) => [s.date, iso(s).open]);
    expect(days).toEqual([
      ['2026-11-15', '2026-11-15T07:00:00.000Z'],
      ['2026-11-16', '2026-11-16T07:00:00.000Z'],
      ['2026-11-17', '2026-11-17T07:00:00.000Z'],
      ['2026-11-18', '2026-11-18T07:00:00.000Z'],
      ['2026-11-19', '2026-11-19T07:00:00.000Z'],
    ]);
    expect(marketStatusAt(riyadh, at('2026-11-20T09:00:00Z')).status).toBe('weekend');
    expect(marketStatusAt(riyadh, at('2026-11-22T09:00:00Z')).status).toBe('open');
  });

  it('XNZE: a session that starts the previous UTC day belongs to its local date', () => {
    const nz = bundledCalendar('XNZE');
    // 2026-01-14 10:00 NZDT (UTC+13) is 2026-01-13 21:00Z.
    const state = marketStatusAt(nz, at('2026-01-13T22:00:00Z'));
    expect(state.status).toBe('open');
    expect(state.session && iso(state.session)).toMatchObject({
      date: '2026-01-14',
      open: '2026-01-13T21:00:00.000Z',
      close: '2026-01-14T03:45:00.000Z',
    });
    expect(state.nextTransition).toEqual({ kind: 'close', at: at('2026-01-14T03:45:00Z') });
  });
});

describe('market-hours: ranges', () => {
  it('refuses a session range longer than about ten years', () => {
    expect(() => sessionsBetween(bundledCalendar('XNYS'), '2000-01-01', '2026-12-31')).toThrow(RangeError);
  });

  it('returns no sessions when the range is empty or reversed', () => {
    expect(sessionsBetween(bundledCalendar('XNYS'), '2026-11-28', '2026-11-29')).toEqual([]);
    expect(sessionsBetween(bundledCalendar('XNYS'), '2026-11-30', '2026-11-23')).toEqual([]);
  });
});

describe('market-hours: notification events between two instants', () => {
  it('gives opening soon, opened, closing soon (at the early close) and closed, in order', () => {
    const events = marketEventsBetween(bundledCalendar('XNYS'), at('2026-11-27T00:00:00Z'), at('2026-11-28T00:00:00Z'));
    expect(events.map((e) => [e.kind, e.activityType, e.at.toISOString(), e.localTime, e.date])).toEqual([
      ['opening_soon', 'MARKET_OPENING_SOON', '2026-11-27T14:20:00.000Z', '09:20', '2026-11-27'],
      ['opened', 'MARKET_OPEN', '2026-11-27T14:30:00.000Z', '09:30', '2026-11-27'],
      ['closing_soon', 'MARKET_CLOSING_SOON', '2026-11-27T17:50:00.000Z', '12:50', '2026-11-27'],
      ['closed', 'MARKET_CLOSE', '2026-11-27T18:00:00.000Z', '13:00', '2026-11-27'],
    ]);
  });

  it('includes an event exactly at `from` and excludes one exactly at `to`', () => {
    const events = marketEventsBetween(bundledCalendar('XNYS'), at('2026-11-23T14:30:00Z'), at('2026-11-23T21:00:00Z'));
    expect(events.map((e) => e.kind)).toEqual(['opened', 'closing_soon']);
  });

  it('has no events over a weekend or a holiday', () => {
    expect(marketEventsBetween(bundledCalendar('XNYS'), at('2026-11-26T00:00:00Z'), at('2026-11-26T23:59:59Z'))).toEqual([]);
    expect(marketEventsBetween(bundledCalendar('XNYS'), at('2026-11-21T00:00:00Z'), at('2026-11-23T00:00:00Z'))).toEqual([]);
  });

  it('XASX: events of one local trading day span two UTC dates', () => {
    const events = marketEventsBetween(bundledCalendar('XASX'), at('2026-11-23T00:00:00Z'), at('2026-11-24T00:00:00Z'));
    // 2026-11-24 10:00 AEDT is 2026-11-23T23:00Z: its opening events fall on the UTC date before.
    expect(events.map((e) => [e.date, e.kind, e.at.toISOString()])).toEqual([
      ['2026-11-23', 'closing_soon', '2026-11-23T04:50:00.000Z'],
      ['2026-11-23', 'closed', '2026-11-23T05:00:00.000Z'],
      ['2026-11-24', 'opening_soon', '2026-11-23T22:50:00.000Z'],
      ['2026-11-24', 'opened', '2026-11-23T23:00:00.000Z'],
    ]);
  });
});

describe('market-hours: the regular lunch break an exchange answers with', () => {
  it('is the bundled break of Hong Kong and Tokyo, and none for New York', () => {
    expect(regularBreakOf(bundledCalendar('XHKG').exchange)).toEqual({ breakStart: '12:00', breakEnd: '13:00' });
    expect(regularBreakOf(bundledCalendar('XTKS').exchange)).toEqual({ breakStart: '11:30', breakEnd: '12:30' });
    expect(regularBreakOf(bundledCalendar('XNYS').exchange)).toEqual({ breakStart: null, breakEnd: null });
  });

  it('is none when the break does not lie inside the session, as the sessions treat it', () => {
    const exchange = { ...bundledCalendar('XHKG').exchange, breakStart: '08:00', breakEnd: '09:00' };
    expect(regularBreakOf(exchange)).toEqual({ breakStart: null, breakEnd: null });
    expect(regularBreakOf({ ...exchange, breakStart: '12:00', breakEnd: null })).toEqual({ breakStart: null, breakEnd: null });
  });
});
