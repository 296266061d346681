import { UnrecoverableError } from 'bullmq';
import Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { ConfigError } from '../../src/config/env';
import { loadProcessConfig } from '../../src/domains';
import { z } from 'zod';
import { fixedClock } from '../../src/runtime/clock';
import { JobQueues } from '../../src/runtime/job-queues';
import { runSeeds } from '../../src/seeds';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { FeedLiveSource, FeedReplaySource } from '../../src/news/feeds.client';
import { EdgarFilingsReplaySource } from '../../src/news/edgar-filings.client';
import { pollNewsSource } from '../../src/news/news-poll';
import { listMarketNews } from '../../src/news/news.store';
import { seedMarketCiks } from '../../src/news/news.seed';
import { createNewsHandlers } from '../../src/news/news.processor';
import { edgarSourceFromConfig, feedSourcesFromConfig, loadNewsConfig } from '../../src/news/news.config';
import { newsJobIds } from '../../src/news/news.jobs';
import { fixture, startNewsStandIn, type NewsStandIn } from './news-stand-in';

const COINTELEGRAPH = () => new FeedReplaySource('https://cointelegraph.com/rss', fixture('cointelegraph-rss-2025-12-12.xml'));
const DECRYPT = () => new FeedReplaySource('https://decrypt.co/feed', fixture('decrypt-feed-2025-12-12.xml'));
const EDGAR = () => new EdgarFilingsReplaySource([fixture('edgar-getcurrent-all-forms-start0-2026-01-12.atom.xml'), fixture('edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml')]);

