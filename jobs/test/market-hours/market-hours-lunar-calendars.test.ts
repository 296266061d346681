import { BUNDLED_EXCHANGE_CALENDARS_PATH, readExchangeCalendarFile } from '../../src/market-hours/market-hours.import';
import {
  addDays,
  easterSunday,
  gregorianOfLunisolar,
  gregorianOfUmmAlQura,
  icuLunisolar,
  lastNewMoonDate,
  lunisolarDate,
  qingming,
  weekday,
  type LunisolarCalendar,
} from './calendar-astronomy';

// The 2026-2027 lunar and Hijri holidays of the bundled calendars come from exchange_calendars and
// vacanza/holidays (see each entry's "source"). These tests recompute each such date from ICU's
// calendars (and the true new moon) with the rule the source applies, so a typo in the data fails.

const file = readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH);
const exchanges = new Map(file.exchanges.map((exchange) => [exchange.id, exchange]));

const FILLED = ['XHKG', 'XSHG', 'XSHE', 'XKRX', 'XNSE', 'XBOM', 'XSES', 'XTAI', 'XSAU', 'XIST'];

const chinese = (year: number, month: number, day: number) => gregorianOfLunisolar('chinese', year, month, day);
const dangi = (year: number, month: number, day: number) => gregorianOfLunisolar('dangi', year, month, day);
const lunarNewYear = (year: number) => chinese(year, 1, 1);
const ummAlQura = (year: number, month: number, day: number) => gregorianOfUmmAlQura(year, month, day);
const isWeekend = (iso: string) => weekday(iso) === 0 || weekday(iso) === 6;
const sundayToMonday = (iso: string) => (weekday(iso) === 0 ? addDays(iso, 1) : iso);

/** Workdays (Monday-Friday) after `iso`, the first `count` of them. */
function workdaysAfter(iso: string, count: number): string[] {
  const days: string[] = [];
  for (let day = addDays(iso, 1); days.length < count; day = addDays(day, 1)) if (!isWeekend(day)) days.push(day);
  return days;
}

/** TWSE: the two workdays before the Lunar New Year break (which starts the day before the eve). */
function taiwanNoTradingDays(year: number): string[] {
  const breakStart = addDays(lunarNewYear(year), -2);
  const days: string[] = [];
  for (let day = addDays(breakStart, -1); days.length < 2; day = addDays(day, -1)) if (!isWeekend(day)) days.push(day);
  return days.reverse();
}

/** Hong Kong's Ching Ming rule: Sunday -> Monday, and one more day when that is Easter Monday. */
function hongKongChingMing(year: number): string {
  const observed = sundayToMonday(qingming(year));
  return observed === addDays(easterSunday(year), 1) ? addDays(observed, 1) : observed;
}

interface Derivation {
  date: string;
  kind: 'holiday' | 'early_close';
  rule: string;
  derive: () => string;
}

const holiday = (date: string, rule: string, derive: () => string): Derivation => ({ date, kind: 'holiday', rule, derive });
const halfDay = (date: string, rule: string, derive: () => string): Derivation => ({ date, kind: 'early_close', rule, derive });

const mainlandChina2026: Derivation[] = [
  holiday('2026-02-16', 'Spring Festival eve', () => addDays(lunarNewYear(2026), -1)),
  holiday('2026-02-17', 'Spring Festival (1/1)', () => lunarNewYear(2026)),
  holiday('2026-04-06', 'Qingming (solar term) on a Sunday -> Monday', () => sundayToMonday(qingming(2026))),
  holiday('2026-06-19', 'Dragon Boat (5/5)', () => chinese(2026, 5, 5)),
  holiday('2026-09-25', 'Mid-Autumn (8/15)', () => chinese(2026, 8, 15)),
];

const indiaIslamic2026: Derivation[] = [
  // India observes Islamic dates one day after Umm al-Qura (vacanza/holidays NSE: calendar_delta_days=+1).
  holiday('2026-05-28', 'Bakri Id: 10 Dhu al-Hijjah (Umm al-Qura) + 1 day', () => addDays(ummAlQura(2026, 12, 10), 1)),
  holiday('2026-06-26', 'Muharram: 10 Muharram (Umm al-Qura) + 1 day', () => addDays(ummAlQura(2026, 1, 10), 1)),
];

