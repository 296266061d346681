import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { systemClock, type Clock } from '../runtime/clock';
import { EdgarFetchError } from '../sources/sec-edgar.client';
import { filingIndexUrl } from './edgar-index.parse';
import { FORM4_SAMPLE_FILES, parseForm4 } from './form4.parse';
import { CURRENT_FEED_PAGE_SIZE, type InsiderSourceTag, type InsidersSource } from './insiders-sec.client';

/** EDGAR's business time zone (acceptance times, filing dates). */
const NEW_YORK = 'America/New_York';

/** The recordings the replay serves besides the filings (data/README.md gives each one's origin). */
export const INSIDERS_REPLAY_FILES = {
  /** The real getcurrent&type=4 Atom answer (100 entries, 12 Dec 2025): its header and entries are the replay feed's template. */
  feed: 'sec_getcurrent_type4_atom_2025-12-12.xml',
  /** The real daily form index of 2020-03-18 (trimmed: every Form 4/A, the first 300 Form 4 rows). */
  formIndex: 'sec_daily_form_index_form.20200318_excerpt.idx',
  formIndexDay: '2020-03-18',
  tickers: 'sec_company_tickers_first300.json',
  /** Tesla's submissions JSON (trimmed to 150 recent filings). */
  submissions: 'sec_edgar_submissions_CIK0001318605_TSLA_trimmed.json',
  submissionsCik: '0001318605',
  /** The real open-market purchase (code P) the simulated cluster buy varies. */
  purchase: 'sec_form4_NCV_2007-08-17_code_P_X0202_pem-wrapped_fullsubmission.txt',
} as const;

/**
 * Accessions of the recorded filings that are bare XML (no header to read one from), as their
 * origins name them (../shared/fixtures/ORIGINS-wave2.md). Bare XML without a known accession
 * (SNOW, SCWO) is not in the replay feed; `import insiders` still reads it.
 */
export const BARE_XML_ACCESSIONS: Readonly<Record<string, string>> = {
  'sec_form4_META_2025-10-31_codes_C_G_gift_X0508_primarydoc.xml': '0000950103-25-014304',
  'sec_form4_MVIS_2026-06-08_codes_M_F_A_X0609.xml': '0001493152-26-028198',
  'sec_form4A_ATEX_2026-09-08_amendment_codes_S_F_M_X0609_THIRD-PARTY-TRIMMED.xml': '0001669943-26-000021',
};

/** The simulated insiders buying NCV in the offline demo (CIKs far above any EDGAR has assigned). */
export const SIMULATED_PURCHASES = [
  { ownerCik: '0009999901', ownerName: 'SIMULATED INSIDER ONE', role: 'officer', shares: '5000', price: '12.10', daysBefore: 3 },
  { ownerCik: '0009999902', ownerName: 'SIMULATED INSIDER TWO', role: 'director', shares: '12000', price: '12.40', daysBefore: 2 },
  { ownerCik: '0009999903', ownerName: 'SIMULATED INSIDER THREE', role: 'other', shares: '2500', price: '11.95', daysBefore: 1 },
] as const;

/** A simulated variant's accession: filer-agent CIK 0009999999 (unassigned), the year, the variant's number. */
export function simulatedAccession(index: number, at: Date): string {
  const yy = DateTime.fromJSDate(at, { zone: NEW_YORK }).toFormat('yy');
  return `0009999999-${yy}-${String(index + 1).padStart(6, '0')}`;
}

interface ReplayFiling {
  accession: string;
  formType: string;
  issuer: { cik: string; name: string };
  owner: { cik: string; name: string };
  /** The real acceptance time when the document has one. */
  filedAt: Date | null;
  tag: InsiderSourceTag;
  bytes: number;
  text(): string;
}

function replaceOnce(text: string, pattern: RegExp | string, replacement: string, what: string): string {
  const next = text.replace(pattern, replacement);
  if (next === text) {
    throw new Error(`replay: the recorded purchase has no ${what} to vary (was the recording changed?)`);
  }
  return next;
}

