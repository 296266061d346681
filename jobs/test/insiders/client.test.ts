import Redis from 'ioredis';
import { fixedClock } from '../../src/runtime/clock';
import { EdgarFetchError, EdgarHttpClient } from '../../src/sources/sec-edgar.client';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { dedupeByAccession, parseCompanyTickers, parseCurrentFilingsFeed, parseFormIndex, parseSubmissions } from '../../src/insiders/edgar-index.parse';
import { INSIDERS_RECORDINGS_DIR, parseForm4 } from '../../src/insiders/form4.parse';
import { InsidersLiveSource, type InsidersSource } from '../../src/insiders/insiders-sec.client';
import { InsidersReplaySource, SIMULATED_PURCHASES } from '../../src/insiders/insiders-replay';
import { HANGING_ACCESSION, startSecStandIn, type SecStandIn } from './client-stand-in';

const UA = 'Tickerbell tests ops@example.com';
let sec: SecStandIn;
const redis = new Redis(testRedisUrl());
const prefixes: string[] = [];
const prefix = () => {
  const p = testQueuePrefix();
  prefixes.push(p);
  return p;
};
const live = (options: { keyPrefix?: string; timeoutMs?: number; www?: string; connection?: Redis } = {}) =>
  new InsidersLiveSource(
    new EdgarHttpClient({ userAgent: UA, redis: options.connection ?? redis, keyPrefix: options.keyPrefix ?? prefix(), timeoutMs: options.timeoutMs ?? 2000 }),
    { wwwUrl: options.www ?? sec.base, dataUrl: `${sec.base}/data` },
  );
const replay = (perPoll = 3, at = '2025-12-15T15:00:00Z') => new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR, clock: fixedClock(at), perPoll });

beforeAll(async () => {
  sec = await startSecStandIn();
});
afterAll(async () => {
  await sec.close();
  redis.disconnect();
  for (const p of prefixes) await deleteKeysWithPrefix(testRedisUrl(), p);
});

// Both sources pass one suite on the same recorded documents.
describe.each([
  ['live (local stand-in serving the recordings)', () => live()],
  ['replay (the recordings)', () => replay()],
])('insiders source contract: %s', (_name, make: () => InsidersSource) => {
  it('serves a current-filings feed of Form 4 entries that parses', async () => {
    const entries = parseCurrentFilingsFeed(await make().currentFilings());
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.formType === '4' || e.formType === '4/A')).toBe(true);
  });

  it('serves a recorded filing by accession (AIR, 0001127602-25-001055) that parses as that filing', async () => {
    const parsed = parseForm4(await make().filing('1750', '0001127602-25-001055'));
    expect(parsed).toMatchObject({ accessionNumber: '0001127602-25-001055', issuer: { ticker: 'AIR' } });
  });

  it('serves the daily index of 2020-03-18, and null for a day without one', async () => {
    const source = make();
    const rows = parseFormIndex((await source.dailyFormIndex('2020-03-18')) as string);
    expect(rows.filter((r) => r.formType === '4')).toHaveLength(300);
    expect(await source.dailyFormIndex('2020-03-21')).toBeNull();
  });

  it("serves company_tickers.json and Tesla's submissions", async () => {
    const source = make();
    expect(parseCompanyTickers(await source.companyTickers())).toHaveLength(300);
    expect(parseSubmissions(await source.submissions('1318605'))).toMatchObject({ cik: '0001318605', tickers: ['TSLA'] });
  });
});

