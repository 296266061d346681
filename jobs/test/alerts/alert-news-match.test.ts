import { alertConditionInputSchema } from '../../src/alerts/alert-input';
import { namesKeyword, newsAlertMessage, newsDigestMessage, newsItemAdmitted, type NewsAlertItem } from '../../src/alerts/alert-news-match';
import type { NewsCondition } from '../../src/alerts/alerts.shapes';

const item = (over: Partial<NewsAlertItem> = {}): NewsAlertItem => ({
  id: 1,
  source: 'feed:decrypt.co/feed',
  title: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading",
  link: 'https://decrypt.co/352345/vanguard-exec-bitcoin-digital-labubu',
  summary: 'The Vanguard equity head dismissed Bitcoin as speculative.',
  publishedAt: new Date('2025-12-12T21:59:32Z'),
  formType: null,
  ...over,
});
const keywords = (...words: string[]): NewsCondition => ({ type: 'news', scope: 'keywords', keywords: words, digest: false });

describe('news alert matching (pure)', () => {
  it('matches keywords as whole words in any case, in the title or the summary', () => {
    expect(newsItemAdmitted(keywords('labubu'), item())).toBe(true);
    expect(newsItemAdmitted(keywords('SPECULATIVE'), item())).toBe(true);
    expect(newsItemAdmitted(keywords('digital labubu'), item())).toBe(true);
    expect(newsItemAdmitted(keywords('ETFs', 'halving'), item())).toBe(false);
  });

  it('never matches a keyword inside a longer word', () => {
    expect(namesKeyword('Bitcoiners rally', 'bitcoin')).toBe(false);
    expect(namesKeyword('the ETFs', 'ETF')).toBe(false);
    expect(namesKeyword('an ETF’s flows', 'etf')).toBe(true);
    expect(namesKeyword('S&P 500 (SPX) slips', 'spx')).toBe(true);
    expect(namesKeyword('Crypto-ETF trading', 'ETF')).toBe(true);
    expect(namesKeyword('price of $1.5', '1.5')).toBe(true);
    expect(namesKeyword('15.5', '5.5')).toBe(false);
  });

  it('scope any takes every item, filings only SEC filings', () => {
    expect(newsItemAdmitted({ type: 'news', scope: 'any', digest: false }, item())).toBe(true);
    expect(newsItemAdmitted({ type: 'news', scope: 'filings', digest: false }, item())).toBe(false);
    expect(newsItemAdmitted({ type: 'news', scope: 'filings', digest: false }, item({ formType: '8-K', source: 'sec-edgar' }))).toBe(true);
  });

  it('writes the headline, source, time and link into the message', () => {
    expect(newsAlertMessage('BTCUSDT', item())).toBe(
      `News on BTCUSDT: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading" (decrypt.co, 2025-12-12 21:59 UTC) https://decrypt.co/352345/vanguard-exec-bitcoin-digital-labubu`,
    );
    expect(newsAlertMessage('UBER', item({ source: 'sec-edgar', formType: '8-K', title: '8-K - Uber Technologies, Inc', link: null }))).toBe(
      '8-K filing on UBER: "8-K - Uber Technologies, Inc" (SEC EDGAR, 2025-12-12 21:59 UTC)',
    );
    const digest = newsDigestMessage('BTCUSDT', new Date('2025-12-12T21:00:00Z'), [item(), item({ id: 2, title: 'Second', link: null })]);
    expect(digest.split('\n')).toEqual([
      '2 news items on BTCUSDT in the hour from 2025-12-12 21:00 UTC:',
      `- Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading (decrypt.co, 2025-12-12 21:59 UTC) https://decrypt.co/352345/vanguard-exec-bitcoin-digital-labubu`,
      '- Second (decrypt.co, 2025-12-12 21:59 UTC)',
    ]);
  });
});

describe('news condition validation', () => {
  const issues = (input: unknown) => {
    const parsed = alertConditionInputSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('fills the defaults: any news, one notification per item', () => {
    expect(alertConditionInputSchema.parse({ type: 'news' })).toEqual({ type: 'news', scope: 'any', digest: false });
    expect(alertConditionInputSchema.parse({ type: 'news', scope: 'keywords', keywords: [' Labubu '], digest: true })).toEqual({
      type: 'news',
      scope: 'keywords',
      keywords: ['Labubu'],
      digest: true,
    });
  });

  it('names the field: keywords required with scope keywords, 1-10 of 2-50 characters, and only there', () => {
    expect(issues({ type: 'news', scope: 'keywords' })).toEqual(['keywords: keywords are required with scope keywords']);
    expect(issues({ type: 'news', scope: 'any', keywords: ['etf'] })).toEqual(['keywords: keywords go with scope keywords only']);
    expect(issues({ type: 'news', scope: 'keywords', keywords: [] })[0]).toMatch(/^keywords: /);
    expect(issues({ type: 'news', scope: 'keywords', keywords: Array(11).fill('etf') })[0]).toMatch(/^keywords: /);
    expect(issues({ type: 'news', scope: 'keywords', keywords: ['x'] })[0]).toMatch(/^keywords\.0: /);
    expect(issues({ type: 'news', scope: 'keywords', keywords: ['x'.repeat(51)] })[0]).toMatch(/^keywords\.0: /);
    expect(issues({ type: 'news', scope: 'headlines' })[0]).toMatch(/^scope: /);
    expect(issues({ type: 'news', extra: 1 })[0]).toMatch(/extra/);
  });
});
