import { DateTime } from 'luxon';
import type { ClientExchange, MarketStatus, TransitionKind } from './market-hours.shapes';

/**
 * Exchange clocks: pure functions over an exchange's regular hours and its calendar (holidays,
 * early closes, late opens). Times in the data are exchange-local 'HH:MM' and local dates; every
 * instant that leaves this module is UTC. luxon does the zone arithmetic, so DST in either
 * hemisphere and sessions that cross midnight UTC need no special cases: a session always lies
 * within one local day.
 */

export { MARKET_STATUSES, TRANSITION_KINDS, type ClientExchange, type MarketStatus, type TransitionKind } from './market-hours.shapes';

export const CALENDAR_ENTRY_KINDS = ['holiday', 'early_close', 'late_open'] as const;
export type CalendarEntryKind = (typeof CALENDAR_ENTRY_KINDS)[number];

export const MARKET_EVENT_KINDS = ['opening_soon', 'opened', 'closing_soon', 'closed'] as const;
export type MarketEventKind = (typeof MARKET_EVENT_KINDS)[number];

/** Activity kinds of the notifications these events become (spec section 7). */
export const MARKET_ACTIVITY_TYPES = {
  opening_soon: 'MARKET_OPENING_SOON',
  opened: 'MARKET_OPEN',
  closing_soon: 'MARKET_CLOSING_SOON',
  closed: 'MARKET_CLOSE',
} as const satisfies Record<MarketEventKind, string>;
export type MarketActivityType = (typeof MARKET_ACTIVITY_TYPES)[MarketEventKind];

const MINUTE_MS = 60_000;
/** Spec section 9: "opening soon" at 10 minutes or less before open, "closing soon" likewise before close. */
export const OPENING_SOON_LEAD_MS = 10 * MINUTE_MS;
export const CLOSING_SOON_LEAD_MS = 10 * MINUTE_MS;
/**
 * A due event older than this is dropped instead of sent: a 5-minute-late run still notifies,
 * a worker back from a long outage does not tell users "opened" hours after the fact.
 */
export const DEFAULT_STALE_AFTER_MS = 15 * MINUTE_MS;
/** How far ahead the next transition is searched: longer than any exchange's run of closed days. */
const NEXT_TRANSITION_HORIZON_DAYS = 31;
/** sessionsBetween refuses wider ranges (about ten years) so a typo cannot build a huge answer. */
export const MAX_SESSION_RANGE_DAYS = 3700;

/** An exchange and its regular session, in exchange-local time. */
export interface ExchangeHours {
  /** ISO 10383 MIC, e.g. XNYS. */
  id: string;
  name: string;
  location: string;
  /** IANA time zone, e.g. America/New_York. */
  timezone: string;
  /** 'HH:MM' local. */
  open: string;
  close: string;
  /** Lunch break, 'HH:MM' local, both or neither. */
  breakStart: string | null;
  breakEnd: string | null;
  /** Trading weekdays, 0 = Sunday. */
  weekdays: number[];
}

/** A local date on which the exchange deviates from its regular session. */
export interface CalendarEntry {
  /** Exchange-local 'YYYY-MM-DD'. */
  date: string;
  kind: CalendarEntryKind;
  /** The day's open / close ('HH:MM' local) when they differ from the regular ones; null on holidays. */
  openTime: string | null;
  closeTime: string | null;
  name: string | null;
  source: string | null;
}

export interface ExchangeCalendar {
  exchange: ExchangeHours;
  /** Keyed by local date. */
  days: ReadonlyMap<string, CalendarEntry>;
}

export interface MarketSession {
  exchangeId: string;
  /** Exchange-local trading date 'YYYY-MM-DD'. */
  date: string;
  open: Date;
  close: Date;
  breakStart: Date | null;
  breakEnd: Date | null;
  /** The calendar entry that changed this day's hours, if any. */
  kind: 'regular' | 'early_close' | 'late_open';
}

export interface MarketTransition {
  kind: TransitionKind;
  at: Date;
}

export interface MarketState {
  exchangeId: string;
  status: MarketStatus;
  /** The trading session of the exchange's current local date (null on weekends and holidays). */
  session: MarketSession | null;
  /** The next open / break start / break end / close strictly after the instant. */
  nextTransition: MarketTransition | null;
  /** The holiday's name when status is 'holiday'. */
  holidayName: string | null;
}