/**
 * A variant of the real NCV code-P filing (accession 0001240812-07-000005), for the offline demo's
 * cluster buy: another owner (CIK, name, relationship), recent dates, other amounts, its own
 * accession, and remarks saying it is simulated. Everything else is the recorded document.
 */
export function simulatedPurchaseText(recorded: string, index: number, at: Date, accession = simulatedAccession(index, at)): string {
  const variant = SIMULATED_PURCHASES[index];
  const now = DateTime.fromJSDate(at, { zone: NEW_YORK });
  const filed = now.toFormat('yyyyMMdd');
  const traded = now.startOf('day').minus({ days: variant.daysBefore });
  let text = recorded;
  text = replaceOnce(text, /<ACCEPTANCE-DATETIME>\d{14}/, `<ACCEPTANCE-DATETIME>${now.toFormat('yyyyMMddHHmmss')}`, 'acceptance time');
  text = replaceOnce(text, /0001240812-07-000005/g, accession, 'accession');
  text = replaceOnce(text, /(CONFORMED PERIOD OF REPORT:\s*)\d{8}/, `$1${traded.toFormat('yyyyMMdd')}`, 'period');
  text = replaceOnce(text, /(FILED AS OF DATE:\s*)\d{8}/, `$1${filed}`, 'filing date');
  text = replaceOnce(text, /(DATE AS OF CHANGE:\s*)\d{8}/, `$1${filed}`, 'change date');
  text = replaceOnce(text, /(\.txt|\.hdr\.sgml) : 20070817/g, `$1 : ${filed}`, 'document dates');
  text = replaceOnce(text, /LEMESEVSKI ELIZABETH/g, variant.ownerName, 'owner name');
  text = replaceOnce(text, /0001240808/g, variant.ownerCik, 'owner CIK');
  text = replaceOnce(text, /(<periodOfReport>)2007-08-15/, `$1${traded.toISODate()}`, 'periodOfReport');
  text = replaceOnce(text, /(<transactionDate>\s*<value>)2007-08-17/, `$1${traded.toISODate()}`, 'transactionDate');
  text = replaceOnce(text, /(<transactionShares>\s*<value>)300(<\/value>)/, `$1${variant.shares}$2`, 'shares');
  text = replaceOnce(text, /(<sharesOwnedFollowingTransaction>\s*<value>)300(<\/value>)/, `$1${variant.shares}$2`, 'shares owned after');
  text = replaceOnce(text, /(<transactionPricePerShare>\s*<value>)11\.75(<\/value>)/, `$1${variant.price}$2`, 'price');
  text = replaceOnce(text, /(<signatureName>).*?(<\/signatureName>)/, `$1Simulated signature for ${variant.ownerName}$2`, 'signature');
  text = replaceOnce(text, /(<signatureDate>)2007-08-17/, `$1${now.toISODate()}`, 'signature date');
  text = replaceOnce(
    text,
    /<remarks>[\s\S]*?<\/remarks>/,
    `<remarks>SIMULATED for the offline demo: a variant of the real filing 0001240812-07-000005 with another owner, dates and amounts.</remarks>`,
    'remarks',
  );
  if (variant.role === 'officer') {
    text = replaceOnce(text, '<isOfficer>0</isOfficer>', '<isOfficer>1</isOfficer>', 'isOfficer');
    text = replaceOnce(text, '<isOther>1</isOther>', '<isOther>0</isOther>', 'isOther');
    text = replaceOnce(text, '<otherText>Affiliated Person</otherText>', '<officerTitle>Chief Executive Officer</officerTitle>', 'otherText');
  } else if (variant.role === 'director') {
    text = replaceOnce(text, '<isDirector>0</isDirector>', '<isDirector>1</isDirector>', 'isDirector');
    text = replaceOnce(text, '<isOther>1</isOther>', '<isOther>0</isOther>', 'isOther');
    text = replaceOnce(text, /\s*<otherText>Affiliated Person<\/otherText>/, '', 'otherText');
  }
  return text;
}

