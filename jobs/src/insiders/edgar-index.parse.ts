import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DateTime } from 'luxon';
import { z } from 'zod';

// Discovery parsers (pure) and the sec.gov URLs of a filing. Recorded samples in data/:
// - the "current filings" Atom feed for form 4 (`browse-edgar?action=getcurrent&type=4&owner=include&output=atom`):
//   every filing is listed once per party, the issuer's entry and one entry per reporting owner
//   (a joint filing: one issuer entry and nine reporting entries), all under one accession number;
//   the title carries the party's 10-digit CIK ("4 - ROYAL GOLD INC (0000085535) (Issuer)"), the
//   link the CIK without zeros (".../data/85535/000157298525000003/0001572985-25-000003-index.htm"),
//   the `<id>` the accession ("urn:tag:sec.gov,2008:accession-number=0001572985-25-000003"),
//   `<updated>` the New York time with its offset. A page holds 100 entries: a filing's issuer and
//   reporting entries can fall on two pages.
// - the daily form index `form.YYYYMMDD.idx`: fixed-width columns, CIK without zeros, date YYYYMMDD,
//   file name "edgar/data/<cik>/<accession>.txt" (the accession only appears there);
// - company_tickers.json: `{"0":{"cik_str":789019,"ticker":"MSFT","title":"MICROSOFT CORP"}, ...}`;
// - submissions JSON (data.sec.gov/submissions/CIK##########.json): `cik` as a string without zeros,
//   `filings.recent` column-oriented (parallel arrays), empty strings for missing values, and
//   `primaryDocument` of a Form 4 pointing at the XSL rendering ("xslF345X03/doc4.xml"; the raw XML
//   is the same name without the "xslF345X03/" folder), and `acceptanceDateTime` written as New
//   York wall time with a "Z" ("2022-10-24T06:08:50.000Z" for a 10-Q accepted at 06:08 ET: EDGAR
//   opens at 06:00 ET, and the recorded Tesla file has 16 acceptances between 06:02 and 09:15 "Z"
//   and none between 22:00 and 06:00): parseSubmissions turns it into the real UTC instant.

export interface CurrentFilingEntry {
  accessionNumber: string;
  formType: string;
  /** 10 digits. */
  cik: string;
  role: 'issuer' | 'reporting' | null;
  name: string;
  /** ISO UTC. */
  filedAt: string;
  indexUrl: string;
}

export interface FormIndexRow {
  formType: string;
  companyName: string;
  /** 10 digits. */
  cik: string;
  /** YYYY-MM-DD. */
  dateFiled: string;
  fileName: string;
  accessionNumber: string;
}

export interface SubmissionsFiling {
  accessionNumber: string;
  form: string;
  filingDate: string;
  /** ISO UTC, corrected from EDGAR's New York wall time labelled "Z" (see above); null when empty. */
  acceptanceDateTime: string | null;
  primaryDocument: string | null;
}

export interface Submissions {
  /** 10 digits. */
  cik: string;
  name: string;
  tickers: string[];
  /** The Standard Industrial Classification code and its title ("3711", "Motor Vehicles & Passenger Car Bodies"); null when EDGAR gives none (an empty string). */
  sic: string | null;
  sicDescription: string | null;
  filings: SubmissionsFiling[];
}

export const SEC_ARCHIVES_URL = 'https://www.sec.gov/Archives/edgar';

const ACCESSION = /^(\d{10})-?(\d{2})-?(\d{6})$/;

