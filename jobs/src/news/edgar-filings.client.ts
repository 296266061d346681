import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { EdgarHttpClient } from '../sources/sec-edgar.client';
import type { NewsFetch, NewsSource } from './feeds.client';
import { parseNewsFeed, type ParsedNewsItem } from './news-feed.parse';

/** The source name of the SEC's current filings in source_health and on news_items. */
export const EDGAR_FILINGS_SOURCE = 'sec-edgar';
/** EDGAR's "Latest Filings" (getcurrent) endpoint. */
export const EDGAR_BROWSE_URL = 'https://www.sec.gov/cgi-bin/browse-edgar';
/** Entries per getcurrent page (EDGAR's largest). */
export const EDGAR_PAGE_SIZE = 100;

/** The URL of one page of the current filings, every form type, as Atom. */
export function edgarCurrentUrl(baseUrl: string, start: number): string {
  const url = new URL(baseUrl);
  for (const [key, value] of Object.entries({ action: 'getcurrent', count: String(EDGAR_PAGE_SIZE), start: String(start), type: '', owner: 'include', output: 'atom' })) {
    url.searchParams.set(key, value);
  }
  return url.toString();
}

function merge(pages: { items: ParsedNewsItem[]; skipped: number }[], url: string): NewsFetch {
  return { format: 'atom', title: 'EDGAR current filings', items: pages.flatMap((p) => p.items), skipped: pages.reduce((n, p) => n + p.skipped, 0), url };
}

/** The SEC's current filings (all forms, newest first), `pages` pages of 100, through the shared fair-access client. */
export class EdgarFilingsLiveSource implements NewsSource {
  readonly kind = 'live';
  readonly name = EDGAR_FILINGS_SOURCE;

  constructor(
    private readonly http: EdgarHttpClient,
    private readonly options: { baseUrl?: string; pages?: number } = {},
  ) {}

  async fetch(): Promise<NewsFetch> {
    const baseUrl = this.options.baseUrl ?? EDGAR_BROWSE_URL;
    const pages = [];
    for (let page = 0; page < (this.options.pages ?? 1); page++) {
      const url = edgarCurrentUrl(baseUrl, page * EDGAR_PAGE_SIZE);
      const parsed = parseNewsFeed(await this.http.getText(url), { baseUrl: url });
      pages.push(parsed);
      // A short page is the last one.
      if (parsed.items.length + parsed.skipped < EDGAR_PAGE_SIZE) break;
    }
    return merge(pages, edgarCurrentUrl(baseUrl, 0));
  }
}

/** Recorded getcurrent pages served as if live (the offline mode). */
export class EdgarFilingsReplaySource implements NewsSource {
  readonly kind = 'replay';
  readonly name = EDGAR_FILINGS_SOURCE;

  constructor(private readonly files: readonly string[]) {}

  async fetch(): Promise<NewsFetch> {
    // The recorded pages are ASCII in an ISO-8859-1 declared document.
    const pages = await Promise.all(this.files.map(async (file) => parseNewsFeed(await readFile(file, 'latin1'), { baseUrl: EDGAR_BROWSE_URL })));
    return merge(pages, `replay:${this.files.map((f) => basename(f)).join(',')}`);
  }
}