export interface MarketEvent {
  exchangeId: string;
  kind: MarketEventKind;
  activityType: MarketActivityType;
  at: Date;
  /** The session's local trading date. */
  date: string;
  /** The session boundary the event is about (open for opening_soon/opened, close otherwise). */
  transitionAt: Date;
  /** 'HH:MM' exchange-local time of `at`. */
  localTime: string;
  /** "At most once per exchange per local trading day": the dedupe key of this event. */
  key: string;
}

export function buildExchangeCalendar(exchange: ExchangeHours, entries: Iterable<CalendarEntry>): ExchangeCalendar {
  const days = new Map<string, CalendarEntry>();
  for (const entry of entries) days.set(entry.date, entry);
  return { exchange, days };
}

export function toClientExchange(exchange: ExchangeHours): ClientExchange {
  const { id, name, location, open, close, timezone, weekdays } = exchange;
  return { id, name, location, open, close, timezone, days: [...weekdays] };
}

/**
 * The regular lunch break, both ends or neither: a break that does not lie inside the regular
 * session is not one the sessions apply either (see computeSession).
 */
export function regularBreakOf(exchange: ExchangeHours): { breakStart: string | null; breakEnd: string | null } {
  const { open, close, breakStart, breakEnd } = exchange;
  // 'HH:MM' strings compare in time order.
  return breakStart !== null && breakEnd !== null && open < breakStart && breakStart < breakEnd && breakEnd < close
    ? { breakStart, breakEnd }
    : { breakStart: null, breakEnd: null };
}

function localInstant(date: string, hhmm: string, zone: string): Date {
  const dt = DateTime.fromISO(`${date}T${hhmm}`, { zone });
  if (!dt.isValid) throw new Error(`invalid local time ${date} ${hhmm} in ${zone}: ${dt.invalidExplanation ?? dt.invalidReason}`);
  return dt.toJSDate();
}

const DAY_MS = 86_400_000;

/** 0 = Sunday, as in the data. Calendar dates carry no zone, so UTC arithmetic is exact. */
function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function localDateOf(calendar: ExchangeCalendar, at: Date): string {
  return DateTime.fromJSDate(at, { zone: calendar.exchange.timezone }).toISODate() as string;
}

// Sessions depend only on the (immutable) calendar and the date, and the zone arithmetic is the
// costly part of every call: each calendar keeps the sessions it has computed.
const sessionCache = new WeakMap<ExchangeCalendar, Map<string, Readonly<MarketSession> | null>>();
const SESSION_CACHE_LIMIT = 4000;

/** The session on one local date, or null when the exchange does not trade that day. Treat it as read-only. */
export function sessionOn(calendar: ExchangeCalendar, date: string): MarketSession | null {
  let cache = sessionCache.get(calendar);
  if (!cache) sessionCache.set(calendar, (cache = new Map()));
  const hit = cache.get(date);
  if (hit !== undefined) return hit;
  if (cache.size >= SESSION_CACHE_LIMIT) cache.clear();
  const session = computeSession(calendar, date);
  cache.set(date, session);
  return session;
}

function computeSession(calendar: ExchangeCalendar, date: string): MarketSession | null {
  const { exchange } = calendar;
  if (!exchange.weekdays.includes(weekdayOf(date))) return null;
  const entry = calendar.days.get(date);
  if (entry?.kind === 'holiday') return null;
  const openTime = entry?.openTime ?? exchange.open;
  const closeTime = entry?.closeTime ?? exchange.close;
  // 'HH:MM' strings compare in time order. A break only applies when the day's session spans it
  // (an early close at noon on a lunch-break exchange has no afternoon session).
  const hasBreak =
    exchange.breakStart !== null && exchange.breakEnd !== null && openTime < exchange.breakStart && exchange.breakEnd < closeTime;
  const zone = exchange.timezone;
  return {
    exchangeId: exchange.id,
    date,
    open: localInstant(date, openTime, zone),
    close: localInstant(date, closeTime, zone),
    breakStart: hasBreak ? localInstant(date, exchange.breakStart as string, zone) : null,
    breakEnd: hasBreak ? localInstant(date, exchange.breakEnd as string, zone) : null,
    kind: entry?.kind === 'early_close' || entry?.kind === 'late_open' ? entry.kind : 'regular',
  };
}

