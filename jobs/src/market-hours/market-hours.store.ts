import type { DataSource, EntityManager } from 'typeorm';
import { followersOf, type Audience } from '../notifications/notifications.store';
import { buildExchangeCalendar, type CalendarEntry, type CalendarEntryKind, type ExchangeCalendar, type ExchangeHours, type MarketEventKind } from './market-hours';
import type { ExchangeCalendarFile } from './market-hours.import';

/**
 * Every query of the market-hours domain: exchanges and their calendars (read, imported), the
 * exchanges users follow, and who a market event notifies.
 */
type Db = DataSource | EntityManager;

interface ExchangeRow {
  id: string;
  name: string;
  location: string;
  timezone: string;
  open_time: string;
  close_time: string;
  break_start: string | null;
  break_end: string | null;
  weekdays: number[];
}

interface DayRow {
  exchange_id: string;
  date: string;
  kind: CalendarEntryKind;
  open_time: string | null;
  close_time: string | null;
  name: string | null;
  source: string | null;
}

/**
 * The active exchanges and their calendar days, as pure-module calendars, ordered by id.
 * `ids` narrows the set (unknown ids are simply absent from the answer).
 */
export async function loadExchangeCalendars(db: Db, ids?: string[]): Promise<ExchangeCalendar[]> {
  const filter = ids ? 'AND id = ANY($1::varchar[])' : '';
  const params = ids ? [ids] : [];
  const exchanges: ExchangeRow[] = await db.query(
    `SELECT id, name, location, timezone, open_time, close_time, break_start, break_end, weekdays
     FROM exchanges WHERE is_active ${filter} ORDER BY id`,
    params,
  );
  if (!exchanges.length) return [];
  // The date as text: the pg driver would turn a date column into a local-midnight Date.
  const days: DayRow[] = await db.query(
    `SELECT exchange_id, to_char(date, 'YYYY-MM-DD') AS date, kind, open_time, close_time, name, source
     FROM exchange_calendar_days WHERE exchange_id = ANY($1::varchar[]) ORDER BY exchange_id, date`,
    [exchanges.map((e) => e.id)],
  );
  const byExchange = new Map<string, CalendarEntry[]>();
  for (const d of days) {
    const list = byExchange.get(d.exchange_id) ?? [];
    list.push({ date: d.date, kind: d.kind, openTime: d.open_time, closeTime: d.close_time, name: d.name, source: d.source });
    byExchange.set(d.exchange_id, list);
  }
  return exchanges.map((e) => {
    const hours: ExchangeHours = {
      id: e.id,
      name: e.name,
      location: e.location,
      timezone: e.timezone,
      open: e.open_time,
      close: e.close_time,
      breakStart: e.break_start,
      breakEnd: e.break_end,
      weekdays: e.weekdays.map(Number),
    };
    return buildExchangeCalendar(hours, byExchange.get(e.id) ?? []);
  });
}

/** Whether an exchange with this id is stored (active or not). */
export async function exchangeExists(db: Db, id: string): Promise<boolean> {
  const [exists]: unknown[] = await db.query('SELECT 1 FROM exchanges WHERE id = $1', [id]);
  return !!exists;
}

// ---------------------------------------------------------------------------------------------
// Follows and audiences.

/**
 * Users who have never chosen follow these (spec: default XNYS, XNAS, XLON). The defaults are
 * applied at query time, not stored at sign-up: a user with no exchange_follows rows follows
 * them; the first follow or unfollow stores the defaults and the change as rows.
 */
export const DEFAULT_FOLLOWED_EXCHANGES = ['XNYS', 'XNAS', 'XLON'] as const;

/** The preference flag (user_preferences column) that turns each kind on. */
export const MARKET_PREFERENCE_COLUMNS = {
  opening_soon: 'market_opening_soon_notifications',
  opened: 'market_open_notifications',
  closing_soon: 'market_closing_soon_notifications',
  closed: 'market_close_notifications',
} as const satisfies Record<MarketEventKind, string>;

