import Redis from 'ioredis';
import request from 'supertest';
import { alertChangesChannel } from '@tickerbell/jobs/alerts';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { ALERTS_NOW, AlertsHarness, createAlert, patchAlert, type AlertsUser } from '../support/alerts-support';

describe('alerts api (real app, PostgreSQL, Redis, signed-in users)', () => {
  const harness = new AlertsHarness();
  const subscriber = new Redis(testRedisUrl());
  const published: number[][] = [];
  let alice: AlertsUser;
  let bob: AlertsUser;

  async function storedRow(id: number) {
    const [row]: { condition: string; value: string; params: unknown; interval: string | null; market_id: number }[] = await harness.db.dataSource.query(
      'SELECT condition, value::text AS value, params, interval, market_id FROM alerts WHERE id = $1',
      [id],
    );
    return row;
  }

  async function alertCount(userId: number): Promise<number> {
    const [row]: { n: string }[] = await harness.db.dataSource.query('SELECT count(*) AS n FROM alerts WHERE user_id = $1', [userId]);
    return Number(row.n);
  }

  /** Waits until the workers' channel carried a change for this alert id (or fails after 3 s). */
  async function expectPublished(id: number): Promise<void> {
    const deadline = Date.now() + 3000;
    while (!published.some((ids) => ids.includes(id))) {
      if (Date.now() > deadline) throw new Error(`no alert change published for ${id}: ${JSON.stringify(published)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function backfillJob(symbol: string, interval: string) {
    return harness.queues.queue('prices').getJob(`prices.backfill-bars/${encodeURIComponent(symbol)}/${interval}/${ALERTS_NOW.slice(0, 10)}`);
  }

  beforeAll(async () => {
    await harness.start();
    await subscriber.subscribe(alertChangesChannel(harness.prefix));
    subscriber.on('message', (_channel, message: string) => {
      published.push((JSON.parse(message) as { alertIds: number[] }).alertIds);
    });
    alice = await harness.user('alice-alerts@example.com');
    bob = await harness.user('bob-alerts@example.com');
  }, 60000);

  afterAll(async () => {
    subscriber.disconnect();
    await harness.stop();
  });

  beforeEach(() => harness.clock.set(ALERTS_NOW));

  describe('creating each condition family', () => {
    const cases: { symbol: string; condition: Record<string, unknown>; stored: Record<string, unknown>; value: string; interval: string | null }[] = [
      { symbol: 'BTCUSDT', condition: { type: 'crossing_up', value: '60740.25' }, stored: { type: 'crossing_up', value: '60740.25' }, value: '60740.25', interval: null },
      { symbol: 'AAPL', condition: { type: 'greater_than', value: '0.3' }, stored: { type: 'greater_than', value: '0.3' }, value: '0.3', interval: null },
      {
        symbol: 'ETHUSDT',
        condition: { type: 'inside_channel', low: '2900.5', high: '3100' },
        stored: { type: 'inside_channel', low: '2900.5', high: '3100' },
        value: '2900.5',
        interval: null,
      },
      {
        symbol: 'MSFT',
        condition: { type: 'moving_up', amount: '12.5', minutes: 30 },
        stored: { type: 'moving_up', amount: '12.5', minutes: 30 },
        value: '12.5',
        interval: null,
      },
      {
        symbol: 'SOLUSDT',
        condition: { type: 'moving_down_percent', percent: '2.75', minutes: 60 },
        stored: { type: 'moving_down_percent', percent: '2.75', minutes: 60 },
        value: '2.75',
        interval: null,
      },
      { symbol: 'BTCUSDT', condition: { type: 'rsi_above', level: 70 }, stored: { type: 'rsi_above', level: 70, period: 14 }, value: '70', interval: '1h' },
      {
        symbol: 'SPY',
        condition: { type: 'price_crossing_ma', ma: 'ema', period: 50, direction: 'up' },
        stored: { type: 'price_crossing_ma', ma: 'ema', period: 50, direction: 'up' },
        value: '50',
        interval: '1h',
      },
      {
        symbol: 'NVDA',
        condition: { type: 'ma_crossover', fast: 20, slow: 50 },
        stored: { type: 'ma_crossover', ma: 'sma', fast: 20, slow: 50, direction: 'any' },
        value: '20',
        interval: '1h',
      },
      {
        symbol: 'ETHUSDT',
        condition: { type: 'macd_signal_cross', direction: 'down' },
        stored: { type: 'macd_signal_cross', fast: 12, slow: 26, signal: 9, direction: 'down' },
        value: '12',
        interval: '1h',
      },
    ];

    it.each(cases)('stores and reads back $condition.type on $symbol', async ({ symbol, condition, stored, value, interval }) => {
      const created = await createAlert(alice, { name: `${symbol} ${String(condition.type)}`, symbol, condition }).expect(201);
      const { alert } = created.body;
      expect(alert.condition).toEqual(stored);
      expect(alert.interval).toBe(interval);
      expect(alert.symbol).toBe(symbol);

      const read = await alice.agent.get(`/api/alerts/${alert.id}`).expect(200);
      expect(read.body.alert).toEqual(alert);
      const row = await storedRow(alert.id);
      expect(row).toMatchObject({ condition: stored.type, params: stored, interval });
      expect(Number(row.value)).toBe(Number(value));
      await expectPublished(alert.id);
    });
  });

  it('answers the full client shape with the defaults: once per day for crypto, once otherwise', async () => {
    const crypto = await createAlert(alice, { name: 'BTC 100k', symbol: 'btcusdt', condition: { type: 'crossing', value: '100000' } }).expect(201);
    expect(crypto.body.alert).toEqual({
      id: expect.any(Number),
      name: 'BTC 100k',
      symbol: 'BTCUSDT',
      marketType: 'crypto',
      condition: { type: 'crossing', value: '100000' },
      interval: null,
      frequency: 'once_per_day',
      cooldownSeconds: 60,
      expiresAt: null,
      isActive: true,
      useAudio: false,
      audioMessage: null,
      audioVoiceId: null,
      notifyPush: true,
      notifyEmail: false,
      webhookUrl: null,
      webhookSecret: null,
      lastTriggered: null,
      createdAt: ALERTS_NOW,
      updatedAt: ALERTS_NOW,
    });
    const stock = await createAlert(alice, {
      name: 'Apple below 150',
      symbol: 'AAPL',
      condition: { type: 'less_than', value: '150' },
      frequency: 'every_time',
      cooldownSeconds: 300,
      expiresAt: '2026-12-31T00:00:00Z',
      useAudio: true,
      audioMessage: 'Apple fell below one fifty',
      audioVoiceId: 'en-US-1',
      notifyPush: false,
      notifyEmail: true,
    }).expect(201);
    expect(stock.body.alert).toMatchObject({
      marketType: 'stock',
      frequency: 'every_time',
      cooldownSeconds: 300,
      expiresAt: '2026-12-31T00:00:00.000Z',
      useAudio: true,
      audioMessage: 'Apple fell below one fifty',
      audioVoiceId: 'en-US-1',
      notifyPush: false,
      notifyEmail: true,
    });
    const defaulted = await createAlert(alice, { name: 'Apple above 500', symbol: 'AAPL', condition: { type: 'greater_than', value: '500' } }).expect(201);
    expect(defaulted.body.alert.frequency).toBe('once');
  });

  it('generates a webhook secret when a URL comes without one, and keeps a given one', async () => {
    const generated = await createAlert(alice, {
      name: 'hook',
      symbol: 'BTCUSDT',
      condition: { type: 'greater_than', value: '1' },
      webhookUrl: 'http://127.0.0.1:9/hook',
    }).expect(201);
    expect(generated.body.alert.webhookUrl).toBe('http://127.0.0.1:9/hook');
    expect(generated.body.alert.webhookSecret).toMatch(/^[0-9a-f]{64}$/);

    const given = await createAlert(alice, {
      name: 'hook 2',
      symbol: 'BTCUSDT',
      condition: { type: 'greater_than', value: '1' },
      webhookUrl: 'https://hooks.example.com/tickerbell',
      webhookSecret: 'a-secret-of-sixteen+',
    }).expect(201);
    expect(given.body.alert.webhookSecret).toBe('a-secret-of-sixteen+');

    // Another URL keeps the secret the receiver knows; removing the URL removes the secret.
    const moved = await patchAlert(alice, given.body.alert.id, { webhookUrl: 'https://hooks.example.com/v2' }).expect(200);
    expect(moved.body.alert).toMatchObject({ webhookUrl: 'https://hooks.example.com/v2', webhookSecret: 'a-secret-of-sixteen+' });
    const removed = await patchAlert(alice, given.body.alert.id, { webhookUrl: null }).expect(200);
    expect(removed.body.alert).toMatchObject({ webhookUrl: null, webhookSecret: null });
  });

  describe('validation', () => {
    const valid = { name: 'valid', symbol: 'BTCUSDT', condition: { type: 'greater_than', value: '100' } };
    const invalidCases: [string, string, Record<string, unknown>][] = [
      ['a decimal with 11 places', 'condition.value', { condition: { type: 'greater_than', value: '1.12345678901' } }],
      ['a negative threshold', 'condition.value', { condition: { type: 'crossing_up', value: '-5' } }],
      ['a channel whose low is not below its high', 'condition.high', { condition: { type: 'entering_channel', low: '110', high: '110' } }],
      ['a crossover whose fast period is not shorter', 'condition.fast', { condition: { type: 'ma_crossover', fast: 50, slow: 20 } }],
      ['an unknown condition type', 'condition.type', { condition: { type: 'moon', value: '1' } }],
      ['an interval on a price condition', 'interval', { interval: '1h' }],
      ['an interval that does not exist', 'interval', { condition: { type: 'rsi_below', level: 30 }, interval: '2h' }],
      ['an unknown symbol', 'symbol', { symbol: 'NOPE' }],
      ['an expiry in the past', 'expiresAt', { expiresAt: '2026-11-21T11:59:59Z' }],
      ['an expiry that is not an ISO instant', 'expiresAt', { expiresAt: 'tomorrow' }],
      ['a webhook URL that is not http(s)', 'webhookUrl', { webhookUrl: 'ftp://example.com/hook' }],
      ['a webhook URL that is not a URL', 'webhookUrl', { webhookUrl: 'not a url' }],
      ['a webhook secret under 16 characters', 'webhookSecret', { webhookUrl: 'https://example.com/h', webhookSecret: 'short' }],
      ['a webhook secret without a URL', 'webhookSecret', { webhookSecret: 'sixteen-chars-or-more' }],
      ['an empty name', 'name', { name: '  ' }],
      ['a name over 100 characters', 'name', { name: 'x'.repeat(101) }],
      ['an audio message over 500 characters', 'audioMessage', { audioMessage: 'x'.repeat(501) }],
      ['an unknown frequency', 'frequency', { frequency: 'hourly' }],
      ['an unknown field', '', { colour: 'red' }],
    ];

    it.each(invalidCases)('refuses %s with a 400 naming "%s", storing nothing', async (_label, field, change) => {
      const before = await alertCount(alice.id);
      const res = await createAlert(alice, { ...valid, ...change }).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await alertCount(alice.id)).toBe(before);
    });

    it('names the unknown symbol in the message', async () => {
      const res = await createAlert(alice, { ...valid, symbol: 'NOPE' }).expect(400);
      expect(res.body.error.message).toBe('No market with symbol NOPE');
    });

    it('refuses a malformed alert id with 400 and a missing one with 404', async () => {
      const bad = await alice.agent.get('/api/alerts/abc').expect(400);
      expect(bad.body.error.details[0].field).toBe('id');
      await alice.agent.get('/api/alerts/999999').expect(404);
    });
  });

  it('lists the user alerts newest first, filtered by active state and symbol, never another user', async () => {
    const carol = await harness.user('carol-alerts@example.com');
    const ids: number[] = [];
    for (const [symbol, isActive] of [
      ['AAPL', true],
      ['BTCUSDT', false],
      ['AAPL', false],
      ['ETHUSDT', true],
    ] as const) {
      harness.clock.advance(60_000);
      const res = await createAlert(carol, { name: `${symbol} alert`, symbol, isActive, condition: { type: 'greater_than', value: '10' } }).expect(201);
      ids.push(res.body.alert.id);
    }
    await createAlert(bob, { name: 'bob', symbol: 'AAPL', condition: { type: 'greater_than', value: '10' } }).expect(201);

    const all = await carol.agent.get('/api/alerts').expect(200);
    expect(all.body.alerts.map((a: { id: number }) => a.id)).toEqual([...ids].reverse());
    const inactive = await carol.agent.get('/api/alerts?active=false').expect(200);
    expect(inactive.body.alerts.map((a: { id: number }) => a.id)).toEqual([ids[2], ids[1]]);
    const active = await carol.agent.get('/api/alerts?active=true').expect(200);
    expect(active.body.alerts.map((a: { id: number }) => a.id)).toEqual([ids[3], ids[0]]);
    const apple = await carol.agent.get('/api/alerts?symbol=aapl').expect(200);
    expect(apple.body.alerts.map((a: { id: number }) => a.id)).toEqual([ids[2], ids[0]]);
    await carol.agent.get('/api/alerts?active=maybe').expect(400);
  });

  it('pages the list newest first with limit and the nextBefore cursor, filters and deletions included', async () => {
    const dave = await harness.user('dave-alerts@example.com');
    const ids: number[] = [];
    for (const [i, symbol] of ['AAPL', 'BTCUSDT', 'AAPL', 'ETHUSDT', 'AAPL'].entries()) {
      harness.clock.advance(60_000);
      const res = await createAlert(dave, { name: `page ${i}`, symbol, condition: { type: 'greater_than', value: '10' } }).expect(201);
      ids.push(res.body.alert.id);
    }
    const newestFirst = [...ids].reverse();
    const idsOf = (body: { alerts: { id: number }[] }) => body.alerts.map((a) => a.id);

    const pages: number[][] = [];
    let before: string | null = null;
    do {
      const res: request.Response = await dave.agent.get(`/api/alerts?limit=2${before ? `&before=${before}` : ''}`).expect(200);
      pages.push(idsOf(res.body));
      before = res.body.nextBefore;
      if (before !== null) expect(before).toBe(String(pages[pages.length - 1][1]));
    } while (before !== null && pages.length < 10);
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);

    // The whole list fits the default page: no cursor.
    const all = await dave.agent.get('/api/alerts').expect(200);
    expect(idsOf(all.body)).toEqual(newestFirst);
    expect(all.body.nextBefore).toBeNull();
    // An exact fit says so too: the last page is never an empty one.
    const exact = await dave.agent.get('/api/alerts?limit=5').expect(200);
    expect(exact.body.nextBefore).toBeNull();

    // Filters page the same way.
    const apple1 = await dave.agent.get('/api/alerts?symbol=AAPL&limit=2').expect(200);
    expect(idsOf(apple1.body)).toEqual([ids[4], ids[2]]);
    expect(apple1.body.nextBefore).toBe(String(ids[2]));
    const apple2 = await dave.agent.get(`/api/alerts?symbol=AAPL&limit=2&before=${apple1.body.nextBefore}`).expect(200);
    expect(idsOf(apple2.body)).toEqual([ids[0]]);
    expect(apple2.body.nextBefore).toBeNull();

    // The cursor's own alert deleted meanwhile: the next page is still the rest.
    const first = await dave.agent.get('/api/alerts?limit=2').expect(200);
    await dave.agent.delete(`/api/alerts/${ids[3]}`).set('x-csrf-token', dave.csrf).expect(204);
    const next = await dave.agent.get(`/api/alerts?limit=2&before=${first.body.nextBefore}`).expect(200);
    expect(idsOf(next.body)).toEqual([ids[2], ids[1]]);

    // Another user's cursor shows nothing of theirs.
    const bobs = await bob.agent.get(`/api/alerts?before=${ids[4] + 1}`).expect(200);
    expect(idsOf(bobs.body).some((id) => ids.includes(id))).toBe(false);

    for (const bad of ['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'before=abc', 'before=-1', 'cursor=1']) {
      const res = await dave.agent.get(`/api/alerts?${bad}`).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    await dave.agent.get('/api/alerts?limit=200').expect(200);
  });

  it("answers 404 to another user's alert on every :id route and leaves it as it was", async () => {
    const { body } = await createAlert(alice, { name: 'mine', symbol: 'AAPL', condition: { type: 'greater_than', value: '200' } }).expect(201);
    const id = body.alert.id as number;
    await harness.insertLog(id, '201', '2026-11-21T10:00:00Z');
    const responses = await Promise.all([
      bob.agent.get(`/api/alerts/${id}`),
      bob.agent.patch(`/api/alerts/${id}`).set('x-csrf-token', bob.csrf).send({ name: 'stolen', isActive: false }),
      bob.agent.delete(`/api/alerts/${id}`).set('x-csrf-token', bob.csrf),
      bob.agent.get(`/api/alerts/${id}/logs`),
    ]);
    expect(responses.map((r) => [r.status, r.body.error?.code])).toEqual(Array(4).fill([404, 'not_found']));
    const after = await alice.agent.get(`/api/alerts/${id}`).expect(200);
    expect(after.body.alert).toEqual(body.alert);
    const logs = await alice.agent.get(`/api/alerts/${id}/logs`).expect(200);
    expect(logs.body.logs).toHaveLength(1);
  });

  it('edits fields, and a condition change rewrites the stored value and params', async () => {
    const { body } = await createAlert(alice, { name: 'edit me', symbol: 'AAPL', condition: { type: 'greater_than', value: '100' } }).expect(201);
    const id = body.alert.id as number;
    published.length = 0;
    harness.clock.advance(5_000);

    const renamed = await patchAlert(alice, id, { name: 'Apple channel', condition: { type: 'exiting_channel', low: '90', high: '110.5' }, notifyEmail: true })
      .expect(200);
    expect(renamed.body.alert).toMatchObject({
      name: 'Apple channel',
      condition: { type: 'exiting_channel', low: '90', high: '110.5' },
      notifyEmail: true,
      notifyPush: true,
      frequency: 'once',
      updatedAt: '2026-11-21T12:00:05.000Z',
      createdAt: ALERTS_NOW,
    });
    const row = await storedRow(id);
    expect(row.condition).toBe('exiting_channel');
    expect(Number(row.value)).toBe(90);
    expect(row.params).toEqual({ type: 'exiting_channel', low: '90', high: '110.5' });
    await expectPublished(id);

    const moved = await patchAlert(alice, id, { symbol: 'MSFT', frequency: 'every_time', cooldownSeconds: 120, audioMessage: 'Microsoft moved' }).expect(200);
    expect(moved.body.alert).toMatchObject({ symbol: 'MSFT', marketType: 'stock', frequency: 'every_time', cooldownSeconds: 120, audioMessage: 'Microsoft moved' });
    const cleared = await patchAlert(alice, id, { audioMessage: null, expiresAt: '2027-01-01T00:00:00Z' }).expect(200);
    expect(cleared.body.alert).toMatchObject({ audioMessage: null, expiresAt: '2027-01-01T00:00:00.000Z', name: 'Apple channel' });

    // A price condition has no bar interval; a technical one gets 1h unless told.
    const interval = await patchAlert(alice, id, { interval: '4h' }).expect(400);
    expect(interval.body.error.details[0].field).toBe('interval');
    const technical = await patchAlert(alice, id, { condition: { type: 'rsi_below', level: 30, period: 7 } }).expect(200);
    expect(technical.body.alert).toMatchObject({ condition: { type: 'rsi_below', level: 30, period: 7 }, interval: '1h' });
    expect(Number((await storedRow(id)).value)).toBe(30);
    const back = await patchAlert(alice, id, { condition: { type: 'crossing_down', value: '95.125' } }).expect(200);
    expect(back.body.alert).toMatchObject({ condition: { type: 'crossing_down', value: '95.125' }, interval: null });

    const badPatch = await patchAlert(alice, id, { condition: { type: 'inside_channel', low: '5', high: '1' } }).expect(400);
    expect(badPatch.body.error.details[0].field).toBe('condition.high');
    const unknown = await patchAlert(alice, id, { symbol: 'ZZZZ' }).expect(400);
    expect(unknown.body.error.details[0].field).toBe('symbol');
    const past = await patchAlert(alice, id, { expiresAt: '2026-01-01T00:00:00Z' }).expect(400);
    expect(past.body.error.details[0].field).toBe('expiresAt');
    expect((await storedRow(id)).params).toEqual({ type: 'crossing_down', value: '95.125' });
  });

  it('queues one bars backfill per symbol, interval and day for technical alerts, none for price alerts', async () => {
    await createAlert(alice, { name: 'price only', symbol: 'GLD', condition: { type: 'greater_than', value: '1' } }).expect(201);
    expect(await harness.queues.queue('prices').getJobs(['waiting'])).not.toContainEqual(expect.objectContaining({ data: expect.objectContaining({ symbol: 'GLD' }) }));

    await createAlert(alice, { name: 'rsi', symbol: 'QQQ', interval: '4h', condition: { type: 'rsi_above', level: 75 } }).expect(201);
    await createAlert(alice, { name: 'ema', symbol: 'QQQ', interval: '4h', condition: { type: 'price_crossing_ma', ma: 'ema', period: 20 } }).expect(201);
    const job = await backfillJob('QQQ', '4h');
    expect(job?.name).toBe('prices.backfill-bars');
    expect(job?.data).toEqual({ symbol: 'QQQ', interval: '4h', limit: 500 });
    const waiting = await harness.queues.queue('prices').getJobs(['waiting']);
    expect(waiting.filter((j) => j.data.symbol === 'QQQ')).toHaveLength(1);

    // A change of interval or symbol needs other bars.
    const { body } = await createAlert(alice, { name: 'macd', symbol: 'TSLA', condition: { type: 'macd_signal_cross' } }).expect(201);
    expect(await backfillJob('TSLA', '1h')).toBeDefined();
    await patchAlert(alice, body.alert.id, { interval: '15m' }).expect(200);
    expect((await backfillJob('TSLA', '15m'))?.data).toEqual({ symbol: 'TSLA', interval: '15m', limit: 500 });
    await patchAlert(alice, body.alert.id, { symbol: 'JPM' }).expect(200);
    expect((await backfillJob('JPM', '15m'))?.data).toEqual({ symbol: 'JPM', interval: '15m', limit: 500 });
    // The index symbol's caret is percent-encoded in the id (prices.backfill-bars/%5EGSPC/...) and kept in the job.
    await createAlert(alice, { name: 'index', symbol: '^GSPC', condition: { type: 'rsi_below', level: 20 } }).expect(201);
    expect((await backfillJob('^GSPC', '1h'))?.data.symbol).toBe('^GSPC');
  });

  it('deletes an alert with its logs, announces it, and then answers 404', async () => {
    const { body } = await createAlert(alice, { name: 'delete me', symbol: 'AAPL', condition: { type: 'greater_than', value: '1' } }).expect(201);
    const id = body.alert.id as number;
    await harness.insertLog(id, '2', '2026-11-21T11:00:00Z');
    published.length = 0;
    await alice.agent.delete(`/api/alerts/${id}`).set('x-csrf-token', alice.csrf).expect(204);
    await expectPublished(id);
    await alice.agent.get(`/api/alerts/${id}`).expect(404);
    await alice.agent.delete(`/api/alerts/${id}`).set('x-csrf-token', alice.csrf).expect(404);
    const logs: unknown[] = await harness.db.dataSource.query('SELECT 1 FROM alert_logs WHERE alert_id = $1', [id]);
    expect(logs).toEqual([]);
  });

  it('pages the firing history newest first with before and limit', async () => {
    const { body } = await createAlert(alice, { name: 'history', symbol: 'BTCUSDT', condition: { type: 'crossing', value: '60000' } }).expect(201);
    const id = body.alert.id as number;
    // Inserted out of order: the history is ordered by when it fired, not by id.
    const times = ['2026-11-15', '2026-11-17', '2026-11-16', '2026-11-19', '2026-11-18', '2026-11-20', '2026-11-14'].map((d) => `${d}T08:00:00Z`);
    const logIds = new Map<string, string>();
    for (const [i, t] of times.entries()) logIds.set(t, await harness.insertLog(id, `6000${i}.5`, t, `history Alert Triggered ${i}`));
    const newestFirst = [...times].sort().reverse();

    const first = await alice.agent.get(`/api/alerts/${id}/logs?limit=3`).expect(200);
    expect(first.body.logs.map((l: { triggeredAt: string }) => l.triggeredAt)).toEqual(newestFirst.slice(0, 3).map((t) => new Date(t).toISOString()));
    expect(first.body.logs[0]).toEqual({
      id: logIds.get('2026-11-20T08:00:00Z'),
      triggeredAt: '2026-11-20T08:00:00.000Z',
      value: '60005.5',
      message: 'history Alert Triggered 5',
      wasNotified: false,
      webhookStatus: null,
      webhookAttempts: 0,
      webhookLastError: null,
    });
    expect(first.body.nextBefore).toBe(first.body.logs[2].id);

    const second = await alice.agent.get(`/api/alerts/${id}/logs?limit=3&before=${first.body.nextBefore}`).expect(200);
    expect(second.body.logs.map((l: { triggeredAt: string }) => l.triggeredAt)).toEqual(newestFirst.slice(3, 6).map((t) => new Date(t).toISOString()));
    const third = await alice.agent.get(`/api/alerts/${id}/logs?limit=3&before=${second.body.nextBefore}`).expect(200);
    expect(third.body.logs.map((l: { id: string }) => l.id)).toEqual([logIds.get('2026-11-14T08:00:00Z')]);
    expect(third.body.nextBefore).toBeNull();

    const all = await alice.agent.get(`/api/alerts/${id}/logs`).expect(200);
    expect(all.body.logs).toHaveLength(7);
    expect(all.body.nextBefore).toBeNull();
    const tooMany = await alice.agent.get(`/api/alerts/${id}/logs?limit=201`).expect(400);
    expect(tooMany.body.error.details[0].field).toBe('limit');
    await alice.agent.get(`/api/alerts/${id}/logs?limit=200`).expect(200);
  });

  it('pages 50 logs by default', async () => {
    const { body } = await createAlert(alice, { name: 'busy', symbol: 'DOGEUSDT', condition: { type: 'greater_than', value: '0.1' } }).expect(201);
    const id = body.alert.id as number;
    await harness.db.dataSource.query(
      `INSERT INTO alert_logs (alert_id, value, dedupe_key, message, triggered_at)
       SELECT $1::int, 0.2, $1::text || ':at:' || i, 'busy', timestamptz '2026-11-01T00:00:00Z' + i * interval '1 minute' FROM generate_series(1, 60) i`,
      [id],
    );
    const first = await alice.agent.get(`/api/alerts/${id}/logs`).expect(200);
    expect(first.body.logs).toHaveLength(50);
    expect(first.body.logs[0].triggeredAt).toBe('2026-11-01T01:00:00.000Z');
    const rest = await alice.agent.get(`/api/alerts/${id}/logs?before=${first.body.nextBefore}`).expect(200);
    expect(rest.body.logs).toHaveLength(10);
    expect(rest.body.logs.at(-1).triggeredAt).toBe('2026-11-01T00:01:00.000Z');
    expect(rest.body.nextBefore).toBeNull();
  });

  it('refuses a create, edit or delete without the CSRF token and changes nothing', async () => {
    const { body } = await createAlert(alice, { name: 'csrf', symbol: 'AAPL', condition: { type: 'greater_than', value: '1' } }).expect(201);
    const id = body.alert.id as number;
    const before = await alertCount(alice.id);
    const responses = await Promise.all([
      alice.agent.post('/api/alerts').send({ name: 'forged', symbol: 'AAPL', condition: { type: 'greater_than', value: '1' } }),
      alice.agent.patch(`/api/alerts/${id}`).set('x-csrf-token', 'forged').send({ name: 'forged' }),
      alice.agent.delete(`/api/alerts/${id}`),
    ]);
    expect(responses.map((r) => [r.status, r.body.error.code])).toEqual(Array(3).fill([403, 'csrf_invalid']));
    expect(await alertCount(alice.id)).toBe(before);
    expect((await alice.agent.get(`/api/alerts/${id}`).expect(200)).body.alert.name).toBe('csrf');
    // The token may also come in the body.
    await alice.agent.patch(`/api/alerts/${id}`).send({ name: 'body token', csrfToken: alice.csrf }).expect(200);
  });

  it('answers 401 to every alerts route when signed out', async () => {
    const anonymous = request.agent(harness.api);
    const responses = await Promise.all([
      anonymous.get('/api/alerts'),
      anonymous.post('/api/alerts').send({}),
      anonymous.get('/api/alerts/1'),
      anonymous.patch('/api/alerts/1').send({}),
      anonymous.delete('/api/alerts/1'),
      anonymous.get('/api/alerts/1/logs'),
      anonymous.post('/api/alerts/crypto/check').send({ userId: String(alice.id) }),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(7).fill(401));
  });
});
