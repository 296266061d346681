import { EdgarFetchError, type EdgarHttpClient } from '../sources/sec-edgar.client';
import { SEC_ARCHIVES_URL, dailyFormIndexUrl, filingTextUrl, normalizeCik } from '../insiders/edgar-index.parse';
import { SEC_DATA_URL, SEC_WWW_URL, submissionsUrl } from '../insiders/insiders-sec.client';

/** The label of stored events: EDGAR live, a recorded prospectus (offline), or a simulated variant of one (offline demo). */
export type LockupSourceTag = 'sec' | 'sec-replay' | 'simulated';

/** EDGAR full-text search. */
export const SEC_EFTS_URL = 'https://efts.sec.gov/LATEST';

/**
 * Where prospectuses come from: EDGAR through the shared fair-access client (its User-Agent, the
 * cluster's 10 requests/s), or its replay twin (lockups-replay.ts). Each answer is the document's
 * text, read by the pure parsers (edgar-search.parse.ts, prospectus.parse.ts, company-facts.parse.ts).
 */
export interface LockupsSource {
  readonly kind: 'live' | 'replay';
  /** The daily form index (form.YYYYMMDD.idx) of a day, or null when EDGAR has none (a weekend or holiday: 404). */
  dailyFormIndex(day: string): Promise<string | null>;
  /** EDGAR full-text search (efts JSON text) for `query` in `forms` filed from..to (YYYY-MM-DD). */
  fullTextSearch(q: { query: string; forms: string[]; from: string; to: string }): Promise<string>;
  /** The filing's full submission text (the 424B4 document HTML inside it; parseProspectus picks it out). */
  prospectus(cik: string, accession: string): Promise<string>;
  /** A company's XBRL company facts JSON, or null when EDGAR has none (404: a new filer). */
  companyFacts(cik: string): Promise<string | null>;
  /** A company's submissions JSON (its SIC industry), or null when EDGAR has none (404). */
  submissions(cik: string): Promise<string | null>;
  /** How events read from this filing are labelled (data_source). */
  dataSourceOf(accession: string): LockupSourceTag;
}

/** efts search-index URL: the query (quoted words are a phrase), forms comma-separated, a custom date range. */
export function fullTextSearchUrl(eftsUrl: string, q: { query: string; forms: string[]; from: string; to: string }): string {
  const url = new URL(`${eftsUrl}/search-index`);
  url.searchParams.set('q', q.query);
  if (q.forms.length) url.searchParams.set('forms', q.forms.join(','));
  url.searchParams.set('dateRange', 'custom');
  url.searchParams.set('startdt', q.from);
  url.searchParams.set('enddt', q.to);
  return url.toString();
}

export function companyFactsUrl(dataUrl: string, cik: string): string {
  return `${dataUrl}/api/xbrl/companyfacts/CIK${normalizeCik(cik)}.json`;
}

/** The parsers' URLs name www.sec.gov: served from another base (a stand-in, a mirror) when configured. */
function rebase(url: string, wwwUrl: string): string {
  return url.startsWith(SEC_ARCHIVES_URL) ? `${wwwUrl}/Archives/edgar${url.slice(SEC_ARCHIVES_URL.length)}` : url;
}

async function nullOn404(request: Promise<string>): Promise<string | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof EdgarFetchError && error.status === 404) return null;
    throw error;
  }
}

/** EDGAR over HTTP: every request through EdgarHttpClient (User-Agent, the cluster's 10 requests/s, backoff on 403/429/5xx). */
export class LockupsLiveSource implements LockupsSource {
  readonly kind = 'live';
  private readonly wwwUrl: string;
  private readonly dataUrl: string;
  private readonly eftsUrl: string;

  constructor(
    private readonly http: EdgarHttpClient,
    options: { wwwUrl?: string; dataUrl?: string; eftsUrl?: string } = {},
  ) {
    this.wwwUrl = (options.wwwUrl ?? SEC_WWW_URL).replace(/\/+$/, '');
    this.dataUrl = (options.dataUrl ?? SEC_DATA_URL).replace(/\/+$/, '');
    this.eftsUrl = (options.eftsUrl ?? SEC_EFTS_URL).replace(/\/+$/, '');
  }

  dailyFormIndex(day: string): Promise<string | null> {
    // No index that day: EDGAR was closed (weekend, federal holiday).
    return nullOn404(this.http.getText(rebase(dailyFormIndexUrl(day), this.wwwUrl), 'text/plain, */*'));
  }

  fullTextSearch(q: { query: string; forms: string[]; from: string; to: string }): Promise<string> {
    return this.http.getText(fullTextSearchUrl(this.eftsUrl, q), 'application/json');
  }

  prospectus(cik: string, accession: string): Promise<string> {
    return this.http.getText(rebase(filingTextUrl(cik, accession), this.wwwUrl), 'text/plain, text/html, */*');
  }

  companyFacts(cik: string): Promise<string | null> {
    return nullOn404(this.http.getText(companyFactsUrl(this.dataUrl, cik), 'application/json'));
  }

  submissions(cik: string): Promise<string | null> {
    return nullOn404(this.http.getText(submissionsUrl(this.dataUrl, normalizeCik(cik)), 'application/json'));
  }

  dataSourceOf(): LockupSourceTag {
    return 'sec';
  }
}
