// HTTP shapes of the news domain: GET /api/markets/:symbol/news. Plain types and constants with no
// runtime imports (the web imports this file as `@tickerbell/jobs/news/shapes`). Meanings in docs/news.md.

/** What in an item tied it to a market. */
export const NEWS_MATCH_KINDS = ['ticker', 'cashtag', 'name', 'cik'] as const;
export type NewsMatchKind = (typeof NEWS_MATCH_KINDS)[number];

/** Page size of a market's news: default and most. */
export const NEWS_PAGE_SIZE = { default: 20, max: 100 } as const;

export interface NewsItemView {
  id: number;
  /** The source's name, as on the status page (`feed:www.coindesk.com/arc/outboundfeeds/rss`, `sec-edgar`). */
  source: string;
  title: string;
  link: string;
  summary: string | null;
  /** ISO instants (UTC). */
  publishedAt: string;
  fetchedAt: string;
  /** Filings only. */
  formType: string | null;
  cik: string | null;
  company: string | null;
  matchedBy: NewsMatchKind;
}

export interface MarketNewsPage {
  symbol: string;
  /** Newest first. */
  items: NewsItemView[];
  page: number;
  limit: number;
  total: number;
}

/**
 * The answer of GET /api/markets/:symbol/news: the page, and whether it comes from recordings.
 * `replay` is true when a source of the items on the page was last read from its recordings (the
 * offline mode, `kind: replay` in its source_health details), so screens can say so.
 */
export interface MarketNewsAnswer extends MarketNewsPage {
  replay: boolean;
}
