import { join } from 'node:path';
import request from 'supertest';
import { INSIDERS_RECORDINGS_DIR, importInsiderFile, insidersJobIds, upsertCompanies } from '@tickerbell/jobs/insiders';
import type { InsiderCompanyPage, InsiderFollowView } from '@tickerbell/jobs/insiders/shapes';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from '../support/accounts-harness';

const NOW = new Date('2026-11-20T15:00:00Z');

interface User {
  agent: Agent;
  id: number;
  csrf: string;
}

/**
 * Following companies' insider trades through the real app (sessions, CSRF, PostgreSQL, Redis):
 * the recorded Workday filing is stored; Tesla is a company of the ticker list with no filing
 * stored, so following it queues its backfill.
 */
describe('insider follows api (real app, signed-in users)', () => {
  const harness = new AccountsHarness();
  let alice: User;
  let bob: User;

  async function user(email: string): Promise<User> {
    const agent = request.agent(harness.app());
    const id = await signedInUser(harness, agent, email);
    return { agent, id, csrf: await csrfOf(agent) };
  }

  const follows = async (userId: number) =>
    harness.db.dataSource.query(
      `SELECT c.ticker, f.notify_cluster_buy, f.officer_buy_min_value, f.notify_unusual_activity
       FROM insider_follows f JOIN insider_trading_companies c ON c.id = f.company_id WHERE f.user_id = $1 ORDER BY c.ticker`,
      [userId],
    );
  const put = (who: User, ticker: string, body: unknown) => who.agent.put(`/api/insiders/follows/${ticker}`).set('x-csrf-token', who.csrf).send(body as object);

  beforeAll(async () => {
    await harness.start();
    await importInsiderFile(harness.db.dataSource, join(INSIDERS_RECORDINGS_DIR, 'sec_form4_WDAY_2025-03-05_code_F_fullsubmission.txt'), { now: NOW });
    await upsertCompanies(harness.db.dataSource, [{ cik: '0001318605', ticker: 'TSLA', name: 'Tesla, Inc.' }]);
    alice = await user('alice-insiders@example.com');
    bob = await user('bob-insiders@example.com');
  }, 60_000);

  afterAll(() => harness.stop());

  it('answers 401 to signed-out follow routes and refuses writes without the CSRF token', async () => {
    const anonymous = request.agent(harness.app());
    const csrf = await csrfOf(anonymous);
    const answers = await Promise.all([
      anonymous.get('/api/insiders/follows'),
      anonymous.put('/api/insiders/follows/WDAY').set('x-csrf-token', csrf).send({}),
      anonymous.delete('/api/insiders/follows/WDAY').set('x-csrf-token', csrf),
    ]);
    expect(answers.map((res) => [res.status, res.body.error?.code])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
    const missing = await alice.agent.put('/api/insiders/follows/WDAY').send({});
    const forged = await alice.agent.delete('/api/insiders/follows/WDAY').set('x-csrf-token', 'forged');
    expect([missing.status, missing.body.error.code, forged.status, forged.body.error.code]).toEqual([403, 'csrf_invalid', 403, 'csrf_invalid']);
    expect(await follows(alice.id)).toEqual([]);
  });

  it('follows with the defaults, changes the settings, lists them, and shows them on the company page', async () => {
    const first = await put(alice, 'wday', {}).expect(200);
    expect(first.body).toEqual({
      company: { cik: '0001327811', ticker: 'WDAY', name: 'Workday, Inc.' },
      notifyClusterBuy: true,
      officerBuyMinValue: 25000,
      notifyUnusualActivity: true,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    } satisfies InsiderFollowView);
    const changed = await put(alice, 'WDAY', { notifyClusterBuy: false, officerBuyMinValue: 100000.5, notifyUnusualActivity: true }).expect(200);
    expect(changed.body).toMatchObject({ notifyClusterBuy: false, officerBuyMinValue: 100000.5, createdAt: first.body.createdAt });
    await put(alice, 'WDAY', { notifyClusterBuy: false, officerBuyMinValue: null, notifyUnusualActivity: false }).expect(200);
    expect(await follows(alice.id)).toEqual([{ ticker: 'WDAY', notify_cluster_buy: false, officer_buy_min_value: null, notify_unusual_activity: false }]);

    const list = await alice.agent.get('/api/insiders/follows').expect(200);
    expect(list.body).toEqual([expect.objectContaining({ company: expect.objectContaining({ ticker: 'WDAY' }), officerBuyMinValue: null, notifyUnusualActivity: false })]);
    const page = (await alice.agent.get('/api/insiders/companies/WDAY').expect(200)).body as InsiderCompanyPage;
    expect(page.follow).toEqual({ notifyClusterBuy: false, officerBuyMinValue: null, notifyUnusualActivity: false });
  });

  it('refuses bad settings with a 400 naming the field, and unknown companies with a 404, storing nothing', async () => {
    const fields = async (body: unknown) => ((await put(bob, 'WDAY', body).expect(400)).body.error.details as { field: string }[]).map((d) => d.field);
    expect(await fields({ officerBuyMinValue: -5 })).toEqual(['officerBuyMinValue']);
    expect(await fields({ officerBuyMinValue: '25000' })).toEqual(['officerBuyMinValue']);
    expect(await fields({ notifyClusterBuy: 'yes' })).toEqual(['notifyClusterBuy']);
    expect(await fields({ officerBuyMinValue: 1e15 })).toEqual(['officerBuyMinValue']);
    expect((await put(bob, 'WDAY', { notifyEverything: true }).expect(400)).body.error.code).toBe('validation_failed');
    expect((await put(bob, 'NOPE', {}).expect(404)).body.error.code).toBe('not_found');
    expect((await put(bob, '%24%24', {}).expect(404)).body.error.code).toBe('not_found');
    expect(await follows(bob.id)).toEqual([]);
  });

  it('keeps each user to their own follows: another user reads, changes and deletes only theirs', async () => {
    expect((await bob.agent.get('/api/insiders/follows').expect(200)).body).toEqual([]);
    expect(((await bob.agent.get('/api/insiders/companies/WDAY').expect(200)).body as InsiderCompanyPage).follow).toBeNull();
    // Bob unfollowing what Alice follows removes nothing of hers.
    await bob.agent.delete('/api/insiders/follows/WDAY').set('x-csrf-token', bob.csrf).expect(204);
    await put(bob, 'WDAY', { notifyClusterBuy: true, officerBuyMinValue: 5000, notifyUnusualActivity: true }).expect(200);
    expect(await follows(alice.id)).toEqual([{ ticker: 'WDAY', notify_cluster_buy: false, officer_buy_min_value: null, notify_unusual_activity: false }]);
    expect(await follows(bob.id)).toEqual([{ ticker: 'WDAY', notify_cluster_buy: true, officer_buy_min_value: '5000.00', notify_unusual_activity: true }]);
    expect(((await alice.agent.get('/api/insiders/companies/WDAY').expect(200)).body as InsiderCompanyPage).follow?.officerBuyMinValue).toBeNull();
  });

  it('queues the backfill of a followed company that has no filing stored, once per day, and not of one that has', async () => {
    const insiders = harness.queues.queue('insiders');
    await put(alice, 'TSLA', {}).expect(200);
    await put(bob, 'TSLA', { notifyClusterBuy: true, officerBuyMinValue: null, notifyUnusualActivity: false }).expect(200);
    const day = new Date().toISOString().slice(0, 10);
    const job = await insiders.getJob(insidersJobIds.backfill('0001318605', day));
    expect([job?.name, job?.data]).toEqual(['insiders.backfill-company', { cik: '0001318605' }]);
    const queued = (await insiders.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed'])).map((j) => j.name);
    // One for TSLA whoever follows it, none for WDAY (its filings are stored).
    expect(queued.filter((name) => name === 'insiders.backfill-company')).toHaveLength(1);
  });

  it('unfollows idempotently; 404 for an unknown company', async () => {
    await alice.agent.delete('/api/insiders/follows/WDAY').set('x-csrf-token', alice.csrf).expect(204);
    await alice.agent.delete('/api/insiders/follows/WDAY').set('x-csrf-token', alice.csrf).expect(204);
    expect((await follows(alice.id)).map((row: { ticker: string }) => row.ticker)).toEqual(['TSLA']);
    expect((await alice.agent.delete('/api/insiders/follows/NOPE').set('x-csrf-token', alice.csrf).expect(404)).body.error.code).toBe('not_found');
    // Bob's follow of WDAY is still there.
    expect((await follows(bob.id)).map((row: { ticker: string }) => row.ticker)).toEqual(['TSLA', 'WDAY']);
  });
});
