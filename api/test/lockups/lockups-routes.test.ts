import http from 'node:http';
import { fixedClock } from '@tickerbell/jobs';
import { upsertLockupOffering, type LockupOfferingInput } from '@tickerbell/jobs/lockups';
import type { LockupCalendarResponse, LockupEventDetail, LockupFollowView, LockupRiskFactorView } from '@tickerbell/jobs/lockups/shapes';
import request from 'supertest';
import { AccountsHarness } from '../support/accounts-harness';
import { quickUser, type SignedIn } from '../support/route-requests';

const NOW = new Date('2026-03-11T15:00:00.000Z');
const TODAY = '2026-03-11';

const factor = (name: LockupRiskFactorView['name'], points: number, weight: number, input: string | null): LockupRiskFactorView => ({
  name,
  label: name,
  points,
  weight,
  value: weight ? points / weight : 0,
  input,
  source: 'Field & Hanka (2001)',
  known: input !== null,
});

/** An offering as the discovery stores it (upsertLockupOffering), with values in the manner of the recorded ABNB prospectus. */
const offering = (fields: Partial<LockupOfferingInput> & Pick<LockupOfferingInput, 'offeringKey' | 'ticker' | 'companyName' | 'tranches'>): LockupOfferingInput => ({
  cik: '0001559720',
  ipoDate: '2025-12-10',
  filingDate: '2025-12-11',
  ipoPrice: '68',
  sharesOffered: '50000000',
  underwriters: ['Morgan Stanley', 'Goldman Sachs & Co. LLC'],
  lockupDays: 90,
  boundParties: 'our directors, executive officers and holders of substantially all of our outstanding capital stock',
  clause: 'we and all of our directors and executive officers ... have agreed not to sell ... for 90 days',
  sourceAccession: '0001193125-25-000001',
  sourceUrl: 'https://www.sec.gov/Archives/edgar/data/1559720/000119312525000001/d81668d424b4.htm',
  dataSource: 'simulated',
  totalSharesOutstanding: '600000000',
  vcBacked: true,
  industry: 'Technology',
  earlyRelease: [{ description: 'if the closing price is at least 33% above the IPO price for 10 of 15 trading days', priceMultiple: 1.33, days: 10, windowDays: 15, sharePct: 0.25 }],
  reviewReason: null,
  ...fields,
});