describe('news polling (PostgreSQL, recorded feeds)', () => {
  let db: TestDatabase;
  let http: NewsStandIn;
  const clock = fixedClock('2025-12-12T22:10:00Z');
  const deps = () => ({ dataSource: db.dataSource, clock });
  const count = async (sql: string, params: unknown[] = []) => Number((await db.dataSource.query(sql, params))[0].n);
  const health = async (source: string) => (await db.dataSource.query('SELECT * FROM source_health WHERE source = $1', [source]))[0];

  beforeAll(async () => {
    db = await createTestDatabase();
    http = await startNewsStandIn();
    await runSeeds(db.dataSource);
    // Companies whose 8-Ks are in the recorded EDGAR page; their CIKs come from the SEC's ticker list.
    await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('UBER', 'Uber Technologies, Inc.', 'stock'), ('MRNA', 'Moderna, Inc.', 'stock')`);
    await db.dataSource.transaction((manager) => seedMarketCiks(manager));
  });
  afterAll(async () => {
    await http.close();
    await db.drop();
  });

  it('the seed gives the US stocks and ETFs their CIK from the SEC ticker list, and nothing else', async () => {
    const rows: { symbol: string; cik: string | null }[] = await db.dataSource.query(
      `SELECT symbol, cik FROM markets WHERE symbol IN ('AAPL', 'TSLA', 'SPY', 'UBER', 'BTCUSDT', 'EURUSD') ORDER BY symbol`,
    );
    expect(rows).toEqual([
      { symbol: 'AAPL', cik: '0000320193' },
      { symbol: 'BTCUSDT', cik: null },
      { symbol: 'EURUSD', cik: null },
      { symbol: 'SPY', cik: '0000884394' },
      { symbol: 'TSLA', cik: '0001318605' },
      { symbol: 'UBER', cik: '0001543151' },
    ]);
  });

  it('stores every item of a feed once, links it to the markets it names, and records the source as healthy', async () => {
    const outcome = await pollNewsSource(deps(), DECRYPT(), { keep: 500 });
    expect(outcome).toEqual({ source: 'feed:decrypt.co/feed', fetched: 58, skipped: 0, added: 58, matches: expect.any(Number), trimmed: 0, linked: expect.objectContaining({ at: clock.now() }) });
    expect(outcome.matches).toBeGreaterThan(20);
    expect(await health('feed:decrypt.co/feed')).toMatchObject({
      consecutive_failures: 0,
      last_success_at: clock.now(),
      last_data_at: new Date('2025-12-12T21:59:32Z'),
      details: { kind: 'replay', items: 58, skipped: 0, url: 'replay:decrypt-feed-2025-12-12.xml' },
    });
    const btc = await listMarketNews(db.dataSource, 'BTCUSDT', { page: 1, limit: 5 });
    expect(btc!.items[0]).toMatchObject({
      source: 'feed:decrypt.co/feed',
      title: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading",
      publishedAt: '2025-12-12T21:59:32.000Z',
      matchedBy: 'name',
    });
  });

  it('adds nothing on a re-poll of the same feed (deduplicated by source and GUID)', async () => {
    const before = await count('SELECT count(*) AS n FROM news_items');
    const links = await count('SELECT count(*) AS n FROM news_item_markets');
    clock.advance(180_000);
    const outcome = await pollNewsSource(deps(), DECRYPT(), { keep: 500 });
    expect(outcome).toMatchObject({ fetched: 58, added: 0, matches: 0, trimmed: 0 });
    expect(await count('SELECT count(*) AS n FROM news_items')).toBe(before);
    expect(await count('SELECT count(*) AS n FROM news_item_markets')).toBe(links);
  });

  it('keeps a bounded history per source: the newest items, with their links', async () => {
    const outcome = await pollNewsSource(deps(), COINTELEGRAPH(), { keep: 10 });
    expect(outcome).toMatchObject({ fetched: 30, added: 30, trimmed: 20 });
    const kept: { published_at: Date }[] = await db.dataSource.query(
      `SELECT published_at FROM news_items WHERE source = 'feed:cointelegraph.com/rss' ORDER BY published_at DESC`,
    );
    expect(kept).toHaveLength(10);
    expect(kept[0].published_at).toEqual(new Date('2025-12-12T16:57:28Z'));
    // The other source is untouched; no link points at a deleted item.
    expect(await count(`SELECT count(*) AS n FROM news_items WHERE source = 'feed:decrypt.co/feed'`)).toBe(58);
    expect(await count('SELECT count(*) AS n FROM news_item_markets l LEFT JOIN news_items n ON n.id = l.news_item_id WHERE n.id IS NULL')).toBe(0);
  });

  it('links filings to the market with their CIK', async () => {
    const outcome = await pollNewsSource(deps(), EDGAR(), { keep: 500 });
    expect(outcome).toMatchObject({ source: 'sec-edgar', fetched: 200, added: 200 });
    const uber = await listMarketNews(db.dataSource, 'UBER', { page: 1, limit: 20 });
    expect(uber!.items).toEqual([
      expect.objectContaining({ source: 'sec-edgar', formType: '8-K', cik: '0001543151', company: 'Uber Technologies, Inc', matchedBy: 'cik' }),
    ]);
    expect((await listMarketNews(db.dataSource, 'MRNA', { page: 1, limit: 20 }))!.items.map((i) => i.formType)).toEqual(['8-K']);
  });

  it('records an HTML answer and a timeout on the source health, counting the failures', async () => {
    const html = new FeedLiveSource(`${http.base}/html`);
    await expect(pollNewsSource(deps(), html, { keep: 500 })).rejects.toThrow(/HTML page/);
    const slow = new FeedLiveSource(`${http.base}/hang`, { timeoutMs: 200 });
    await expect(pollNewsSource(deps(), slow, { keep: 500 })).rejects.toThrow(/no answer within 200 ms/);
    await expect(pollNewsSource(deps(), slow, { keep: 500 })).rejects.toThrow(/no answer within 200 ms/);
    expect(await health(html.name)).toMatchObject({ consecutive_failures: 1, last_success_at: null, last_error: 'the answer is an HTML page, not a feed' });
    expect(await health(slow.name)).toMatchObject({ consecutive_failures: 2, last_error_at: clock.now() });
  });

  it('pages a market\'s news newest first, and answers null for an unknown market', async () => {
    const first = await listMarketNews(db.dataSource, 'BTCUSDT', { page: 1, limit: 3 });
    const second = await listMarketNews(db.dataSource, 'BTCUSDT', { page: 2, limit: 3 });
    expect(first!.total).toBeGreaterThan(6);
    const dates = [...first!.items, ...second!.items].map((i) => i.publishedAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set([...first!.items, ...second!.items].map((i) => i.id)).size).toBe(6);
    expect(await listMarketNews(db.dataSource, 'NOPE', { page: 1, limit: 3 })).toBeNull();
  });
});

describe('news jobs (PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const logger = pino({ level: 'silent' });
  const clock = fixedClock('2026-01-12T16:30:00Z');

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  it('news.poll-all queues one poll per configured source, once per slot however often it runs', async () => {
    const config = loadNewsConfig({});
    const sources = [...feedSourcesFromConfig(config), edgarSourceFromConfig(config, { redis, keyPrefix: prefix })!];
    const [pollAll, poll] = createNewsHandlers({ sources: () => sources, keep: 500, consumers: [] });
    const context = { dataSource: db.dataSource, queues, redis, clock, logger };
    await pollAll.run({} as never, context);
    await pollAll.run({} as never, context);
    const waiting = await queues.queue('news').getJobs(['waiting']);
    expect(waiting.map((j) => j.id).sort()).toEqual(sources.map((s) => newsJobIds.poll(s.name, clock.now())).sort());
    expect(waiting.map((j) => j.data.source).sort()).toEqual([
      'feed:cointelegraph.com/rss',
      'feed:decrypt.co/feed',
      'feed:www.coindesk.com/arc/outboundfeeds/rss',
      'sec-edgar',
    ]);
    // A poll runs the whole pipeline; a source no longer configured fails for good.
    expect(await poll.run({ source: 'sec-edgar' } as never, context)).toMatchObject({ added: 200 });
    await expect(poll.run({ source: 'feed:gone.example/rss' } as never, context)).rejects.toThrow(UnrecoverableError);
  });

  it('a consumer that fails after the poll committed (a failed enqueue) is told the same links again by the retry, and then never again', async () => {
    await db.dataSource.query('TRUNCATE news_items CASCADE');
    await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin / Tether', 'crypto') ON CONFLICT DO NOTHING`);
    const count = async (sql: string) => Number((await db.dataSource.query(sql))[0].n);
    const told: { at: string; links: number }[] = [];
    let failNext = true;
    const consumer = {
      async newsLinked(linked: { at: Date; links: unknown[] }) {
        if (failNext) {
          failNext = false;
          throw new Error('Redis: connection lost');
        }
        told.push({ at: linked.at.toISOString(), links: linked.links.length });
      },
    };
    const [, poll] = createNewsHandlers({ sources: () => [DECRYPT()], keep: 500, consumers: [consumer] });
    const context = { dataSource: db.dataSource, queues, redis, clock, logger };
    await expect(poll.run({ source: 'feed:decrypt.co/feed' } as never, context)).rejects.toThrow('connection lost');
    const links = await count(`SELECT count(*) AS n FROM news_item_markets`);
    expect(links).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM news_item_markets WHERE announced_at IS NULL`)).toBe(links);
    // The retry stores nothing new but tells the links the failed attempt left, at the first poll's instant.
    expect(await poll.run({ source: 'feed:decrypt.co/feed' } as never, context)).toMatchObject({ added: 0, linked: 0, announced: links });
    expect(told).toEqual([{ at: '2026-01-12T16:30:00.000Z', links }]);
    expect(await count(`SELECT count(*) AS n FROM news_item_markets WHERE announced_at IS NULL`)).toBe(0);
    expect(await poll.run({ source: 'feed:decrypt.co/feed' } as never, context)).toMatchObject({ announced: 0 });
    expect(told).toHaveLength(1);
  });
});

describe('news configuration', () => {
  it('defaults to the recorded files outside production and to live in production, where the SEC needs a User-Agent', () => {
    expect(loadNewsConfig({}).NEWS_SOURCE).toBe('replay');
    expect(loadNewsConfig({}).NEWS_SEC_FILINGS).toBe('on');
    expect(loadNewsConfig({}).NEWS_HISTORY_PER_SOURCE).toBe(500);
    // Without SEC_USER_AGENT a production system still starts: live feeds, the filings off.
    expect(loadNewsConfig({ NODE_ENV: 'production' })).toMatchObject({ NEWS_SOURCE: 'live', NEWS_SEC_FILINGS: 'off' });
    expect(() => loadNewsConfig({ NODE_ENV: 'production', NEWS_SEC_FILINGS: 'on' })).toThrow(/SEC_USER_AGENT: required when NEWS_SOURCE is live/);
    const live = loadNewsConfig({ NODE_ENV: 'production', SEC_USER_AGENT: 'Acme Research ops@acme.example' });
    expect(live).toMatchObject({ NEWS_SOURCE: 'live', NEWS_SEC_FILINGS: 'on' });
    expect(feedSourcesFromConfig(live).map((s) => s.name)).toEqual(['feed:www.coindesk.com/arc/outboundfeeds/rss', 'feed:cointelegraph.com/rss', 'feed:decrypt.co/feed']);
    expect(loadNewsConfig({ NODE_ENV: 'production', NEWS_SEC_FILINGS: 'off' }).NEWS_SOURCE).toBe('live');
  });

  it('stops a process at start on an invalid feed URL, naming it', () => {
    const load = () => loadProcessConfig(z.object({}), { NEWS_FEEDS: 'https://decrypt.co/feed, feeds.example.org/rss' }, 'workers');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/NEWS_FEEDS: not an http\(s\) URL: "feeds\.example\.org\/rss"/);
  });

  it('takes the operator\'s feeds', () => {
    const config = loadNewsConfig({ NEWS_SOURCE: 'live', NEWS_SEC_FILINGS: 'off', NEWS_FEEDS: 'https://example.org/a.xml, https://example.org/b.xml' });
    expect(feedSourcesFromConfig(config).map((s) => s.name)).toEqual(['feed:example.org/a.xml', 'feed:example.org/b.xml']);
  });
});
