import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { UnrecoverableError } from 'bullmq';
import Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues } from '../../src/runtime/job-queues';
import { fixedClock } from '../../src/runtime/clock';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { zipFile } from '../../src/testing/zip-file';
import { CftcFetchError, CftcLiveSource, CftcReplaySource, withSourceHealth, type CftcSource } from '../../src/cot/cftc.client';
import { fetchLatestCotReport } from '../../src/cot/cot-pipeline';
import { createCotHandlers } from '../../src/cot/cot.processor';
import { cotJobIds } from '../../src/cot/cot.jobs';
import { SAMPLE_PATH, sampleApiRows } from './api-rows';

/**
 * A local stand-in for the CFTC: the public reporting API (answering the few SoQL parameters the
 * client sends) over the real sample's rows renamed to API fields, and the yearly archive as a zip
 * of the real sample.
 */
function cftcServer(): Promise<{ server: Server; base: string; requests: IncomingMessage[] }> {
  const apiRows = sampleApiRows();
  const archive = zipFile([{ name: 'FinFut22.txt', content: readFileSync(SAMPLE_PATH) }]);
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/resource/gpe5-46if.json') {
      let rows = apiRows;
      const date = url.searchParams.get('report_date_as_yyyy_mm_dd');
      if (date) rows = rows.filter((r) => r.report_date_as_yyyy_mm_dd === date);
      if (url.searchParams.get('$order') === 'report_date_as_yyyy_mm_dd DESC') {
        rows = [...rows].sort((a, b) => b.report_date_as_yyyy_mm_dd.localeCompare(a.report_date_as_yyyy_mm_dd));
      }
      const select = url.searchParams.get('$select');
      const out = rows.slice(0, Number(url.searchParams.get('$limit') ?? 1000)).map((r) => (select ? { [select]: r[select] } : r));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    } else if (url.pathname === '/files/dea/history/fut_fin_txt_2022.zip') {
      res.writeHead(200, { 'content-type': 'application/zip' }).end(archive);
    } else if (url.pathname === '/broken/resource.json') {
      res.writeHead(503).end('busy');
    } else if (url.pathname === '/slow/resource.json') {
      setTimeout(() => res.writeHead(200).end('[]'), 2000);
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests })),
  );
}

let http: Awaited<ReturnType<typeof cftcServer>>;
const live = (overrides: { apiUrl?: string; timeoutMs?: number } = {}) =>
  new CftcLiveSource({
    apiUrl: `${http.base}/resource/gpe5-46if.json`,
    archiveUrl: `${http.base}/files/dea/history/fut_fin_txt_{year}.zip`,
    userAgent: 'Tickerbell-test/1.0 (ops@example.com)',
    ...overrides,
  });

beforeAll(async () => {
  http = await cftcServer();
});
afterAll(() => new Promise<void>((resolve) => http.server.close(() => resolve())));

// Every source passes the same suite on the same recorded data.
describe.each([
  ['live (local CFTC stand-in)', () => live()],
  ['replay (recorded file)', () => new CftcReplaySource([SAMPLE_PATH])],
])('CFTC source contract: %s', (_name, make: () => CftcSource) => {
  it('knows the newest report date', async () => {
    expect(await make().latestReportDate()).toBe('2022-08-16');
  });

  it('serves one report: every instrument once, values as recorded', async () => {
    const report = await make().fetchReport('2022-08-16');
    expect(report.rows.map((r) => r.cftcCode).sort()).toEqual(['043602', '099741', '133741', '13874A']);
    expect(report.rows.find((r) => r.cftcCode === '099741')!.position).toMatchObject({ openInterest: 698570, leveragedLong: 70967, leveragedShort: 93137 });
    expect(report.sourceUrl).toEqual(expect.any(String));
  });

  it('serves a whole year', async () => {
    const year = await make().fetchYear(2022);
    expect(year.rows).toHaveLength(132);
  });
});

describe('CFTC live client', () => {
  it('sends its User-Agent and asks the API for the report date', async () => {
    http.requests.length = 0;
    await live().latestReportDate();
    expect(http.requests[0].headers['user-agent']).toBe('Tickerbell-test/1.0 (ops@example.com)');
    const query = new URL(http.requests[0].url!, http.base).searchParams;
    expect(Object.fromEntries(query)).toEqual({ $select: 'report_date_as_yyyy_mm_dd', $order: 'report_date_as_yyyy_mm_dd DESC', $limit: '1' });
  });

  it('names the archive it read as the source of a year', async () => {
    expect((await live().fetchYear(2022)).sourceUrl).toBe(`${http.base}/files/dea/history/fut_fin_txt_2022.zip`);
  });

  it('fails with a retryable error on an HTTP error or a timeout', async () => {
    await expect(live({ apiUrl: `${http.base}/broken/resource.json` }).latestReportDate()).rejects.toThrow(new CftcFetchError(`GET ${http.base}/broken/resource.json?%24select=report_date_as_yyyy_mm_dd&%24order=report_date_as_yyyy_mm_dd+DESC&%24limit=1: HTTP 503`));
    await expect(live({ apiUrl: `${http.base}/slow/resource.json`, timeoutMs: 200 }).latestReportDate()).rejects.toThrow(/no answer within 200 ms/);
  });
});

