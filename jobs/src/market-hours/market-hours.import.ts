import fs from 'node:fs';
import path from 'node:path';
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { buildExchangeCalendar, CALENDAR_ENTRY_KINDS, type CalendarEntryKind, type ExchangeCalendar } from './market-hours';

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
