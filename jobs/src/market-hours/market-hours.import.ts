import fs from 'node:fs';
import path from 'node:path';
import { IANAZone } from 'luxon';
import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { CALENDAR_ENTRY_KINDS } from './market-hours';

/** The calendars shipped with the product (loaded once by the `2026-11-market-hours` seed). */
export const BUNDLED_EXCHANGE_CALENDARS_PATH = path.join(__dirname, 'data', 'exchange-calendars.json');

export const EXCHANGE_CALENDAR_FORMAT = 'tickerbell.exchange-calendars.v1';

const hhmm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be HH:MM (24-hour)');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'is not a calendar date');
const source = z.string().min(1).max(200);

const calendarEntrySchema = z
  .object({
    date: isoDate,
    kind: z.enum(CALENDAR_ENTRY_KINDS),
    name: z.string().min(1).max(200).optional(),
    open: hhmm.optional(),
    close: hhmm.optional(),
    source: source.optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.kind === 'holiday' && (entry.open || entry.close)) {
      ctx.addIssue({ code: 'custom', message: 'a holiday has no open or close time', path: ['kind'] });
    }
    if (entry.kind === 'early_close' && !entry.close) ctx.addIssue({ code: 'custom', message: 'an early_close needs "close"', path: ['close'] });
    if (entry.kind === 'late_open' && !entry.open) ctx.addIssue({ code: 'custom', message: 'a late_open needs "open"', path: ['open'] });
  });

const exchangeSchema = z
  .object({
    id: z.string().regex(/^[A-Z0-9]{4}$/, 'must be a 4-character MIC such as XNYS'),
    name: z.string().min(1).max(100),
    location: z.string().min(1).max(100),
    timezone: z.string().refine((zone) => IANAZone.isValidZone(zone), 'is not an IANA time zone'),
    open: hhmm,
    close: hhmm,
    breakStart: hhmm.nullable().default(null),
    breakEnd: hhmm.nullable().default(null),
    days: z
      .array(z.number().int().min(0).max(6))
      .min(1)
      .refine((days) => new Set(days).size === days.length, 'has a weekday twice'),
    calendarSource: source,
    notes: z.string().optional(),
    calendar: z.array(calendarEntrySchema),
  })
  .strict()
  .superRefine((ex, ctx) => {
    if (ex.open >= ex.close) ctx.addIssue({ code: 'custom', message: 'open must be before close', path: ['close'] });
    if ((ex.breakStart === null) !== (ex.breakEnd === null)) {
      ctx.addIssue({ code: 'custom', message: 'breakStart and breakEnd go together', path: ['breakEnd'] });
    } else if (ex.breakStart !== null && ex.breakEnd !== null && !(ex.open < ex.breakStart && ex.breakStart < ex.breakEnd && ex.breakEnd < ex.close)) {
      ctx.addIssue({ code: 'custom', message: 'the break must lie inside the session (open < breakStart < breakEnd < close)', path: ['breakStart'] });
    }
    const seen = new Set<string>();
    ex.calendar.forEach((entry, i) => {
      if (seen.has(entry.date)) ctx.addIssue({ code: 'custom', message: `date ${entry.date} listed twice`, path: ['calendar', i, 'date'] });
      seen.add(entry.date);
      const open = entry.open ?? ex.open;
      const close = entry.close ?? ex.close;
      if (entry.kind !== 'holiday' && open >= close) {
        ctx.addIssue({ code: 'custom', message: 'the day opens after it closes', path: ['calendar', i, entry.close ? 'close' : 'open'] });
      }
    });
  });

export const exchangeCalendarFileSchema = z
  .object({
    format: z.literal(EXCHANGE_CALENDAR_FORMAT),
    description: z.string().optional(),
    notes: z.array(z.string()).optional(),
    exchanges: z.array(exchangeSchema).min(1),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.exchanges.forEach((ex, i) => {
      if (seen.has(ex.id)) ctx.addIssue({ code: 'custom', message: `exchange ${ex.id} listed twice`, path: ['exchanges', i, 'id'] });
      seen.add(ex.id);
    });
  });

export type ExchangeCalendarFile = z.infer<typeof exchangeCalendarFileSchema>;
export type ExchangeCalendarFileExchange = ExchangeCalendarFile['exchanges'][number];

/** A calendar file that cannot be imported; `problems` name each bad field. */
export class ExchangeCalendarFileError extends Error {
  constructor(
    readonly origin: string,
    readonly problems: string[],
  ) {
    super(`${origin}: ${problems.join('; ')}`);
    this.name = 'ExchangeCalendarFileError';
  }
}

/** A readable field path: exchanges[3] (XTKS).calendar[2].close */
function describePath(file: unknown, issuePath: PropertyKey[]): string {
  let text = '';
  let node: unknown = file;
  for (const key of issuePath) {
    text += typeof key === 'number' ? `[${key}]` : `${text ? '.' : ''}${String(key)}`;
    node = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === 'number' && node !== null && typeof node === 'object') {
      const label = (node as { id?: unknown; date?: unknown }).id ?? (node as { date?: unknown }).date;
      if (typeof label === 'string') text += ` (${label})`;
    }
  }
  return text || '(file)';
}

export function parseExchangeCalendarFile(text: string, origin = 'calendar file'): ExchangeCalendarFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ExchangeCalendarFileError(origin, [`not valid JSON (${error instanceof Error ? error.message : String(error)})`]);
  }
  const parsed = exchangeCalendarFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ExchangeCalendarFileError(
      origin,
      parsed.error.issues.map((issue) => `${describePath(json, issue.path)}: ${issue.message}`),
    );
  }
  return parsed.data;
}

export function readExchangeCalendarFile(file: string): ExchangeCalendarFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExchangeCalendarFileError(file, [code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? String(error)})`]);
  }
  return parseExchangeCalendarFile(text, file);
}

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