/** Every session whose local date lies in [fromDate, toDate] (inclusive, 'YYYY-MM-DD'). */
export function sessionsBetween(calendar: ExchangeCalendar, fromDate: string, toDate: string): MarketSession[] {
  const from = Date.parse(`${fromDate}T00:00:00Z`);
  const to = Date.parse(`${toDate}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to)) throw new RangeError(`invalid date range ${fromDate} .. ${toDate}`);
  if ((to - from) / DAY_MS > MAX_SESSION_RANGE_DAYS) throw new RangeError(`date range longer than ${MAX_SESSION_RANGE_DAYS} days`);
  const sessions: MarketSession[] = [];
  for (let date = fromDate; date <= toDate; date = addDays(date, 1)) {
    const session = sessionOn(calendar, date);
    if (session) sessions.push(session);
  }
  return sessions;
}

function transitionsOf(session: MarketSession): MarketTransition[] {
  const list: MarketTransition[] = [{ kind: 'open', at: session.open }];
  if (session.breakStart && session.breakEnd) {
    list.push({ kind: 'break_start', at: session.breakStart }, { kind: 'break_end', at: session.breakEnd });
  }
  list.push({ kind: 'close', at: session.close });
  return list;
}

/** The first transition strictly after `at`, searching the next month of sessions. */
export function nextTransition(calendar: ExchangeCalendar, at: Date): MarketTransition | null {
  const today = localDateOf(calendar, at);
  for (let i = 0; i <= NEXT_TRANSITION_HORIZON_DAYS; i++) {
    const session = sessionOn(calendar, addDays(today, i));
    if (!session) continue;
    const next = transitionsOf(session).find((t) => t.at.getTime() > at.getTime());
    if (next) return next;
  }
  return null;
}

/**
 * The exchange's status at an instant. Boundaries belong to what follows them: exactly at open
 * the market is open, exactly at close it is closed.
 */
export function marketStatusAt(calendar: ExchangeCalendar, at: Date): MarketState {
  const date = localDateOf(calendar, at);
  const session = sessionOn(calendar, date);
  const base = { exchangeId: calendar.exchange.id, session, nextTransition: nextTransition(calendar, at), holidayName: null };
  if (!session) {
    if (!calendar.exchange.weekdays.includes(weekdayOf(date))) return { ...base, status: 'weekend' };
    return { ...base, status: 'holiday', holidayName: calendar.days.get(date)?.name ?? null };
  }
  const t = at.getTime();
  if (t < session.open.getTime() || t >= session.close.getTime()) return { ...base, status: 'closed' };
  if (session.breakStart && session.breakEnd && t >= session.breakStart.getTime() && t < session.breakEnd.getTime()) {
    return { ...base, status: 'lunch' };
  }
  return { ...base, status: 'open' };
}

function eventTimes(session: MarketSession): { kind: MarketEventKind; at: number; transitionAt: Date }[] {
  return [
    { kind: 'opening_soon', at: session.open.getTime() - OPENING_SOON_LEAD_MS, transitionAt: session.open },
    { kind: 'opened', at: session.open.getTime(), transitionAt: session.open },
    { kind: 'closing_soon', at: session.close.getTime() - CLOSING_SOON_LEAD_MS, transitionAt: session.close },
    { kind: 'closed', at: session.close.getTime(), transitionAt: session.close },
  ];
}

/** Notification events (spec section 9) with `from <= at < to`, in time order. */
export function marketEventsBetween(calendar: ExchangeCalendar, from: Date, to: Date): MarketEvent[] {
  const fromMs = from.getTime();
  const toMs = to.getTime();
  if (toMs <= fromMs) return [];
  const events: MarketEvent[] = [];
  const sessions = sessionsBetween(calendar, addDays(localDateOf(calendar, from), -1), addDays(localDateOf(calendar, to), 1));
  for (const session of sessions) {
    for (const { kind, at, transitionAt } of eventTimes(session)) {
      if (at < fromMs || at >= toMs) continue;
      events.push({
        exchangeId: session.exchangeId,
        kind,
        activityType: MARKET_ACTIVITY_TYPES[kind],
        at: new Date(at),
        date: session.date,
        transitionAt,
        localTime: DateTime.fromMillis(at, { zone: calendar.exchange.timezone }).toFormat('HH:mm'),
        key: `${session.exchangeId}:${session.date}:${kind}`,
      });
    }
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

export interface DueMarketEvent extends MarketEvent {
  /** For opening_soon / closing_soon: whole minutes from `now` to the open / close (rounded up), e.g. 10. */
  minutesToTransition: number;
}

export type DroppedReason = 'stale' | 'superseded' | 'already_sent';

export interface DueEventsResult {
  due: DueMarketEvent[];
  /** Events of the window that were not sent, and why (for logs and metrics). */
  dropped: { event: MarketEvent; reason: DroppedReason }[];
}

export interface DueEventsOptions {
  /** When the previous run evaluated (its `now`); null on the first run ever. */
  lastRunAt: Date | null;
  now: Date;
  staleAfterMs?: number;
  /** Keys (MarketEvent.key) already sent by any worker: the cluster-wide once-per-day record. */
  alreadySent?: ReadonlySet<string>;
}

/** The window never reaches back further than this, so a run after a week's outage stays cheap. */
const MAX_LOOKBACK_MS = 24 * 60 * MINUTE_MS;

/**
 * Which events a market-clock run at `now` must send. The rule:
 * - candidates are the events with `lastRunAt < at <= now` (on a first run, the last
 *   `staleAfterMs`; never more than 24 hours back), so consecutive runs never see one event twice;
 * - an event older than `staleAfterMs` at `now` is dropped as `stale` (a late run within the
 *   limit still sends it);
 * - an "opening soon" / "closing soon" whose open / close has already happened by `now` is dropped
 *   as `superseded`: the "opened" / "closed" event carries the news;
 * - an event whose key is in `alreadySent` (another worker, a restart) is dropped as `already_sent`.
 * Each event's key is per exchange, local trading date and kind, so at most one of each is ever sent
 * per local trading day when callers record the keys they send.
 */
export function dueMarketEvents(calendars: Iterable<ExchangeCalendar>, options: DueEventsOptions): DueEventsResult {
  const { now, alreadySent } = options;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const nowMs = now.getTime();
  const floorMs = nowMs - Math.max(MAX_LOOKBACK_MS, staleAfterMs);
  const lowerMs = options.lastRunAt ? Math.max(options.lastRunAt.getTime(), floorMs) : nowMs - staleAfterMs;
  const result: DueEventsResult = { due: [], dropped: [] };
  if (lowerMs >= nowMs) return result;
  // marketEventsBetween is [from, to): shift by 1 ms to get (lastRunAt, now].
  const from = new Date(lowerMs + 1);
  const to = new Date(nowMs + 1);
  for (const calendar of calendars) {
    for (const event of marketEventsBetween(calendar, from, to)) {
      if (nowMs - event.at.getTime() > staleAfterMs) result.dropped.push({ event, reason: 'stale' });
      else if ((event.kind === 'opening_soon' || event.kind === 'closing_soon') && event.transitionAt.getTime() <= nowMs) {
        result.dropped.push({ event, reason: 'superseded' });
      } else if (alreadySent?.has(event.key)) result.dropped.push({ event, reason: 'already_sent' });
      else {
        const minutesToTransition = Math.max(0, Math.ceil((event.transitionAt.getTime() - nowMs) / MINUTE_MS));
        result.due.push({ ...event, minutesToTransition });
      }
    }
  }
  result.due.sort((a, b) => a.at.getTime() - b.at.getTime() || a.exchangeId.localeCompare(b.exchangeId));
  return result;
}

/** The JSON form of a session (UTC ISO instants), as the CLI and API print it. */
export function sessionToJson(session: MarketSession): {
  date: string;
  open: string;
  close: string;
  breakStart: string | null;
  breakEnd: string | null;
  kind: MarketSession['kind'];
} {
  return {
    date: session.date,
    open: session.open.toISOString(),
    close: session.close.toISOString(),
    breakStart: session.breakStart?.toISOString() ?? null,
    breakEnd: session.breakEnd?.toISOString() ?? null,
    kind: session.kind,
  };
}

export function eventToJson(event: MarketEvent): {
  exchangeId: string;
  kind: MarketEventKind;
  activityType: MarketActivityType;
  at: string;
  date: string;
  localTime: string;
} {
  return {
    exchangeId: event.exchangeId,
    kind: event.kind,
    activityType: event.activityType,
    at: event.at.toISOString(),
    date: event.date,
    localTime: event.localTime,
  };
}
