import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { EdgarFetchError } from '../sources/sec-edgar.client';
import { recordSourceHealth } from '../sources/source-health';
import { dedupeByAccession, filingIndexUrl, parseCompanyTickers, parseCurrentFilingsFeed, parseFormIndex, parseSubmissions, type CurrentFilingEntry } from './edgar-index.parse';
import { Form4ParseError, parseForm4 } from './form4.parse';
import type { InsidersConfig } from './insiders.config';
import { insidersJobIds } from './insiders.jobs';
import { CURRENT_FEED_PAGE_SIZE, type InsidersSource } from './insiders-sec.client';
import {
  filingStatus,
  firstIndexDay,
  hasNoCompanies,
  importParsedFiling,
  readIndexDays,
  recordDiscoveredFilings,
  recordFilingFailure,
  recordFilingRetry,
  recordIndexDay,
  upsertCompanies,
  type DiscoveredFiling,
} from './insiders.store';

const NEW_YORK = 'America/New_York';

/** The names of the insiders sources in source_health (the /status page). */
export const INSIDERS_SOURCE_NAMES = {
  feed: 'sec-form4-feed',
  index: 'sec-form4-index',
  filings: 'sec-form4-filings',
  tickers: 'sec-company-tickers',
  submissions: 'sec-submissions',
} as const;

export type InsidersDiscoveryConfig = Pick<
  InsidersConfig,
  'INSIDERS_MAX_FILING_ATTEMPTS' | 'INSIDERS_RETRY_DELAY_MS' | 'INSIDERS_CATCH_UP_DAYS' | 'INSIDERS_FEED_PAGES' | 'INSIDERS_BACKFILL_FILINGS'
>;

export interface InsidersDiscoveryDeps {
  dataSource: DataSource;
  queues: JobQueues;
  clock: Clock;
  source: InsidersSource;
  config: InsidersDiscoveryConfig;
}

const isForm4 = (formType: string) => formType === '4' || formType === '4/A';
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const newYorkDate = (at: Date) => DateTime.fromJSDate(at, { zone: NEW_YORK }).toISODate() as string;

/** Runs a read of a source (fetch and parse) and records its outcome in source_health under the source's name. */
async function tracked<T>(
  deps: InsidersDiscoveryDeps,
  name: string,
  run: () => Promise<T>,
  outcome: (value: T) => { dataAt?: Date | null; details?: Record<string, unknown> },
): Promise<T> {
  let value: T;
  try {
    value = await run();
  } catch (error) {
    await recordSourceHealth(deps, name, { ok: false, error: message(error) });
    throw error;
  }
  const { dataAt, details } = outcome(value);
  await recordSourceHealth(deps, name, { ok: true, dataAt, details: { kind: deps.source.kind, ...details } });
  return value;
}

/** Queues the fetch of each filing, once per accession (insidersJobIds.fetchFiling), with the configured attempts and backoff. */
async function queueFetches(deps: InsidersDiscoveryDeps, fetches: { accession: string; cik: string; via: 'feed' | 'index' | 'submissions' }[]): Promise<void> {
  if (!fetches.length) return;
  await deps.queues.addBulk(
    fetches.map((data) => ({
      name: 'insiders.fetch-filing' as const,
      data,
      options: {
        jobId: insidersJobIds.fetchFiling(data.accession),
        attempts: deps.config.INSIDERS_MAX_FILING_ATTEMPTS,
        backoff: { type: 'exponential', delay: deps.config.INSIDERS_RETRY_DELAY_MS },
      },
    })),
  );
}

/** The first start: an empty companies table gets the ticker list before anything needs it. */
async function syncTickersIfEmpty(deps: InsidersDiscoveryDeps): Promise<boolean> {
  if (!(await hasNoCompanies(deps.dataSource))) return false;
  const slot = DateTime.fromJSDate(deps.clock.now(), { zone: 'utc' }).toFormat("yyyy-MM-dd'T'HH");
  await deps.queues.add('insiders.sync-tickers', {}, { jobId: insidersJobIds.syncTickers(slot) });
  return true;
}

export interface PollOutcome {
  pages: number;
  /** Feed entries read (each filing is listed twice: issuer and reporting owner). */
  entries: number;
  /** Distinct Form 4 / 4/A accessions. */
  filings: number;
  /** Accessions not known before this poll. */
  added: number;
  /** Fetches queued (the new ones, and those still pending). */
  queued: number;
  tickersQueued: boolean;
}