describe('CFTC source health and the weekly poll (PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  const health = async () => (await db.dataSource.query(`SELECT * FROM source_health WHERE source = 'cftc'`))[0];

  it('records failures (counting them) and then a success with the freshness of the data', async () => {
    const clock = fixedClock('2022-08-19T19:40:00Z');
    const broken = withSourceHealth(live({ apiUrl: `${http.base}/broken/resource.json` }), { dataSource: db.dataSource, clock });
    await expect(broken.latestReportDate()).rejects.toThrow(CftcFetchError);
    clock.advance(60_000);
    await expect(broken.latestReportDate()).rejects.toThrow(CftcFetchError);
    expect(await health()).toMatchObject({ consecutive_failures: 2, last_error_at: new Date('2022-08-19T19:41:00Z'), last_success_at: null });
    expect((await health()).last_error).toMatch(/HTTP 503/);

    clock.advance(60_000);
    const ok = withSourceHealth(live(), { dataSource: db.dataSource, clock });
    await ok.fetchReport('2022-08-16');
    expect(await health()).toMatchObject({
      consecutive_failures: 0,
      last_success_at: new Date('2022-08-19T19:42:00Z'),
      last_data_at: new Date('2022-08-16T00:00:00Z'),
    });
  });

  function counting(source: CftcSource): CftcSource & { calls: number } {
    const wrapped = {
      calls: 0,
      kind: source.kind,
      latestReportDate: () => (wrapped.calls++, source.latestReportDate()),
      fetchReport: (d: string) => (wrapped.calls++, source.fetchReport(d)),
      fetchYear: (y: number) => (wrapped.calls++, source.fetchYear(y)),
    };
    return wrapped;
  }

  it('imports the new report once released and queues each instrument\'s analytics, then polls become no-ops', async () => {
    const clock = fixedClock('2022-08-19T19:40:00Z'); // Friday 15:40 New York
    const source = counting(live());
    const first = await fetchLatestCotReport({ dataSource: db.dataSource, source, queues, clock });
    expect(first).toMatchObject({ status: 'imported', reportDate: '2022-08-16', analyticsQueued: 4, import: { positions: { inserted: 4 } } });
    const queued = await queues.queue('cot').getJobs(['waiting']);
    expect(queued.map((j) => j.data.cftcCode).sort()).toEqual(['043602', '099741', '133741', '13874A']);
    expect(new Set(queued.map((j) => j.name))).toEqual(new Set(['cot.recompute-analytics']));

    const callsBefore = source.calls;
    clock.advance(10 * 60_000);
    expect(await fetchLatestCotReport({ dataSource: db.dataSource, source, queues, clock })).toEqual({
      status: 'up-to-date',
      expectedReportDate: '2022-08-16',
      latestStored: '2022-08-16',
      // The analytics jobs are still waiting (no worker here): the self-healing check queues the
      // missing ones under ids of their own, once.
      analyticsQueued: 4,
    });
    expect(source.calls).toBe(callsBefore);
    expect(await queues.queue('cot').getJob(cotJobIds.analytics('13874A', '2022-08-16'))).toBeDefined();
    expect((await fetchLatestCotReport({ dataSource: db.dataSource, source, queues, clock })).status).toBe('up-to-date');
    expect(await queues.queue('cot').getWaitingCount()).toBe(8);
  });

  it('keeps polling (without importing) while the next week\'s report is late', async () => {
    const clock = fixedClock('2022-08-26T19:40:00Z'); // the next Friday: 2022-08-23 is due, the source still has 08-16
    expect(await fetchLatestCotReport({ dataSource: db.dataSource, source: live(), queues, clock })).toEqual({
      status: 'not-yet-released',
      expectedReportDate: '2022-08-23',
      latestAvailable: '2022-08-16',
      analyticsQueued: 4,
    });
  });

  it('the recompute handler stores one instrument\'s analytics and fails for good on an unknown code', async () => {
    const handlers = createCotHandlers({ source: () => live(), config: () => ({ COT_LOOKBACK: 52 }) });
    const recompute = handlers.find((h) => h.name === 'cot.recompute-analytics')!;
    const context = { dataSource: db.dataSource, queues, redis: queues.redis, clock: fixedClock('2022-08-19T20:00:00Z'), logger };
    expect(await recompute.run({ cftcCode: '13874A' }, context)).toEqual({ inserted: 1, updated: 0, unchanged: 0, notifyQueued: null });
    const [row] = await db.dataSource.query(`SELECT lookback, is_provisional FROM cot_analytics`);
    expect(row).toEqual({ lookback: 52, is_provisional: true });
    await expect(recompute.run({ cftcCode: 'NOPE' }, context)).rejects.toThrow(UnrecoverableError);
  });

  it('the backfill handler imports a yearly archive', async () => {
    const handlers = createCotHandlers({ source: () => live(), config: () => ({ COT_LOOKBACK: 156 }) });
    const importYear = handlers.find((h) => h.name === 'cot.import-year')!;
    const result = await importYear.run({ year: 2022 }, { dataSource: db.dataSource, queues, redis: queues.redis, clock: fixedClock('2022-08-20T00:00:00Z'), logger });
    expect(result).toMatchObject({ rows: 132, positions: { inserted: 128, unchanged: 4 }, analyticsQueued: 4 });
  });
});
