// A market's news: GET /api/markets/:symbol/news (docs/news.md), newest first and paged, parsed
// into @tickerbell/jobs/news/shapes. Also the small formatting the news column needs.
import { NEWS_MATCH_KINDS, type MarketNewsAnswer, type NewsItemView, type NewsMatchKind } from '@tickerbell/jobs/news/shapes';
import { apiRequest, isRecord } from '../api/client';

/** Items a page of the column asks for (the api allows up to NEWS_PAGE_SIZE.max). */
export const NEWS_COLUMN_PAGE = 10;

function fail(where: string, expected: string): never {
  throw new TypeError(`Unexpected news answer: ${where} should be ${expected}`);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'text');
  return value;
}

function textOrNull(value: unknown, where: string): string | null {
  if (value === null || value === undefined) return null;
  return text(value, where);
}

function instant(value: unknown, where: string): string {
  const iso = text(value, where);
  if (!Number.isFinite(Date.parse(iso))) fail(where, 'an ISO instant');
  return iso;
}

function isMatchKind(value: unknown): value is NewsMatchKind {
  return (NEWS_MATCH_KINDS as readonly unknown[]).includes(value);
}

function parseItem(value: unknown, index: number): NewsItemView {
  const where = `items[${index}]`;
  if (!isRecord(value)) fail(where, 'an object');
  if (typeof value.id !== 'number') fail(`${where}.id`, 'a number');
  if (!isMatchKind(value.matchedBy)) fail(`${where}.matchedBy`, NEWS_MATCH_KINDS.join(', '));
  return {
    id: value.id,
    source: text(value.source, `${where}.source`),
    title: text(value.title, `${where}.title`),
    link: text(value.link, `${where}.link`),
    summary: textOrNull(value.summary, `${where}.summary`),
    publishedAt: instant(value.publishedAt, `${where}.publishedAt`),
    fetchedAt: instant(value.fetchedAt, `${where}.fetchedAt`),
    formType: textOrNull(value.formType, `${where}.formType`),
    cik: textOrNull(value.cik, `${where}.cik`),
    company: textOrNull(value.company, `${where}.company`),
    matchedBy: value.matchedBy,
  };
}

export function parseMarketNews(body: unknown): MarketNewsAnswer {
  if (!isRecord(body) || !Array.isArray(body.items)) fail('news', '{ symbol, items: [...], page, limit, total }');
  const { symbol, page, limit, total } = body;
  if (typeof page !== 'number' || typeof limit !== 'number' || typeof total !== 'number') fail('page, limit, total', 'numbers');
  return {
    symbol: text(symbol, 'symbol'),
    items: body.items.map(parseItem),
    page,
    limit,
    total,
    // Only the api says the items are recorded; an older api without the field is not guessed at.
    replay: body.replay === true,
  };
}

export function marketNewsPath(symbol: string, page: number, limit = NEWS_COLUMN_PAGE): string {
  return `/api/markets/${encodeURIComponent(symbol)}/news?page=${page}&limit=${limit}`;
}

export function getMarketNews(symbol: string, page: number, signal?: AbortSignal): Promise<MarketNewsAnswer> {
  return apiRequest(marketNewsPath(symbol, page), { signal, parse: parseMarketNews });
}

// ---- Formatting ----

/** How the column names a source: the feed's host (`www.coindesk.com` is "coindesk.com"), the SEC's filings as "SEC filings". */
export function sourceLabel(source: string): string {
  if (source === 'sec-edgar') return 'SEC filings';
  if (source.startsWith('feed:')) {
    const host = source.slice('feed:'.length).split('/')[0] ?? '';
    return host.replace(/^www\./, '') || source;
  }
  return source;
}

export const MATCH_LABELS: Readonly<Record<NewsMatchKind, string>> = {
  ticker: 'Ticker',
  cashtag: 'Cashtag',
  name: 'Name',
  cik: 'CIK',
};

export const MATCH_HINTS: Readonly<Record<NewsMatchKind, string>> = {
  ticker: 'The item names the ticker',
  cashtag: 'The item names the cashtag',
  name: 'The item names the company or coin',
  cik: 'A filing by this company (its SEC CIK)',
};

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const ABSOLUTE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** "5 minutes ago", "yesterday", "3 weeks ago": how long before `now` the instant was. */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3_600) return RELATIVE.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return RELATIVE.format(Math.round(seconds / 3_600), 'hour');
  if (abs < 7 * 86_400) return RELATIVE.format(Math.round(seconds / 86_400), 'day');
  if (abs < 30 * 86_400) return RELATIVE.format(Math.round(seconds / (7 * 86_400)), 'week');
  if (abs < 365 * 86_400) return RELATIVE.format(Math.round(seconds / (30 * 86_400)), 'month');
  return RELATIVE.format(Math.round(seconds / (365 * 86_400)), 'year');
}

/** "12 Dec 2025, 21:59 UTC". */
export function absoluteTime(iso: string): string {
  return `${ABSOLUTE.format(new Date(iso))} UTC`;
}
