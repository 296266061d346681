import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { JobQueues } from '../../src/runtime/job-queues';
import { EdgarFetchError } from '../../src/sources/sec-edgar.client';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { dedupeByAccession, parseCurrentFilingsFeed, parseFormIndex } from '../../src/insiders/edgar-index.parse';
import { INSIDERS_RECORDINGS_DIR } from '../../src/insiders/form4.parse';
import {
  backfillCompany,
  businessDaysBefore,
  catchUpDailyIndexes,
  fetchAndStoreFiling,
  pollCurrentFilings,
  readDailyIndex,
  syncCompanyTickers,
  type InsidersDiscoveryDeps,
} from '../../src/insiders/insiders-discovery';
import { insidersJobIds } from '../../src/insiders/insiders.jobs';
import { InsidersReplaySource, INSIDERS_REPLAY_FILES } from '../../src/insiders/insiders-replay';
import type { InsidersSource } from '../../src/insiders/insiders-sec.client';
import { recordDiscoveredFilings, recordIndexDay, storedFiling } from '../../src/insiders/insiders.store';

const recording = (file: string) => readFileSync(join(INSIDERS_RECORDINGS_DIR, file), 'utf8');
const CONFIG = { INSIDERS_MAX_FILING_ATTEMPTS: 5, INSIDERS_RETRY_DELAY_MS: 10, INSIDERS_CATCH_UP_DAYS: 10, INSIDERS_FEED_PAGES: 3, INSIDERS_BACKFILL_FILINGS: 100 };

let db: TestDatabase;
const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
const opened: JobQueues[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const queues of opened) {
    await queues.close();
    await deleteKeysWithPrefix(testRedisUrl(), queues.prefix);
  }
  redis.disconnect();
  await db.drop();
});

function newQueues(): JobQueues {
  const queues = new JobQueues(redis, testQueuePrefix());
  opened.push(queues);
  return queues;
}

async function queued(queues: JobQueues, name: string) {
  const jobs = await queues.queue('insiders').getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.filter((j) => j.name === name);
}

/** The real recorded feed for every page asked, the recordings for the rest (a stand-in for EDGAR at its Friday-evening state). */
class RecordedFeedSource extends InsidersReplaySource {
  pagesRead: number[] = [];
  override async currentFilings(start = 0): Promise<string> {
    this.pagesRead.push(start);
    return recording(INSIDERS_REPLAY_FILES.feed);
  }
}

const deps = (queues: JobQueues, source: InsidersSource, at = '2025-12-12T23:04:00Z'): InsidersDiscoveryDeps => ({
  dataSource: db.dataSource,
  queues,
  clock: fixedClock(at),
  source,
  config: CONFIG,
});