/**
 * Who a market event notifies: users following the exchange (explicitly, or by default) with the
 * kind's preference on (no preferences row: the defaults, all on).
 */
export function marketEventAudience(exchangeId: string, kind: MarketEventKind): Audience {
  const follows = followersOf('exchange_follows', 'exchange_id', exchangeId);
  return {
    where: `COALESCE((SELECT p.${MARKET_PREFERENCE_COLUMNS[kind]} FROM user_preferences p WHERE p.user_id = u.id), true)
      AND (${follows.where}
           OR ($1 = ANY($2::varchar[]) AND NOT EXISTS (SELECT 1 FROM exchange_follows f WHERE f.user_id = u.id)))`,
    params: [...follows.params, [...DEFAULT_FOLLOWED_EXCHANGES]],
  };
}

/** The exchanges a user follows (the defaults when they never chose). */
export async function followedExchangeIds(db: Db, userId: number): Promise<string[]> {
  const rows: { exchange_id: string }[] = await db.query('SELECT exchange_id FROM exchange_follows WHERE user_id = $1 ORDER BY exchange_id', [userId]);
  return rows.length ? rows.map((r) => r.exchange_id) : [...DEFAULT_FOLLOWED_EXCHANGES];
}

/** Unfollowing the only followed exchange: no rows would mean "the defaults", not "none". */
export class LastFollowError extends Error {
  constructor(readonly exchangeId: string) {
    super(`${exchangeId} is the only exchange followed: follow another first, or turn market notifications off in the preferences`);
    this.name = 'LastFollowError';
  }
}

/**
 * Follows or unfollows an exchange. A user still on the defaults first gets them as rows, so the
 * change keeps the others. Unfollowing the only one left is refused (LastFollowError, nothing
 * changes): no rows would mean the defaults again, and the preference flags turn notifications off.
 */
