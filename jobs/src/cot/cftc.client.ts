import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { z } from 'zod';
import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import { CotParseError, parseSocrataRows, parseTffCsv, parseTffCsvStream, type CotRow } from './cftc.parse';

/** The source name in source_health. */
export const CFTC_SOURCE = 'cftc';
/** The CFTC public reporting API: Traders in Financial Futures, futures-only. */
export const CFTC_TFF_API_URL = 'https://publicreporting.cftc.gov/resource/gpe5-46if.json';
/** The yearly history archives (`{year}` is replaced), each holding FinFutYY.txt. */
export const CFTC_TFF_ARCHIVE_URL = 'https://www.cftc.gov/files/dea/history/fut_fin_txt_{year}.zip';
export const DEFAULT_CFTC_USER_AGENT = 'Tickerbell/0.1 (self-hosted market analytics; COT ingestion)';

export interface CftcReport {
  rows: CotRow[];
  sourceUrl: string;
}

/** Where TFF reports come from: the live CFTC, or recorded files (replay). Both pass one test suite. */
export interface CftcSource {
  readonly kind: 'live' | 'replay';
  /** The newest report date available (YYYY-MM-DD), or null when there is none. */
  latestReportDate(): Promise<string | null>;
  /** Every instrument's row of one report. */
  fetchReport(reportDate: string): Promise<CftcReport>;
  /** A whole year of reports (the yearly archive). */
  fetchYear(year: number): Promise<CftcReport>;
}

/** A transient failure talking to the source (network, timeout, 5xx): worth a retry. */
export class CftcFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CftcFetchError';
  }
}

const SOCRATA_DATE = 'report_date_as_yyyy_mm_dd';
// The weekly report has a few hundred rows; the API's default page is 1,000.
const SOCRATA_LIMIT = 5000;

