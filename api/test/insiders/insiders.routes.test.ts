import { parse } from 'csv-parse/sync';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, fixedClock } from '@tickerbell/jobs';
import { findInsiderCompany, recomputeInsiderAnalytics } from '@tickerbell/jobs/insiders';
import type { InsiderClusterBuy, InsiderCompanyPage, InsiderFilingsPage, InsiderPage, InsiderScreenerPage, InsiderTradeRow } from '@tickerbell/jobs/insiders/shapes';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { CLUSTER, importPurchaseVariant, importRecordedFilings } from './insiders-fixtures';

const logger = pino({ level: 'silent' });
const NOW = new Date('2026-11-20T15:00:00Z');

/**
 * The insiders read api through the real Express app and PostgreSQL: every recorded Form 4
 * (13 filings, 41 lines) stored by the real import, plus three purchases built in the database from
 * the recorded NCV purchase (other owners, dates and amounts: a cluster buy), with NCV's analytics
 * computed by the real recompute.
 */
describe('insiders api: screener, CSV, filings, companies, insiders, cluster buys', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  let app: ReturnType<typeof createApp>;

  const screener = async (query: string): Promise<InsiderScreenerPage> => (await request(app).get(`/api/insiders/screener?${query}`).expect(200)).body as InsiderScreenerPage;
  /** Every row of a query, page by page through nextCursor. */
  const allPages = async (query: string): Promise<InsiderTradeRow[]> => {
    const rows: InsiderTradeRow[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const answer: InsiderScreenerPage = await screener(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      rows.push(...answer.rows);
      cursor = answer.nextCursor;
      if (!cursor) return rows;
    }
    throw new Error('more than 50 pages');
  };
  const refused = async (query: string) => {
    const res = await request(app).get(`/api/insiders/screener?${query}`).expect(400);
    return (res.body.error.details as { field: string }[]).map((d) => d.field);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await importRecordedFilings(db.dataSource, NOW);
    for (const variant of CLUSTER) await importPurchaseVariant(db.dataSource, variant, NOW);
    const ncv = await findInsiderCompany(db.dataSource, 'NCV');
    await recomputeInsiderAnalytics({ dataSource: db.dataSource, queues, clock: fixedClock(NOW) }, ncv!.id);
    await db.dataSource.query(`INSERT INTO markets (symbol, name, type, cik) VALUES ('SNOW', 'Snowflake Inc.', 'stock', '0001640147')`);
    app = createApp({ config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }), dataSource: db.dataSource, redis, queues, logger });
  }, 60_000);

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('pages through every line with the cursor, newest filing date first, lines without one last', async () => {
    const rows = await allPages('limit=7');
    expect(rows).toHaveLength(44);
    expect(new Set(rows.map((row) => row.id)).size).toBe(44);
    const dates = rows.map((row) => row.filingDate);
    const dated = dates.filter((date): date is string => date !== null);
    // Bare XML documents (META, MVIS, SCWO, SNOW, ATEX: 20 lines) carry no filing date: last.
    expect(dated).toHaveLength(24);
    expect(dates.slice(24)).toEqual(Array(20).fill(null));
    expect([...dated].sort().reverse()).toEqual(dated);
    expect(rows.slice(0, 3).map((row) => [row.ticker, row.insiderName, row.filingDate])).toEqual([
      ['NCV', 'AFFILIATE THREE', '2026-11-19'],
      ['NCV', 'DIRECTOR TWO', '2026-11-18'],
      ['NCV', 'OFFICER ONE', '2026-11-17'],
    ]);
    // The same lines as one page.
    expect((await screener('limit=200')).rows.map((row) => row.id)).toEqual(rows.map((row) => row.id));
  });

  it('answers a line with its filing, company, insider, roles as filed and every value as stored', async () => {
    const [air] = (await screener('ticker=AIR')).rows;
    expect(air).toEqual({
      id: expect.stringMatching(/^\d+$/),
      accessionNumber: '0001127602-25-001055',
      formType: '4',
      filedAt: '2025-01-10T21:07:30.000Z',
      filingDate: '2025-01-10',
      secUrl: expect.stringContaining('/Archives/edgar/data/1750/000112760225001055/'),
      companyCik: '0000001750',
      ticker: 'AIR',
      companyName: 'AAR CORP',
      insiderCik: '0001806647',
      insiderName: 'Garascia Jessica A.',
      roles: ['officer'],
      officerTitle: 'Senior VP, GC, CAO & Secretary',
      coOwners: [],
      table: 'non-derivative',
      lineNumber: 1,
      securityTitle: 'Common Stock',
      transactionDate: '2025-01-10',
      transactionCode: 'S',
      acquiredDisposed: 'D',
      sharesTraded: '1500',
      pricePerShare: '66.903',
      totalValue: '100354.50',
      sharesOwnedAfter: expect.any(String),
      isWeightedPrice: true,
      priceFootnote: expect.stringContaining('weighted average'),
      directOrIndirect: 'D',
      natureOfOwnership: null,
      rule10b5One: false,
      traderPattern: null,
      countsAs: 'sell',
      dataSource: 'sec',
    });
  });

  it('filters by codes, value, roles, ticker, insider, dates, table and 10b5-1, and labels simulated rows', async () => {
    const purchases = await screener('codes=P');
    expect(purchases.rows.map((row) => [row.insiderName, row.totalValue, row.dataSource])).toEqual([
      ['AFFILIATE THREE', '29875.00', 'simulated'],
      ['DIRECTOR TWO', '148800.00', 'simulated'],
      ['OFFICER ONE', '60500.00', 'simulated'],
      ['LEMESEVSKI ELIZABETH', '3525.00', 'sec'],
    ]);
    expect(purchases.replay).toBe(true);
    expect((await screener('codes=S,F&ticker=AIR')).replay).toBe(false);
    // OpenInsider's "officer buys over $25k".
    const officers = await screener('codes=P&roles=officer,director&minValue=25000');
    expect(officers.rows.map((row) => [row.insiderName, row.roles, row.officerTitle])).toEqual([
      ['DIRECTOR TWO', ['director'], null],
      ['OFFICER ONE', ['officer'], 'Chief Executive Officer'],
    ]);
    expect((await screener('minValue=10000000')).rows.map((row) => row.totalValue)).toEqual(['282812500.00', '11371931.30', '11037035.97']);
    expect((await screener('ticker=snow')).rows).toHaveLength(7);
    expect((await screener('ticker=0001640147')).rows).toHaveLength(7);
    expect((await screener('ticker=NOPE')).rows).toEqual([]);
    expect((await screener('insiderCik=1409324')).rows.map((row) => [row.ticker, row.transactionCode, row.roles])).toEqual([['WDAY', 'F', ['officer', 'director']]]);
    expect((await screener('tradedFrom=2025-03-01&tradedTo=2025-03-31')).rows.map((row) => row.ticker).sort()).toEqual([
      ...Array(4).fill('AOSL'),
      'WDAY',
      ...Array(9).fill('ZIP'),
    ]);
    expect((await screener('filedFrom=2025-03-18&filedTo=2025-03-18')).rows).toHaveLength(13);
    expect((await screener('table=derivative')).rows).toHaveLength(11);
    // IHT's sale was made under a 10b5-1 plan (the aff10b5One checkbox).
    expect((await screener('ticker=IHT')).rows.map((row) => row.rule10b5One)).toEqual([true]);
    expect((await screener('ticker=IHT&exclude10b5One=true')).rows).toEqual([]);
    // Gifts and grants are shown, never counted as buying or selling.
    expect((await screener('ticker=META&sort=transactionDate&order=asc')).rows.map((row) => [row.transactionCode, row.countsAs])).toEqual([
      ['C', null],
      ['G', null],
    ]);
  });

  it('keeps cluster-buy lines only with clusterOnly: the window of a flagged analytics day', async () => {
    const cluster = await screener('clusterOnly=true');
    expect(cluster.rows.map((row) => row.insiderName)).toEqual(['AFFILIATE THREE', 'DIRECTOR TWO', 'OFFICER ONE']);
    expect((await screener('clusterOnly=true&ticker=AIR')).rows).toEqual([]);
  });

  it('sorts by the whitelisted keys both ways, pages with each, and refuses another sort’s cursor', async () => {
    const byValue = await allPages('ticker=SNOW&sort=totalValue&order=desc&limit=2');
    expect(byValue.map((row) => row.totalValue)).toEqual(['11371931.30', '11037035.97', '6409372.83', '1776000.00', '845680.51', '687289.16', '0.00']);
    const byShares = await allPages('ticker=ZIP&sort=sharesTraded&order=asc&limit=3');
    expect(byShares.map((row) => row.sharesTraded)).toEqual(['6250', '6250', '13347', '13347', '20444', '20444', '20691', '20691', '33148']);
    const byTicker = await allPages('sort=ticker&limit=5');
    const tickers = byTicker.map((row) => row.ticker);
    expect(tickers).toHaveLength(44);
    expect([...new Set(tickers)]).toEqual(['AIR', 'AOSL', 'ARW', 'ATEX', 'IHT', 'META', 'MVIS', 'NCV', 'SCWO', 'SNOW', 'TSVT', 'WDAY', 'ZIP']);
    const byTrade = await allPages('sort=transactionDate&order=asc&limit=9');
    expect(byTrade[0]!.transactionDate).toBe('2007-08-17');
    expect(byTrade.map((row) => row.transactionDate)).toEqual(byTrade.map((row) => row.transactionDate).sort());
    const filedAsc = await allPages('sort=filedAt&order=asc&limit=6');
    expect(filedAsc.map((row) => row.filingDate).slice(0, 1)).toEqual(['2007-08-17']);
    expect(filedAsc.slice(24).every((row) => row.filingDate === null)).toBe(true);

    const { nextCursor } = await screener('sort=totalValue&limit=1');
    expect(await refused(`sort=sharesTraded&cursor=${nextCursor}`)).toEqual(['cursor']);
    expect(await refused(`sort=totalValue&order=asc&cursor=${nextCursor}`)).toEqual(['cursor']);
    expect(await refused('cursor=bm90LWEtY3Vyc29y')).toEqual(['cursor']);
  });

  it('refuses bad filters with a 400 naming the field', async () => {
    expect(await refused('codes=P,QQ')).toEqual(['codes']);
    expect(await refused('roles=ceo')).toEqual(['roles']);
    expect(await refused('sort=price')).toEqual(['sort']);
    expect(await refused('order=up')).toEqual(['order']);
    expect(await refused('filedFrom=2025-02-30')).toEqual(['filedFrom']);
    expect(await refused('filedFrom=2025-03-02&filedTo=2025-03-01')).toEqual(['filedTo']);
    expect(await refused('tradedFrom=2025-03-02&tradedTo=2025-03-01')).toEqual(['tradedTo']);
    expect(await refused('limit=500')).toEqual(['limit']);
    expect(await refused('minValue=-1')).toEqual(['minValue']);
    expect(await refused('clusterOnly=yes')).toEqual(['clusterOnly']);
    expect(await refused('table=both')).toEqual(['table']);
    expect(await refused('ticker=AAPL&ticker=MSFT')).toEqual(['ticker']);
    expect(await refused('insiderCik=12345678901')).toEqual(['insiderCik']);
    expect(await refused('format=xlsx')).toEqual(['format']);
    const unknown = await request(app).get('/api/insiders/screener?password=1').expect(400);
    expect(unknown.body.error.code).toBe('validation_failed');
  });

  it('exports the whole result as CSV with a file name, a header and formulas neutralized', async () => {
    // A name a spreadsheet would run as a formula (OWASP CSV injection), for this test only.
    await db.dataSource.query(`UPDATE insider_trading_insiders SET name = '=HYPERLINK("http://evil.example")' WHERE cik = '0009999803'`);
    try {
      const res = await request(app).get('/api/insiders/screener?codes=P&format=csv&limit=1').expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename=insider-trades-P.csv');
      expect(res.headers['x-row-count']).toBe('4');
      const records = parse(res.text, { columns: true }) as Record<string, string>[];
      // The limit of a page does not cut the export.
      expect(records).toHaveLength(4);
      expect(Object.keys(records[0]!)).toEqual(expect.arrayContaining(['filed_at', 'ticker', 'insider', 'code', 'shares', 'price', 'value', 'rule_10b5_1', 'data_source', 'sec_url']));
      expect(records[0]).toMatchObject({ ticker: 'NCV', insider: `'=HYPERLINK("http://evil.example")`, code: 'P', code_meaning: 'Open-market or private purchase', counts_as: 'buy', shares: '2500', price: '11.95', value: '29875.00', data_source: 'simulated' });
      expect(records[3]).toMatchObject({ accession_number: '0001240812-07-000005', insider: 'LEMESEVSKI ELIZABETH', trade_date: '2007-08-17', rule_10b5_1: '', data_source: 'sec' });
      const snow = await request(app).get('/api/insiders/screener?ticker=SNOW&sort=totalValue&format=csv').expect(200);
      expect(snow.headers['content-disposition']).toBe('attachment; filename=insider-trades-SNOW.csv');
      expect((parse(snow.text, { columns: true }) as Record<string, string>[]).map((r) => r.value)[0]).toBe('11371931.30');
    } finally {
      await db.dataSource.query(`UPDATE insider_trading_insiders SET name = 'AFFILIATE THREE' WHERE cik = '0009999803'`);
    }
  });

  it('lists the latest filings by acceptance time, with their owners and open-market totals, in cursor pages', async () => {
    const first = (await request(app).get('/api/insiders/filings?limit=4').expect(200)).body as InsiderFilingsPage;
    expect(first.filings.map((f) => f.accessionNumber)).toEqual(['0009999999-26-000103', '0009999999-26-000102', '0009999999-26-000101', '0001493152-25-015819']);
    expect(first.replay).toBe(true);
    const rest: InsiderFilingsPage['filings'] = [];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = (await request(app).get(`/api/insiders/filings?limit=4&cursor=${cursor}`).expect(200)).body as InsiderFilingsPage;
      rest.push(...page.filings);
      cursor = page.nextCursor;
    }
    // Documents with an acceptance time: the full submissions (the .nc and bare XML ones have none).
    expect(rest.map((f) => f.company?.ticker)).toEqual(['ZIP', 'AOSL', 'WDAY', 'AIR', 'NCV']);
    expect(rest.find((f) => f.company?.ticker === 'AIR')).toEqual({
      accessionNumber: '0001127602-25-001055',
      formType: '4',
      filedAt: '2025-01-10T21:07:30.000Z',
      filingDate: '2025-01-10',
      status: 'parsed',
      failureReason: null,
      company: { cik: '0000001750', ticker: 'AIR', name: 'AAR CORP' },
      reportingOwners: [{ cik: '0001806647', name: 'Garascia Jessica A.' }],
      lines: 1,
      buys: 0,
      sells: 1,
      openMarketValue: '100354.50',
      secUrl: expect.stringContaining('sec.gov'),
    });
    expect(rest.find((f) => f.company?.ticker === 'ZIP')).toMatchObject({ lines: 9, buys: 0, sells: 0, openMarketValue: '0.00' });
    const bad = await request(app).get('/api/insiders/filings?cursor=abc').expect(400);
    expect(bad.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  });

  it('answers one stored filing, 404 for an unknown or malformed accession', async () => {
    const res = await request(app).get('/api/insiders/filings/0001127602-25-001055').expect(200);
    expect(res.body).toMatchObject({ accessionNumber: '0001127602-25-001055', issuer: { ticker: 'AIR' }, transactions: [expect.objectContaining({ transactionCode: 'S' })] });
    await request(app).get('/api/insiders/filings/0001127602-25-999999').expect(404);
    await request(app).get('/api/insiders/filings/not-an-accession').expect(404);
  });

  it('finds companies by ticker prefix, name and CIK', async () => {
    const search = async (q: string) => ((await request(app).get(`/api/insiders/companies?q=${encodeURIComponent(q)}`).expect(200)).body as { ticker: string }[]).map((c) => c.ticker);
    expect(await search('ZIP')).toEqual(['ZIP']);
    expect(await search('a')).toEqual(expect.arrayContaining(['AIR', 'AOSL', 'ARW', 'ATEX']));
    expect((await search('a')).slice(0, 4).sort()).toEqual(['AIR', 'AOSL', 'ARW', 'ATEX']);
    expect(await search('snowflake')).toEqual(['SNOW']);
    expect(await search('1640147')).toEqual(['SNOW']);
    expect(await search('100%_')).toEqual([]);
    const missing = await request(app).get('/api/insiders/companies').expect(400);
    expect(missing.body.error.details[0].field).toBe('q');
  });

  it('answers a company page: analytics, lines, no follow signed out, the market of its chart', async () => {
    const ncv = (await request(app).get('/api/insiders/companies/NCV').expect(200)).body as InsiderCompanyPage;
    expect(ncv.company).toEqual({ cik: '0001214935', ticker: 'NCV', name: 'NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND', industry: null, sector: null });
    expect(ncv.latest).toMatchObject({ analysisDate: '2026-11-20', isClusterBuy: true, clusterInsiders: 3, buyTransactions30d: 3, insiderSentiment: 'bullish' });
    expect(ncv.history.map((view) => view.analysisDate)).toEqual(['2026-11-20']);
    expect(ncv.transactions.rows).toHaveLength(4);
    expect(ncv.follow).toBeNull();
    expect(ncv.marketSymbol).toBeNull();
    const snow = (await request(app).get('/api/insiders/companies/snow').expect(200)).body as InsiderCompanyPage;
    expect([snow.company.ticker, snow.marketSymbol, snow.latest, snow.history]).toEqual(['SNOW', 'SNOW', null, []]);
    expect((await request(app).get('/api/insiders/companies/0001640147').expect(200)).body.company.ticker).toBe('SNOW');
    await request(app).get('/api/insiders/companies/NOPE').expect(404);
    await request(app).get('/api/insiders/companies/%24%24').expect(404);
  });

  it('answers an insider page with the companies reported on and the lines', async () => {
    const page = (await request(app).get('/api/insiders/insiders/1402349').expect(200)).body as InsiderPage;
    expect(page.insider).toEqual({ cik: '0001402349', name: 'Scarpelli Michael', roles: ['officer'] });
    expect(page.companies).toEqual([{ cik: '0001640147', ticker: 'SNOW', name: 'Snowflake Inc.', roles: ['officer'], officerTitle: 'Chief Financial Officer', lastFiledAt: null }]);
    expect(page.transactions.rows.map((row) => row.transactionCode).sort()).toEqual(['M', 'M', 'S', 'S', 'S', 'S', 'S']);
    await request(app).get('/api/insiders/insiders/9999999999').expect(404);
    await request(app).get('/api/insiders/insiders/abc').expect(404);
  });

  it('lists the latest cluster buys with their buyers', async () => {
    const clusters = (await request(app).get('/api/insiders/cluster-buys').expect(200)).body as InsiderClusterBuy[];
    expect(clusters).toEqual([
      {
        company: { cik: '0001214935', ticker: 'NCV', name: 'NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND' },
        analysisDate: '2026-11-20',
        clusterInsiders: 3,
        discretionaryBuyValue: expect.any(String),
        sentimentScore: expect.any(String),
        alertReason: expect.any(String),
        buyers: [
          { cik: '0009999802', name: 'DIRECTOR TWO', roles: ['director'], value: '148800.00', lastBuyDate: '2026-11-18' },
          { cik: '0009999801', name: 'OFFICER ONE', roles: ['officer'], value: '60500.00', lastBuyDate: '2026-11-17' },
          { cik: '0009999803', name: 'AFFILIATE THREE', roles: ['other'], value: '29875.00', lastBuyDate: '2026-11-19' },
        ],
        // The buyers are the simulated variants.
        replay: true,
      },
    ]);
    await request(app).get('/api/insiders/cluster-buys?limit=0').expect(400);
  });
});
