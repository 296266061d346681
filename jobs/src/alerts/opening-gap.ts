import { localDateOf, sessionOn, type ExchangeCalendar, type MarketSession } from '../market-hours/market-hours';
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../prices/prices.shapes';

/**
 * The opening gap (docs/alerts.md, "Opening gap"): which closed bar opens a session of a stock or
 * ETF per its exchange calendar, and which session before it holds the close it is compared with.
 * Pure functions of the calendar; the stored bars are read by alert-evaluation.ts.
 */

const DAY_MS = 86_400_000;

/**
 * The span between two sessions that may hold stored bars: extended hours (16:00-20:00 after the
 * close and 04:00-09:30 before the open, New York time) are 9.5 h, taken as 10 h. Bars of the
 * weekend or a holiday do not exist, so this many bars before the first bar of a session always
 * reach the previous session's last one.
 */
export const BETWEEN_SESSIONS_BARS_MS = 10 * 3_600_000;

/** Sessions looked back over for the previous one (a long closure such as 9/11 lasted 4 trading days). */
export const PREVIOUS_SESSION_LOOKBACK_DAYS = 14;

/**
 * Bars an opening_gap alert needs stored at its interval: the session's first bar, the previous
 * session's last one and the extended-hours bars that may lie between them.
 */
export function openingGapBarDemand(interval: CandleInterval): number {
  return 2 + Math.ceil(BETWEEN_SESSIONS_BARS_MS / CANDLE_INTERVAL_MS[interval]);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The last trading session before the local date (holidays and weekends skipped), or null within the lookback. */
export function previousSession(calendar: ExchangeCalendar, date: string): MarketSession | null {
  for (let back = 1; back <= PREVIOUS_SESSION_LOOKBACK_DAYS; back++) {
    const session = sessionOn(calendar, addDays(date, -back));
    if (session) return session;
  }
  return null;
}

/**
 * The session a closed bar opens, with the one before it: the bar that contains the session's open
 * (open time <= session open < open time + interval; for 1m-15m bars the bar opening at 09:30, for
 * a 1h bar the 09:00 one, for a daily bar the day's). Null when the bar opens no session.
 */
export function sessionOpenedBy(
  calendar: ExchangeCalendar,
  barOpen: Date,
  interval: CandleInterval,
): { session: MarketSession; previous: MarketSession } | null {
  const start = barOpen.getTime();
  const end = start + CANDLE_INTERVAL_MS[interval];
  const dates = new Set([localDateOf(calendar, barOpen), localDateOf(calendar, new Date(end - 1))]);
  for (const date of dates) {
    const session = sessionOn(calendar, date);
    if (!session) continue;
    const open = session.open.getTime();
    if (open < start || open >= end) continue;
    const previous = previousSession(calendar, date);
    return previous ? { session, previous } : null;
  }
  return null;
}

/**
 * The stored bars that may hold the previous session's last close: those opening before its close
 * and no earlier than one interval before its open (a bar that overlaps the session).
 */
export function previousCloseWindow(previous: MarketSession, interval: CandleInterval): { from: Date; before: Date } {
  return { from: new Date(previous.open.getTime() - CANDLE_INTERVAL_MS[interval] + 1), before: previous.close };
}

/** The session's first bar's open and the previous session's last close, as doubles. */
export interface OpeningGap {
  open: number;
  previousClose: number;
}
