// A fake of GET /api/markets/:symbol/news (api/src/news/news.routes.ts): pages of the items a test
// stores per symbol, newest first, in the shapes of @tickerbell/jobs/news/shapes. The headlines are
// real ones from the recorded feeds (jobs/src/news/data).
import type { MarketNewsAnswer, NewsItemView } from '@tickerbell/jobs/news/shapes';
import { apiError } from './accounts-api';
import type { FakeReply } from './fake-fetch';

/** Real items of the recorded CoinDesk and Decrypt feeds and of an EDGAR page, as the api answers them. */
export const RECORDED_NEWS: readonly NewsItemView[] = [
  {
    id: 101,
    source: 'feed:decrypt.co/feed',
    title: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading",
    link: 'https://decrypt.co/352201/vanguard-exec-calls-bitcoin-digital-labubu-firm-offers-crypto-etf-trading',
    summary: 'The Vanguard equity head dismissed Bitcoin as speculative, though the firm still expanded client access to crypto ETFs.',
    publishedAt: '2025-12-12T21:59:32.000Z',
    fetchedAt: '2025-12-12T22:10:00.000Z',
    formType: null,
    cik: null,
    company: null,
    matchedBy: 'name',
  },
  {
    id: 102,
    source: 'feed:www.coindesk.com/arc/outboundfeeds/rss',
    title: 'Bitcoin Plunges Below $90K as AI Worries Drag Nasdaq, Crypto Stocks Down',
    link: 'https://www.coindesk.com/markets/2025/12/12/bitcoin-plunges-below-usd90k-as-ai-worries-drag-nasdaq-crypto-stocks-down',
    summary: null,
    publishedAt: '2025-12-12T16:04:27.000Z',
    fetchedAt: '2025-12-13T08:00:00.000Z',
    formType: null,
    cik: null,
    company: null,
    matchedBy: 'name',
  },
  {
    id: 103,
    source: 'feed:www.coindesk.com/arc/outboundfeeds/rss',
    title: "Bitcoin's Volatility Meltdown: Crypto Daybook Americas",
    link: 'https://www.coindesk.com/daybook-us/2025/12/12/bitcoin-s-volatility-meltdown-crypto-daybook-americas',
    summary: null,
    publishedAt: '2025-12-12T12:15:00.000Z',
    fetchedAt: '2025-12-13T08:00:00.000Z',
    formType: null,
    cik: null,
    company: null,
    matchedBy: 'name',
  },
];

/** `count` items for paging tests: the recorded ones, then copies an hour older each. */
export function manyNewsItems(count: number): NewsItemView[] {
  return Array.from({ length: count }, (_, i) => {
    const base = RECORDED_NEWS[i % RECORDED_NEWS.length] as NewsItemView;
    if (i < RECORDED_NEWS.length) return base;
    return { ...base, id: 1000 + i, title: `${base.title} (${i + 1})`, publishedAt: new Date(Date.parse(base.publishedAt) - i * 3_600_000).toISOString() };
  });
}

export interface NewsFake {
  /** Items per symbol, newest first (the api's order). */
  news: Map<string, NewsItemView[]>;
  /** What the answers say in `replay`. */
  replay: boolean;
  /** The news paths asked for, in order. */
  requests: string[];
  /** Answers a news request, or undefined for any other path. */
  answer(url: string): FakeReply | undefined;
}

export function newsFake(init: { news?: Record<string, NewsItemView[]>; replay?: boolean } = {}): NewsFake {
  const fake: NewsFake = {
    news: new Map(Object.entries(init.news ?? {})),
    replay: init.replay ?? false,
    requests: [],
    answer: (url) => {
      const [path = '', query = ''] = url.split('?');
      const match = /^\/api\/markets\/([^/]+)\/news$/.exec(path);
      if (!match) return undefined;
      fake.requests.push(url);
      const symbol = decodeURIComponent(match[1] ?? '').toUpperCase();
      const params = new URLSearchParams(query);
      const page = Number(params.get('page') ?? 1);
      const limit = Number(params.get('limit') ?? 20);
      const items = fake.news.get(symbol);
      if (!items) return apiError(404, 'not_found', `No market ${symbol}`);
      const shown = items.slice((page - 1) * limit, page * limit);
      const body: MarketNewsAnswer = { symbol, items: shown, page, limit, total: items.length, replay: fake.replay && shown.length > 0 };
      return { status: 200, body };
    },
  };
  return fake;
}