const xmlEscape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const feedTime = (at: Date) => DateTime.fromJSDate(at, { zone: NEW_YORK }).toISO({ suppressMilliseconds: true }) as string;

/**
 * EDGAR offline: the recorded filings (labelled 'sec-replay') and simulated variants of the
 * recorded purchase ('simulated'), listed by a feed built from the real recorded Atom document,
 * its entries varied to point at them. Each poll of the feed releases `perPoll` more filings
 * (the recorded ones, then the simulated cluster buy), so new filings keep arriving until all are
 * out. The daily index, tickers and submissions are the recorded documents.
 */
export class InsidersReplaySource implements InsidersSource {
  readonly kind = 'replay';
  private readonly dir: string;
  private readonly clock: Clock;
  private readonly perPoll: number;
  private catalog?: ReplayFiling[];
  /** Released filings, in release order, with the time each came out. */
  private readonly released: { filing: ReplayFiling; at: Date }[] = [];

  private readonly simulatedRounds: number;

  /**
   * `simulatedRounds`: how many times the simulated purchases follow the recordings (default 1:
   * the demo's cluster buy); the benchmark's freshness run asks for more, each with its own accession.
   */
  constructor(options: { dir: string; clock?: Clock; perPoll?: number; simulatedRounds?: number }) {
    this.dir = options.dir;
    this.clock = options.clock ?? systemClock;
    this.perPoll = options.perPoll ?? 3;
    this.simulatedRounds = options.simulatedRounds ?? 1;
  }

  private read(file: string): string {
    return readFileSync(join(this.dir, file), 'utf8');
  }

  /** The recorded filings that parse and have an accession, oldest acceptance first, then the simulated variants. */
  private filings(): ReplayFiling[] {
    if (this.catalog) return this.catalog;
    const recorded: ReplayFiling[] = [];
    for (const file of FORM4_SAMPLE_FILES) {
      let text: string;
      try {
        text = this.read(file);
      } catch {
        continue;
      }
      let parsed;
      try {
        parsed = parseForm4(text);
      } catch {
        continue;
      }
      const accession = parsed.accessionNumber ?? BARE_XML_ACCESSIONS[file];
      if (!accession) continue;
      const owner = parsed.reportingOwners[0];
      recorded.push({
        accession,
        formType: parsed.formType,
        issuer: { cik: parsed.issuer.cik, name: parsed.issuer.name },
        owner: { cik: owner.cik, name: owner.name },
        filedAt: parsed.filedAt ? new Date(parsed.filedAt) : null,
        tag: 'sec-replay',
        bytes: Buffer.byteLength(text),
        text: () => text,
      });
    }
    recorded.sort((a, b) => (a.filedAt?.getTime() ?? 0) - (b.filedAt?.getTime() ?? 0));
    const simulated: ReplayFiling[] = [];
    const purchase = recorded.find((f) => f.accession === '0001240812-07-000005');
    if (purchase) {
      const base = purchase.text();
      const variants = Array.from({ length: this.simulatedRounds }, () => SIMULATED_PURCHASES).flat();
      variants.forEach((variant, index) => {
        const accession = simulatedAccession(index, this.clock.now());
        simulated.push({
          accession,
          formType: '4',
          issuer: purchase.issuer,
          owner: { cik: variant.ownerCik, name: variant.ownerName },
          filedAt: null,
          tag: 'simulated',
          bytes: Buffer.byteLength(base),
          // Dated by the moment it is read, so that the cluster is recent whenever the demo runs.
          text: () => simulatedPurchaseText(base, index % SIMULATED_PURCHASES.length, this.clock.now(), accession),
        });
      });
    }
    this.catalog = [...recorded, ...simulated];
    return this.catalog;
  }

  /** How many filings the replay holds, and how many are out. */
  progress(): { total: number; released: number } {
    return { total: this.filings().length, released: this.released.length };
  }

