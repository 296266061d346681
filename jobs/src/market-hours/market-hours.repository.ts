import type { DataSource, EntityManager } from 'typeorm';
import { buildExchangeCalendar, type CalendarEntry, type CalendarEntryKind, type ExchangeCalendar, type ExchangeHours } from './market-hours';

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
export async function loadExchangeCalendars(db: DataSource | EntityManager, ids?: string[]): Promise<ExchangeCalendar[]> {
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

/** Calendars straight from a parsed data file (tests, and checking a file before importing it). */
export function calendarsFromFile(file: {
  exchanges: {
    id: string;
    name: string;
    location: string;
    timezone: string;
    open: string;
    close: string;
    breakStart: string | null;
    breakEnd: string | null;
    days: number[];
    calendarSource: string;
    calendar: { date: string; kind: CalendarEntryKind; name?: string; open?: string; close?: string; source?: string }[];
  }[];
}): ExchangeCalendar[] {
  return file.exchanges.map((ex) =>
    buildExchangeCalendar(
      {
        id: ex.id,
        name: ex.name,
        location: ex.location,
        timezone: ex.timezone,
        open: ex.open,
        close: ex.close,
        breakStart: ex.breakStart,
        breakEnd: ex.breakEnd,
        weekdays: [...ex.days].sort((a, b) => a - b),
      },
      ex.calendar.map((d) => ({
        date: d.date,
        kind: d.kind,
        openTime: d.open ?? null,
        closeTime: d.close ?? null,
        name: d.name ?? null,
        source: d.source ?? ex.calendarSource,
      })),
    ),
  );
}
