// Independent date checks for the lunisolar and Hijri holidays in the bundled calendars.
// ICU (through Intl) gives the Chinese, Korean (dangi) and Umm al-Qura dates. ICU's Chinese
// calendar uses an approximate moon, so the day of a lunar month is also computed here from the
// true new moon (Meeus, Astronomical Algorithms, ch. 49): where the two disagree the new-moon
// time decides, and the tests list every such disagreement explicitly.

export type LunisolarCalendar = 'chinese' | 'dangi';

/** UTC offset of the civil time that fixes the lunar day (China UTC+8, Korea UTC+9). */
export const LUNISOLAR_UTC_OFFSET_HOURS: Record<LunisolarCalendar, number> = { chinese: 8, dangi: 9 };

const DAY_MS = 86_400_000;
const RAD = Math.PI / 180;
/** TT - UT in 2026-2027, seconds (IERS; it moves well under a second a year). */
const DELTA_T_SECONDS = 69.5;

export function isoDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export function addDays(iso: string, days: number): string {
  return isoDay(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS);
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(iso: string): number {
  return new Date(`${iso}T00:00:00Z`).getUTCDay();
}

interface CalendarParts {
  relatedYear: number;
  month: number;
  day: number;
  leap: boolean;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function intlParts(calendar: string, iso: string): CalendarParts {
  let formatter = formatters.get(calendar);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(`en-u-ca-${calendar}`, { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: 'UTC' });
    formatters.set(calendar, formatter);
  }
  const parts = formatter.formatToParts(new Date(`${iso}T12:00:00Z`));
  const value = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const monthText = value('month');
  return {
    relatedYear: Number(value('relatedYear') || value('year')),
    month: Number.parseInt(monthText, 10),
    // ICU writes a leap month as e.g. "4bis".
    leap: !/^\d+$/.test(monthText),
    day: Number(value('day')),
  };
}

/** Lunar month and day of a Gregorian date according to ICU. */
export function icuLunisolar(calendar: LunisolarCalendar, iso: string): CalendarParts {
  return intlParts(calendar, iso);
}

/** Umm al-Qura month and day of a Gregorian date according to ICU. */
export function icuUmmAlQura(iso: string): { year: number; month: number; day: number } {
  const { relatedYear, month, day } = intlParts('islamic-umalqura', iso);
  return { year: relatedYear, month, day };
}

function julianDayFromMs(ms: number): number {
  return ms / DAY_MS + 2440587.5;
}

function msFromJulianDay(jd: number): number {
  return (jd - 2440587.5) * DAY_MS;
}

/** Instant (UT, epoch ms) of the true new moon of lunation k (k = 0 near 2000-01-06). */
function newMoonMs(k: number): number {
  const T = k / 1236.85;
  const jdeMean = 2451550.09766 + 29.530588861 * k + 0.00015437 * T ** 2 - 0.00000015 * T ** 3 + 0.00000000073 * T ** 4;
  const E = 1 - 0.002516 * T - 0.0000074 * T ** 2;
  const M = (2.5534 + 29.1053567 * k - 0.0000014 * T ** 2 - 0.00000011 * T ** 3) * RAD;
  const Mp = (201.5643 + 385.81693528 * k + 0.0107582 * T ** 2 + 0.00001238 * T ** 3 - 0.000000058 * T ** 4) * RAD;
  const F = (160.7108 + 390.67050284 * k - 0.0016118 * T ** 2 - 0.00000227 * T ** 3 + 0.000000011 * T ** 4) * RAD;
  const Om = (124.7746 - 1.56375588 * k + 0.0020672 * T ** 2 + 0.00000215 * T ** 3) * RAD;
  const s = Math.sin;
  const periodic =
    -0.4072 * s(Mp) +
    0.17241 * E * s(M) +
    0.01608 * s(2 * Mp) +
    0.01039 * s(2 * F) +
    0.00739 * E * s(Mp - M) -
    0.00514 * E * s(Mp + M) +
    0.00208 * E * E * s(2 * M) -
    0.00111 * s(Mp - 2 * F) -
    0.00057 * s(Mp + 2 * F) +
    0.00056 * E * s(2 * Mp + M) -
    0.00042 * s(3 * Mp) +
    0.00042 * E * s(M + 2 * F) +
    0.00038 * E * s(M - 2 * F) -
    0.00024 * E * s(2 * Mp - M) -
    0.00017 * s(Om) -
    0.00007 * s(Mp + 2 * M) +
    0.00004 * s(2 * Mp - 2 * F) +
    0.00004 * s(3 * M) +
    0.00003 * s(Mp + M - 2 * F) +
    0.00003 * s(2 * Mp + 2 * F) -
    0.00003 * s(Mp + M + 2 * F) +
    0.00003 * s(Mp - M + 2 * F) -
    0.00002 * s(Mp - M - 2 * F) -
    0.00002 * s(3 * Mp + M) +
    0.00002 * s(4 * Mp);
  const planetaryArgs = [
    299.77 + 0.107408 * k - 0.009173 * T ** 2,
    251.88 + 0.016321 * k,
    251.83 + 26.651886 * k,
    349.42 + 36.412478 * k,
    84.66 + 18.206239 * k,
    141.74 + 53.303771 * k,
    207.14 + 2.453732 * k,
    154.84 + 7.30686 * k,
    34.52 + 27.261239 * k,
    207.19 + 0.121824 * k,
    291.34 + 1.844379 * k,
    161.72 + 24.198154 * k,
    239.56 + 25.513099 * k,
    331.55 + 3.592518 * k,
  ];
  const planetaryCoefficients = [
    0.000325, 0.000165, 0.000164, 0.000126, 0.00011, 0.000062, 0.00006, 0.000056, 0.000047, 0.000042, 0.00004, 0.000037, 0.000035,
    0.000023,
  ];
  const planetary = planetaryArgs.reduce((sum, arg, i) => sum + planetaryCoefficients[i] * s(arg * RAD), 0);
  return msFromJulianDay(jdeMean + periodic + planetary) - DELTA_T_SECONDS * 1000;
}

/** The civil date (at `utcOffsetHours`) of the last true new moon on or before that date. */
export function lastNewMoonDate(iso: string, utcOffsetHours: number): string {
  const localDate = (ms: number) => isoDay(ms + utcOffsetHours * 3_600_000);
  const approxK = Math.floor((Date.parse(`${iso}T00:00:00Z`) - Date.UTC(2000, 0, 6)) / (29.530588861 * DAY_MS));
  let best: string | undefined;
  for (let k = approxK - 2; k <= approxK + 2; k += 1) {
    const date = localDate(newMoonMs(k));
    if (date <= iso && (!best || date > best)) best = date;
  }
  if (!best) throw new Error(`no new moon found before ${iso}`);
  return best;
}

/**
 * The lunar date of a Gregorian date: the day from the true new moon in local civil time, the month
 * from ICU read in the middle of the same lunation (far from any new-moon boundary).
 */
export function lunisolarDate(calendar: LunisolarCalendar, iso: string): CalendarParts {
  const monthStart = lastNewMoonDate(iso, LUNISOLAR_UTC_OFFSET_HOURS[calendar]);
  const day = (Date.parse(`${iso}T00:00:00Z`) - Date.parse(`${monthStart}T00:00:00Z`)) / DAY_MS + 1;
  const { relatedYear, month, leap } = icuLunisolar(calendar, addDays(monthStart, 14));
  return { relatedYear, month, leap, day };
}

/** The Gregorian date of lunar (month, day), non-leap, of the lunar year that starts in `year`. */
export function gregorianOfLunisolar(calendar: LunisolarCalendar, year: number, month: number, day: number): string {
  for (let iso = `${year}-01-01`; iso <= `${year + 1}-02-28`; iso = addDays(iso, 1)) {
    const lunar = lunisolarDate(calendar, iso);
    if (lunar.relatedYear === year && !lunar.leap && lunar.month === month && lunar.day === day) return iso;
  }
  throw new Error(`${calendar} ${year} ${month}/${day} not found`);
}

/** The Gregorian date of an Umm al-Qura (month, day) in the Hijri year that contains it in `year`. */
export function gregorianOfUmmAlQura(year: number, month: number, day: number): string {
  for (let iso = `${year}-01-01`; iso <= `${year}-12-31`; iso = addDays(iso, 1)) {
    const hijri = icuUmmAlQura(iso);
    if (hijri.month === month && hijri.day === day) return iso;
  }
  throw new Error(`Umm al-Qura ${month}/${day} not found in ${year}`);
}

/** Apparent longitude of the sun, degrees (Meeus ch. 25, low precision: about 0.01 degree). */
function sunLongitude(ms: number): number {
  const T = (julianDayFromMs(ms + DELTA_T_SECONDS * 1000) - 2451545) / 36525;
  const L0 = 280.46646 + 36000.76983 * T + 0.0003032 * T ** 2;
  const M = (357.52911 + 35999.05029 * T - 0.0001537 * T ** 2) * RAD;
  const C = (1.914602 - 0.004817 * T - 0.000014 * T ** 2) * Math.sin(M) + (0.019993 - 0.000101 * T) * Math.sin(2 * M) + 0.000289 * Math.sin(3 * M);
  const omega = (125.04 - 1934.136 * T) * RAD;
  const lambda = L0 + C - 0.00569 - 0.00478 * Math.sin(omega);
  return ((lambda % 360) + 360) % 360;
}

/** Qingming (Ching Ming): the date, in China's civil time, when the sun reaches longitude 15 degrees. */
export function qingming(year: number): string {
  let lo = Date.UTC(year, 2, 25);
  let hi = Date.UTC(year, 3, 15);
  for (let i = 0; i < 60; i += 1) {
    const mid = (lo + hi) / 2;
    const lambda = sunLongitude(mid);
    if (lambda < 15 || lambda > 300) lo = mid;
    else hi = mid;
  }
  return isoDay(lo + 8 * 3_600_000);
}

/** Western Easter Sunday (anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
