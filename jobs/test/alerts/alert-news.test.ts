import type { Job } from 'bullmq';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { alertsNewsConsumer, evaluateNewsLinks, sendNewsDigests } from '../../src/alerts/alert-news';
import { ALERTS_SCHEDULES } from '../../src/alerts/alerts.schedules';
import { FeedReplaySource } from '../../src/news/feeds.client';
import { pollNewsSource } from '../../src/news/news-poll';
import type { JobPayload } from '../../src/registry';
import { fixture } from '../news/news-stand-in';
import { AlertsHarness } from './alerts-harness';

const DECRYPT = () => new FeedReplaySource('https://decrypt.co/feed', fixture('decrypt-feed-2025-12-12.xml'));
// A headline of the recorded Decrypt feed that names Bitcoin (the market BTCUSDT is "Bitcoin / Tether").
const LABUBU = "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading";

describe('news alerts (real PostgreSQL and Redis, the recorded Decrypt feed)', () => {
  let db: TestDatabase;
  let h: AlertsHarness;
  let userId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  beforeEach(async () => {
    h = new AlertsHarness(db);
    h.clock.set(new Date('2025-12-12T22:10:00Z'));
    userId = await h.user(`user-${h.prefix}@example.test`);
    await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin / Tether', 'crypto'), ('UBER', 'Uber Technologies, Inc.', 'stock')`);
  });

  afterEach(async () => {
    await h.close();
    await db.dataSource.query('TRUNCATE users, markets, alerts, alert_logs, notifications, news_items, news_item_markets CASCADE');
  });

  afterAll(async () => {
    await db.drop();
  });

  /** A real poll of the recording, and the evaluate-news jobs its links queue (their payloads). */
  async function pollDecrypt(): Promise<JobPayload<'alerts.evaluate-news'>[]> {
    const { linked } = await pollNewsSource({ dataSource: db.dataSource, clock: h.clock }, DECRYPT(), { keep: 500 });
    await alertsNewsConsumer.newsLinked(linked, h.context);
    const jobs = await h.queues.queue('alerts').getJobs(['waiting']);
    return jobs.filter((j) => j.name === 'alerts.evaluate-news').map((j) => j.data as JobPayload<'alerts.evaluate-news'>);
  }

  async function btcItems(): Promise<{ id: number; title: string }[]> {
    return db.dataSource.query(
      `SELECT n.id, n.title FROM news_items n JOIN news_item_markets l ON l.news_item_id = n.id JOIN markets m ON m.id = l.market_id
       WHERE m.symbol = 'BTCUSDT' ORDER BY n.id`,
    );
  }

  const notifications = (): Promise<{ activity_type: string; title: string; message: string; details: Record<string, unknown> }[]> =>
    db.dataSource.query('SELECT activity_type, title, message, details FROM notifications ORDER BY id');

  it('a poll queues one evaluate-news job; every_time fires once per new BTC item, with headline, source, time and link', async () => {
    const alertId = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'any', digest: false }, { frequency: 'every_time', name: 'BTC news' });
    const jobs = await pollDecrypt();
    expect(jobs).toHaveLength(1);
    expect(jobs[0].at).toBe('2025-12-12T22:10:00.000Z');
    const items = await btcItems();
    expect(items.length).toBeGreaterThan(5);

    const result = await evaluateNewsLinks(jobs[0], h.context);
    expect(result).toMatchObject({ candidates: 1, fired: items.length });
    expect((await h.logs(alertId)).map((l) => l.dedupe_key).sort()).toEqual(items.map((i) => `${alertId}:news:${i.id}`).sort());
    const written = await notifications();
    expect(written).toHaveLength(items.length);
    expect(new Set(written.map((n) => n.activity_type))).toEqual(new Set(['MARKET_ALERT_NEWS']));
    const labubu = written.find((n) => n.details.title === LABUBU)!;
    expect(labubu.title).toBe('BTC news Alert Triggered');
    expect(labubu.message).toMatch(/^News on BTCUSDT: "Vanguard Exec Calls Bitcoin .*" \(decrypt\.co, 2025-12-12 21:59 UTC\) https:\/\/decrypt\.co\//);
    expect(labubu.details).toMatchObject({ alertId, condition: 'news', source: 'decrypt.co', publishedAt: '2025-12-12T21:59:32.000Z', link: expect.stringMatching(/^https:\/\/decrypt\.co\//) });

    // The same job again (a retry, a second worker) writes nothing; a re-poll adds no items and queues nothing.
    expect(await evaluateNewsLinks(jobs[0], { ...h.context, job: { attemptsMade: 1 } as Job })).toMatchObject({ fired: 0, requeued: items.length });
    expect(await h.logs(alertId)).toHaveLength(items.length);
    h.clock.advance(180_000);
    const { linked } = await pollNewsSource({ dataSource: db.dataSource, clock: h.clock }, DECRYPT(), { keep: 500 });
    expect(linked.links).toEqual([]);
  });

  it('keywords fire only on items naming a keyword as a whole word; filings-only alerts ignore feed items', async () => {
    const labubu = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'keywords', keywords: ['labubu'], digest: false }, { frequency: 'every_time' });
    const partial = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'keywords', keywords: ['labu'], digest: false }, { frequency: 'every_time' });
    const filings = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'filings', digest: false }, { frequency: 'every_time' });
    const [job] = await pollDecrypt();
    await evaluateNewsLinks(job, h.context);
    expect((await h.logs(labubu)).map((l) => l.message)).toEqual([expect.stringContaining('Digital Labubu')]);
    expect(await h.logs(partial)).toEqual([]);
    expect(await h.logs(filings)).toEqual([]);
  });

  it('once_per_day fires for the first item only, once: once and then the alert is inactive', async () => {
    const daily = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'any', digest: false }, { frequency: 'once_per_day' });
    const once = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'any', digest: false }, { frequency: 'once' });
    const [job] = await pollDecrypt();
    expect(await evaluateNewsLinks(job, h.context)).toMatchObject({ fired: 2 });
    expect((await h.logs(daily)).map((l) => l.dedupe_key)).toEqual([`${daily}:day:2025-12-12`]);
    expect((await h.logs(once)).map((l) => l.dedupe_key)).toEqual([`${once}:once`]);
    expect(await h.alertRow(once)).toEqual({ is_active: false, last_triggered: new Date('2025-12-12T22:10:00Z') });
    expect(await h.alertRow(daily)).toEqual({ is_active: true, last_triggered: new Date('2025-12-12T22:10:00Z') });
  });

  it('digest: one notification per alert and UTC hour listing the hour’s items, sent once, with a fixed clock', async () => {
    const digest = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'any', digest: true }, { frequency: 'every_time' });
    const keyword = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'keywords', keywords: ['Labubu'], digest: true }, { frequency: 'every_time' });
    const idle = await h.alert(userId, 'UBER', { type: 'news', scope: 'any', digest: true });
    // Created before the poll (created_at is the database's clock, the poll the test's).
    await db.dataSource.query(`UPDATE alerts SET created_at = '2025-12-12T22:00:00Z'`);
    // Polled at 22:10: the items belong to the 22:00-23:00 hour; the per-item job ignores digest alerts.
    const [job] = await pollDecrypt();
    expect(await evaluateNewsLinks(job, h.context)).toMatchObject({ fired: 0 });
    const items = await btcItems();

    // 22:59: the hour before (21:00-22:00) had no items.
    h.clock.set(new Date('2025-12-12T22:59:00Z'));
    expect(await sendNewsDigests(h.context)).toMatchObject({ hourStart: '2025-12-12T21:00:00.000Z', fired: 0 });
    // 23:00:00, the schedule's run: the hour 22:00-23:00.
    h.clock.set(new Date('2025-12-12T23:00:00Z'));
    expect(await sendNewsDigests(h.context)).toMatchObject({ hourStart: '2025-12-12T22:00:00.000Z', candidates: 2, fired: 2 });
    expect(await sendNewsDigests(h.context)).toMatchObject({ fired: 0 });

    const [log] = await h.logs(digest);
    expect(log.dedupe_key).toBe(`${digest}:digest:2025-12-12T22:00:00.000Z`);
    expect(log.triggered_at).toEqual(new Date('2025-12-12T23:00:00Z'));
    expect(log.message.split('\n')[0]).toBe(`${items.length} news items on BTCUSDT in the hour from 2025-12-12 22:00 UTC:`);
    expect((await h.logs(keyword)).map((l) => l.message.split('\n'))).toEqual([['1 news item on BTCUSDT in the hour from 2025-12-12 22:00 UTC:', expect.stringContaining('Digital Labubu')]]);
    expect(await h.logs(idle)).toEqual([]);
    const written = await notifications();
    expect(written).toHaveLength(2);
    expect(written[0]).toMatchObject({ activity_type: 'MARKET_ALERT_NEWS', details: { digest: true, hourStart: '2025-12-12T22:00:00.000Z' } });
    expect((written[0].details.items as unknown[]).length).toBe(items.length);
    // The next hour has nothing new (the run looks back over 22:00 again: sent, so nothing).
    h.clock.set(new Date('2025-12-13T00:00:00Z'));
    expect(await sendNewsDigests(h.context)).toMatchObject({ fired: 0 });
    expect(await notifications()).toHaveLength(2);
  });

  it('digest: an hour whose run was missed (workers down at 23:00) is sent late by the next run, once', async () => {
    const digest = await h.alert(userId, 'BTCUSDT', { type: 'news', scope: 'any', digest: true }, { frequency: 'every_time' });
    await db.dataSource.query(`UPDATE alerts SET created_at = '2025-12-12T22:00:00Z'`);
    await pollDecrypt();
    // No run at 23:00, 00:00 or 01:00; the workers are back for the 02:00 run.
    h.clock.set(new Date('2025-12-13T02:00:00Z'));
    expect(await sendNewsDigests(h.context)).toMatchObject({ hourStart: '2025-12-13T01:00:00.000Z', fired: 1, hoursSent: 1 });
    expect((await h.logs(digest)).map((l) => [l.dedupe_key, l.triggered_at])).toEqual([[`${digest}:digest:2025-12-12T22:00:00.000Z`, new Date('2025-12-12T23:00:00Z')]]);
    h.clock.set(new Date('2025-12-13T03:00:00Z'));
    expect(await sendNewsDigests(h.context)).toMatchObject({ fired: 0 });
    expect(await notifications()).toHaveLength(1);
    // Past the look-back (6 full hours), the hour is no longer sent.
    await db.dataSource.query('TRUNCATE alert_logs, notifications CASCADE');
    h.clock.set(new Date('2025-12-13T05:00:00Z'));
    expect(await sendNewsDigests(h.context)).toMatchObject({ fired: 0 });
  });

  it('the digest runs every hour at :00 UTC', () => {
    expect(ALERTS_SCHEDULES.find((s) => s.job === 'alerts.news-digest')).toMatchObject({ repeat: { pattern: '0 0 * * * *', tz: 'UTC' } });
  });
});