const DERIVATIONS: Record<string, Derivation[]> = {
  XHKG: [
    halfDay('2026-02-16', "Lunar New Year's eve", () => addDays(lunarNewYear(2026), -1)),
    holiday('2026-02-17', 'Lunar New Year (1/1)', () => lunarNewYear(2026)),
    holiday('2026-02-18', 'second day', () => addDays(lunarNewYear(2026), 1)),
    holiday('2026-02-19', 'third day', () => addDays(lunarNewYear(2026), 2)),
    holiday('2026-04-07', 'Ching Ming, Sunday -> Monday = Easter Monday -> Tuesday', () => hongKongChingMing(2026)),
    holiday('2026-05-25', "Buddha's Birthday (4/8), Sunday -> Monday", () => sundayToMonday(chinese(2026, 4, 8))),
    holiday('2026-06-19', 'Tuen Ng (5/5)', () => chinese(2026, 5, 5)),
    holiday('2026-10-19', 'Chung Yeung (9/9), Sunday -> Monday', () => sundayToMonday(chinese(2026, 9, 9))),
    halfDay('2027-02-05', "Lunar New Year's eve", () => addDays(lunarNewYear(2027), -1)),
    holiday('2027-02-08', 'third day', () => addDays(lunarNewYear(2027), 2)),
    holiday('2027-02-09', 'fourth day, because one of the first three is a Sunday', () => {
      const first = lunarNewYear(2027);
      return [0, 1, 2].some((n) => weekday(addDays(first, n)) === 0) ? addDays(first, 3) : 'no fourth day';
    }),
    holiday('2027-04-05', 'Ching Ming', () => hongKongChingMing(2027)),
    holiday('2027-05-13', "Buddha's Birthday (4/8)", () => sundayToMonday(chinese(2027, 4, 8))),
    holiday('2027-06-09', 'Tuen Ng (5/5)', () => sundayToMonday(chinese(2027, 5, 5))),
    holiday('2027-09-16', 'day after Mid-Autumn (8/15 + 1)', () => addDays(chinese(2027, 8, 15), 1)),
    holiday('2027-10-08', 'Chung Yeung (9/9)', () => sundayToMonday(chinese(2027, 9, 9))),
  ],
  XSHG: mainlandChina2026,
  XSHE: mainlandChina2026,
  XKRX: [
    holiday('2026-02-16', 'Seollal - 1', () => addDays(dangi(2026, 1, 1), -1)),
    holiday('2026-02-17', 'Seollal (dangi 1/1)', () => dangi(2026, 1, 1)),
    holiday('2026-02-18', 'Seollal + 1', () => addDays(dangi(2026, 1, 1), 1)),
    holiday('2026-05-25', "Buddha's Birthday (dangi 4/8) on a Sunday -> substitute Monday", () => sundayToMonday(dangi(2026, 4, 8))),
    holiday('2026-09-24', 'Chuseok - 1', () => addDays(dangi(2026, 8, 15), -1)),
    holiday('2026-09-25', 'Chuseok (dangi 8/15)', () => dangi(2026, 8, 15)),
    holiday('2027-02-08', 'Seollal on a Sunday -> substitute Monday', () => {
      const seollal = dangi(2027, 1, 1);
      return weekday(seollal) === 0 ? addDays(seollal, 1) : 'no substitute';
    }),
    holiday('2027-02-09', 'Seollal + 1, moved past the substitute day', () => addDays(dangi(2027, 1, 1), 2)),
    holiday('2027-05-13', "Buddha's Birthday (dangi 4/8)", () => dangi(2027, 4, 8)),
    holiday('2027-09-14', 'Chuseok - 1', () => addDays(dangi(2027, 8, 15), -1)),
    holiday('2027-09-15', 'Chuseok (dangi 8/15)', () => dangi(2027, 8, 15)),
    holiday('2027-09-16', 'Chuseok + 1', () => addDays(dangi(2027, 8, 15), 1)),
  ],
  XTAI: [
    holiday('2026-02-12', 'first no-trading day before the break', () => taiwanNoTradingDays(2026)[0]),
    holiday('2026-02-13', 'second no-trading day before the break', () => taiwanNoTradingDays(2026)[1]),
    holiday('2026-02-16', "Lunar New Year's eve", () => addDays(lunarNewYear(2026), -1)),
    holiday('2026-02-17', 'Lunar New Year (1/1)', () => lunarNewYear(2026)),
    holiday('2026-02-18', 'second day', () => addDays(lunarNewYear(2026), 1)),
    holiday('2026-02-19', 'third day', () => addDays(lunarNewYear(2026), 2)),
    holiday('2026-02-20', 'observed for the day before the eve, a Sunday: next workday after the third day', () =>
      isWeekend(addDays(lunarNewYear(2026), -2)) ? workdaysAfter(addDays(lunarNewYear(2026), 2), 1)[0] : 'not observed',
    ),
    holiday('2026-04-06', 'Tomb-Sweeping (Qingming) on a Sunday -> Monday', () => sundayToMonday(qingming(2026))),
    holiday('2026-06-19', 'Dragon Boat (5/5)', () => chinese(2026, 5, 5)),
    holiday('2026-09-25', 'Mid-Autumn (8/15)', () => chinese(2026, 8, 15)),
    holiday('2027-02-02', 'first no-trading day before the break', () => taiwanNoTradingDays(2027)[0]),
    holiday('2027-02-03', 'second no-trading day before the break', () => taiwanNoTradingDays(2027)[1]),
    holiday('2027-02-04', "day before Lunar New Year's eve", () => addDays(lunarNewYear(2027), -2)),
    holiday('2027-02-05', "Lunar New Year's eve", () => addDays(lunarNewYear(2027), -1)),
    holiday('2027-02-08', 'third day', () => addDays(lunarNewYear(2027), 2)),
    holiday('2027-02-09', 'observed for the first day (Saturday)', () => workdaysAfter(addDays(lunarNewYear(2027), 2), 2)[0]),
    holiday('2027-02-10', 'observed for the second day (Sunday)', () => workdaysAfter(addDays(lunarNewYear(2027), 2), 2)[1]),
    holiday('2027-04-05', 'Tomb-Sweeping (Qingming)', () => sundayToMonday(qingming(2027))),
    holiday('2027-06-09', 'Dragon Boat (5/5)', () => chinese(2027, 5, 5)),
    holiday('2027-09-15', 'Mid-Autumn (8/15)', () => chinese(2027, 8, 15)),
  ],
  XSES: [
    halfDay('2026-02-16', "Chinese New Year's eve", () => addDays(lunarNewYear(2026), -1)),
    holiday('2026-02-17', 'Chinese New Year (1/1)', () => lunarNewYear(2026)),
    holiday('2026-02-18', 'second day', () => addDays(lunarNewYear(2026), 1)),
    holiday('2026-05-27', 'Hari Raya Haji: 10 Dhu al-Hijjah (Umm al-Qura)', () => ummAlQura(2026, 12, 10)),
    holiday('2026-06-01', 'Vesak (4/15) on a Sunday -> Monday', () => sundayToMonday(chinese(2026, 4, 15))),
    halfDay('2027-02-05', "Chinese New Year's eve", () => addDays(lunarNewYear(2027), -1)),
    holiday('2027-02-08', 'second day on a Sunday -> the next day that is not a holiday', () => {
      const second = addDays(lunarNewYear(2027), 1);
      return weekday(second) === 0 ? addDays(second, 1) : 'no day in lieu';
    }),
  ],
  XNSE: indiaIslamic2026,
  XBOM: indiaIslamic2026,
  XIST: [
    halfDay('2026-03-19', 'Ramadan Feast eve', () => addDays(ummAlQura(2026, 10, 1), -1)),
    holiday('2026-03-20', 'Ramadan Feast: 1 Shawwal', () => ummAlQura(2026, 10, 1)),
    halfDay('2026-05-26', 'Sacrifice Feast eve', () => addDays(ummAlQura(2026, 12, 10), -1)),
    holiday('2026-05-27', 'Sacrifice Feast: 10 Dhu al-Hijjah', () => ummAlQura(2026, 12, 10)),
    holiday('2026-05-28', 'Sacrifice Feast, second day', () => addDays(ummAlQura(2026, 12, 10), 1)),
    holiday('2026-05-29', 'Sacrifice Feast, third day', () => addDays(ummAlQura(2026, 12, 10), 2)),
    halfDay('2027-03-08', 'Ramadan Feast eve', () => addDays(ummAlQura(2027, 10, 1), -1)),
    holiday('2027-03-09', 'Ramadan Feast: 1 Shawwal', () => ummAlQura(2027, 10, 1)),
    holiday('2027-03-10', 'Ramadan Feast, second day', () => addDays(ummAlQura(2027, 10, 1), 1)),
    holiday('2027-03-11', 'Ramadan Feast, third day', () => addDays(ummAlQura(2027, 10, 1), 2)),
    holiday('2027-05-17', 'Sacrifice Feast, second day', () => addDays(ummAlQura(2027, 12, 10), 1)),
    holiday('2027-05-18', 'Sacrifice Feast, third day', () => addDays(ummAlQura(2027, 12, 10), 2)),
    holiday('2027-05-19', 'Sacrifice Feast, fourth day', () => addDays(ummAlQura(2027, 12, 10), 3)),
  ],
};

