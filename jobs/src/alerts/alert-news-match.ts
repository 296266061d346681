import type { NewsCondition } from './alerts.shapes';

/**
 * Which news items a news alert admits, and its messages (docs/alerts.md, "News conditions"). Pure:
 * the news poll has already decided which market an item is about; this only applies the alert's
 * scope and keywords.
 */

/** A news item as the news alerts read it. */
export interface NewsAlertItem {
  id: number;
  source: string;
  title: string;
  link: string | null;
  summary: string | null;
  publishedAt: Date;
  /** Set for SEC filings (8-K, 4, ...), null for feed items. */
  formType: string | null;
}

// A keyword is a whole word (or phrase): no letter or digit right before or after it.
const keywordPatterns = new Map<string, RegExp>();

function keywordPattern(keyword: string): RegExp {
  let pattern = keywordPatterns.get(keyword);
  if (!pattern) {
    const escaped = keyword.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
    if (keywordPatterns.size > 10_000) keywordPatterns.clear();
    keywordPatterns.set(keyword, pattern);
  }
  return pattern;
}

/** Whether `text` names `keyword` as a whole word, in any case ("ETF" is in "an ETF's", not in "ETFs"). */
export function namesKeyword(text: string, keyword: string): boolean {
  return keywordPattern(keyword).test(text);
}

/** Whether a news alert hears of an item already linked to its market. */
export function newsItemAdmitted(condition: NewsCondition, item: Pick<NewsAlertItem, 'title' | 'summary' | 'formType'>): boolean {
  switch (condition.scope) {
    case 'any':
      return true;
    case 'filings':
      return item.formType !== null;
    case 'keywords':
      return (condition.keywords ?? []).some((k) => namesKeyword(item.title, k) || (item.summary !== null && namesKeyword(item.summary, k)));
  }
}

/** The source as a reader knows it: "SEC EDGAR", or the feed's host ("decrypt.co"). */
export function newsSourceLabel(source: string): string {
  if (source === 'sec-edgar') return 'SEC EDGAR';
  return source.replace(/^feed:/, '').split('/')[0];
}

/** "2025-12-12 21:59 UTC" */
function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The message of a firing on one item: the headline, source, time and link. */
export function newsAlertMessage(symbol: string, item: NewsAlertItem): string {
  const kind = item.formType ? `${item.formType} filing` : 'News';
  const link = item.link ? ` ${item.link}` : '';
  return `${kind} on ${symbol}: "${item.title}" (${newsSourceLabel(item.source)}, ${utcMinute(item.publishedAt)})${link}`;
}

/** At most this many headlines in a digest's message (the details list them all). */
export const DIGEST_MESSAGE_ITEMS = 10;

/** A digest's message: how many items, then the newest headlines, one per line. */
export function newsDigestMessage(symbol: string, hourStart: Date, items: readonly NewsAlertItem[]): string {
  const lines = items
    .slice(0, DIGEST_MESSAGE_ITEMS)
    .map((item) => `- ${item.title} (${newsSourceLabel(item.source)}, ${utcMinute(item.publishedAt)})${item.link ? ` ${item.link}` : ''}`);
  const more = items.length > DIGEST_MESSAGE_ITEMS ? [`and ${items.length - DIGEST_MESSAGE_ITEMS} more`] : [];
  const hour = `${hourStart.toISOString().slice(0, 13).replace('T', ' ')}:00 UTC`;
  return [`${items.length} news item${items.length === 1 ? '' : 's'} on ${symbol} in the hour from ${hour}:`, ...lines, ...more].join('\n');
}