describe('live source (EdgarHttpClient against a local stand-in)', () => {
  it('sends the configured User-Agent and asks EDGAR for the Form 4 feed as Atom, filings and indexes at their archive paths', async () => {
    sec.requests.length = 0;
    const source = live();
    await source.currentFilings();
    await source.filing('1214935', '0001240812-07-000005');
    await source.dailyFormIndex('2020-03-18');
    await source.submissions('1318605');
    expect(sec.requests.map((r) => r.headers['user-agent'])).toEqual([UA, UA, UA, UA]);
    const [feed, filing, index, submissions] = sec.requests.map((r) => new URL(r.path, sec.base));
    expect(Object.fromEntries(feed.searchParams)).toMatchObject({ action: 'getcurrent', type: '4', owner: 'include', start: '0', count: '100', output: 'atom' });
    expect(filing.pathname).toBe('/Archives/edgar/data/1214935/000124081207000005/0001240812-07-000005.txt');
    expect(index.pathname).toBe('/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx');
    expect(submissions.pathname).toBe('/data/submissions/CIK0001318605.json');
  });

  it('answers null for a 404 index (a holiday), but an error for a 404 filing', async () => {
    const source = live();
    expect(await source.dailyFormIndex('2020-12-25')).toBeNull();
    await expect(source.filing('1', '0000000001-25-000404')).rejects.toMatchObject({ status: 404 });
  });

  it('backs the whole cluster off after a 429: another process on the same Redis prefix does not even ask', async () => {
    const shared = prefix();
    const other = new Redis(testRedisUrl());
    try {
      await expect(live({ keyPrefix: shared, www: `${sec.base}/refusing` }).currentFilings()).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
      sec.requests.length = 0;
      const refused = live({ keyPrefix: shared, connection: other }).filing('1750', '0001127602-25-001055');
      await expect(refused).rejects.toThrow(EdgarFetchError);
      await expect(refused).rejects.toThrow(/backing off, retry in 1[12]\d s/);
      expect(sec.requests).toHaveLength(0);
    } finally {
      other.disconnect();
    }
  });

  it('backs off after a 5xx, and gives up on a filing that does not answer in time', async () => {
    await expect(live({ www: `${sec.base}/down` }).dailyFormIndex('2020-03-18')).rejects.toMatchObject({ status: 503, retryAfterMs: 30_000 });
    await expect(live({ timeoutMs: 1000 }).filing('1', HANGING_ACCESSION)).rejects.toThrow(/no answer within 1000 ms/);
  });

  it('keeps two workers together under 10 requests in any one-second window (one Redis budget)', async () => {
    const shared = prefix();
    const second = new Redis(testRedisUrl());
    try {
      const a = live({ keyPrefix: shared });
      const b = live({ keyPrefix: shared, connection: second });
      sec.requests.length = 0;
      const started = Date.now();
      await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).companyTickers()));
      const times = sec.requests.map((r) => r.at).sort((x, y) => x - y);
      expect(times).toHaveLength(24);
      let busiest = 0;
      for (let i = 0; i < times.length; i++) busiest = Math.max(busiest, times.filter((t) => t >= times[i] && t < times[i] + 1000).length);
      expect(busiest).toBeLessThanOrEqual(10);
      // 24 requests at 10/s cannot all go within two seconds.
      expect(Date.now() - started).toBeGreaterThan(1500);
    } finally {
      second.disconnect();
    }
  });
});

describe('replay source', () => {
  it('releases a few filings per poll in a feed built from the real Atom document: each listed twice (issuer, reporting owner), newest first', async () => {
    const source = replay(3);
    const first = parseCurrentFilingsFeed(await source.currentFilings());
    expect(first).toHaveLength(6);
    expect(first.map((e) => e.role)).toEqual(['reporting', 'issuer', 'reporting', 'issuer', 'reporting', 'issuer']);
    const released = dedupeByAccession(first);
    expect(released).toHaveLength(3);
    expect(released.every((e) => e.role === 'issuer')).toBe(true);
    const second = dedupeByAccession(parseCurrentFilingsFeed(await source.currentFilings()));
    expect(second).toHaveLength(6);
    // The newer release is on top; the earlier ones follow.
    expect(second.slice(3).map((e) => e.accessionNumber)).toEqual(released.map((e) => e.accessionNumber));
  });

  it('serves every released filing, whose document is the filing the feed names', async () => {
    const source = replay(100);
    const listed = dedupeByAccession(parseCurrentFilingsFeed(await source.currentFilings()));
    // 11 recorded filings with an accession (SNOW and SCWO are bare XML without one), then 3 simulated.
    expect(listed).toHaveLength(11 + SIMULATED_PURCHASES.length);
    for (const entry of listed) {
      const parsed = parseForm4(await source.filing(entry.cik, entry.accessionNumber));
      expect(parsed.issuer.cik).toBe(entry.cik);
      if (parsed.accessionNumber) expect(parsed.accessionNumber).toBe(entry.accessionNumber);
    }
    expect(source.progress()).toEqual({ total: 14, released: 14 });
    await expect(source.filing('1', '0000000001-25-000404')).rejects.toMatchObject({ status: 404 });
  });

  it('makes a recent cluster buy of three simulated insiders from the real NCV purchase, labelled simulated', async () => {
    const source = replay(100, '2025-12-15T15:00:00Z');
    const listed = dedupeByAccession(parseCurrentFilingsFeed(await source.currentFilings()));
    const simulated = listed.filter((e) => source.dataSourceOf(e.accessionNumber) === 'simulated');
    expect(simulated.map((e) => e.accessionNumber).sort()).toEqual(['0009999999-25-000001', '0009999999-25-000002', '0009999999-25-000003']);
    const parsed = await Promise.all(simulated.map(async (e) => parseForm4(await source.filing(e.cik, e.accessionNumber))));
    expect(new Set(parsed.map((p) => p.reportingOwners[0].cik)).size).toBe(3);
    expect(parsed.map((p) => [p.transactions[0].transactionCode, p.transactions[0].transactionDate, p.issuer.ticker]).sort()).toEqual([
      ['P', '2025-12-12', 'NCV'],
      ['P', '2025-12-13', 'NCV'],
      ['P', '2025-12-14', 'NCV'],
    ]);
    expect(parsed.find((p) => p.reportingOwners[0].isOfficer)?.reportingOwners[0].officerTitle).toBe('Chief Executive Officer');
    expect(parsed.every((p) => p.remarks?.startsWith('SIMULATED'))).toBe(true);
    expect(source.dataSourceOf('0001240812-07-000005')).toBe('sec-replay');
  });
});
