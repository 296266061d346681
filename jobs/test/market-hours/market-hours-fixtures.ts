import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, calendarsFromFile, readExchangeCalendarFile } from '../../src/market-hours/market-hours.import';
import { type ExchangeCalendar } from '../../src/market-hours/market-hours';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'market-hours');

export interface FixtureSession {
  date: string;
  open: string;
  close: string;
  breakStart: string | null;
  breakEnd: string | null;
}

/** An exchange_calendars session table: `,open,close,break_start,break_end`, all UTC. */
export function readSessionFixture(file: string): FixtureSession[] {
  const rows: string[][] = parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), { from_line: 2 });
  const iso = (s: string) => (s ? new Date(s).toISOString() : null);
  return rows.map(([date, open, close, breakStart, breakEnd]) => ({
    date: date.slice(0, 10),
    open: iso(open) as string,
    close: iso(close) as string,
    breakStart: iso(breakStart),
    breakEnd: iso(breakEnd),
  }));
}

export function readCsv(file: string): Record<string, string>[] {
  return parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), { columns: true });
}

let bundled: Map<string, ExchangeCalendar> | undefined;

/** The calendars shipped in jobs/src/market-hours/data, parsed as the import parses them. */
export function bundledCalendars(): Map<string, ExchangeCalendar> {
  bundled ??= new Map(calendarsFromFile(readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH)).map((c) => [c.exchange.id, c]));
  return bundled;
}

export function bundledCalendar(id: string): ExchangeCalendar {
  const calendar = bundledCalendars().get(id);
  if (!calendar) throw new Error(`no bundled calendar for ${id}`);
  return calendar;
}
