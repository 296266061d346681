import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { systemClock, type Clock } from '../runtime/clock';
import { EdgarFetchError } from '../sources/sec-edgar.client';
import { normalizeAccession, normalizeCik } from '../insiders/edgar-index.parse';
import { INSIDERS_RECORDINGS_DIR } from '../insiders/form4.parse';
import type { LockupSourceTag, LockupsSource } from './lockups-sec.client';

/** EDGAR's business time zone (filing dates). */
const NEW_YORK = 'America/New_York';

/** The recorded documents (data/README.md gives each one's origin). */
export const LOCKUPS_RECORDINGS_DIR = join(__dirname, 'data');

export const LOCKUPS_REPLAY_FILES = {
  /** Airbnb's IPO 424B4 (prospectus dated 2020-12-09): six verbatim fragments. The base of every simulated prospectus. */
  abnb: 'sec_424B4_ABNB_IPO_2020-12-09_shares-eligible-lockup_excerpt.html',
  abnbCik: '0001559720',
  abnbAccession: '0001193125-20-315318',
  /** Traws Pharma's follow-on 424B4 (filed 2024-12-31): its "Lock-up Agreements" passage. */
  traw: 'sec_424B4_TRAW_0001104659-24-132924_lockup_section_excerpt.html',
  trawCik: '0001130598',
  trawAccession: '0001104659-24-132924',
  /** The real daily form index of 2020-03-18 (trimmed; S-1 and S-1/A rows, no 424B4 that day). */
  formIndex: 'sec_daily_form_index_form.20200318_excerpt.idx',
  formIndexDay: '2020-03-18',
  /** A real EDGAR full-text search answer (Intel 10-K hits, 2021): the answer's shape, served as recorded. */
  fullTextSearch: 'sec_efts_full_text_search_INTC_10K_transition_report_2021.json',
  /** Snowflake's XBRL company facts, trimmed to the `dei` facts. The base of the simulated offerings' facts. */
  companyFacts: 'sec_xbrl_companyfacts_CIK0001640147_SNOW_dei-only.json',
  companyFactsCik: '0001640147',
  /** Tesla's recorded submissions JSON (the insiders' recording): the base of Traws Pharma's, the one issuer with one in the replay. */
  submissions: 'sec_edgar_submissions_CIK0001318605_TSLA_trimmed.json',
} as const;

/**
 * Traws Pharma's submissions in the replay: the recorded Tesla document with Traws's CIK, name and
 * ticker and the SIC code and title of a pharmaceutical issuer, its recent filings emptied. Built, not
 * recorded (no capture of Traws's own was found); EDGAR's current values may differ.
 */
export const TRAW_REPLAY_INDUSTRY = { sic: '2834', sicDescription: 'Pharmaceutical Preparations' } as const;

function trawSubmissions(recorded: string): string {
  const document = JSON.parse(recorded) as { filings: { recent: Record<string, unknown[]> } } & Record<string, unknown>;
  const recent = Object.fromEntries(Object.keys(document.filings.recent).map((column) => [column, []]));
  return JSON.stringify({
    ...document,
    cik: String(Number(LOCKUPS_REPLAY_FILES.trawCik)),
    name: 'Traws Pharma, Inc.',
    tickers: ['TRAW'],
    exchanges: ['Nasdaq'],
    ...TRAW_REPLAY_INDUSTRY,
    formerNames: [],
    filings: { ...document.filings, recent },
  });
}

/** One offering of the offline demo: a variant of the real Airbnb prospectus with these values. */
export interface SimulatedOffering {
  ticker: string;
  companyName: string;
  /** 10 digits, in a range EDGAR has not assigned. */
  cik: string;
  accession: string;
  industry: string;
  vcBacked: boolean;
  /** YYYY-MM-DD (a weekday). */
  prospectusDate: string;
  /** YYYY-MM-DD: the next weekday. */
  fileDate: string;
  /** 90 or 180: the restricted period written into the variant. */
  lockupDays: 90 | 180;
  /** Three release steps (30th day, half the period, the period) instead of one. */
  staged: boolean;
  ipoPrice: string;
  /** Shares offered by the company (the variant's "We are offering N shares"). */
  sharesOffered: string;
  /** Class A and Class B shares outstanding after the offering (the variant's "Shares Eligible for Future Sale"). */
  classA: string;
  classB: string;
  /** Airbnb's excerpt also counts Class H shares (held by a subsidiary): varied too, and reported in the company facts. */
  classH: string;
  /** prospectusDate + lockupDays: the last release. */
  finalExpiry: string;
}