describe('poll of the current-filings feed (the real recorded Atom answer, 100 entries)', () => {
  it('records each filing once although the feed lists it twice or more, and queues one fetch per filing', async () => {
    const queues = newQueues();
    const source = new RecordedFeedSource({ dir: INSIDERS_RECORDINGS_DIR });
    const expected = dedupeByAccession(parseCurrentFilingsFeed(recording(INSIDERS_REPLAY_FILES.feed)));
    expect(expected).toHaveLength(46);

    const outcome = await pollCurrentFilings(deps(queues, source));
    // A full page of new filings reads the next page (here the same answer: all known, so it stops).
    expect(outcome).toEqual({ pages: 2, entries: 200, filings: 92, added: 46, queued: 92, tickersQueued: true });
    expect(source.pagesRead).toEqual([0, 100]);
    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM insider_trading_filings WHERE status = 'pending' AND discovered_via = 'feed'`);
    expect(n).toBe(46);
    const fetches = await queued(queues, 'insiders.fetch-filing');
    expect(fetches.map((j) => j.id).sort()).toEqual(expected.map((e) => insidersJobIds.fetchFiling(e.accessionNumber)).sort());
    // The issuer's CIK, from its entry; attempts and backoff from the configuration.
    const hinge = fetches.find((j) => j.data.accession === '0002063236-25-000004');
    expect(hinge?.data).toEqual({ accession: '0002063236-25-000004', cik: '0001673743', via: 'feed' });
    expect(hinge?.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential', delay: 10 } });
    const [row] = await db.dataSource.query(
      `SELECT issuer_cik, filed_at, to_char(filing_date, 'YYYY-MM-DD') AS filing_date, sec_url FROM insider_trading_filings WHERE accession_number = '0002063236-25-000004'`,
    );
    expect(row).toEqual({
      issuer_cik: '0001673743',
      filed_at: new Date('2025-12-12T23:02:43Z'),
      filing_date: '2025-12-12',
      sec_url: 'https://www.sec.gov/Archives/edgar/data/1673743/000206323625000004/0002063236-25-000004-index.htm',
    });
    // The companies table was empty: the tickers are synced first, once.
    expect((await queued(queues, 'insiders.sync-tickers')).map((j) => j.id)).toEqual([insidersJobIds.syncTickers('2025-12-12T23')]);

    const again = await pollCurrentFilings(deps(queues, source));
    expect(again).toMatchObject({ pages: 1, added: 0 });
    expect(await queued(queues, 'insiders.fetch-filing')).toHaveLength(46);
    expect(await queued(queues, 'insiders.sync-tickers')).toHaveLength(1);
    const [health] = await db.dataSource.query(`SELECT consecutive_failures, last_data_at FROM source_health WHERE source = 'sec-form4-feed'`);
    expect(health).toEqual({ consecutive_failures: 0, last_data_at: new Date('2025-12-12T23:02:43Z') });
  });

  it('fails the poll with the reason when the feed is not Atom, and records it on source health', async () => {
    const queues = newQueues();
    const source = new RecordedFeedSource({ dir: INSIDERS_RECORDINGS_DIR });
    source.currentFilings = async () => '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body></body></html>';
    await expect(pollCurrentFilings(deps(queues, source))).rejects.toThrow(Error);
    const [health] = await db.dataSource.query(`SELECT consecutive_failures, last_error FROM source_health WHERE source = 'sec-form4-feed'`);
    expect(health.consecutive_failures).toBe(1);
    expect(health.last_error).toEqual(expect.any(String));
    expect(await queued(queues, 'insiders.fetch-filing')).toHaveLength(0);
  });
});

describe('catch-up from the daily indexes after an outage (fixed clock: Friday 2020-03-20 06:30 New York)', () => {
  const at = '2020-03-20T10:30:00Z';
  const index = parseFormIndex(recording(INSIDERS_REPLAY_FILES.formIndex)).filter((r) => r.formType === '4' || r.formType === '4/A');
  const accessions = [...new Set(index.map((r) => r.accessionNumber))];

  it('reads only the previous business day on a fresh install', async () => {
    const fresh = await createTestDatabase();
    const queues = newQueues();
    try {
      const outcome = await catchUpDailyIndexes({ ...deps(queues, new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR }), at), dataSource: fresh.dataSource });
      expect(outcome.days).toEqual(['2020-03-19']);
    } finally {
      await fresh.drop();
    }
  });

  it('reads every business day missed since the last day read, queues the filings the feed did not see, and nothing twice', async () => {
    const queues = newQueues();
    const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR });
    expect(businessDaysBefore(new Date(at), 6)).toEqual(['2020-03-19', '2020-03-18', '2020-03-17', '2020-03-16', '2020-03-13', '2020-03-12']);
    // Before the outage: Friday the 13th's index was read, and the feed had found two of the 18th's filings (stored since).
    await recordIndexDay(db.dataSource, { day: '2020-03-13', listed: 0, added: 0, readAt: new Date('2020-03-16T10:30:00Z') });
    const seen = accessions.slice(0, 2);
    await recordDiscoveredFilings(
      db.dataSource,
      seen.map((accession) => ({ accession, formType: '4', issuerCik: null, filedAt: null, filingDate: '2020-03-18', secUrl: null })),
      { via: 'feed', now: new Date('2020-03-18T15:00:00Z'), maxAttempts: 5 },
    );
    await db.dataSource.query(`UPDATE insider_trading_filings SET status = 'parsed' WHERE accession_number = ANY($1)`, [seen]);

    const outcome = await catchUpDailyIndexes(deps(queues, source, at));
    expect(outcome.days).toEqual(['2020-03-16', '2020-03-17', '2020-03-18', '2020-03-19']);
    expect((await queued(queues, 'insiders.read-daily-index')).map((j) => j.id).sort()).toEqual(outcome.days.map((d) => insidersJobIds.readIndex(d)));

    // The replay holds the index of the 18th only: the other days answer as EDGAR does on a holiday.
    const reads = [];
    for (const day of outcome.days) reads.push(await readDailyIndex(deps(queues, source, at), day));
    expect(reads.map((r) => [r.day, r.published, r.listed, r.added, r.queued])).toEqual([
      ['2020-03-16', false, 0, 0, 0],
      ['2020-03-17', false, 0, 0, 0],
      ['2020-03-18', true, accessions.length, accessions.length - 2, accessions.length - 2],
      ['2020-03-19', false, 0, 0, 0],
    ]);
    const fetches = await queued(queues, 'insiders.fetch-filing');
    expect(fetches).toHaveLength(accessions.length - 2);
    expect(fetches.map((j) => j.data.accession)).not.toEqual(expect.arrayContaining(seen));
    expect(fetches[0].data.via).toBe('index');
    const [{ listed, added }] = await db.dataSource.query(`SELECT filings_listed AS listed, filings_new AS added FROM insider_trading_index_days WHERE day = '2020-03-18'`);
    expect({ listed, added }).toEqual({ listed: accessions.length, added: accessions.length - 2 });

    // Nothing twice: every day is read, and a second read of the 18th adds nothing new.
    expect((await catchUpDailyIndexes(deps(queues, source, at))).days).toEqual([]);
    expect(await readDailyIndex(deps(queues, source, at), '2020-03-18')).toMatchObject({ added: 0, queued: accessions.length - 2 });
    expect(await queued(queues, 'insiders.fetch-filing')).toHaveLength(accessions.length - 2);
  });
});

describe('fetch of a filing', () => {
  const listing = (accession: string) => [{ accession, formType: '4', issuerCik: '0000001750', filedAt: null, filingDate: '2025-01-10', secUrl: null }];
  const rediscover = async (accession: string) =>
    (await recordDiscoveredFilings(db.dataSource, listing(accession), { via: 'feed', now: new Date(), maxAttempts: 5 })).toFetch;

  it('records a filing that does not parse (the real AIR filing cut in half) as failed, for good', async () => {
    const queues = newQueues();
    const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR });
    const text = recording('sec_form4_AIR_2025-01-10_code_S_fullsubmission.txt');
    source.filing = async () => text.slice(0, Math.floor(text.length / 2));
    await rediscover('0001127602-25-001055');
    const outcome = await fetchAndStoreFiling(deps(queues, source), { accession: '0001127602-25-001055', cik: '1750', via: 'feed' }, { number: 1, of: 5 });
    expect(outcome).toMatchObject({ status: 'failed', permanent: true, attempts: 1 });
    const view = await storedFiling(db.dataSource, '0001127602-25-001055');
    expect(view).toMatchObject({ status: 'failed', transactions: [] });
    expect(view?.failureReason).toMatch(/^(truncated|malformed):/);
    // Listed again by a later poll or index: not fetched again.
    expect(await rediscover('0001127602-25-001055')).toEqual([]);
    expect(await queued(queues, 'insiders.recompute-analytics')).toHaveLength(0);
  });

  it('retries an HTTP error (recorded as an attempt, still pending) and gives up after the last attempt', async () => {
    const queues = newQueues();
    const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR });
    source.filing = async () => {
      throw new EdgarFetchError('GET /Archives/...: HTTP 503 (backing off 30 s)', 503, 30_000);
    };
    const accession = '0001327811-25-000050';
    await rediscover(accession);
    const payload = { accession, cik: '1327811', via: 'feed' as const };
    await expect(fetchAndStoreFiling(deps(queues, source), payload, { number: 1, of: 2 })).rejects.toThrow(/HTTP 503/);
    expect(await storedFiling(db.dataSource, accession)).toMatchObject({ status: 'pending', failureReason: expect.stringContaining('HTTP 503') });
    expect(await rediscover(accession)).toEqual([accession]);
    expect(await fetchAndStoreFiling(deps(queues, source), payload, { number: 2, of: 2 })).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await rediscover(accession)).toEqual([]);
  });

  it('in replay, a filing the recordings do not hold fails for good at once', async () => {
    const queues = newQueues();
    const outcome = await fetchAndStoreFiling(
      deps(queues, new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR })),
      { accession: '0001318605-25-000001', cik: '1318605', via: 'submissions' },
      { number: 1, of: 5 },
    );
    expect(outcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('not among the recordings') });
  });
});

describe('replay: new filings arrive poll after poll', () => {
  it('releases three filings per poll until all are out, each fetched, stored and its analytics queued', async () => {
    const fresh = await createTestDatabase();
    const queues = newQueues();
    try {
      const clock = fixedClock('2025-12-15T15:00:00Z');
      const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR, clock, perPoll: 3 });
      const run: InsidersDiscoveryDeps = { dataSource: fresh.dataSource, queues, clock, source, config: CONFIG };
      const added: number[] = [];
      for (let poll = 0; poll < 6; poll++) {
        added.push((await pollCurrentFilings(run)).added);
        clock.advance(60_000);
      }
      expect(added).toEqual([3, 3, 3, 3, 2, 0]);
      const fetches = await queued(queues, 'insiders.fetch-filing');
      expect(fetches).toHaveLength(14);
      for (const job of fetches) {
        expect(await fetchAndStoreFiling(run, job.data, { number: 1, of: 5 })).toMatchObject({ status: expect.stringMatching(/^(inserted|replaced)$/) });
      }
      const bySource = await fresh.dataSource.query(`SELECT data_source, count(DISTINCT sec_accession_number)::int AS n FROM insider_trading_transactions GROUP BY 1 ORDER BY 1`);
      expect(bySource).toEqual([
        { data_source: 'sec-replay', n: 11 },
        { data_source: 'simulated', n: 3 },
      ]);
      const recomputes = await queued(queues, 'insiders.recompute-analytics');
      expect(recomputes).toHaveLength(14);
      const [ncv] = await fresh.dataSource.query(`SELECT id FROM insider_trading_companies WHERE cik = '0001214935'`);
      expect(recomputes.map((j) => j.id)).toContain(insidersJobIds.recompute(ncv.id, '0009999999-25-000001'));
      // A fetch of a filing stored meanwhile does not go to the source again.
      expect(await fetchAndStoreFiling(run, fetches[0].data, { number: 1, of: 5 })).toEqual({ status: 'already-stored', companyId: expect.any(Number) });
    } finally {
      await fresh.drop();
    }
  });
});

describe('tickers and company backfill (recorded company_tickers.json and Tesla submissions)', () => {
  it('syncs the companies, then queues the fetch of a company\'s recent Form 4s it does not have', async () => {
    const queues = newQueues();
    const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR });
    expect(await syncCompanyTickers(deps(queues, source))).toMatchObject({ listed: 300 });
    const outcome = await backfillCompany(deps(queues, source), '1318605');
    expect(outcome.cik).toBe('0001318605');
    expect(outcome.listed).toBeGreaterThan(0);
    expect(outcome.queued).toBe(outcome.listed);
    const fetches = await queued(queues, 'insiders.fetch-filing');
    expect(fetches).toHaveLength(outcome.listed);
    expect(fetches[0].data).toMatchObject({ cik: '0001318605', via: 'submissions' });
    expect((await backfillCompany(deps(queues, source), '1318605')).added).toBe(0);
    const [tsla] = await db.dataSource.query(`SELECT ticker FROM insider_trading_companies WHERE cik = '0001318605'`);
    expect(tsla.ticker).toBe('TSLA');
  });
});