/** Festival days that the rules above leave out because they fall on a weekend. */
const WEEKEND_DAYS: Record<string, Array<{ rule: string; derive: () => string }>> = {
  XHKG: [{ rule: 'day after Mid-Autumn 2026', derive: () => addDays(chinese(2026, 8, 15), 1) }],
  XKRX: [
    { rule: 'Chuseok + 1, 2026 (no substitute for a Saturday)', derive: () => addDays(dangi(2026, 8, 15), 1) },
    { rule: 'Seollal - 1, 2027', derive: () => addDays(dangi(2027, 1, 1), -1) },
  ],
  XIST: [
    { rule: 'Sacrifice Feast eve 2027', derive: () => addDays(ummAlQura(2027, 12, 10), -1) },
    { rule: 'Sacrifice Feast first day 2027', derive: () => ummAlQura(2027, 12, 10) },
  ],
};

function entryAt(mic: string, date: string) {
  return exchanges.get(mic)?.calendar.find((entry) => entry.date === date);
}

describe('market-hours: lunar and Hijri holidays of 2026-2027 match ICU calendars', () => {
  for (const [mic, derivations] of Object.entries(DERIVATIONS)) {
    it(`${mic}: each lunar or Hijri closure is on the date its rule gives`, () => {
      const problems = derivations.flatMap(({ date, kind, rule, derive }) => {
        const derived = derive();
        const entry = entryAt(mic, derived);
        if (derived !== date) return [`${date} (${rule}): the rule gives ${derived}`];
        if (entry?.kind !== kind) return [`${date} (${rule}): the data has ${entry?.kind ?? 'no entry'}, expected ${kind}`];
        return [];
      });
      expect(problems).toEqual([]);
      for (const { rule, derive } of WEEKEND_DAYS[mic] ?? []) {
        const day = derive();
        expect({ rule, day, weekend: isWeekend(day), listed: entryAt(mic, day) !== undefined }).toEqual({
          rule,
          day,
          weekend: true,
          listed: false,
        });
      }
    });
  }

  it('XSAU: every Eid closure is a run of trading days around 1 Shawwal or 10 Dhu al-Hijjah (Umm al-Qura)', () => {
    const saudi = exchanges.get('XSAU');
    if (!saudi) throw new Error('XSAU missing');
    const runs = [
      { year: 2026, prefix: 'Eid al-Fitr', eid: ummAlQura(2026, 10, 1) },
      { year: 2026, prefix: 'Eid al-Adha', eid: ummAlQura(2026, 12, 10) },
      { year: 2027, prefix: 'Eid al-Fitr', eid: ummAlQura(2027, 10, 1) },
      { year: 2027, prefix: 'Eid al-Adha', eid: ummAlQura(2027, 12, 10) },
    ];
    for (const { year, prefix, eid } of runs) {
      const dates = saudi.calendar
        .filter((entry) => entry.date.startsWith(`${year}-`) && entry.name?.startsWith(prefix))
        .map((entry) => entry.date);
      expect(dates.length).toBeGreaterThanOrEqual(3);
      const first = dates[0];
      const last = dates[dates.length - 1];
      const tradingDaysBetween: string[] = [];
      for (let day = first; day <= last; day = addDays(day, 1)) if (saudi.days.includes(weekday(day))) tradingDaysBetween.push(day);
      expect({ prefix, year, dates }).toEqual({ prefix, year, dates: tradingDaysBetween });
      // The closure surrounds Eid (Eid itself may fall on the Friday-Saturday weekend).
      expect(addDays(first, -2) <= eid && eid <= addDays(last, 2)).toBe(true);
      expect(first <= addDays(eid, 1) && addDays(eid, -1) <= last).toBe(true);
    }
  });

  it('ICU and the true new moon agree on every lunar date used, except where ICU is known to be off', () => {
    const used: Array<{ calendar: LunisolarCalendar; iso: string }> = [];
    for (const year of [2026, 2027]) {
      for (const [month, day] of [
        [1, 1],
        [4, 8],
        [4, 15],
        [5, 5],
        [8, 15],
        [9, 9],
      ]) {
        used.push({ calendar: 'chinese', iso: chinese(year, month, day) });
        used.push({ calendar: 'dangi', iso: dangi(year, month, day) });
      }
    }
    const disagreements = used
      .map(({ calendar, iso }) => {
        const icu = icuLunisolar(calendar, iso);
        const computed = lunisolarDate(calendar, iso);
        return { calendar, iso, icu: `${icu.month}/${icu.day}`, computed: `${computed.month}/${computed.day}` };
      })
      .filter(({ icu, computed }) => icu !== computed);
    // ICU's approximate moon puts the new moon of 2027-02-06 (15:56 UTC, 23:56 in China) after
    // midnight, so ICU starts the Chinese year 2027 on 7 Feb; Korea (UTC+9) really does.
    expect(disagreements).toEqual([{ calendar: 'chinese', iso: '2027-02-06', icu: '12/30', computed: '1/1' }]);
    expect(lastNewMoonDate('2027-02-06', 8)).toBe('2027-02-06');
    expect(lastNewMoonDate('2027-02-06', 9)).toBe('2027-01-08');
    expect(dangi(2027, 1, 1)).toBe('2027-02-07');
  });

  it('Qingming, a solar term, falls where the lunisolar tables of the sources put it', () => {
    // trading_calendars lunisolar_holidays.py @84b92e3: 2026-04-05, 2027-04-05.
    expect([qingming(2026), qingming(2027)]).toEqual(['2026-04-05', '2027-04-05']);
  });
});