export async function setExchangeFollow(db: DataSource, userId: number, exchangeId: string, follow: boolean): Promise<string[]> {
  return db.transaction(async (manager) => {
    // Serialises concurrent changes of one user (the defaults check-then-insert).
    await manager.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const current: { exchange_id: string }[] = await manager.query('SELECT exchange_id FROM exchange_follows WHERE user_id = $1', [userId]);
    if (!current.length) {
      await manager.query(
        `INSERT INTO exchange_follows (user_id, exchange_id)
         SELECT $1, e.id FROM exchanges e WHERE e.id = ANY($2::varchar[]) ON CONFLICT DO NOTHING`,
        [userId, [...DEFAULT_FOLLOWED_EXCHANGES]],
      );
    }
    if (follow) {
      await manager.query('INSERT INTO exchange_follows (user_id, exchange_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, exchangeId]);
    } else {
      const [, deleted]: [unknown, number] = await manager.query('DELETE FROM exchange_follows WHERE user_id = $1 AND exchange_id = $2', [userId, exchangeId]);
      const [{ left }]: { left: string }[] = await manager.query('SELECT count(*) AS left FROM exchange_follows WHERE user_id = $1', [userId]);
      if (deleted && Number(left) === 0) throw new LastFollowError(exchangeId);
    }
    return followedExchangeIds(manager, userId);
  });
}

// ---------------------------------------------------------------------------------------------
// Import of calendar files.

export interface ImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface MarketHoursImportResult {
  exchanges: ImportCounts;
  days: ImportCounts & { removed: number };
}

/**
 * Upserts the file's exchanges and, per exchange in the file, makes its stored calendar days
 * exactly the file's (days no longer listed are removed). Exchanges absent from the file are left
 * alone. Idempotent: importing the same file twice changes nothing the second time. Runs inside
 * the caller's transaction (see importExchangeCalendarFile).
 */
export async function importExchangeCalendars(manager: EntityManager, file: ExchangeCalendarFile): Promise<MarketHoursImportResult> {
  // Two imports at once would interleave their deletes and upserts.
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext('market-hours:import'))`);
  const result: MarketHoursImportResult = {
    exchanges: { inserted: 0, updated: 0, unchanged: 0 },
    days: { inserted: 0, updated: 0, unchanged: 0, removed: 0 },
  };
  for (const ex of file.exchanges) {
    const written: { inserted: boolean }[] = await manager.query(
      `INSERT INTO exchanges (id, name, location, timezone, open_time, close_time, break_start, break_end, weekdays, is_active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::smallint[], true)
       ON CONFLICT (id) DO UPDATE SET
         name = EXCLUDED.name, location = EXCLUDED.location, timezone = EXCLUDED.timezone,
         open_time = EXCLUDED.open_time, close_time = EXCLUDED.close_time,
         break_start = EXCLUDED.break_start, break_end = EXCLUDED.break_end,
         weekdays = EXCLUDED.weekdays, is_active = true, updated_at = now()
       WHERE (exchanges.name, exchanges.location, exchanges.timezone, exchanges.open_time, exchanges.close_time,
              exchanges.break_start, exchanges.break_end, exchanges.weekdays, exchanges.is_active)
         IS DISTINCT FROM
             (EXCLUDED.name, EXCLUDED.location, EXCLUDED.timezone, EXCLUDED.open_time, EXCLUDED.close_time,
              EXCLUDED.break_start, EXCLUDED.break_end, EXCLUDED.weekdays, true)
       RETURNING (xmax = 0) AS inserted`,
      [ex.id, ex.name, ex.location, ex.timezone, ex.open, ex.close, ex.breakStart, ex.breakEnd, [...ex.days].sort((a, b) => a - b)],
    );
    tally(result.exchanges, written, 1);

    const dates = ex.calendar.map((d) => d.date);
    // Wrapped in a SELECT: TypeORM answers a bare DELETE with [rows, count], not rows.
    const [removed]: { n: number }[] = await manager.query(
      `WITH gone AS (DELETE FROM exchange_calendar_days WHERE exchange_id = $1 AND NOT (date = ANY($2::date[])) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [ex.id, dates],
    );
    result.days.removed += removed.n;
    if (!ex.calendar.length) continue;
    const days: { inserted: boolean }[] = await manager.query(
      `INSERT INTO exchange_calendar_days (exchange_id, date, kind, open_time, close_time, name, source)
       SELECT $1, d.date, d.kind, d.open_time, d.close_time, d.name, d.source
       FROM unnest($2::date[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[], $7::varchar[])
         AS d(date, kind, open_time, close_time, name, source)
       ON CONFLICT (exchange_id, date) DO UPDATE SET
         kind = EXCLUDED.kind, open_time = EXCLUDED.open_time, close_time = EXCLUDED.close_time,
         name = EXCLUDED.name, source = EXCLUDED.source, updated_at = now()
       WHERE (exchange_calendar_days.kind, exchange_calendar_days.open_time, exchange_calendar_days.close_time,
              exchange_calendar_days.name, exchange_calendar_days.source)
         IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.open_time, EXCLUDED.close_time, EXCLUDED.name, EXCLUDED.source)
       RETURNING (xmax = 0) AS inserted`,
      [
        ex.id,
        dates,
        ex.calendar.map((d) => d.kind),
        ex.calendar.map((d) => d.open ?? null),
        ex.calendar.map((d) => d.close ?? null),
        ex.calendar.map((d) => d.name ?? null),
        ex.calendar.map((d) => d.source ?? ex.calendarSource),
      ],
    );
    tally(result.days, days, ex.calendar.length);
  }
  return result;
}

function tally(counts: ImportCounts, written: { inserted: boolean }[], total: number): void {
  const inserted = written.filter((row) => row.inserted).length;
  counts.inserted += inserted;
  counts.updated += written.length - inserted;
  counts.unchanged += total - written.length;
}

/** Imports a parsed file in one transaction: all of it or nothing. */
export function importExchangeCalendarFile(dataSource: DataSource, file: ExchangeCalendarFile): Promise<MarketHoursImportResult> {
  return dataSource.transaction((manager) => importExchangeCalendars(manager, file));
}