/** A filing the replay serves by accession. */
export interface ReplayAccession {
  accession: string;
  cik: string;
  ticker: string | null;
  companyName: string;
  form: '424B4';
  /** YYYY-MM-DD, or null when the recording does not say. */
  fileDate: string | null;
  dataSource: LockupSourceTag;
  industry: string | null;
  vcBacked: boolean | null;
}

const SIMULATED_COUNT = 24;
/** Names of the offline demo's companies: made up, labelled 'simulated' wherever shown. */
const SIMULATED_NAMES: [string, string, string][] = [
  ['NWCD', 'Northwind Cloud, Inc.', 'Technology'],
  ['HLXB', 'Helixa Bio, Inc.', 'Biotechnology'],
  ['QRYS', 'Quarry Systems, Inc.', 'Software'],
  ['PBLT', 'Pebbleton Brands, Inc.', 'Consumer'],
  ['LDGR', 'Ledgerline Financial, Inc.', 'Fintech'],
  ['CVTA', 'Covanta Health, Inc.', 'Healthcare'],
  ['SLCN', 'Silicorn Semiconductor, Inc.', 'Semiconductors'],
  ['TRVX', 'Trevox Therapeutics, Inc.', 'Biotechnology'],
  ['MSHW', 'Meshwork Networks, Inc.', 'Technology'],
  ['GRNF', 'Greenfold Foods, Inc.', 'Consumer'],
  ['ORBL', 'Orbital Logistics, Inc.', 'Industrials'],
  ['DPLR', 'Doppler Analytics, Inc.', 'Software'],
  ['KNTK', 'Kinetika Robotics, Inc.', 'Technology'],
  ['VRDM', 'Viridium Energy, Inc.', 'Energy'],
  ['CLMB', 'Climb Payments, Inc.', 'Fintech'],
  ['NRVX', 'Nervix Neuroscience, Inc.', 'Biotechnology'],
  ['PXLF', 'Pixelforge Games, Inc.', 'Technology'],
  ['HRBR', 'Harborline Travel, Inc.', 'Consumer'],
  ['STRT', 'Stratum Security, Inc.', 'Software'],
  ['MDWL', 'Medwell Devices, Inc.', 'Healthcare'],
  ['FLXC', 'Fluxcore Batteries, Inc.', 'Industrials'],
  ['CDNC', 'Cadence Genomics, Inc.', 'Biotechnology'],
  ['BRKN', 'Brookline Insurance, Inc.', 'Financials'],
  ['ZNTH', 'Zenithal Aerospace, Inc.', 'Industrials'],
];

function weekdayOnOrBefore(day: DateTime): DateTime {
  let d = day;
  while (d.weekday > 5) d = d.minus({ days: 1 });
  return d;
}

function nextWeekday(day: DateTime): DateTime {
  let d = day.plus({ days: 1 });
  while (d.weekday > 5) d = d.plus({ days: 1 });
  return d;
}

const thousands = (value: number) => value.toLocaleString('en-US');

/**
 * The offline demo's ~24 offerings, deterministic for a given day: final expiries spread over the
 * next ~120 days (3 to 120 days from `now`), lock-ups of 180 or 90 days (every prospectus dated at least
 * 10 days before `now`), every other one staged in
 * three steps, most VC-backed. Each is served as a variant of the real Airbnb prospectus.
 */
export function SIMULATED_OFFERINGS(now: Date): SimulatedOffering[] {
  const today = DateTime.fromJSDate(now, { zone: NEW_YORK }).startOf('day');
  return SIMULATED_NAMES.slice(0, SIMULATED_COUNT).map(([ticker, companyName, industry], i) => {
    const ahead = 3 + Math.round((i * 117) / (SIMULATED_COUNT - 1));
    // 90-day lock-ups only where they end within 80 days: the prospectus is always dated in the past.
    const lockupDays: 90 | 180 = i % 3 === 2 && ahead <= 80 ? 90 : 180;
    const prospectus = weekdayOnOrBefore(today.plus({ days: ahead - lockupDays }));
    const file = nextWeekday(prospectus);
    const offered = (6 + ((i * 7) % 35)) * 1_000_000;
    const classA = offered + (2 + (i % 5)) * 1_000_000 + i * 12_345;
    const classB = offered * (3 + (i % 4)) + i * 54_321;
    const classH = Math.round(classB / 50);
    return {
      ticker,
      companyName,
      cik: `000999${String(8000 + i)}`,
      accession: `0009999998-${file.toFormat('yy')}-${String(i + 1).padStart(6, '0')}`,
      industry,
      vcBacked: i % 3 !== 1,
      prospectusDate: prospectus.toISODate() as string,
      fileDate: file.toISODate() as string,
      lockupDays,
      staged: i % 2 === 1,
      ipoPrice: `${12 + ((i * 7) % 50)}.00`,
      sharesOffered: String(offered),
      classA: String(classA),
      classB: String(classB),
      classH: String(classH),
      finalExpiry: prospectus.plus({ days: lockupDays }).toISODate() as string,
    };
  });
}