export interface CftcLiveOptions {
  apiUrl?: string;
  archiveUrl?: string;
  userAgent?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class CftcLiveSource implements CftcSource {
  readonly kind = 'live';
  private readonly apiUrl: string;
  private readonly archiveUrl: string;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: CftcLiveOptions = {}) {
    this.apiUrl = options.apiUrl ?? CFTC_TFF_API_URL;
    this.archiveUrl = options.archiveUrl ?? CFTC_TFF_ARCHIVE_URL;
    this.userAgent = options.userAgent ?? DEFAULT_CFTC_USER_AGENT;
    this.timeoutMs = options.timeoutMs ?? 30000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  private async get(url: string): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { 'User-Agent': this.userAgent, Accept: 'application/json, application/zip, text/csv, */*' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      // AbortSignal.timeout rejects with a DOMException named TimeoutError.
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      const reason = name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : (message ?? String(error));
      throw new CftcFetchError(`GET ${url}: ${reason}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new CftcFetchError(`GET ${url}: HTTP ${response.status}`, response.status);
    }
    return response;
  }

  private url(params: Record<string, string>): string {
    const url = new URL(this.apiUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  }

  async latestReportDate(): Promise<string | null> {
    const url = this.url({ $select: SOCRATA_DATE, $order: `${SOCRATA_DATE} DESC`, $limit: '1' });
    const body = z.array(z.object({ [SOCRATA_DATE]: z.string() })).safeParse(await (await this.get(url)).json());
    if (!body.success) throw new CotParseError(`unexpected answer from ${url}`);
    const raw = body.data[0]?.[SOCRATA_DATE];
    if (raw === undefined) return null;
    const m = /^(\d{4}-\d{2}-\d{2})/.exec(raw);
    if (!m) throw new CotParseError(`unexpected report date "${raw}" from ${url}`);
    return m[1];
  }

  async fetchReport(reportDate: string): Promise<CftcReport> {
    const url = this.url({ [SOCRATA_DATE]: `${reportDate}T00:00:00.000`, $limit: String(SOCRATA_LIMIT) });
    const rows = parseSocrataRows(await (await this.get(url)).json());
    return { rows, sourceUrl: url };
  }

  async fetchYear(year: number): Promise<CftcReport> {
    const url = this.archiveUrl.replace('{year}', String(year));
    const zip = Buffer.from(await (await this.get(url)).arrayBuffer());
    const entry = await readZipEntry(zip);
    return { rows: parseTffCsv(entry.content), sourceUrl: url };
  }
}

/** Serves recorded files (CSV/TXT as published, the yearly .zip, or the API's JSON rows) as if live. */
export class CftcReplaySource implements CftcSource {
  readonly kind = 'replay';
  private loaded?: { rows: CotRow[]; file: string }[];

  constructor(private readonly files: string[]) {}

  private async all(): Promise<{ rows: CotRow[]; file: string }[]> {
    this.loaded ??= await Promise.all(
      this.files.map(async (file) => {
        const rows: CotRow[] = [];
        for await (const row of openCotFile(file).rows) rows.push(row);
        return { rows, file };
      }),
    );
    return this.loaded;
  }

  async latestReportDate(): Promise<string | null> {
    let latest: string | null = null;
    for (const { rows } of await this.all()) for (const row of rows) if (latest === null || row.reportDate > latest) latest = row.reportDate;
    return latest;
  }

  async fetchReport(reportDate: string): Promise<CftcReport> {
    return this.pick((row) => row.reportDate === reportDate);
  }

  async fetchYear(year: number): Promise<CftcReport> {
    return this.pick((row) => row.reportDate.startsWith(`${year}-`));
  }

  private async pick(keep: (row: CotRow) => boolean): Promise<CftcReport> {
    const files: string[] = [];
    const rows: CotRow[] = [];
    for (const { rows: all, file } of await this.all()) {
      const picked = all.filter(keep);
      if (picked.length) files.push(basename(file));
      rows.push(...picked);
    }
    return { rows, sourceUrl: `replay:${files.join(',')}` };
  }
}

// Shared by every source (moved to sources/source-health.ts); re-exported for existing imports.
export { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';

function newestDate(rows: CotRow[]): Date | null {
  let latest: string | null = null;
  for (const row of rows) if (latest === null || row.reportDate > latest) latest = row.reportDate;
  return latest === null ? null : new Date(`${latest}T00:00:00Z`);
}

/** Wraps a source so every call records its outcome in source_health (under `cftc`). */
export function withSourceHealth(source: CftcSource, deps: SourceHealthDeps, name = CFTC_SOURCE): CftcSource {
  async function tracked<T>(run: () => Promise<T>, dataAt: (value: T) => Date | null, details: (value: T) => Record<string, unknown>): Promise<T> {
    let value: T;
    try {
      value = await run();
    } catch (error) {
      await recordSourceHealth(deps, name, { ok: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await recordSourceHealth(deps, name, { ok: true, dataAt: dataAt(value), details: { kind: source.kind, ...details(value) } });
    return value;
  }
  return {
    kind: source.kind,
    latestReportDate: () =>
      tracked(
        () => source.latestReportDate(),
        (date) => (date ? new Date(`${date}T00:00:00Z`) : null),
        (date) => ({ latestReportDate: date }),
      ),
    fetchReport: (reportDate) =>
      tracked(
        () => source.fetchReport(reportDate),
        (r) => newestDate(r.rows),
        (r) => ({ lastUrl: r.sourceUrl, rows: r.rows.length }),
      ),
    fetchYear: (year) =>
      tracked(
        () => source.fetchYear(year),
        (r) => newestDate(r.rows),
        (r) => ({ lastUrl: r.sourceUrl, rows: r.rows.length }),
      ),
  };
}

/** The first .txt or .csv entry of a zip archive (the yearly archive holds one FinFutYY.txt). */
export async function readZipEntry(zip: Buffer): Promise<{ name: string; content: Buffer }> {
  const { name, stream } = await openZipEntry(zip);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { name, content: Buffer.concat(chunks) };
}

/** Opens the first .txt or .csv entry of a zip (a buffer or a path) as a stream. */
export function openZipEntry(zip: Buffer | string): Promise<{ name: string; stream: Readable }> {
  return new Promise((resolve, reject) => {
    const onZip = (error: Error | null, file?: yauzl.ZipFile) => {
      if (error || !file) return reject(new CotParseError(`not a zip archive: ${error?.message ?? 'unreadable'}`));
      let found = false;
      file.on('error', (e: Error) => reject(new CotParseError(`broken zip archive: ${e.message}`)));
      file.on('entry', (entry: yauzl.Entry) => {
        if (found || /\/$/.test(entry.fileName) || !/\.(txt|csv)$/i.test(entry.fileName)) {
          file.readEntry();
          return;
        }
        found = true;
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(new CotParseError(`cannot read ${entry.fileName}: ${e?.message ?? 'no stream'}`));
          stream.on('end', () => file.close());
          resolve({ name: entry.fileName, stream });
        });
      });
      file.on('end', () => {
        if (found) return;
        file.close();
        reject(new CotParseError('the zip archive holds no .txt or .csv file'));
      });
      file.readEntry();
    };
    if (typeof zip === 'string') yauzl.open(zip, { lazyEntries: true, autoClose: false }, onZip);
    else yauzl.fromBuffer(zip, { lazyEntries: true, autoClose: false }, onZip);
  });
}

/** The published URL of a yearly archive name (fut_fin_txt_2022.zip), else the bare file name. */
export function sourceUrlOfFile(file: string): string {
  const name = basename(file);
  const year = /^fut_fin_txt_(\d{4})\.zip$/i.exec(name)?.[1];
  return year ? CFTC_TFF_ARCHIVE_URL.replace('{year}', year) : `file:${name}`;
}

/**
 * Opens a recorded or downloaded TFF file by its extension: `.txt`/`.csv` (the CSV layout),
 * `.zip` (the yearly archive), `.json` (rows of the API). Rows are streamed.
 */
export function openCotFile(file: string): { rows: AsyncIterable<CotRow>; sourceUrl: string } {
  const ext = extname(file).toLowerCase();
  const sourceUrl = sourceUrlOfFile(file);
  if (ext === '.txt' || ext === '.csv') return { rows: parseTffCsvStream(createReadStream(file)), sourceUrl };
  if (ext === '.zip') {
    return {
      sourceUrl,
      rows: (async function* () {
        const { stream } = await openZipEntry(file);
        yield* parseTffCsvStream(stream);
      })(),
    };
  }
  if (ext === '.json') {
    return {
      sourceUrl,
      rows: (async function* () {
        let body: unknown;
        try {
          body = JSON.parse(await readFile(file, 'utf8'));
        } catch (error) {
          throw new CotParseError(`${basename(file)} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
        }
        yield* parseSocrataRows(body);
      })(),
    };
  }
  throw new CotParseError(`${basename(file)}: expected a .txt, .csv, .zip or .json file`);
}
