import request from 'supertest';
import { CHART_LAYOUT_MAX_BYTES, CHART_LAYOUTS_PER_USER_MAX } from '@tickerbell/jobs/chart-layouts';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from '../support/accounts-harness';

interface User {
  agent: Agent;
  id: number;
  csrf: string;
}

const LAYOUT = {
  symbol: 'BTCUSDT',
  interval: '1h',
  indicators: [
    { type: 'sma', period: 20, color: '#2962ff' },
    { type: 'macd', fast: 12, slow: 26, signal: 9 },
  ],
  panes: { volumeHeight: 0.2 },
};

describe('chart layouts api (real app, PostgreSQL, signed-in users)', () => {
  const harness = new AccountsHarness();
  let alice: User;
  let bob: User;
  let carol: User;

  async function user(email: string): Promise<User> {
    const agent = request.agent(harness.app());
    const id = await signedInUser(harness, agent, email);
    return { agent, id, csrf: await csrfOf(agent) };
  }

  const post = (u: User, path: string) => u.agent.post(path).set('x-csrf-token', u.csrf);
  const put = (u: User, path: string) => u.agent.put(path).set('x-csrf-token', u.csrf);
  const patch = (u: User, path: string) => u.agent.patch(path).set('x-csrf-token', u.csrf);
  const del = (u: User, path: string) => u.agent.delete(path).set('x-csrf-token', u.csrf);

  async function create(u: User, name: string, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await post(u, '/api/chart-layouts').send({ name, layout: LAYOUT, ...extra }).expect(201);
    return res.body.id as number;
  }

  /** Ids of the user's layouts marked default, as stored. */
  async function storedDefaults(userId: number): Promise<number[]> {
    const rows: { id: number }[] = await harness.db.dataSource.query('SELECT id FROM chart_layouts WHERE user_id = $1 AND is_default ORDER BY id', [
      userId,
    ]);
    return rows.map((r) => r.id);
  }

  async function layoutCount(userId: number): Promise<number> {
    const [{ count }]: { count: number }[] = await harness.db.dataSource.query('SELECT count(*)::int AS count FROM chart_layouts WHERE user_id = $1', [userId]);
    return count;
  }

  beforeAll(async () => {
    await harness.start();
    alice = await user('alice-layouts@example.com');
    bob = await user('bob-layouts@example.com');
    carol = await user('carol-layouts@example.com');
  }, 60000);

  afterAll(async () => {
    await harness.stop();
  });

  it('answers 401 signed out and 403 without the CSRF token, writing nothing', async () => {
    const app = harness.app();
    const anonymous = await Promise.all([request(app).get('/api/chart-layouts'), request(app).get('/api/chart-layouts/default')]);
    expect(anonymous.map((r) => r.status)).toEqual([401, 401]);
    const forged = await alice.agent.post('/api/chart-layouts').send({ name: 'Forged', layout: LAYOUT });
    expect([forged.status, forged.body.error.code]).toEqual([403, 'csrf_invalid']);
    expect(await layoutCount(alice.id)).toBe(0);
  });

  it('saves a layout, keeping keys it does not know for the client, and reads it back', async () => {
    const res = await post(alice, '/api/chart-layouts').send({ name: ' Swing ', layout: LAYOUT }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Swing',
      isDefault: false,
      layout: LAYOUT,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const read = await alice.agent.get(`/api/chart-layouts/${res.body.id}`).expect(200);
    expect(read.body).toEqual(res.body);

    // Indicators default to none.
    const bare = await post(alice, '/api/chart-layouts').send({ name: 'Bare', layout: { symbol: 'AAPL', interval: '1d' } }).expect(201);
    expect(bare.body.layout).toEqual({ symbol: 'AAPL', interval: '1d', indicators: [] });
  });

  it('lists layouts by name without their bodies, with the symbol, interval and default mark', async () => {
    const res = await alice.agent.get('/api/chart-layouts').expect(200);
    expect(res.body.layouts).toEqual([
      { id: expect.any(Number), name: 'Bare', isDefault: false, symbol: 'AAPL', interval: '1d', createdAt: expect.any(String), updatedAt: expect.any(String) },
      { id: expect.any(Number), name: 'Swing', isDefault: false, symbol: 'BTCUSDT', interval: '1h', createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    expect((await bob.agent.get('/api/chart-layouts').expect(200)).body.layouts).toEqual([]);
  });

  it.each([
    ['an unknown interval', { ...LAYOUT, interval: '2h' }, 'layout.interval'],
    ['an unknown indicator', { ...LAYOUT, indicators: [{ type: 'bollinger' }] }, 'layout.indicators.0.type'],
    ['a period below 2', { ...LAYOUT, indicators: [{ type: 'ema', period: 1 }] }, 'layout.indicators.0.period'],
    ['a period above 500', { ...LAYOUT, indicators: [{ type: 'rsi', period: 501 }] }, 'layout.indicators.0.period'],
    ['a fractional period', { ...LAYOUT, indicators: [{ type: 'rsi', period: 14.5 }] }, 'layout.indicators.0.period'],
    ['a colour that is not a colour', { ...LAYOUT, indicators: [{ type: 'sma', color: 'red;background:url(x)' }] }, 'layout.indicators.0.color'],
    ['no symbol', { interval: '1h' }, 'layout.symbol'],
    ['an array', [LAYOUT], 'layout'],
    ['more than 64 kB serialized', { ...LAYOUT, notes: 'x'.repeat(CHART_LAYOUT_MAX_BYTES) }, 'layout'],
  ])('refuses a layout with %s (400 naming the field)', async (_what, layout, field) => {
    const before = await layoutCount(alice.id);
    const res = await post(alice, '/api/chart-layouts').send({ name: 'Bad', layout }).expect(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await layoutCount(alice.id)).toBe(before);
  });

  it('has no default until one is chosen (200 with layout null, not an error), then exactly one', async () => {
    const none = await bob.agent.get('/api/chart-layouts/default').expect(200);
    expect(none.body).toEqual({ layout: null });

    const first = await create(bob, 'First', { isDefault: true });
    const second = await create(bob, 'Second');
    expect((await bob.agent.get('/api/chart-layouts/default').expect(200)).body.layout).toEqual(expect.objectContaining({ id: first, isDefault: true, layout: LAYOUT }));

    // A new layout saved as the default takes the mark.
    const third = await create(bob, 'Third', { isDefault: true });
    expect(await storedDefaults(bob.id)).toEqual([third]);

    const made = await put(bob, `/api/chart-layouts/${second}/default`).expect(200);
    expect(made.body).toEqual(expect.objectContaining({ id: second, isDefault: true }));
    expect(await storedDefaults(bob.id)).toEqual([second]);
    // Idempotent.
    await put(bob, `/api/chart-layouts/${second}/default`).expect(200);
    expect(await storedDefaults(bob.id)).toEqual([second]);

    await patch(bob, `/api/chart-layouts/${first}`).send({ isDefault: true }).expect(200);
    expect(await storedDefaults(bob.id)).toEqual([first]);
    const listed = (await bob.agent.get('/api/chart-layouts').expect(200)).body.layouts as { id: number; isDefault: boolean }[];
    expect(listed.filter((l) => l.isDefault).map((l) => l.id)).toEqual([first]);

    await patch(bob, `/api/chart-layouts/${first}`).send({ isDefault: false }).expect(200);
    expect(await storedDefaults(bob.id)).toEqual([]);
    expect((await bob.agent.get('/api/chart-layouts/default').expect(200)).body).toEqual({ layout: null });

    // Deleting the default leaves none.
    await put(bob, `/api/chart-layouts/${third}/default`).expect(200);
    await del(bob, `/api/chart-layouts/${third}`).expect(204);
    expect((await bob.agent.get('/api/chart-layouts/default').expect(200)).body).toEqual({ layout: null });
  });

  it('ends concurrent "make default" calls with exactly one default and no error', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create(carol, `Concurrent ${i}`));
    for (let round = 0; round < 5; round++) {
      const responses = await Promise.all(ids.map((id) => put(carol, `/api/chart-layouts/${id}/default`)));
      expect(responses.map((r) => r.status)).toEqual(Array(ids.length).fill(200));
      const defaults = await storedDefaults(carol.id);
      expect(defaults).toHaveLength(1);
      expect(ids).toContain(defaults[0]);
      expect((await carol.agent.get('/api/chart-layouts/default').expect(200)).body.layout.id).toBe(defaults[0]);
    }
    const created = await Promise.all([0, 1, 2, 3].map((i) => post(carol, '/api/chart-layouts').send({ name: `Default ${i}`, layout: LAYOUT, isDefault: true })));
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(await storedDefaults(carol.id)).toHaveLength(1);
  });

  it('has the database refuse a second default even when written directly', async () => {
    const [a, b] = [await create(alice, 'Direct A'), await create(alice, 'Direct B')];
    await harness.db.dataSource.query('UPDATE chart_layouts SET is_default = true WHERE id = $1', [a]);
    await expect(harness.db.dataSource.query('UPDATE chart_layouts SET is_default = true WHERE id = $1', [b])).rejects.toThrow(
      /uq_chart_layouts_default_per_user/,
    );
  });

  it('renames and replaces a layout; an empty change is refused', async () => {
    const id = await create(alice, 'Editable');
    const renamed = await patch(alice, `/api/chart-layouts/${id}`).send({ name: 'Edited' }).expect(200);
    expect([renamed.body.name, renamed.body.layout]).toEqual(['Edited', LAYOUT]);
    const replaced = await patch(alice, `/api/chart-layouts/${id}`).send({ layout: { symbol: 'ETHUSDT', interval: '5m', indicators: [{ type: 'volume' }] } }).expect(200);
    expect([replaced.body.name, replaced.body.layout]).toEqual(['Edited', { symbol: 'ETHUSDT', interval: '5m', indicators: [{ type: 'volume' }] }]);
    const empty = await patch(alice, `/api/chart-layouts/${id}`).send({}).expect(400);
    expect(empty.body.error.code).toBe('validation_failed');
  });

  it("answers 404 to every route on another user's layout, leaving it alone", async () => {
    const id = await create(alice, 'Alice only');
    const base = `/api/chart-layouts/${id}`;
    const responses = await Promise.all([
      bob.agent.get(base),
      patch(bob, base).send({ name: 'Mine' }),
      put(bob, `${base}/default`),
      del(bob, base),
      bob.agent.get('/api/chart-layouts/not-a-number'),
    ]);
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    const still = await alice.agent.get(base).expect(200);
    expect([still.body.name, still.body.isDefault]).toEqual(['Alice only', false]);
  });

  it(`allows ${CHART_LAYOUTS_PER_USER_MAX} layouts per user, also under concurrent saves`, async () => {
    const have = await layoutCount(bob.id);
    await harness.db.dataSource.query(
      `INSERT INTO chart_layouts (user_id, name, layout) SELECT $1, 'Filler ' || g, '{"symbol":"AAPL","interval":"1d","indicators":[]}' FROM generate_series(1, $2::int) g`,
      [bob.id, CHART_LAYOUTS_PER_USER_MAX - have - 2],
    );
    const responses = await Promise.all([0, 1, 2, 3].map((i) => post(bob, '/api/chart-layouts').send({ name: `Race ${i}`, layout: LAYOUT })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
    expect(responses.find((r) => r.status === 403)?.body.error).toEqual(expect.objectContaining({ code: 'limit', details: { max: CHART_LAYOUTS_PER_USER_MAX } }));
    expect(await layoutCount(bob.id)).toBe(CHART_LAYOUTS_PER_USER_MAX);
  });
});
