import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import {
  createLockupFollow,
  deleteLockupFollow,
  dueLockupNotices,
  listLockupFollows,
  LockupsError,
  recordLockupNotices,
  updateLockupFollow,
} from '../../src/lockups/lockups-follows.store';
import { lockupCalendar, lockupEventDetail, lockupResearch, lockupsSourceStatus } from '../../src/lockups/lockups-read.store';
import { expirePastLockups, recordLockupEarlyRelease, upsertLockupOffering, type LockupOfferingInput } from '../../src/lockups/lockups.store';
import { scoreLockup } from '../../src/lockups/lockups-risk';
import { createEntitlements } from '../../src/billing/entitlements';

// The lockups store on a real PostgreSQL: an offering upserted by tranche (a re-parse updates, never
// duplicates, and keeps what later jobs measured), the calendar's filters and review list, the event
// detail with siblings and prices, the public list, follows with their validation and ownership,
// and the notices due on a fixed day. Values are made up for the store; the parser tests use real documents.

const TODAY = '2025-06-02';
/** Billing off, no limits set: the self-hosted plan allows any number of follows. */
const access = { entitlements: createEntitlements({ billingEnabled: false, graceDays: 7 }), now: new Date() };

function offering(key: string, over: Partial<LockupOfferingInput> = {}): LockupOfferingInput {
  const risk = scoreLockup({ vcBacked: true, sharesLockedUp: '400', totalSharesOutstanding: '1000', runUp: null, avgVolumeRatio: null, industry: 'Software', underwriters: ['Goldman Sachs & Co. LLC'] });
  return {
    offeringKey: key,
    ticker: 'ACME',
    companyName: 'Acme Corp',
    cik: '0000000001',
    ipoDate: '2024-12-10',
    filingDate: '2024-12-11',
    ipoPrice: '20.00',
    sharesOffered: '100',
    underwriters: ['Goldman Sachs & Co. LLC'],
    lockupDays: 180,
    boundParties: 'our directors and officers',
    clause: 'We and our directors ... for 180 days ...',
    sourceAccession: key,
    sourceUrl: null,
    dataSource: 'sec-replay',
    totalSharesOutstanding: '1000',
    vcBacked: true,
    industry: 'Software',
    earlyRelease: [{ description: 'if the price is 33% above the IPO price for 10 of 15 trading days', priceMultiple: 1.33, days: 10, windowDays: 15, sharePct: 0.25 }],
    reviewReason: null,
    tranches: [
      { tranche: 1, label: '90 days', expirationDate: '2025-06-09', sharesLockedUp: '400', riskScore: risk.score, riskFactors: risk.factors },
      { tranche: 2, label: '180 days', expirationDate: '2025-06-16', sharesLockedUp: '100', riskScore: 10, riskFactors: [] },
    ],
    ...over,
  };
}

