import type { Command } from 'commander';
import {
  ExchangeCalendarFileError,
  MAX_SESSION_RANGE_DAYS,
  eventToJson,
  importExchangeCalendarFile,
  loadExchangeCalendars,
  marketEventsBetween,
  readExchangeCalendarFile,
  sessionToJson,
  sessionsBetween,
  type ExchangeCalendar,
} from '@tickerbell/jobs/market-hours';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

const DAY_MS = 86_400_000;

function parseMic(value: string): string {
  const id = value.toUpperCase();
  if (!/^[A-Z0-9]{4}$/.test(id)) throw new CliError(`--exchange must be a MIC such as XNYS, got "${value}"`);
  return id;
}

function parseDate(value: string, name: string): string {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
  if (!valid) throw new CliError(`--${name} must be a date YYYY-MM-DD, got "${value}"`);
  return value;
}

/** An ISO 8601 instant with an explicit offset or Z, so "when" never depends on the machine's zone. */
function parseInstant(value: string, name: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) || Number.isNaN(at.getTime())) {
    throw new CliError(`--${name} must be an ISO 8601 instant with a zone, e.g. 2026-03-09T00:00:00Z, got "${value}"`);
  }
  return at;
}

async function calendarFor(context: () => CliContext, id: string): Promise<ExchangeCalendar> {
  const [calendar] = await loadExchangeCalendars(await context().db(), [id]);
  if (!calendar) throw new CliError(`unknown exchange ${id} (import calendars first: market-hours import <file>)`);
  return calendar;
}

/** `market-hours import|sessions|events`: operator commands over the calendars in the database. */
export function registerMarketHoursCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (text: string) => io.out(`${text}\n`);
  const group = program.command('market-hours').description('exchange calendars: import them, list sessions and notification events');

  group
    .command('import')
    .description('upsert exchanges and their calendar days from a JSON data file (idempotent)')
    .argument('<file>', 'e.g. jobs/src/market-hours/data/exchange-calendars.json')
    .action(async (file: string) => {
      let data;
      try {
        data = readExchangeCalendarFile(file);
      } catch (error) {
        if (error instanceof ExchangeCalendarFileError) {
          throw new CliError(`cannot import ${error.origin}:\n  ${error.problems.join('\n  ')}`);
        }
        throw error;
      }
      const result = await importExchangeCalendarFile(await context().db(), data);
      out(JSON.stringify({ file, ...result }, null, 2));
    });

  group
    .command('sessions')
    .description('trading sessions between two local dates (inclusive), as UTC instants')
    .requiredOption('--exchange <mic>', 'exchange MIC, e.g. XNYS')
    .requiredOption('--from <date>', 'first local date, YYYY-MM-DD')
    .requiredOption('--to <date>', 'last local date, YYYY-MM-DD')
    .action(async (opts: { exchange: string; from: string; to: string }) => {
      const id = parseMic(opts.exchange);
      const from = parseDate(opts.from, 'from');
      const to = parseDate(opts.to, 'to');
      if (to < from) throw new CliError('--to is before --from');
      if ((Date.parse(to) - Date.parse(from)) / DAY_MS > MAX_SESSION_RANGE_DAYS) {
        throw new CliError(`the range is longer than ${MAX_SESSION_RANGE_DAYS} days`);
      }
      const calendar = await calendarFor(context, id);
      const sessions = sessionsBetween(calendar, from, to).map(sessionToJson);
      out(JSON.stringify({ exchange: id, timezone: calendar.exchange.timezone, from, to, sessions }, null, 2));
    });

  group
    .command('events')
    .description('notification events (opening_soon, opened, closing_soon, closed) with from <= at < to')
    .requiredOption('--exchange <mic>', 'exchange MIC, e.g. XNYS')
    .requiredOption('--from <instant>', 'ISO 8601 instant, e.g. 2026-11-27T00:00:00Z')
    .requiredOption('--to <instant>', 'ISO 8601 instant (exclusive)')
    .action(async (opts: { exchange: string; from: string; to: string }) => {
      const id = parseMic(opts.exchange);
      const from = parseInstant(opts.from, 'from');
      const to = parseInstant(opts.to, 'to');
      if (to.getTime() <= from.getTime()) throw new CliError('--to must be after --from');
      if (to.getTime() - from.getTime() > MAX_SESSION_RANGE_DAYS * DAY_MS) {
        throw new CliError(`the range is longer than ${MAX_SESSION_RANGE_DAYS} days`);
      }
      const calendar = await calendarFor(context, id);
      const events = marketEventsBetween(calendar, from, to).map(eventToJson);
      out(JSON.stringify({ exchange: id, from: from.toISOString(), to: to.toISOString(), events }, null, 2));
    });
}
