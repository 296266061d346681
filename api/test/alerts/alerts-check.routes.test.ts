import request from 'supertest';
import { ALERTS_NOW, AlertsHarness, createAlert, type AlertsUser } from '../support/alerts-support';

/** POST /api/alerts/crypto/check: the spec's polling endpoint, answered for the session user only. */
describe('POST /api/alerts/crypto/check (real app, PostgreSQL)', () => {
  const harness = new AlertsHarness();
  let alice: AlertsUser;
  let bob: AlertsUser;
  let aliceBtc: number;
  let aliceEth: number;
  let bobSol: number;

  const check = (user: AlertsUser, body: Record<string, unknown> = {}) =>
    user.agent.post('/api/alerts/crypto/check').set('x-csrf-token', user.csrf).send(body);

  async function unchecked(alertId: number): Promise<number> {
    const [row]: { n: string }[] = await harness.db.dataSource.query('SELECT count(*) AS n FROM alert_logs WHERE alert_id = $1 AND checked_at IS NULL', [
      alertId,
    ]);
    return Number(row.n);
  }

  beforeAll(async () => {
    await harness.start();
    alice = await harness.user('alice-check@example.com');
    bob = await harness.user('bob-check@example.com');
    aliceBtc = (
      await createAlert(alice, {
        name: 'BTC 60k',
        symbol: 'BTCUSDT',
        condition: { type: 'crossing_up', value: '60000.5' },
        useAudio: true,
        audioMessage: 'Bitcoin crossed sixty thousand',
        audioVoiceId: 'en-GB-2',
      }).expect(201)
    ).body.alert.id;
    aliceEth = (await createAlert(alice, { name: 'ETH channel', symbol: 'ETHUSDT', condition: { type: 'outside_channel', low: '2900', high: '3100' } }).expect(201)).body
      .alert.id;
    bobSol = (await createAlert(bob, { name: 'SOL up', symbol: 'SOLUSDT', condition: { type: 'moving_up_percent', percent: '5', minutes: 60 } }).expect(201)).body.alert.id;
  }, 60000);

  afterAll(async () => {
    await harness.stop();
  });

  it("hands out the signed-in user's new firings once, oldest first, in the spec's shape plus logId and triggeredAt", async () => {
    const second = await harness.insertLog(aliceEth, '3150.25', '2026-11-21T11:30:00Z', 'ETH channel Alert Triggered');
    const first = await harness.insertLog(aliceBtc, '60010', '2026-11-21T11:00:00Z', 'BTC 60k Alert Triggered');
    const third = await harness.insertLog(aliceBtc, '60001', '2026-11-21T11:45:00Z', null);

    const res = await check(alice, { userId: String(alice.id) }).expect(200);
    expect(res.body).toEqual({
      triggeredAlerts: [
        {
          id: aliceBtc,
          name: 'BTC 60k',
          message: 'BTC 60k Alert Triggered',
          symbol: 'BTCUSDT',
          condition: 'crossing_up',
          value: 60000.5,
          currentPrice: 60010,
          useAudio: true,
          audioMessage: 'Bitcoin crossed sixty thousand',
          audioVoiceId: 'en-GB-2',
          logId: first,
          triggeredAt: '2026-11-21T11:00:00.000Z',
        },
        expect.objectContaining({ id: aliceEth, logId: second, condition: 'outside_channel', value: 2900, currentPrice: 3150.25, useAudio: false, audioMessage: null }),
        // A firing stored without its text gets the spec's "{name} Alert Triggered".
        expect.objectContaining({ id: aliceBtc, logId: third, message: 'BTC 60k Alert Triggered', currentPrice: 60001 }),
      ],
    });
    const again = await check(alice).expect(200);
    expect(again.body).toEqual({ triggeredAlerts: [] });
    const [row]: { checked_at: Date }[] = await harness.db.dataSource.query('SELECT checked_at FROM alert_logs WHERE id = $1', [first]);
    expect(row.checked_at.toISOString()).toBe(ALERTS_NOW);
  });

  it("ignores the body's userId: another user's id gets nothing of theirs and leaves their firings unchecked", async () => {
    await harness.insertLog(aliceBtc, '60100', '2026-11-21T11:50:00Z');
    await harness.insertLog(aliceEth, '2800', '2026-11-21T11:51:00Z');
    const bobLog = await harness.insertLog(bobSol, '250', '2026-11-21T11:52:00Z');

    for (const userId of [String(alice.id), alice.id, '1', 'not-a-number']) {
      const res = await check(bob, { userId }).expect(200);
      expect(res.body.triggeredAlerts.every((a: { id: number }) => a.id === bobSol)).toBe(true);
    }
    expect(await unchecked(aliceBtc)).toBe(1);
    expect(await unchecked(aliceEth)).toBe(1);

    const alices = await check(alice, { userId: String(bob.id) }).expect(200);
    expect(alices.body.triggeredAlerts.map((a: { id: number }) => a.id)).toEqual([aliceBtc, aliceEth]);
    expect(alices.body.triggeredAlerts.map((a: { logId: string }) => a.logId)).not.toContain(bobLog);
  });

  it('gives each firing to exactly one of several concurrent checks', async () => {
    const logIds: string[] = [];
    for (let i = 0; i < 40; i++) logIds.push(await harness.insertLog(i % 2 ? aliceBtc : aliceEth, `${60000 + i}`, new Date(Date.parse('2026-11-21T09:00:00Z') + i * 1000).toISOString()));
    const results = await Promise.all([check(alice), check(alice), check(alice), check(alice)]);
    const handedOut = results.flatMap((r) => r.body.triggeredAlerts.map((a: { logId: string }) => a.logId));
    expect(handedOut.sort()).toEqual([...logIds].sort());
    expect(new Set(handedOut).size).toBe(40);
    expect((await check(alice).expect(200)).body.triggeredAlerts).toEqual([]);
  });

  it('hands out at most 50 per call, the oldest first', async () => {
    await harness.db.dataSource.query(
      `INSERT INTO alert_logs (alert_id, value, dedupe_key, message, triggered_at)
       SELECT $1::int, 60000 + i, $1::text || ':batch:' || i, 'batch', timestamptz '2026-11-20T00:00:00Z' + i * interval '1 second' FROM generate_series(1, 60) i`,
      [aliceBtc],
    );
    const first = await check(alice).expect(200);
    expect(first.body.triggeredAlerts).toHaveLength(50);
    expect(first.body.triggeredAlerts[0].triggeredAt).toBe('2026-11-20T00:00:01.000Z');
    expect(first.body.triggeredAlerts[49].triggeredAt).toBe('2026-11-20T00:00:50.000Z');
    const rest = await check(alice).expect(200);
    expect(rest.body.triggeredAlerts.map((a: { currentPrice: number }) => a.currentPrice)).toEqual([60051, 60052, 60053, 60054, 60055, 60056, 60057, 60058, 60059, 60060]);
  });

  it('answers 401 signed out and 403 without the CSRF token, handing nothing out', async () => {
    await harness.insertLog(aliceBtc, '61000', '2026-11-21T11:59:00Z');
    const anonymous = request.agent(harness.api);
    const signedOut = await anonymous.post('/api/alerts/crypto/check').send({ userId: String(alice.id) }).expect(401);
    expect(signedOut.body.triggeredAlerts).toBeUndefined();
    const forged = await alice.agent.post('/api/alerts/crypto/check').send({ userId: String(alice.id) }).expect(403);
    expect(forged.body.error.code).toBe('csrf_invalid');
    expect(await unchecked(aliceBtc)).toBe(1);
    expect((await check(alice).expect(200)).body.triggeredAlerts).toHaveLength(1);
  });
});
