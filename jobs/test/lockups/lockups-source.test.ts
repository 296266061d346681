import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Redis from 'ioredis';
import { DateTime } from 'luxon';
import { fixedClock } from '../../src/runtime/clock';
import { EdgarFetchError, EdgarHttpClient } from '../../src/sources/sec-edgar.client';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { parseSharesOutstanding } from '../../src/lockups/company-facts.parse';
import { parseFullTextSearch, prospectusRows, splitDisplayName } from '../../src/lockups/edgar-search.parse';
import { LockupsLiveSource, type LockupsSource } from '../../src/lockups/lockups-sec.client';
import { parseSubmissions } from '../../src/insiders/edgar-index.parse';
import { LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES, LockupsReplaySource, SIMULATED_OFFERINGS, replayAccessions } from '../../src/lockups/lockups-replay';
import { parseProspectus } from '../../src/lockups/prospectus.parse';

// The recorded payloads (data/README.md), served by a local stand-in for EDGAR at their sec.gov paths.
const recorded = (file: string) => readFileSync(join(LOCKUPS_RECORDINGS_DIR, file), 'utf8');
const UA = 'Tickerbell tests ops@example.com';
const NOW = '2026-03-02T15:00:00Z';

interface StandIn {
  base: string;
  requests: { url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

async function startStandIn(): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  // Traws's submissions as the replay builds them (from the recorded Tesla document), served at EDGAR's path.
  const trawSubmissions = (await new LockupsReplaySource().submissions('1130598')) as string;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ url: req.url ?? '/', headers: req.headers });
    const send = (file: string, type: string) => res.writeHead(200, { 'content-type': type }).end(recorded(file));
    if (url.pathname === '/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx') return send(LOCKUPS_REPLAY_FILES.formIndex, 'text/plain');
    if (url.pathname === '/efts/LATEST/search-index') return send(LOCKUPS_REPLAY_FILES.fullTextSearch, 'application/json');
    if (url.pathname === '/Archives/edgar/data/1559720/000119312520315318/0001193125-20-315318.txt') return send(LOCKUPS_REPLAY_FILES.abnb, 'text/plain');
    if (url.pathname === '/Archives/edgar/data/1130598/000110465924132924/0001104659-24-132924.txt') return send(LOCKUPS_REPLAY_FILES.traw, 'text/plain');
    if (url.pathname === '/data/api/xbrl/companyfacts/CIK0001640147.json') return send(LOCKUPS_REPLAY_FILES.companyFacts, 'application/json');
    if (url.pathname === '/data/submissions/CIK0001130598.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(trawSubmissions);
    return res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

let sec: StandIn;
const redis = new Redis(testRedisUrl());
const prefix = testQueuePrefix();
const live = () =>
  new LockupsLiveSource(new EdgarHttpClient({ userAgent: UA, redis, keyPrefix: prefix, timeoutMs: 2000 }), {
    wwwUrl: sec.base,
    dataUrl: `${sec.base}/data`,
    eftsUrl: `${sec.base}/efts/LATEST`,
  });
const replay = () => new LockupsReplaySource({ clock: fixedClock(NOW) });

beforeAll(async () => {
  sec = await startStandIn();
});
afterAll(async () => {
  await sec.close();
  redis.disconnect();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
});

// Both sources pass one suite on the same recorded documents.
describe.each([
  ['live (local stand-in serving the recordings)', live],
  ['replay (the recordings)', replay],
])('lockups source contract: %s', (_name, make: () => LockupsSource) => {
  it('serves the daily index of 2020-03-18 (its S-1 rows), and null on a weekend', async () => {
    const source = make();
    const rows = prospectusRows((await source.dailyFormIndex('2020-03-18')) as string);
    expect(rows.map((r) => r.formType)).toEqual(['S-1', 'S-1/A', 'S-1/A', 'S-1/A', 'S-1/A', 'S-1/A']);
    expect(rows[0]).toMatchObject({ companyName: 'Deep Green Waste & Recycling, Inc.', cik: '0001637866', accessionNumber: '0001493152-20-004219' });
    expect(await source.dailyFormIndex('2020-03-21')).toBeNull();
  });

  it('serves a full-text search answer that parses', async () => {
    const hits = parseFullTextSearch(await make().fullTextSearch({ query: '"lock-up"', forms: ['424B4'], from: '2021-01-01', to: '2021-03-31' }));
    expect(hits.length).toBeGreaterThan(0);
  });

  it('serves the Airbnb and Traws prospectuses by accession', async () => {
    const source = make();
    expect(parseProspectus(await source.prospectus('1559720', '0001193125-20-315318'))).toMatchObject({ companyName: 'Airbnb, Inc.', prospectusDate: '2020-12-09' });
    expect(parseProspectus(await source.prospectus('1130598', '0001104659-24-132924'))).toMatchObject({ lockupDays: 90 });
  });

  it("serves Snowflake's company facts, and null for a company without any", async () => {
    const source = make();
    expect(parseSharesOutstanding((await source.companyFacts('1640147')) as string)).toMatchObject({ shares: '333700000' });
    expect(await source.companyFacts('0000000042')).toBeNull();
  });

  it("serves Traws Pharma's submissions with its SIC industry, and null for a company without any", async () => {
    const source = make();
    expect(parseSubmissions((await source.submissions('1130598')) as string)).toMatchObject({
      cik: '0001130598',
      name: 'Traws Pharma, Inc.',
      tickers: ['TRAW'],
      sic: '2834',
      sicDescription: 'Pharmaceutical Preparations',
      filings: [],
    });
    expect(await source.submissions('0000000042')).toBeNull();
  });
});

describe('live source (EdgarHttpClient against a local stand-in)', () => {
  it('sends the configured User-Agent and asks for each document at its EDGAR path', async () => {
    sec.requests.length = 0;
    const source = live();
    await source.dailyFormIndex('2020-03-18');
    await source.fullTextSearch({ query: '"lock-up agreements"', forms: ['424B4', 'S-1'], from: '2025-01-01', to: '2025-01-31' });
    await source.prospectus('1559720', '0001193125-20-315318');
    await source.companyFacts('1640147');
    expect(sec.requests.map((r) => r.headers['user-agent'])).toEqual([UA, UA, UA, UA]);
    const [index, search, prospectus, facts] = sec.requests.map((r) => new URL(r.url, sec.base));
    expect(index.pathname).toBe('/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx');
    expect(search.pathname).toBe('/efts/LATEST/search-index');
    expect(Object.fromEntries(search.searchParams)).toEqual({ q: '"lock-up agreements"', forms: '424B4,S-1', dateRange: 'custom', startdt: '2025-01-01', enddt: '2025-01-31' });
    expect(prospectus.pathname).toBe('/Archives/edgar/data/1559720/000119312520315318/0001193125-20-315318.txt');
    expect(facts.pathname).toBe('/data/api/xbrl/companyfacts/CIK0001640147.json');
    expect(sec.requests[3].headers.accept).toBe('application/json');
  });

  it('answers null for a 404 index or company facts, but an error for a 404 prospectus', async () => {
    const source = live();
    expect(await source.companyFacts('1')).toBeNull();
    await expect(source.prospectus('1', '0000000001-25-000404')).rejects.toBeInstanceOf(EdgarFetchError);
    await expect(source.prospectus('1', '0000000001-25-000404')).rejects.toMatchObject({ status: 404 });
    expect(source.dataSourceOf()).toBe('sec');
  });
});

describe('replay twin: the simulated offerings', () => {
  const now = new Date(NOW);
  const offerings = SIMULATED_OFFERINGS(now);
  const today = DateTime.fromJSDate(now, { zone: 'America/New_York' }).startOf('day');

  it('lists ~24 offerings, deterministic for a day, their last releases over the next 3 to 120 days', () => {
    expect(offerings).toHaveLength(24);
    expect(SIMULATED_OFFERINGS(new Date('2026-03-02T20:00:00Z'))).toEqual(offerings);
    for (const o of offerings) {
      const ahead = DateTime.fromISO(o.finalExpiry, { zone: 'America/New_York' }).diff(today, 'days').days;
      expect(ahead).toBeGreaterThanOrEqual(0);
      expect(ahead).toBeLessThanOrEqual(120);
      expect([1, 2, 3, 4, 5]).toContain(DateTime.fromISO(o.prospectusDate).weekday);
      // Filed before today: discovery never meets a prospectus from the future.
      expect(o.fileDate < (today.toISODate() as string)).toBe(true);
    }
    expect(new Set(offerings.map((o) => o.ticker)).size).toBe(24);
    expect(new Set(offerings.map((o) => o.lockupDays))).toEqual(new Set([90, 180]));
    expect(offerings.some((o) => o.vcBacked) && offerings.some((o) => !o.vcBacked)).toBe(true);
  });

  it('serves each as a variant of the real Airbnb prospectus that parses to its own values, labelled simulated', async () => {
    const source = replay();
    for (const o of offerings) {
      const html = await source.prospectus(o.cik, o.accession);
      expect(html).toMatch(/^<!-- SIMULATED for the offline demo/);
      const parsed = parseProspectus(html);
      expect(parsed).toMatchObject({ companyName: o.companyName, prospectusDate: o.prospectusDate, ipoPrice: o.ipoPrice, lockupDays: o.lockupDays, reviewReason: null });
      expect(parsed.tranches.map((t) => t.days)).toEqual(o.staged ? [30, o.lockupDays / 2, o.lockupDays] : [o.lockupDays]);
      expect(parsed.sharesOutstandingAfter).toBe(String(Number(o.classA) + Number(o.classB) + Number(o.classH)));
      expect(/venture capital/.test(parsed.boundParties ?? '')).toBe(o.vcBacked);
      expect(source.dataSourceOf(o.accession)).toBe('simulated');
    }
    expect(source.dataSourceOf('0001193125-20-315318')).toBe('sec-replay');
  });

  it('lists the simulated filings in a daily index of the recorded layout on their filing day', async () => {
    const source = replay();
    const o = offerings[0];
    const rows = prospectusRows((await source.dailyFormIndex(o.fileDate)) as string);
    expect(rows).toEqual([expect.objectContaining({ formType: '424B4', companyName: o.companyName, cik: o.cik, dateFiled: o.fileDate, accessionNumber: o.accession })]);
  });

  it('serves company facts for a simulated company once its first quarterly report is out (three classes, summed), null before', async () => {
    const source = replay();
    const reported = offerings.find((o) => DateTime.fromISO(o.prospectusDate).plus({ days: 45 }) <= today);
    const fresh = offerings.find((o) => DateTime.fromISO(o.prospectusDate).plus({ days: 45 }) > today.endOf('day'));
    if (!reported || !fresh) throw new Error('expected both kinds of offerings');
    expect(parseSharesOutstanding((await source.companyFacts(reported.cik)) as string)).toMatchObject({ shares: String(Number(reported.classA) + Number(reported.classB) + Number(reported.classH)), classes: 3 });
    expect(await source.companyFacts(fresh.cik)).toBeNull();
  });

  it('lists every accession it serves: the simulated ones and the two recordings', () => {
    const listed = replayAccessions(now);
    expect(listed).toHaveLength(26);
    expect(listed.filter((a) => a.dataSource === 'sec-replay').map((a) => a.ticker)).toEqual(['TRAW', 'ABNB']);
    expect(listed.filter((a) => a.dataSource === 'simulated').map((a) => a.accession).sort()).toEqual(offerings.map((o) => o.accession).sort());
  });
});

describe('edgar-search.parse and company-facts.parse on the recordings', () => {
  it('reads the full-text search hits: CIK, accession, form, date, display name, ticker, document', () => {
    const answer = recorded(LOCKUPS_REPLAY_FILES.fullTextSearch);
    const hits = parseFullTextSearch(answer);
    // 6 hits, two of them documents of one filing: one row per accession.
    expect(JSON.parse(answer).hits.hits).toHaveLength(6);
    expect(hits).toHaveLength(5);
    expect(hits[0]).toEqual({
      cik: '0000050863',
      accession: '0000050863-20-000011',
      form: '10-K',
      fileDate: '2020-01-24',
      displayName: 'INTEL CORP  (INTC)  (CIK 0000050863)',
      companyName: 'INTEL CORP',
      ticker: 'INTC',
      document: 'a12282019q4-10kdocument.htm',
    });
    expect(splitDisplayName('Airbnb, Inc.  (ABNB)  (CIK 0001559720)')).toEqual({ companyName: 'Airbnb, Inc.', ticker: 'ABNB' });
    expect(splitDisplayName('Some Co  (CIK 0000000042)')).toEqual({ companyName: 'Some Co', ticker: null });
  });

  it('refuses what is not a full-text search answer, naming the problem', () => {
    expect(() => parseFullTextSearch('<html>')).toThrow(/not JSON/);
    expect(() => parseFullTextSearch('{"hits":{}}')).toThrow(/no hits\.hits array/);
    expect(() => parseFullTextSearch('{"hits":{"hits":[{"_source":{"ciks":[],"adsh":"x"}}]}}')).toThrow(/hit 1: _source/);
  });

  it("reads Snowflake's latest shares outstanding (the latest filed report), and sums the classes of one report", () => {
    expect(parseSharesOutstanding(recorded(LOCKUPS_REPLAY_FILES.companyFacts))).toEqual({
      shares: '333700000',
      asOf: '2025-05-08',
      filed: '2025-05-30',
      accession: '0001640147-25-000110',
      form: '10-Q',
      classes: 1,
    });
    // Varied inside the real document: a second class reported in the same 10-Q (as a multi-class company does).
    const doc = JSON.parse(recorded(LOCKUPS_REPLAY_FILES.companyFacts));
    const shares = doc.facts.dei.EntityCommonStockSharesOutstanding.units.shares;
    shares.push({ ...shares[shares.length - 1], val: 50_000_000 });
    expect(parseSharesOutstanding(JSON.stringify(doc))).toMatchObject({ shares: '383700000', classes: 2 });
    delete doc.facts.dei;
    expect(parseSharesOutstanding(JSON.stringify(doc))).toBeNull();
    expect(() => parseSharesOutstanding('{"cik":1}')).toThrow(/unexpected shape: facts/);
  });
});