/** "0001127602-25-001055" from either spelling (with or without dashes); throws on anything else. */
export function normalizeAccession(accession: string): string {
  const match = ACCESSION.exec(accession.trim());
  if (!match) throw new Error(`"${accession.slice(0, 40)}" is not an accession number`);
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/** "0000001750" from "1750", "0000001750" or 1750; throws on anything else. */
export function normalizeCik(cik: string | number): string {
  const text = String(cik).trim();
  if (!/^\d{1,10}$/.test(text) || Number(text) === 0) throw new Error(`"${text.slice(0, 40)}" is not a CIK`);
  return text.padStart(10, '0');
}

function archivePath(cik: string, accession: string): string {
  const normalized = normalizeAccession(accession);
  return `${SEC_ARCHIVES_URL}/data/${Number(normalizeCik(cik))}/${normalized.replace(/-/g, '')}/${normalized}`;
}

/** The full submission text: .../data/<cik as int>/<accession no dashes>/<accession>.txt */
export function filingTextUrl(cik: string, accession: string): string {
  return `${archivePath(cik, accession)}.txt`;
}

/** The filing's index page: .../data/<cik as int>/<accession no dashes>/<accession>-index.htm */
export function filingIndexUrl(cik: string, accession: string): string {
  return `${archivePath(cik, accession)}-index.htm`;
}

/** .../daily-index/YYYY/QTRn/form.YYYYMMDD.idx for a day YYYY-MM-DD. */
export function dailyFormIndexUrl(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const month = match ? Number(match[2]) : 0;
  if (!match || month < 1 || month > 12) throw new Error(`"${day.slice(0, 40)}" is not a day (YYYY-MM-DD)`);
  return `${SEC_ARCHIVES_URL}/daily-index/${match[1]}/QTR${Math.ceil(month / 3)}/form.${match[1]}${match[2]}${match[3]}.idx`;
}

// ---------------------------------------------------------------------------------------------
// The current filings Atom feed.

type Node = Record<string, unknown>;

const atomParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => name === 'entry' || name === 'link' || name === 'category',
});

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value).trim() || null;
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === 'object') return text((value as Node)['#text']);
  return null;
}

function nodes(value: unknown): Node[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is Node => typeof v === 'object' && v !== null);
}

// "4 - Perez Daniel Antonio (0002063236) (Reporting)": form, name, CIK, role.
const ENTRY_TITLE = /^(\S+(?: \S+)?) - (.+) \((\d{10})\) \(([A-Za-z ]+)\)$/;
const ENTRY_ACCESSION = /accession-number=(\d{10}-\d{2}-\d{6})/;
const LINK_CIK = /\/edgar\/data\/(\d{1,10})\//;

function role(value: string): CurrentFilingEntry['role'] {
  const lower = value.toLowerCase();
  if (lower === 'issuer') return 'issuer';
  if (lower === 'reporting') return 'reporting';
  return null;
}

function feedEntry(entry: Node, position: number): CurrentFilingEntry {
  const where = `entry ${position}`;
  const title = text(entry.title);
  if (!title) throw new Error(`${where} has no title`);
  const links = nodes(entry.link);
  const link = links.find((l) => (text(l['@_rel']) ?? 'alternate') === 'alternate') ?? links[0];
  const indexUrl = link ? text(link['@_href']) : null;
  if (!indexUrl) throw new Error(`${where} ("${title.slice(0, 80)}") has no link`);
  const id = text(entry.id);
  const accession = (id ? ENTRY_ACCESSION.exec(id)?.[1] : undefined) ?? ENTRY_ACCESSION.exec(indexUrl)?.[1] ?? /(\d{10}-\d{2}-\d{6})-index/.exec(indexUrl)?.[1];
  if (!accession) throw new Error(`${where} ("${title.slice(0, 80)}") has no accession number`);
  const updated = text(entry.updated);
  const at = updated ? new Date(updated) : null;
  if (!at || Number.isNaN(at.getTime())) throw new Error(`${where} (${accession}) has no readable <updated> time`);
  const category = nodes(entry.category).find((c) => text(c['@_label']) === 'form type');
  const parts = ENTRY_TITLE.exec(title);
  const linkCik = LINK_CIK.exec(indexUrl)?.[1];
  const cik = parts?.[3] ?? linkCik;
  if (!cik) throw new Error(`${where} (${accession}) names no CIK`);
  const formType = text(category?.['@_term']) ?? parts?.[1] ?? title.split(' - ')[0].trim();
  return {
    accessionNumber: accession,
    formType,
    cik: normalizeCik(cik),
    role: parts ? role(parts[4]) : null,
    name: parts?.[2] ?? title,
    filedAt: at.toISOString(),
    indexUrl,
  };
}