/**
 * One read of the current-filings feed: every Form 4 and 4/A entry, deduplicated by accession
 * number (the issuer's entry gives the CIK), recorded as pending and its fetch queued. A full page
 * of only new filings (a burst) reads the next one, up to INSIDERS_FEED_PAGES. A feed that does not
 * parse fails the poll with the reason (and is recorded on source health).
 */
export async function pollCurrentFilings(deps: InsidersDiscoveryDeps): Promise<PollOutcome> {
  const outcome: PollOutcome = { pages: 0, entries: 0, filings: 0, added: 0, queued: 0, tickersQueued: await syncTickersIfEmpty(deps) };
  for (let page = 0; page < deps.config.INSIDERS_FEED_PAGES; page++) {
    const entries = await tracked(
      deps,
      INSIDERS_SOURCE_NAMES.feed,
      async () => parseCurrentFilingsFeed(await deps.source.currentFilings(page * CURRENT_FEED_PAGE_SIZE)),
      (list) => ({ dataAt: newest(list), details: { page, entries: list.length } }),
    );
    outcome.pages++;
    outcome.entries += entries.length;
    const filings = dedupeByAccession(entries.filter((e) => isForm4(e.formType)));
    outcome.filings += filings.length;
    const now = deps.clock.now();
    const discovered: DiscoveredFiling[] = filings.map((entry) => {
      const filedAt = new Date(entry.filedAt);
      const simulated = deps.source.dataSourceOf(entry.accessionNumber) === 'simulated';
      return {
        accession: entry.accessionNumber,
        formType: entry.formType,
        issuerCik: entry.role === 'issuer' ? entry.cik : null,
        filedAt: Number.isNaN(filedAt.getTime()) ? null : filedAt,
        filingDate: Number.isNaN(filedAt.getTime()) ? null : newYorkDate(filedAt),
        secUrl: simulated ? null : entry.indexUrl || filingIndexUrl(entry.cik, entry.accessionNumber),
      };
    });
    const { added, toFetch } = await recordDiscoveredFilings(deps.dataSource, discovered, { via: 'feed', now, maxAttempts: deps.config.INSIDERS_MAX_FILING_ATTEMPTS });
    const cikOf = new Map(filings.map((f) => [f.accessionNumber, f.cik]));
    await queueFetches(deps, toFetch.map((accession) => ({ accession, cik: cikOf.get(accession) as string, via: 'feed' as const })));
    outcome.added += added.length;
    outcome.queued += toFetch.length;
    // A short page is the end of the feed; a known filing means the rest was read by an earlier poll.
    if (entries.length < CURRENT_FEED_PAGE_SIZE || added.length < filings.length) break;
  }
  return outcome;
}

function newest(entries: CurrentFilingEntry[]): Date | null {
  let max: Date | null = null;
  for (const entry of entries) {
    const at = new Date(entry.filedAt);
    if (!Number.isNaN(at.getTime()) && (!max || at > max)) max = at;
  }
  return max;
}

/** The business days (Monday to Friday, New York) before `at`'s day, newest first. */
export function businessDaysBefore(at: Date, count: number): string[] {
  const days: string[] = [];
  let day = DateTime.fromJSDate(at, { zone: NEW_YORK }).startOf('day');
  while (days.length < count) {
    day = day.minus({ days: 1 });
    if (day.weekday <= 5) days.push(day.toISODate() as string);
  }
  return days;
}

/**
 * The backstop of the feed: queues a read of the daily index of each business day of the last
 * INSIDERS_CATCH_UP_DAYS not read yet, from the first day ever read (a fresh install starts with
 * the previous business day only: the feed covers what comes next). After an outage, every day
 * missed within the bound is read; a day read is never queued again.
 */
