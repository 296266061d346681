import { EdgarFetchError, type EdgarHttpClient } from '../sources/sec-edgar.client';
import { SEC_ARCHIVES_URL, dailyFormIndexUrl, filingTextUrl } from './edgar-index.parse';

/** The label of stored rows: EDGAR live, a recorded filing (offline), or a simulated variant of one (offline demo). */
export type InsiderSourceTag = 'sec' | 'sec-replay' | 'simulated';

export const SEC_WWW_URL = 'https://www.sec.gov';
export const SEC_DATA_URL = 'https://data.sec.gov';
/** Entries per page of the current-filings feed (EDGAR's largest; each Form 4 is listed twice, issuer and owner). */
export const CURRENT_FEED_PAGE_SIZE = 100;

/**
 * Where insider filings come from: EDGAR through the shared fair-access client, or its replay twin
 * (insiders-replay.ts). Each answer is the document's text, parsed by the pure parsers.
 */
export interface InsidersSource {
  readonly kind: 'live' | 'replay';
  /** The current-filings Atom feed of form type 4 (newest first), one page of 100 entries from `start`. */
  currentFilings(start?: number): Promise<string>;
  /** The daily form index (form.YYYYMMDD.idx) of a day, or null when EDGAR has none that day (a weekend or holiday: 404). */
  dailyFormIndex(day: string): Promise<string | null>;
  /** A filing's full submission text (any filer's CIK finds it). */
  filing(cik: string, accession: string): Promise<string>;
  /** company_tickers.json. */
  companyTickers(): Promise<string>;
  /** A company's submissions JSON (data.sec.gov/submissions/CIK##########.json). */
  submissions(cik: string): Promise<string>;
  /** How rows of this filing are labelled (data_source). */
  dataSourceOf(accession: string): InsiderSourceTag;
}

/** The getcurrent URL of Form 4 filings, as Atom, from entry `start`. */
export function currentFilingsUrl(wwwUrl: string, start = 0): string {
  const url = new URL(`${wwwUrl}/cgi-bin/browse-edgar`);
  const params = { action: 'getcurrent', type: '4', company: '', dateb: '', owner: 'include', start: String(start), count: String(CURRENT_FEED_PAGE_SIZE), output: 'atom' };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

export function companyTickersUrl(wwwUrl: string): string {
  return `${wwwUrl}/files/company_tickers.json`;
}

export function submissionsUrl(dataUrl: string, cik: string): string {
  return `${dataUrl}/submissions/CIK${cik.padStart(10, '0')}.json`;
}

/** The parsers' URLs name www.sec.gov: served from another base (a stand-in, a mirror) when configured. */
function rebase(url: string, wwwUrl: string): string {
  return url.startsWith(SEC_ARCHIVES_URL) ? `${wwwUrl}/Archives/edgar${url.slice(SEC_ARCHIVES_URL.length)}` : url;
}

/** EDGAR over HTTP: every request through EdgarHttpClient (User-Agent, the cluster's 10 requests/s, backoff on 403/429/5xx). */
export class InsidersLiveSource implements InsidersSource {
  readonly kind = 'live';
  private readonly wwwUrl: string;
  private readonly dataUrl: string;

  constructor(
    private readonly http: EdgarHttpClient,
    options: { wwwUrl?: string; dataUrl?: string } = {},
  ) {
    this.wwwUrl = (options.wwwUrl ?? SEC_WWW_URL).replace(/\/+$/, '');
    this.dataUrl = (options.dataUrl ?? SEC_DATA_URL).replace(/\/+$/, '');
  }

  currentFilings(start = 0): Promise<string> {
    return this.http.getText(currentFilingsUrl(this.wwwUrl, start));
  }

  async dailyFormIndex(day: string): Promise<string | null> {
    try {
      return await this.http.getText(rebase(dailyFormIndexUrl(day), this.wwwUrl), 'text/plain, */*');
    } catch (error) {
      // No index that day: EDGAR was closed (weekend, federal holiday).
      if (error instanceof EdgarFetchError && error.status === 404) return null;
      throw error;
    }
  }

  filing(cik: string, accession: string): Promise<string> {
    return this.http.getText(rebase(filingTextUrl(cik, accession), this.wwwUrl), 'text/plain, application/xml, */*');
  }

  companyTickers(): Promise<string> {
    return this.http.getText(companyTickersUrl(this.wwwUrl), 'application/json');
  }

  submissions(cik: string): Promise<string> {
    return this.http.getText(submissionsUrl(this.dataUrl, cik), 'application/json');
  }

  dataSourceOf(): InsiderSourceTag {
    return 'sec';
  }
}