describe('market-hours: every calendar entry is a valid, unique trading-weekday date', () => {
  it.each(file.exchanges.map((exchange) => [exchange.id, exchange] as const))('%s', (_id, exchange) => {
    const dates = exchange.calendar.map((entry) => entry.date);
    expect(new Set(dates).size).toBe(dates.length);
    expect([...dates].sort()).toEqual(dates);
    const offDays = exchange.calendar.filter((entry) => !exchange.days.includes(weekday(entry.date))).map((entry) => entry.date);
    expect(offDays).toEqual([]);
    for (const entry of exchange.calendar) {
      expect(new Date(`${entry.date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(entry.date);
      if (entry.kind === 'early_close') expect(entry.close !== undefined && entry.close > exchange.open && entry.close < exchange.close).toBe(true);
      if (entry.kind === 'late_open') expect(entry.open !== undefined && entry.open > exchange.open && entry.open < exchange.close).toBe(true);
    }
  });

  it('the ten exchanges filled from the calendar libraries list 2026 and 2027 with a source for each entry', () => {
    for (const mic of FILLED) {
      const exchange = exchanges.get(mic);
      if (!exchange) throw new Error(`${mic} missing`);
      for (const year of ['2026', '2027']) {
        const entries = exchange.calendar.filter((entry) => entry.date.startsWith(year));
        expect({ mic, year, some: entries.length > 0 }).toEqual({ mic, year, some: true });
      }
      const unsourced = exchange.calendar.filter((entry) => !(entry.source ?? exchange.calendarSource));
      expect(unsourced).toEqual([]);
    }
  });
});