export async function catchUpDailyIndexes(deps: InsidersDiscoveryDeps): Promise<{ days: string[] }> {
  const window = businessDaysBefore(deps.clock.now(), deps.config.INSIDERS_CATCH_UP_DAYS);
  const first = await firstIndexDay(deps.dataSource);
  const read = new Set(await readIndexDays(deps.dataSource, window[window.length - 1], window[0]));
  const days = (first === null ? window.slice(0, 1) : window.filter((day) => day >= first && !read.has(day))).sort();
  if (days.length) {
    await deps.queues.addBulk(days.map((day) => ({ name: 'insiders.read-daily-index' as const, data: { day }, options: { jobId: insidersJobIds.readIndex(day) } })));
  }
  return { days };
}

export interface IndexOutcome {
  day: string;
  /** False when EDGAR has no index that day (a weekend or holiday). */
  published: boolean;
  /** Distinct Form 4 / 4/A accessions listed. */
  listed: number;
  added: number;
  queued: number;
}

/** Reads one day's form index: every Form 4 and 4/A not seen yet is recorded pending and fetched; the day is recorded as read. */
export async function readDailyIndex(deps: InsidersDiscoveryDeps, day: string): Promise<IndexOutcome> {
  const rows = await tracked(
    deps,
    INSIDERS_SOURCE_NAMES.index,
    async () => {
      const text = await deps.source.dailyFormIndex(day);
      return text === null ? null : parseFormIndex(text);
    },
    (list) => ({ dataAt: list ? DateTime.fromISO(day, { zone: NEW_YORK }).toJSDate() : null, details: { day, published: list !== null, rows: list?.length ?? 0 } }),
  );
  const now = deps.clock.now();
  if (rows === null) {
    await recordIndexDay(deps.dataSource, { day, listed: 0, added: 0, readAt: now });
    return { day, published: false, listed: 0, added: 0, queued: 0 };
  }
  const byAccession = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (isForm4(row.formType) && !byAccession.has(row.accessionNumber)) byAccession.set(row.accessionNumber, row);
  const listed = [...byAccession.values()];
  const discovered: DiscoveredFiling[] = listed.map((row) => ({
    accession: row.accessionNumber,
    formType: row.formType,
    // The index lists a filing under each filer: which one is the issuer is known once it is parsed.
    issuerCik: null,
    filedAt: DateTime.fromISO(row.dateFiled, { zone: NEW_YORK }).toJSDate(),
    filingDate: row.dateFiled,
    secUrl: filingIndexUrl(row.cik, row.accessionNumber),
  }));
  const { added, toFetch } = await recordDiscoveredFilings(deps.dataSource, discovered, { via: 'index', now, maxAttempts: deps.config.INSIDERS_MAX_FILING_ATTEMPTS });
  await queueFetches(deps, toFetch.map((accession) => ({ accession, cik: byAccession.get(accession)!.cik, via: 'index' as const })));
  await recordIndexDay(deps.dataSource, { day, listed: listed.length, added: added.length, readAt: now });
  return { day, published: true, listed: listed.length, added: added.length, queued: toFetch.length };
}

export type FetchFilingOutcome =
  | { status: 'inserted' | 'unchanged' | 'replaced'; companyId: number; lines: number; amendedFilingId: number | null }
  /** Stored before this job ran (another discovery, an import): not fetched again. */
  | { status: 'already-stored'; companyId: number }
  | { status: 'failed'; reason: string; permanent: true; attempts: number };

/**
 * Fetches, parses and stores one filing, then queues the company's analytics. A document that does
 * not parse (or holds values no column can) is recorded failed with the reason and answered as a
 * permanent failure (never retried). A fetch error is recorded as an attempt and thrown, to be
 * retried with backoff; the last attempt records the filing failed. A filing already stored is not
 * fetched again.
 */