describe('lockups store (real PostgreSQL)', () => {
  let db: TestDatabase;
  let ann = 0;
  let ben = 0;
  let ids: number[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    [{ id: ann }, { id: ben }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('ann@example.test'), ('ben@example.test') RETURNING id`);
    ({ ids } = await upsertLockupOffering(db.dataSource, offering('0000000001-24-000001'), { today: TODAY }));
    await upsertLockupOffering(
      db.dataSource,
      offering('0000000002-24-000002', {
        ticker: null,
        companyName: 'Unread Inc',
        industry: 'Retail',
        vcBacked: false,
        reviewReason: 'no lock-up period found',
        tranches: [{ tranche: 1, label: null, expirationDate: null, sharesLockedUp: null, riskScore: 0, riskFactors: [] }],
      }),
      { today: TODAY },
    );
  });
  afterAll(() => db.drop());

  it('upserts one row per tranche; a re-parse updates them, keeps a met trigger and drops a tranche it no longer has', async () => {
    expect(ids).toHaveLength(2);
    const met = [{ ...offering('x').earlyRelease[0], metOn: '2025-05-01' }];
    expect(await recordLockupEarlyRelease(db.dataSource, ids[0], met, '2025-05-01')).toBe(true);
    expect(await recordLockupEarlyRelease(db.dataSource, ids[0], met, '2025-05-01')).toBe(false);
    const again = await upsertLockupOffering(
      db.dataSource,
      offering('0000000001-24-000001', { companyName: 'Acme Corporation', tranches: [offering('x').tranches[0]] }),
      { today: TODAY },
    );
    expect(again).toEqual({ ids: [ids[0]], inserted: 0, updated: 1, removed: 1 });
    const detail = await lockupEventDetail(db.dataSource, ids[0]);
    expect(detail).toMatchObject({ companyName: 'Acme Corporation', status: 'released_early', tranches: 1, siblings: [] });
    expect(detail?.earlyRelease[0].metOn).toBe('2025-05-01');
    // Put the second tranche back for the cases below.
    ({ ids } = await upsertLockupOffering(db.dataSource, offering('0000000001-24-000001'), { today: TODAY }));
  });

  it('answers the calendar with filters, the review list and the industries', async () => {
    const all = await lockupCalendar(db.dataSource, { from: TODAY, to: '2025-07-01' }, 'replay');
    expect(all.events.map((e) => e.tranche)).toEqual([1, 2]);
    expect(all.events[0]).toMatchObject({ ticker: 'ACME', floatShare: 0.4, dataSource: 'sec-replay' });
    expect(all.events[0].topFactors.map((f) => f.name)).toEqual(['vcBacked', 'floatUnlock']);
    expect(all.review.map((e) => e.companyName)).toEqual(['Unread Inc']);
    expect(all.industries).toEqual(['Retail', 'Software']);
    expect(all.source).toEqual({ mode: 'replay', lastDiscoveryAt: null });
    const filtered = await lockupCalendar(db.dataSource, { from: TODAY, to: '2025-07-01', minFloatShare: 0.3, minRisk: 20, industry: 'software', vcBacked: true, includeReview: false }, 'live');
    expect(filtered.events.map((e) => e.tranche)).toEqual([1]);
    expect(filtered.review).toEqual([]);
    expect((await lockupCalendar(db.dataSource, { from: TODAY, to: '2025-07-01', vcBacked: false }, 'live')).review).toHaveLength(1);
  });

  it('answers the detail with siblings and the prices since the IPO, the public list, and expires past dates', async () => {
    const [{ id: marketId }] = await db.dataSource.query(`INSERT INTO markets (name, symbol, type) VALUES ('Acme', 'ACME', 'stock') RETURNING id`);
    await db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
       VALUES ($1, '1d', '2024-12-09', 1, 1, 1, 1, 1, 'simulated', true), ($1, '1d', '2024-12-10', 20, 21, 19, 20.5, 1000, 'simulated', true)`,
      [marketId],
    );
    const detail = await lockupEventDetail(db.dataSource, ids[1]);
    expect(detail?.siblings).toEqual([{ id: ids[0], lockupExpirationDate: '2025-06-09', sharesLockedUp: '400', tranche: 1 }]);
    expect(detail?.prices).toEqual([{ date: '2024-12-10', close: '20.5', volume: '1000' }]);
    expect(detail?.pricesSource).toBe('simulated');
    expect(await lockupEventDetail(db.dataSource, 999_999)).toBeNull();
    expect((await lockupResearch(db.dataSource, TODAY)).map((e) => e.id)).toEqual(ids);
    expect(await expirePastLockups(db.dataSource, '2025-06-10')).toBe(0); // tranche 1 is released_early, tranche 2 still ahead
    expect(await expirePastLockups(db.dataSource, '2025-06-17')).toBe(1);
    expect((await lockupsSourceStatus(db.dataSource, 'live')).mode).toBe('live');
  });

  it('creates, lists, updates and deletes follows with their errors and ownership', async () => {
    const t = await createLockupFollow(db.dataSource, ann, { kind: 'ticker', ticker: 'acme', noticeDays: [1, 14] }, access);
    expect(t).toMatchObject({ kind: 'ticker', ticker: 'ACME', minRiskScore: null, noticeDays: [14, 1] });
    const r = await createLockupFollow(db.dataSource, ann, { kind: 'risk', minRiskScore: 40 }, access);
    expect(r.noticeDays).toEqual([14, 7, 1]);
    const error = (p: Promise<unknown>) => p.then(() => null, (e: LockupsError) => [e.code, e.field]);
    expect(await error(createLockupFollow(db.dataSource, ann, { kind: 'ticker', ticker: 'ACME' }, access))).toEqual(['follow_exists', 'ticker']);
    expect(await error(createLockupFollow(db.dataSource, ann, { kind: 'risk', minRiskScore: 10 }, access))).toEqual(['follow_exists', 'kind']);
    expect(await error(createLockupFollow(db.dataSource, ann, { kind: 'risk', minRiskScore: 101 }, access))).toEqual(['invalid_follow', 'minRiskScore']);
    expect(await error(createLockupFollow(db.dataSource, ann, { kind: 'ticker', ticker: 'bad ticker' }, access))).toEqual(['invalid_follow', 'ticker']);
    expect(await error(createLockupFollow(db.dataSource, ann, { kind: 'ticker', ticker: 'X', noticeDays: [3 as 1] }, access))).toEqual(['invalid_follow', 'noticeDays']);
    // The plan's number of follows (here the self-hosted plan of an operator who set 2).
    const twoFollows = { entitlements: createEntitlements({ billingEnabled: false, selfHostedLimits: { lockupFollows: 2 }, graceDays: 7 }), now: new Date() };
    await expect(createLockupFollow(db.dataSource, ann, { kind: 'ticker', ticker: 'ZZZ' }, twoFollows)).rejects.toMatchObject({ code: 'plan_limit', details: { limit: 'lockupFollows', max: 2, used: 2 } });
    expect((await listLockupFollows(db.dataSource, ann)).map((f) => f.kind)).toEqual(['ticker', 'risk']);
    expect(await updateLockupFollow(db.dataSource, ben, t.id, { noticeDays: [7] })).toBeNull();
    expect(await error(updateLockupFollow(db.dataSource, ann, t.id, { minRiskScore: 5 }))).toEqual(['invalid_follow', 'minRiskScore']);
    expect(await updateLockupFollow(db.dataSource, ann, r.id, { minRiskScore: 30, noticeDays: [7] })).toMatchObject({ minRiskScore: 30, noticeDays: [7] });
    expect(await deleteLockupFollow(db.dataSource, ben, r.id)).toBe(false);
    expect(await deleteLockupFollow(db.dataSource, ann, r.id)).toBe(true);
    expect(await deleteLockupFollow(db.dataSource, ann, r.id)).toBe(false);
  });

  it('lists the notices due on a day once: recorded today they come back (retry), recorded earlier they do not', async () => {
    await createLockupFollow(db.dataSource, ben, { kind: 'risk', minRiskScore: 50, noticeDays: [7] }, access);
    // Ann follows ACME with notice days 14 and 1: tranche 1 (2025-06-09) is 7 days away, not one of them.
    // Ben's risk follow (>= 50) matches tranche 1 (its score is over 50) 7 days before.
    const due = await dueLockupNotices(db.dataSource, TODAY);
    expect(due).toEqual([{ userId: ben, eventId: ids[0], daysBefore: 7, recorded: false }]);
    await recordLockupNotices(db.dataSource, due, TODAY);
    expect(await dueLockupNotices(db.dataSource, TODAY)).toEqual([{ userId: ben, eventId: ids[0], daysBefore: 7, recorded: true }]);
    // Ann, one day before tranche 1 (status released_early still notifies) and Ben nothing that day.
    expect(await dueLockupNotices(db.dataSource, '2025-06-08')).toEqual([{ userId: ann, eventId: ids[0], daysBefore: 1, recorded: false }]);
  });
});