  async currentFilings(start = 0): Promise<string> {
    const now = this.clock.now();
    // Only the first page's read is a poll (a later page belongs to the same poll).
    if (start === 0) {
      const all = this.filings();
      for (const filing of all.slice(this.released.length, this.released.length + this.perPoll)) this.released.push({ filing, at: now });
    }
    const template = this.read(INSIDERS_REPLAY_FILES.feed);
    const first = template.indexOf('<entry>');
    const reporting = template.match(/<entry>(?:(?!<\/entry>)[\s\S])*?\(Reporting\)[\s\S]*?<\/entry>/)?.[0];
    const issuer = template.match(/<entry>(?:(?!<\/entry>)[\s\S])*?\(Issuer\)[\s\S]*?<\/entry>/)?.[0];
    if (first < 0 || !reporting || !issuer) throw new Error('replay: the recorded feed has no issuer and reporting entries to vary');
    const header = template
      .slice(0, first)
      .replace(/<title>Latest Filings - [^<]*<\/title>/, `<title>Latest Filings - ${DateTime.fromJSDate(now, { zone: NEW_YORK }).toFormat('ccc, dd LLL yyyy HH:mm:ss ZZZZ')}</title>`)
      .replace(/<updated>[^<]*<\/updated>/, `<updated>${feedTime(now)}</updated>`);
    const entries: string[] = [];
    for (const { filing, at } of [...this.released].reverse()) {
      const updated = filing.filedAt ?? at;
      for (const [template, party, role] of [
        [reporting, filing.owner, 'Reporting'],
        [issuer, filing.issuer, 'Issuer'],
      ] as const) {
        entries.push(
          template
            .replace(/<title>[^<]*<\/title>/, `<title>${xmlEscape(`${filing.formType} - ${party.name} (${party.cik}) (${role})`)}</title>`)
            .replace(/href="[^"]*"/, `href="${filingIndexUrl(party.cik, filing.accession)}"`)
            .replace(
              /Filed:&lt;\/b&gt; [\d-]+ &lt;b&gt;AccNo:&lt;\/b&gt; [\d-]+ &lt;b&gt;Size:&lt;\/b&gt; \d+ KB/,
              `Filed:&lt;/b&gt; ${DateTime.fromJSDate(updated, { zone: NEW_YORK }).toISODate()} &lt;b&gt;AccNo:&lt;/b&gt; ${filing.accession} &lt;b&gt;Size:&lt;/b&gt; ${Math.max(1, Math.round(filing.bytes / 1024))} KB`,
            )
            .replace(/<updated>[^<]*<\/updated>/, `<updated>${feedTime(updated)}</updated>`)
            .replace(/term="[^"]*"/, `term="${xmlEscape(filing.formType)}"`)
            .replace(/accession-number=[\d-]+/, `accession-number=${filing.accession}`),
        );
      }
    }
    const page = entries.slice(start, start + CURRENT_FEED_PAGE_SIZE);
    return `${header}${page.join('\n')}${page.length ? '\n' : ''}</feed>\n`;
  }

  async dailyFormIndex(day: string): Promise<string | null> {
    return day === INSIDERS_REPLAY_FILES.formIndexDay ? this.read(INSIDERS_REPLAY_FILES.formIndex) : null;
  }

  async filing(_cik: string, accession: string): Promise<string> {
    const filing = this.filings().find((f) => f.accession === accession);
    if (!filing) throw new EdgarFetchError(`replay: filing ${accession} is not among the recordings`, 404);
    return filing.text();
  }

  async companyTickers(): Promise<string> {
    return this.read(INSIDERS_REPLAY_FILES.tickers);
  }

  async submissions(cik: string): Promise<string> {
    if (cik.padStart(10, '0') !== INSIDERS_REPLAY_FILES.submissionsCik) throw new EdgarFetchError(`replay: no recorded submissions for CIK ${cik}`, 404);
    return this.read(INSIDERS_REPLAY_FILES.submissions);
  }

  dataSourceOf(accession: string): InsiderSourceTag {
    return this.filings().find((f) => f.accession === accession)?.tag ?? 'sec-replay';
  }
}