export async function fetchAndStoreFiling(
  deps: InsidersDiscoveryDeps,
  payload: { accession: string; cik: string; via: 'feed' | 'index' | 'submissions' },
  attempt: { number: number; of: number },
): Promise<FetchFilingOutcome> {
  const { accession, cik, via } = payload;
  const known = await filingStatus(deps.dataSource, accession);
  if (known?.status === 'parsed' && known.companyId !== null) {
    await queueRecompute(deps, known.companyId, accession);
    return { status: 'already-stored', companyId: known.companyId };
  }
  let text: string;
  try {
    text = await tracked(deps, INSIDERS_SOURCE_NAMES.filings, () => deps.source.filing(cik, accession), () => ({ details: { lastAccession: accession } }));
  } catch (error) {
    const reason = `fetch: ${message(error)}`;
    // A filing the recordings do not hold never appears; otherwise the last attempt gives up.
    const final = attempt.number >= attempt.of || (deps.source.kind === 'replay' && error instanceof EdgarFetchError && error.status === 404);
    if (final) {
      const { attempts } = await recordFilingFailure(deps.dataSource, accession, reason, { cik, via, now: deps.clock.now() });
      return { status: 'failed', reason, permanent: true, attempts };
    }
    await recordFilingRetry(deps.dataSource, accession, reason, { cik, via, now: deps.clock.now() });
    throw error;
  }
  try {
    const parsed = parseForm4(text);
    if (parsed.accessionNumber && parsed.accessionNumber !== accession) {
      throw new Form4ParseError('malformed', `the document is accession ${parsed.accessionNumber}, not ${accession}`);
    }
    const stored = await importParsedFiling(deps.dataSource, parsed, { accessionNumber: accession, via, dataSource: deps.source.dataSourceOf(accession), now: deps.clock.now() });
    await queueRecompute(deps, stored.companyId, accession);
    return { status: stored.status, companyId: stored.companyId, lines: stored.lines, amendedFilingId: stored.amendedFilingId };
  } catch (error) {
    if (!(error instanceof Form4ParseError)) throw error;
    const reason = `${error.kind}: ${error.message}`;
    const { attempts } = await recordFilingFailure(deps.dataSource, accession, reason, { cik, via, now: deps.clock.now() });
    return { status: 'failed', reason, permanent: true, attempts };
  }
}

async function queueRecompute(deps: Pick<InsidersDiscoveryDeps, 'queues'>, companyId: number, accession: string): Promise<void> {
  await deps.queues.add('insiders.recompute-analytics', { companyId, accession }, { jobId: insidersJobIds.recompute(companyId, accession) });
}

/** company_tickers.json into the companies table (ticker moves handled). */
export async function syncCompanyTickers(deps: InsidersDiscoveryDeps): Promise<{ listed: number; written: number }> {
  const rows = await tracked(
    deps,
    INSIDERS_SOURCE_NAMES.tickers,
    async () => parseCompanyTickers(await deps.source.companyTickers()),
    (list) => ({ details: { companies: list.length } }),
  );
  const written = await upsertCompanies(deps.dataSource, rows);
  return { listed: rows.length, written };
}

/**
 * A company's recent Form 4 and 4/A filings from its submissions JSON (the newest
 * INSIDERS_BACKFILL_FILINGS), each not stored yet recorded pending and fetched. The company's
 * name and first ticker are refreshed from the same answer.
 */
export async function backfillCompany(deps: InsidersDiscoveryDeps, cik: string): Promise<{ cik: string; listed: number; added: number; queued: number }> {
  const submissions = await tracked(
    deps,
    INSIDERS_SOURCE_NAMES.submissions,
    async () => parseSubmissions(await deps.source.submissions(cik)),
    (s) => ({ details: { cik: s.cik, filings: s.filings.length } }),
  );
  await upsertCompanies(deps.dataSource, [{ cik: submissions.cik, ticker: submissions.tickers[0] ?? null, name: submissions.name }]);
  const forms = submissions.filings.filter((f) => isForm4(f.form)).slice(0, deps.config.INSIDERS_BACKFILL_FILINGS);
  const discovered: DiscoveredFiling[] = forms.map((f) => {
    const filedAt = f.acceptanceDateTime ? new Date(f.acceptanceDateTime) : null;
    return {
      accession: f.accessionNumber,
      formType: f.form,
      issuerCik: submissions.cik,
      filedAt: filedAt && !Number.isNaN(filedAt.getTime()) ? filedAt : null,
      filingDate: f.filingDate,
      secUrl: filingIndexUrl(submissions.cik, f.accessionNumber),
    };
  });
  const { added, toFetch } = await recordDiscoveredFilings(deps.dataSource, discovered, {
    via: 'submissions',
    now: deps.clock.now(),
    maxAttempts: deps.config.INSIDERS_MAX_FILING_ATTEMPTS,
  });
  await queueFetches(deps, toFetch.map((accession) => ({ accession, cik: submissions.cik, via: 'submissions' as const })));
  return { cik: submissions.cik, listed: forms.length, added: added.length, queued: toFetch.length };
}