/** Every entry of a getcurrent Atom page, in feed order. Throws an Error naming the problem on a non-Atom or garbled feed. */
export function parseCurrentFilingsFeed(atom: string): CurrentFilingEntry[] {
  const head = atom.slice(0, 512).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) throw new Error('the current filings answer is an HTML page, not an Atom feed');
  if (!head.startsWith('<')) throw new Error('the current filings answer is not XML');
  const valid = XMLValidator.validate(atom);
  if (valid !== true) throw new Error(`the current filings feed is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const document = atomParser.parse(atom) as Node;
  const feed = document.feed;
  if (!feed || typeof feed !== 'object') throw new Error('the current filings answer is not an Atom feed (no <feed> root)');
  return nodes((feed as Node).entry).map((entry, index) => feedEntry(entry, index + 1));
}

/**
 * One entry per accession, at the place of its first entry: the issuer's entry when the page
 * holds it (its CIK is the company), else the first entry seen (a reporting owner's).
 */
export function dedupeByAccession(entries: CurrentFilingEntry[]): CurrentFilingEntry[] {
  const kept = new Map<string, CurrentFilingEntry>();
  for (const entry of entries) {
    const seen = kept.get(entry.accessionNumber);
    if (!seen) kept.set(entry.accessionNumber, entry);
    else if (seen.role !== 'issuer' && entry.role === 'issuer') kept.set(entry.accessionNumber, entry);
  }
  return [...kept.values()];
}

// ---------------------------------------------------------------------------------------------
// The daily form index (form.YYYYMMDD.idx).

function indexDate(value: string): string | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/**
 * Every row of a daily form-sorted index (all form types: the caller keeps '4' and '4/A').
 * The form type is read from its fixed-width column (form types hold spaces: "SC 13G/A"); the
 * other fields from the right of the line, so a long company name cannot shift them.
 * Throws an Error naming the problem on a document that is not such an index or a garbled row.
 */
export function parseFormIndex(text: string): FormIndexRow[] {
  const lines = text.split(/\r\n|\r|\n/);
  const headerAt = lines.findIndex((line) => line.startsWith('Form Type') && line.includes('Company Name') && line.includes('File Name'));
  if (headerAt < 0) throw new Error('not an EDGAR form index: no "Form Type ... Company Name ... File Name" header line');
  if (!/^-{20,}\s*$/.test(lines[headerAt + 1] ?? '')) throw new Error('not an EDGAR form index: no dashed line under the header');
  const formWidth = lines[headerAt].indexOf('Company Name');
  const rows: FormIndexRow[] = [];
  for (let at = headerAt + 2; at < lines.length; at += 1) {
    const line = lines[at].trimEnd();
    if (line === '') continue;
    const where = `form index line ${at + 1}`;
    const fields = line.slice(formWidth).trim();
    const fileStart = fields.lastIndexOf(' ');
    const fileName = fields.slice(fileStart + 1);
    const beforeFile = fields.slice(0, fileStart).trimEnd();
    const dateStart = beforeFile.lastIndexOf(' ');
    const dateFiled = indexDate(beforeFile.slice(dateStart + 1));
    const beforeDate = beforeFile.slice(0, dateStart).trimEnd();
    const cikStart = beforeDate.lastIndexOf(' ');
    const cik = beforeDate.slice(cikStart + 1);
    const companyName = beforeDate.slice(0, cikStart).trim();
    const accession = /(\d{10}-\d{2}-\d{6})\.txt$/.exec(fileName)?.[1];
    const formType = line.slice(0, formWidth).trim();
    if (fileStart < 0 || dateStart < 0 || cikStart < 0 || !formType || !companyName) throw new Error(`${where} is not a row of five columns: "${line.slice(0, 120)}"`);
    if (!dateFiled) throw new Error(`${where}: "${beforeFile.slice(dateStart + 1)}" is not a date`);
    if (!/^\d{1,10}$/.test(cik)) throw new Error(`${where}: "${cik.slice(0, 20)}" is not a CIK`);
    if (!accession) throw new Error(`${where}: "${fileName.slice(0, 80)}" is not an EDGAR file name`);
    rows.push({ formType, companyName, cik: normalizeCik(cik), dateFiled, fileName, accessionNumber: accession });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// company_tickers.json and the submissions JSON.

const companyTickers = z.record(z.string(), z.object({ cik_str: z.union([z.number().int().positive(), z.string().regex(/^\d{1,10}$/)]), ticker: z.string().min(1), title: z.string() }));

function json(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not JSON: ${(error as Error).message}`);
  }
}

function zodProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
}

/** Every row of company_tickers.json: 10-digit CIK, upper-cased ticker (EDGAR writes "BRK-B"), name. */
export function parseCompanyTickers(text: string): { cik: string; ticker: string; name: string }[] {
  const parsed = companyTickers.safeParse(json(text, 'company_tickers.json'));
  if (!parsed.success) throw new Error(`company_tickers.json has an unexpected shape: ${zodProblem(parsed.error)}`);
  return Object.values(parsed.data).map((row) => ({ cik: normalizeCik(row.cik_str), ticker: row.ticker.trim().toUpperCase(), name: row.title.trim() }));
}

const submissionsSchema = z.object({
  cik: z.union([z.string().regex(/^\d{1,10}$/), z.number().int().positive()]),
  name: z.string(),
  tickers: z.array(z.string()).default([]),
  sic: z.string().optional(),
  sicDescription: z.string().optional(),
  filings: z.object({
    recent: z.object({
      accessionNumber: z.array(z.string()),
      form: z.array(z.string()),
      filingDate: z.array(z.string()),
      acceptanceDateTime: z.array(z.string().nullable()).optional(),
      primaryDocument: z.array(z.string().nullable()).optional(),
    }),
  }),
});

/** EDGAR's "2022-10-24T06:08:50.000Z" (New York wall time) as the UTC instant "2022-10-24T10:08:50.000Z". */
function submissionsAcceptance(value: string | null | undefined): string | null {
  if (!value) return null;
  const wall = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z?$/.exec(value.trim())?.[1];
  if (!wall) throw new Error(`the submissions document's acceptanceDateTime "${value.slice(0, 40)}" is not a time`);
  const at = DateTime.fromISO(wall, { zone: 'America/New_York' });
  if (!at.isValid) throw new Error(`the submissions document's acceptanceDateTime "${value.slice(0, 40)}" is not a time`);
  return at.toUTC().toISO();
}

/** A company's submissions JSON: its CIK (10 digits), name, tickers, industry (SIC), and its recent filings (rows from the parallel arrays). */
export function parseSubmissions(text: string): Submissions {
  const parsed = submissionsSchema.safeParse(json(text, 'the submissions document'));
  if (!parsed.success) throw new Error(`the submissions document has an unexpected shape: ${zodProblem(parsed.error)}`);
  const { recent } = parsed.data.filings;
  const count = recent.accessionNumber.length;
  const columns = { form: recent.form, filingDate: recent.filingDate, acceptanceDateTime: recent.acceptanceDateTime, primaryDocument: recent.primaryDocument };
  for (const [name, values] of Object.entries(columns)) {
    if (values !== undefined && values.length !== count) {
      throw new Error(`the submissions document's filings.recent.${name} has ${values.length} entries, accessionNumber ${count}`);
    }
  }
  const filings: SubmissionsFiling[] = recent.accessionNumber.map((accession, index) => ({
    accessionNumber: normalizeAccession(accession),
    form: recent.form[index],
    filingDate: recent.filingDate[index],
    acceptanceDateTime: submissionsAcceptance(recent.acceptanceDateTime?.[index]),
    primaryDocument: recent.primaryDocument?.[index] || null,
  }));
  return {
    cik: normalizeCik(parsed.data.cik),
    name: parsed.data.name,
    tickers: parsed.data.tickers.map((t) => t.toUpperCase()),
    sic: parsed.data.sic?.trim() || null,
    sicDescription: parsed.data.sicDescription?.trim() || null,
    filings,
  };
}