/** The lockups api through the real app (sessions, CSRF, PostgreSQL); events written with the store the discovery uses. */
describe('lockups api (real app)', () => {
  const harness = new AccountsHarness();
  let server: http.Server;
  let ann: SignedIn;
  let ben: SignedIn;
  let acme: number[] = [];
  let bio = 0;
  let unread = 0;

  const fieldOf = (res: request.Response) => [res.status, res.body.error?.details?.[0]?.field];
  const calendar = async (who: SignedIn, query = '') => (await who.agent.get(`/api/lockups/calendar${query}`).expect(200)).body as LockupCalendarResponse;
  const post = (who: SignedIn, body: unknown) => who.agent.post('/api/lockups/follows').set('x-csrf-token', who.csrf).send(body as object);

  beforeAll(async () => {
    await harness.start();
    server = http.createServer(harness.app({}, fixedClock(NOW))).listen(0);
    [ann, ben] = await Promise.all([quickUser(harness.db.dataSource, server, 'ann-lockups@example.com'), quickUser(harness.db.dataSource, server, 'ben-lockups@example.com')]);
    const db = harness.db.dataSource;
    acme = (
      await upsertLockupOffering(
        db,
        offering({
          offeringKey: '0001193125-25-000001',
          ticker: 'ACME',
          companyName: 'Acme Cloud, Inc.',
          tranches: [
            { tranche: 1, label: 'Day 1 (first trading day)', expirationDate: '2026-03-12', sharesLockedUp: '60000000', riskScore: 72.5, riskFactors: [factor('vcBacked', 25, 25, 'VC-backed'), factor('floatUnlock', 20, 25, '10 % of the float unlocks'), factor('runUp', 0, 20, null)] },
            { tranche: 2, label: '90 days', expirationDate: '2026-03-31', sharesLockedUp: '240000000', riskScore: 81, riskFactors: [factor('floatUnlock', 25, 25, '40 % of the float unlocks'), factor('vcBacked', 25, 25, 'VC-backed')] },
          ],
        }),
        { today: TODAY },
      )
    ).ids;
    [bio] = (
      await upsertLockupOffering(
        db,
        offering({
          offeringKey: '0001193125-25-000002',
          ticker: 'BIOX',
          companyName: 'Biox Therapeutics',
          vcBacked: false,
          industry: 'Biotechnology',
          earlyRelease: [],
          totalSharesOutstanding: '100000000',
          tranches: [{ tranche: 1, label: '180 days', expirationDate: '2026-04-20', sharesLockedUp: '5000000', riskScore: 22, riskFactors: [factor('sector', 15, 15, 'Biotechnology')] }],
        }),
        { today: TODAY },
      )
    ).ids as [number];
    [unread] = (
      await upsertLockupOffering(
        db,
        offering({ offeringKey: '0001193125-25-000003', ticker: 'UNRD', companyName: 'Unread Corp', reviewReason: 'the lock-up period was not read from the filing', tranches: [{ tranche: 1, label: null, expirationDate: null, sharesLockedUp: null, riskScore: 0, riskFactors: [] }] }),
        { today: TODAY },
      )
    ).ids as [number];
    const [{ id: market }]: { id: number }[] = await db.query(`INSERT INTO markets (symbol, name, type) VALUES ('ACME', 'Acme Cloud, Inc.', 'stock') RETURNING id`);
    await db.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
       VALUES ($1, '1d', '2025-12-10', 68, 80, 66, 77.5, 90000000, 'simulated', true), ($1, '1d', '2025-12-11', 77, 79, 74, 75.25, 30000000, 'simulated', true)`,
      [market],
    );
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  it('answers the calendar to a signed-in user: the next 30 days by default, filters, the review list; 400 naming the field', async () => {
    expect((await request(server).get('/api/lockups/calendar')).status).toBe(401);
    expect((await request(server).get(`/api/lockups/events/${acme[0]}`)).status).toBe(401);

    const next = await calendar(ann);
    expect([next.from, next.to]).toEqual([TODAY, '2026-04-10']);
    expect(next.events.map((e) => [e.ticker, e.tranche, e.lockupExpirationDate, e.riskScore])).toEqual([
      ['ACME', 1, '2026-03-12', 72.5],
      ['ACME', 2, '2026-03-31', 81],
    ]);
    expect(next.events[1]).toMatchObject({ tranches: 2, trancheLabel: '90 days', floatShare: 0.4, dataSource: 'simulated', status: 'scheduled', vcBacked: true });
    expect(next.review.map((e) => e.id)).toEqual([unread]);
    expect(next.industries).toEqual(['Biotechnology', 'Technology']);
    expect(next.source).toEqual({ mode: 'replay', lastDiscoveryAt: null });

    const april = await calendar(ann, '?from=2026-04-01&to=2026-04-30');
    expect(april.events.map((e) => e.id)).toEqual([bio]);
    expect((await calendar(ann, '?from=2026-03-01&to=2026-04-30&minRisk=75')).events.map((e) => e.id)).toEqual([acme[1]]);
    expect((await calendar(ann, '?from=2026-03-01&to=2026-04-30&minFloatShare=0.3&vcBacked=true')).events.map((e) => e.id)).toEqual([acme[1]]);
    expect((await calendar(ann, '?from=2026-03-01&to=2026-04-30&industry=Biotechnology&includeReview=false')).events.map((e) => e.id)).toEqual([bio]);
    expect((await calendar(ann, '?vcBacked=false&includeReview=false')).review).toEqual([]);

    expect(fieldOf(await ann.agent.get('/api/lockups/calendar?from=2026-04-01&to=2026-03-01'))).toEqual([400, 'to']);
    expect(fieldOf(await ann.agent.get('/api/lockups/calendar?from=2026-01-01&to=2027-03-01'))).toEqual([400, 'to']);
    expect(fieldOf(await ann.agent.get('/api/lockups/calendar?from=2026-02-30'))).toEqual([400, 'from']);
    expect(fieldOf(await ann.agent.get('/api/lockups/calendar?minRisk=101'))).toEqual([400, 'minRisk']);
    expect(fieldOf(await ann.agent.get('/api/lockups/calendar?minFloatShare=2'))).toEqual([400, 'minFloatShare']);
    expect((await ann.agent.get('/api/lockups/calendar?sort=risk')).status).toBe(400);
  });

  it('answers an event with its factors, clause, triggers, tranches and prices since the IPO; 404 for an unknown id', async () => {
    const res = await ann.agent.get(`/api/lockups/events/${acme[1]}`).expect(200);
    const event = res.body as LockupEventDetail;
    expect(event).toMatchObject({ ticker: 'ACME', tranche: 2, lockupDays: 90, ipoPrice: '68', underwriters: ['Morgan Stanley', 'Goldman Sachs & Co. LLC'], sourceAccession: '0001193125-25-000001' });
    expect(event.factors.map((f) => [f.name, f.points])).toEqual([
      ['floatUnlock', 25],
      ['vcBacked', 25],
    ]);
    expect(event.clause).toContain('have agreed not to sell');
    expect(event.earlyRelease).toEqual([expect.objectContaining({ priceMultiple: 1.33, days: 10, windowDays: 15, metOn: null })]);
    expect(event.siblings).toEqual([{ id: acme[0], lockupExpirationDate: '2026-03-12', sharesLockedUp: '60000000', tranche: 1 }]);
    expect(event.prices).toEqual([
      { date: '2025-12-10', close: '77.5', volume: '90000000' },
      { date: '2025-12-11', close: '75.25', volume: '30000000' },
    ]);
    expect(event.pricesSource).toBe('simulated');
    expect((await ann.agent.get(`/api/lockups/events/${unread}`).expect(200)).body).toMatchObject({ status: 'needs_review', lockupExpirationDate: null, reviewReason: 'the lock-up period was not read from the filing' });
    expect((await ann.agent.get('/api/lockups/events/2147483647')).status).toBe(404);
    expect((await ann.agent.get('/api/lockups/events/abc')).status).toBe(404);
  });

  it('answers the public research list: the next 30 days, without a session', async () => {
    const res = await request(server).get('/api/lockups/research').expect(200);
    expect(res.body.from).toBe(TODAY);
    expect(res.body.to).toBe('2026-04-10');
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual(acme);
    expect(res.body.source.mode).toBe('replay');
  });

  it('keeps each user’s follows: create, list, change, delete; duplicates 409; bad input 400 naming the field; another user’s id 404', async () => {
    const ticker = await post(ann, { kind: 'ticker', ticker: 'acme', noticeDays: [1, 14] });
    expect(ticker.status).toBe(201);
    expect(ticker.body).toMatchObject({ kind: 'ticker', ticker: 'ACME', minRiskScore: null, noticeDays: [14, 1] });
    const risk = await post(ann, { kind: 'risk', minRiskScore: 60 });
    expect(risk.status).toBe(201);
    expect(risk.body.noticeDays).toEqual([14, 7, 1]);

    expect((await post(ann, { kind: 'ticker', ticker: 'ACME' })).status).toBe(409);
    expect(fieldOf(await post(ann, { kind: 'ticker' }))).toEqual([400, 'ticker']);
    expect(fieldOf(await post(ann, { kind: 'risk', minRiskScore: 60, ticker: 'ACME' }))).toEqual([400, 'ticker']);
    expect(fieldOf(await post(ann, { kind: 'risk', minRiskScore: 160 }))).toEqual([400, 'minRiskScore']);
    expect(fieldOf(await post(ann, { kind: 'ticker', ticker: 'BIOX', noticeDays: [3] }))).toEqual([400, 'noticeDays.0']);
    expect(fieldOf(await post(ann, { kind: 'ticker', ticker: 'BIOX', noticeDays: [7, 7] }))).toEqual([400, 'noticeDays']);
    expect(fieldOf(await post(ann, { kind: 'ticker', ticker: 'no spaces' }))).toEqual([400, 'ticker']);
    expect((await ann.agent.post('/api/lockups/follows').send({ kind: 'risk', minRiskScore: 10 })).status).toBe(403); // no CSRF token

    const patched = await ann.agent.patch(`/api/lockups/follows/${risk.body.id}`).set('x-csrf-token', ann.csrf).send({ minRiskScore: 70, noticeDays: [7] });
    expect([patched.status, patched.body.minRiskScore, patched.body.noticeDays]).toEqual([200, 70, [7]]);
    expect(fieldOf(await ann.agent.patch(`/api/lockups/follows/${ticker.body.id}`).set('x-csrf-token', ann.csrf).send({ minRiskScore: 50 }))).toEqual([400, 'minRiskScore']);
    expect((await ann.agent.patch(`/api/lockups/follows/${ticker.body.id}`).set('x-csrf-token', ann.csrf).send({})).status).toBe(400);

    // Ben cannot see, change or delete Ann's follows: the same 404 as an id no one has.
    expect((await ben.agent.get('/api/lockups/follows').expect(200)).body).toEqual([]);
    expect((await ben.agent.patch(`/api/lockups/follows/${risk.body.id}`).set('x-csrf-token', ben.csrf).send({ noticeDays: [1] })).status).toBe(404);
    expect((await ben.agent.delete(`/api/lockups/follows/${ticker.body.id}`).set('x-csrf-token', ben.csrf)).status).toBe(404);
    const list = (await ann.agent.get('/api/lockups/follows').expect(200)).body as LockupFollowView[];
    expect(list.map((f) => [f.kind, f.ticker, f.minRiskScore, f.noticeDays])).toEqual([
      ['ticker', 'ACME', null, [14, 1]],
      ['risk', null, 70, [7]],
    ]);
    // Ben may follow the same ticker himself.
    expect((await post(ben, { kind: 'ticker', ticker: 'ACME' })).status).toBe(201);

    expect((await ann.agent.delete(`/api/lockups/follows/${ticker.body.id}`).set('x-csrf-token', ann.csrf)).status).toBe(204);
    expect((await ann.agent.delete(`/api/lockups/follows/${ticker.body.id}`).set('x-csrf-token', ann.csrf)).status).toBe(404);
    expect((await ann.agent.get('/api/lockups/follows').expect(200)).body).toHaveLength(1);
  });
});
