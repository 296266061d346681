import Redis from 'ioredis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { EdgarFetchError, EdgarHttpClient } from '../../src/sources/sec-edgar.client';
import { FeedLiveSource, FeedReplaySource, NewsFetchError, feedSourceName, type NewsSource } from '../../src/news/feeds.client';
import { EdgarFilingsLiveSource, EdgarFilingsReplaySource, edgarCurrentUrl } from '../../src/news/edgar-filings.client';
import { NewsParseError } from '../../src/news/news-feed.parse';
import { fixture, startNewsStandIn, type NewsStandIn } from './news-stand-in';

let http: NewsStandIn;
const redis = new Redis(testRedisUrl());
const prefix = testQueuePrefix();
const UA = 'Tickerbell tests ops@example.com';
const edgarHttp = (overrides: { requestsPerSecond?: number } = {}) => new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: prefix, timeoutMs: 2000, ...overrides });

beforeAll(async () => {
  http = await startNewsStandIn();
});
afterAll(async () => {
  await http.close();
  redis.disconnect();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
});

const FEEDS = [
  { origin: 'https://www.coindesk.com/arc/outboundfeeds/rss', path: '/arc/outboundfeeds/rss', file: 'coindesk-rss-2025-12-13.xml', items: 25, first: 'Citadel Securities and DeFi Waging War of Words Through SEC Correspondence' },
  { origin: 'https://cointelegraph.com/rss', path: '/rss', file: 'cointelegraph-rss-2025-12-12.xml', items: 30, first: 'Figure Technology files ‘second IPO’ to bring native equity issuance to Solana' },
  { origin: 'https://decrypt.co/feed', path: '/feed', file: 'decrypt-feed-2025-12-12.xml', items: 58, first: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading" },
];

// Every feed source passes the same suite on the same recorded files.
describe.each(FEEDS)('feed source contract: $file', (feed) => {
  it.each([
    ['live (local stand-in)', () => new FeedLiveSource(`${http.base}${feed.path}`, { userAgent: UA })],
    ['replay (recorded file)', () => new FeedReplaySource(feed.origin, fixture(feed.file))],
  ])('%s serves every recorded item', async (_name, make: () => NewsSource) => {
    const fetched = await make().fetch();
    expect(fetched.items).toHaveLength(feed.items);
    expect(fetched.skipped).toBe(0);
    expect(fetched.items[0].title).toBe(feed.first);
  });
});

describe.each([
  ['live (local stand-in, two pages)', () => new EdgarFilingsLiveSource(edgarHttp(), { baseUrl: `${http.base}/cgi-bin/browse-edgar`, pages: 2 })],
  ['replay (the recorded pages)', () => new EdgarFilingsReplaySource([fixture('edgar-getcurrent-all-forms-start0-2026-01-12.atom.xml'), fixture('edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml')])],
])('EDGAR current filings contract: %s', (_name, make: () => NewsSource) => {
  it('serves both pages: 200 filings, 64 of them 8-K or 8-K/A, each with its CIK', async () => {
    const fetched = await make().fetch();
    expect(fetched.items).toHaveLength(200);
    expect(fetched.items.filter((i) => i.formType === '8-K' || i.formType === '8-K/A')).toHaveLength(64);
    expect(fetched.items.every((i) => /^\d{10}$/.test(i.cik ?? ''))).toBe(true);
    expect(make().name).toBe('sec-edgar');
  });
});

describe('feed live client', () => {
  it('names a feed by its host and path, short enough for source_health', () => {
    expect(feedSourceName('https://www.coindesk.com/arc/outboundfeeds/rss')).toBe('feed:www.coindesk.com/arc/outboundfeeds/rss');
    const long = feedSourceName(`https://news.example.org/${'section/'.repeat(10)}rss.xml`);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long).toMatch(/^feed:news\.example\.org#[0-9a-f]{8}$/);
  });

  it('fails with a parse error on an HTML page, a fetch error on a timeout or an HTTP error', async () => {
    await expect(new FeedLiveSource(`${http.base}/html`).fetch()).rejects.toThrow(NewsParseError);
    await expect(new FeedLiveSource(`${http.base}/hang`, { timeoutMs: 200 }).fetch()).rejects.toThrow(new NewsFetchError(`GET ${http.base}/hang: no answer within 200 ms`));
    await expect(new FeedLiveSource(`${http.base}/missing`).fetch()).rejects.toThrow(/HTTP 404/);
  });
});

describe('EDGAR fair-access client', () => {
  it('sends the configured User-Agent and asks for the Atom getcurrent page', async () => {
    http.requests.length = 0;
    await edgarHttp().getText(edgarCurrentUrl(`${http.base}/cgi-bin/browse-edgar`, 0));
    expect(http.requests[0].headers['user-agent']).toBe(UA);
    expect(Object.fromEntries(new URL(http.requests[0].url, http.base).searchParams)).toEqual({
      action: 'getcurrent',
      count: '100',
      start: '0',
      type: '',
      owner: 'include',
      output: 'atom',
    });
  });

  it('backs the whole cluster off after a 429, for as long as Retry-After says', async () => {
    const own = testQueuePrefix();
    const first = new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: own });
    const other = new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: own });
    await expect(first.getText(`${http.base}/refusing/cgi-bin/browse-edgar`)).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
    http.requests.length = 0;
    // Another process sharing the Redis does not even ask.
    const refused = other.getText(edgarCurrentUrl(`${http.base}/cgi-bin/browse-edgar`, 0));
    await expect(refused).rejects.toThrow(EdgarFetchError);
    await expect(refused).rejects.toThrow(/backing off, retry in 1[12]\d s/);
    expect(http.requests).toHaveLength(0);
    await deleteKeysWithPrefix(testRedisUrl(), own);
  });

  it('backs off after a 5xx too', async () => {
    const own = testQueuePrefix();
    const client = new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: own });
    await expect(client.getText(`${http.base}/down/cgi-bin/browse-edgar`)).rejects.toMatchObject({ status: 503, retryAfterMs: 30_000 });
    await expect(client.getText(`${http.base}/down/cgi-bin/browse-edgar`)).rejects.toThrow(/backing off/);
    await deleteKeysWithPrefix(testRedisUrl(), own);
  });

  it('shares one request budget between processes through Redis', async () => {
    const own = testQueuePrefix();
    // 2 requests/s for the cluster: one per fixed one-second window, so no rolling second sees more than 2.
    const a = new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: own, requestsPerSecond: 2 });
    const b = new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: own, requestsPerSecond: 2 });
    const url = edgarCurrentUrl(`${http.base}/cgi-bin/browse-edgar`, 0);
    http.requests.length = 0;
    await Promise.all([a.getText(url), b.getText(url), a.getText(url)]);
    const times = http.requests.map((r) => r.at).sort((x, y) => x - y);
    expect(times).toHaveLength(3);
    for (let i = 2; i < times.length; i++) expect(times[i] - times[i - 2]).toBeGreaterThanOrEqual(900);
    await deleteKeysWithPrefix(testRedisUrl(), own);
  });
});
