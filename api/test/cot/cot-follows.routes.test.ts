import { join } from 'node:path';
import request from 'supertest';
import { importCotRows, openCotFile } from '@tickerbell/jobs/cot';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from '../support/accounts-harness';

const SAMPLE = join(__dirname, '../../../jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');

describe('COT follows api (real app, PostgreSQL, Redis, signed-in users)', () => {
  const harness = new AccountsHarness();
  let alice: { agent: Agent; id: number; csrf: string };
  let bob: { agent: Agent; id: number; csrf: string };

  async function user(email: string) {
    const agent = request.agent(harness.app());
    const id = await signedInUser(harness, agent, email);
    return { agent, id, csrf: await csrfOf(agent) };
  }

  async function followRows(userId: number): Promise<string[]> {
    const rows: { cftc_code: string }[] = await harness.db.dataSource.query(
      'SELECT i.cftc_code FROM cot_follows f JOIN cot_instruments i ON i.id = f.instrument_id WHERE f.user_id = $1 ORDER BY 1',
      [userId],
    );
    return rows.map((r) => r.cftc_code);
  }

  beforeAll(async () => {
    await harness.start();
    const file = openCotFile(SAMPLE);
    await importCotRows(harness.db.dataSource, file.rows, { sourceUrl: file.sourceUrl, now: new Date('2022-08-19T20:00:00Z') });
    alice = await user('alice-cot@example.com');
    bob = await user('bob-cot@example.com');
  }, 60000);

  afterAll(async () => {
    await harness.stop();
  });

  it('answers 401 to signed-out requests of every follow route', async () => {
    const app = harness.app();
    const anonymous = request.agent(app);
    const csrf = await csrfOf(anonymous);
    const responses = await Promise.all([
      anonymous.put('/api/cot/instruments/13874A/follow').set('x-csrf-token', csrf),
      anonymous.delete('/api/cot/instruments/13874A/follow').set('x-csrf-token', csrf),
      request(app).get('/api/cot/follows'),
    ]);
    expect(responses.map((r) => [r.status, r.body.error?.code])).toEqual([
      [401, expect.any(String)],
      [401, expect.any(String)],
      [401, expect.any(String)],
    ]);
  });

  it('refuses a follow or unfollow without a valid CSRF token and stores nothing', async () => {
    const missing = await alice.agent.put('/api/cot/instruments/13874A/follow');
    const forged = await alice.agent.delete('/api/cot/instruments/13874A/follow').set('x-csrf-token', 'forged');
    expect([missing.status, missing.body.error.code]).toEqual([403, 'csrf_invalid']);
    expect([forged.status, forged.body.error.code]).toEqual([403, 'csrf_invalid']);
    expect(await followRows(alice.id)).toEqual([]);
  });

  it('follows idempotently and lists the followed instruments of the user only', async () => {
    const first = await alice.agent.put('/api/cot/instruments/13874A/follow').set('x-csrf-token', alice.csrf).expect(200);
    await alice.agent.put('/api/cot/instruments/13874A/follow').set('x-csrf-token', alice.csrf).expect(200);
    await alice.agent.put('/api/cot/instruments/099741/follow').set('x-csrf-token', alice.csrf).expect(200);
    expect(first.body).toEqual({ cftcCode: '13874A', following: true });
    expect(await followRows(alice.id)).toEqual(['099741', '13874A']);

    const list = await alice.agent.get('/api/cot/follows').expect(200);
    expect(list.body.items).toEqual([
      {
        cftcCode: '13874A',
        name: 'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE',
        symbol: 'ES',
        category: 'equity-index',
        exchange: 'CHICAGO MERCANTILE EXCHANGE',
        followedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
      expect.objectContaining({ cftcCode: '099741', name: 'EURO FX - CHICAGO MERCANTILE EXCHANGE', symbol: '6E' }),
    ]);
    const bobs = await bob.agent.get('/api/cot/follows').expect(200);
    expect(bobs.body.items).toEqual([]);
  });

  it('unfollows idempotently, leaving the other follows', async () => {
    await bob.agent.put('/api/cot/instruments/133741/follow').set('x-csrf-token', bob.csrf).expect(200);
    await bob.agent.put('/api/cot/instruments/043602/follow').set('x-csrf-token', bob.csrf).expect(200);
    const first = await bob.agent.delete('/api/cot/instruments/133741/follow').set('x-csrf-token', bob.csrf).expect(200);
    const again = await bob.agent.delete('/api/cot/instruments/133741/follow').set('x-csrf-token', bob.csrf).expect(200);
    expect(first.body).toEqual({ cftcCode: '133741', following: false });
    expect(again.body).toEqual({ cftcCode: '133741', following: false });
    expect(await followRows(bob.id)).toEqual(['043602']);
  });

  it('answers 404 to an unknown instrument code', async () => {
    const put = await alice.agent.put('/api/cot/instruments/999999/follow').set('x-csrf-token', alice.csrf).expect(404);
    const del = await alice.agent.delete('/api/cot/instruments/999999/follow').set('x-csrf-token', alice.csrf).expect(404);
    expect(put.body.error.code).toBe('not_found');
    expect(del.body.error.code).toBe('not_found');
  });
});