function replaceOnce(text: string, pattern: RegExp | string, replacement: string, what: string): string {
  const next = text.replace(pattern, replacement);
  if (next === text) throw new Error(`replay: the recorded Airbnb prospectus has no ${what} to vary (was the recording changed?)`);
  return next;
}

const longDate = (iso: string) => DateTime.fromISO(iso).toFormat('LLLL d, yyyy');
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

/**
 * The real Airbnb excerpt with one offering's values: company name, ticker, dates, IPO price, shares
 * offered and outstanding, tranche sizes, the restricted period written as "N days after the date of
 * this prospectus" (in place of the earnings-based period), the release table's steps as day counts
 * (or no release table: one step), and venture backing named among the holders when `vcBacked`.
 * Everything else is the recorded document, with a comment saying it is simulated.
 */
export function simulatedProspectusHtml(recorded: string, offering: SimulatedOffering): string {
  const n = Number(offering.sharesOffered);
  let html = recorded;
  html = replaceOnce(
    html,
    /^<!--[\s\S]*?-->/,
    `<!-- SIMULATED for the offline demo: a variant of the real Airbnb 424B4 excerpt (${LOCKUPS_REPLAY_FILES.abnb}) with another company, dates, amounts and lock-up terms. Not a filing. -->`,
    'heading comment',
  );
  html = replaceOnce(html, 'common stock of Airbnb, Inc.', `common stock of ${offering.companyName}`, 'company name');
  html = replaceOnce(html, '&#147;ABNB.&#148;', `&#147;${offering.ticker}.&#148;`, 'ticker');
  html = replaceOnce(html, 'Prospectus dated December 9, 2020', `Prospectus dated ${longDate(offering.prospectusDate)}`, 'prospectus date');
  html = replaceOnce(html, 'purchasers on December 14, 2020', `purchasers on ${longDate(nextWeekday(nextWeekday(DateTime.fromISO(offering.prospectusDate))).toISODate() as string)}`, 'delivery date');
  html = replaceOnce(html, /\$68\.00/g, `$${offering.ipoPrice}`, 'IPO price');
  html = replaceOnce(html, 'We are offering 50,000,000', `We are offering ${thousands(n)}`, 'shares offered');
  html = replaceOnce(html, 'are offering 1,323,531 shares', `are offering ${thousands(Math.round(n / 40))} shares`, 'secondary shares');
  html = replaceOnce(html, '5,000,000 shares of Class', `${thousands(Math.round(n * 0.15))} shares of Class`, 'option shares');
  html = replaceOnce(html, '98,682,548', thousands(Number(offering.classA)), 'Class A outstanding');
  html = replaceOnce(html, '103,682,548', thousands(Number(offering.classA) + Math.round(n * 0.15)), 'Class A with the option');
  html = replaceOnce(html, '489,565,703', thousands(Number(offering.classB)), 'Class B outstanding');
  html = replaceOnce(html, '9,200,000 shares of our Class&nbsp;H', `${thousands(Number(offering.classH))} shares of our Class&nbsp;H`, 'Class H outstanding');
  const first = (n / 3 / 1e6).toFixed(1);
  const second = ((n * 5) / 9 / 1e6).toFixed(1);
  html = replaceOnce(html, /16\.8( |&nbsp;)million/g, `${first}$1million`, 'first window shares');
  html = replaceOnce(html, '27.8 million', `${second} million`, 'second window shares');
  html = replaceOnce(
    html,
    /during the period ending on the later of \(i\) the\s+opening of trading[\s\S]*?\(such period, the &#147;restricted period&#148;\)/,
    `during the period ending ${offering.lockupDays} days after the date of this prospectus (such period, the &#147;restricted period&#148;)`,
    'restricted period',
  );
  if (offering.vcBacked) {
    html = replaceOnce(html, 'certain other record holders that', 'certain other record holders, including funds affiliated with our venture capital investors, that', 'holders');
  }
  if (offering.staged) {
    html = replaceOnce(
      html,
      /The first trading day on which our common stock is traded on Nasdaq \(the &#147;first\s+release window&#148;\)\./,
      `The ${ordinal(30)} day after the date of this prospectus (the &#147;first release window&#148;).`,
      'first release window',
    );
    html = replaceOnce(
      html,
      /The second trading day immediately following our public release of earnings for the first\s+quarter[\s\S]*?section titled &#147;Underwriting\.&#148;/,
      `The ${ordinal(offering.lockupDays / 2)} day after the date of this prospectus (the &#147;second release window&#148;).`,
      'second release window',
    );
    html = replaceOnce(
      html,
      /The later of \(i\) the opening of trading on the second trading day[\s\S]*?included in this prospectus\)\.(?=<\/P><\/TD>)/,
      `${offering.lockupDays} days after the date of this prospectus.`,
      'final release',
    );
  } else {
    // One step: no release table (the lead-in paragraph and the table go).
    html = replaceOnce(
      html,
      /<P[^>]*>As a result of the lock-up agreements[\s\S]*?<\/TABLE>/,
      '',
      'release table',
    );
  }
  return html;
}

/** Company facts for a simulated offering: the real Snowflake document with its values, or null before its first quarterly report (45 days). */
export function simulatedCompanyFacts(recorded: string, offering: SimulatedOffering, now: Date): string | null {
  const prospectus = DateTime.fromISO(offering.prospectusDate, { zone: NEW_YORK });
  const filed = prospectus.plus({ days: 45 });
  if (filed > DateTime.fromJSDate(now, { zone: NEW_YORK })) return null;
  const doc = JSON.parse(recorded) as {
    cik: number;
    entityName: string;
    facts: { dei: { EntityCommonStockSharesOutstanding: { units: { shares: Record<string, unknown>[] } } } };
  };
  const facts = doc.facts.dei.EntityCommonStockSharesOutstanding.units.shares;
  const base = facts[facts.length - 1];
  const accn = `0009999998-${filed.toFormat('yy')}-${String(500 + Number(offering.accession.slice(-6))).padStart(6, '0')}`;
  const shares = (value: string) => ({ ...base, end: prospectus.plus({ days: 38 }).toISODate(), val: Number(value), accn, fy: filed.year, fp: 'Q1', form: '10-Q', filed: filed.toISODate() });
  delete (base as { frame?: string }).frame;
  doc.cik = Number(offering.cik);
  doc.entityName = offering.companyName.toUpperCase();
  // The three classes of the prospectus, one fact each (as EDGAR reports a multi-class company).
  doc.facts.dei.EntityCommonStockSharesOutstanding.units.shares = [shares(offering.classA), shares(offering.classB), shares(offering.classH)];
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The recorded prospectuses and the simulated ones, newest filing first. */
export function replayAccessions(now: Date): ReplayAccession[] {
  const simulated: ReplayAccession[] = SIMULATED_OFFERINGS(now).map((o) => ({
    accession: o.accession,
    cik: o.cik,
    ticker: o.ticker,
    companyName: o.companyName,
    form: '424B4',
    fileDate: o.fileDate,
    dataSource: 'simulated',
    industry: o.industry,
    vcBacked: o.vcBacked,
  }));
  simulated.sort((a, b) => (b.fileDate ?? '').localeCompare(a.fileDate ?? ''));
  return [
    ...simulated,
    { accession: LOCKUPS_REPLAY_FILES.trawAccession, cik: LOCKUPS_REPLAY_FILES.trawCik, ticker: 'TRAW', companyName: 'Traws Pharma, Inc.', form: '424B4', fileDate: '2024-12-31', dataSource: 'sec-replay', industry: null, vcBacked: null },
    { accession: LOCKUPS_REPLAY_FILES.abnbAccession, cik: LOCKUPS_REPLAY_FILES.abnbCik, ticker: 'ABNB', companyName: 'Airbnb, Inc.', form: '424B4', fileDate: null, dataSource: 'sec-replay', industry: null, vcBacked: null },
  ];
}

/** The recorded index's rows laid out in its own fixed-width columns. */
function indexRows(recordedIndex: string, rows: { form: string; name: string; cik: string; date: string; file: string }[]): string {
  const lines = recordedIndex.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.startsWith('Form Type'));
  const header = lines[headerAt];
  const at = (label: string) => header.indexOf(label);
  const [name, cik, date, file] = [at('Company Name'), at('CIK'), at('Date Filed'), at('File Name')];
  const pad = (value: string, width: number) => (value.length >= width ? `${value.slice(0, width - 1)} ` : value.padEnd(width));
  const body = rows.map((r) => `${pad(r.form, name)}${pad(r.name, cik - name)}${pad(r.cik, date - cik)}${pad(r.date, file - date)}${r.file}`);
  return [...lines.slice(0, headerAt + 2), ...body, ''].join('\n');
}

/**
 * EDGAR offline: the recorded prospectuses (labelled 'sec-replay'), ~24 simulated variants of the
 * Airbnb one ('simulated', dated relative to the clock), the recorded daily index (2020-03-18) and,
 * on the days the simulated prospectuses were filed, an index in the recorded layout listing them;
 * the recorded full-text search answer; Snowflake's recorded company facts and variants of it.
 */
export class LockupsReplaySource implements LockupsSource {
  readonly kind = 'replay';
  private readonly dir: string;
  private readonly clock: Clock;

  constructor(options: { dir?: string; clock?: Clock } = {}) {
    this.dir = options.dir ?? LOCKUPS_RECORDINGS_DIR;
    this.clock = options.clock ?? systemClock;
  }

  private read(file: string): string {
    return readFileSync(join(this.dir, file), 'utf8');
  }

  private offering(accession: string): SimulatedOffering | undefined {
    return SIMULATED_OFFERINGS(this.clock.now()).find((o) => o.accession === accession);
  }

  async dailyFormIndex(day: string): Promise<string | null> {
    const recorded = this.read(LOCKUPS_REPLAY_FILES.formIndex);
    if (day === LOCKUPS_REPLAY_FILES.formIndexDay) return recorded;
    const filed = SIMULATED_OFFERINGS(this.clock.now()).filter((o) => o.fileDate === day);
    if (!filed.length) {
      const weekday = DateTime.fromISO(day).weekday;
      // A weekday without simulated filings still has an index (empty of 424B4s); weekends have none.
      return weekday > 5 ? null : indexRows(recorded, []);
    }
    return indexRows(
      recorded,
      filed.map((o) => ({ form: '424B4', name: o.companyName, cik: String(Number(o.cik)), date: day.replace(/-/g, ''), file: `edgar/data/${Number(o.cik)}/${o.accession}.txt` })),
    );
  }

  async fullTextSearch(): Promise<string> {
    return this.read(LOCKUPS_REPLAY_FILES.fullTextSearch);
  }

  async prospectus(_cik: string, accession: string): Promise<string> {
    const normalized = normalizeAccession(accession);
    if (normalized === LOCKUPS_REPLAY_FILES.abnbAccession) return this.read(LOCKUPS_REPLAY_FILES.abnb);
    if (normalized === LOCKUPS_REPLAY_FILES.trawAccession) return this.read(LOCKUPS_REPLAY_FILES.traw);
    const offering = this.offering(normalized);
    if (!offering) throw new EdgarFetchError(`replay: prospectus ${normalized} is not among the recordings`, 404);
    return simulatedProspectusHtml(this.read(LOCKUPS_REPLAY_FILES.abnb), offering);
  }

  async companyFacts(cik: string): Promise<string | null> {
    const normalized = normalizeCik(cik);
    if (normalized === LOCKUPS_REPLAY_FILES.companyFactsCik) return this.read(LOCKUPS_REPLAY_FILES.companyFacts);
    const offering = SIMULATED_OFFERINGS(this.clock.now()).find((o) => o.cik === normalized);
    return offering ? simulatedCompanyFacts(this.read(LOCKUPS_REPLAY_FILES.companyFacts), offering, this.clock.now()) : null;
  }

  /** Traws Pharma's (built from the recorded Tesla document); none for the others (404), whose industry stays what the replay says. */
  async submissions(cik: string): Promise<string | null> {
    if (normalizeCik(cik) !== LOCKUPS_REPLAY_FILES.trawCik) return null;
    return trawSubmissions(readFileSync(join(INSIDERS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES.submissions), 'utf8'));
  }

  dataSourceOf(accession: string): LockupSourceTag {
    return this.offering(accession) ? 'simulated' : 'sec-replay';
  }
}
