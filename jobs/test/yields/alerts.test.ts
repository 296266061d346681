import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { setDeliveryReceipt } from '../../src/notifications/delivery-receipts';
import { evaluateYieldAlerts } from '../../src/yields/yields-evaluate';
import { YieldAlertIndex } from '../../src/yields/yields-alert-index';
import { createEntitlements } from '../../src/billing/entitlements';
import {
  createYieldAlert,
  deleteYieldAlert,
  getYieldAlert,
  listYieldAlerts,
  updateYieldAlert,
  yieldAlertHistory,
  YieldsError,
} from '../../src/yields/yields-alerts.store';
import type { YieldAlertInput } from '../../src/yields/yields.shapes';

/** Billing off, no limits set: the self-hosted plan allows any number of alerts. */
const access = { entitlements: createEntitlements({ billingEnabled: false, graceDays: 7 }), now: new Date() };

// Yield alerts: CRUD with validation and ownership, and their evaluation against snapshots with a
// fixed clock: threshold, hysteresis, cooldown, each type, exactly once under two concurrent
// evaluations, the notification's channels and delivery receipts, history. Real PostgreSQL and Redis;
// snapshots are written as rows, with the values each case needs.

const HOUR = 3_600_000;

describe('yield alerts (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock('2025-06-02T10:07:00Z');
  let context: JobContext;
  // One worker's index, kept across the cases: alerts created, changed and deleted between evaluations.
  const index = new YieldAlertIndex();
  let ann = 0;
  let ben = 0;
  const pools: Record<'p1' | 'p2' | 'p3', number> = { p1: 0, p2: 0, p3: 0 };

  interface Values {
    apr?: number;
    tvl?: number;
    vtr?: number;
    mean?: number;
    sigma?: number;
  }
  /** Writes the snapshot of the clock's hour (pools not given get no row) and answers its time. */
  async function snapshot(values: Partial<Record<keyof typeof pools, Values>>): Promise<Date> {
    const at = new Date(Math.floor(clock.now().getTime() / HOUR) * HOUR);
    for (const [name, v] of Object.entries(values) as Array<[keyof typeof pools, Values]>) {
      const [{ id }] = await db.dataSource.query(
        `INSERT INTO yield_data (pool_id, timestamp, data_source, apr, apr_source, tvl_usd, vtr, apr_mean30d, apr_sigma30d)
         VALUES ($1, $2, 'defillama', $3, 'defillama', $4, $5, $6, $7) RETURNING id`,
        [pools[name], at, v.apr ?? null, v.tvl ?? 1_000_000, v.vtr ?? null, v.mean ?? null, v.sigma ?? null],
      );
      await db.dataSource.query(`UPDATE yield_pools SET latest_data_id = $2 WHERE id = $1`, [pools[name], id]);
    }
    return at;
  }
  /** The next hour's snapshot, evaluated; answers how many alerts fired. */
  async function hour(values: Partial<Record<keyof typeof pools, Values>>): Promise<number> {
    clock.advance(HOUR);
    const at = await snapshot(values);
    return (await evaluateYieldAlerts(context, at, index)).fired;
  }
  const input = (over: Partial<YieldAlertInput>): YieldAlertInput => ({ poolId: pools.p1, alertType: 'apr', threshold: 10, ...over });

  beforeAll(async () => {
    db = await createTestDatabase();
    context = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    [{ id: ann }, { id: ben }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('ann@example.test'), ('ben@example.test') RETURNING id`);
    const rows: Array<{ id: number; pool_id: string }> = await db.dataSource.query(
      `INSERT INTO yield_pools (pool_id, defillama_pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier, dex, chain, tracked)
       SELECT p, p, s, '', '', split_part(s, '-', 1), split_part(s, '-', 2), 3000, 'uniswap-v3', 'Ethereum', true
       FROM unnest(ARRAY['p1', 'p2', 'p3'], ARRAY['USDC-WETH', 'WBTC-WETH', 'DAI-USDC']) AS x(p, s) RETURNING id, pool_id`,
    );
    for (const r of rows) pools[r.pool_id as keyof typeof pools] = r.id;
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  describe('CRUD', () => {
    it('creates with the spec\'s defaults and says what it watches', async () => {
      const alert = await createYieldAlert(db.dataSource, ann, input({ threshold: '12.5' }), access);
      expect(alert).toMatchObject({
        poolId: pools.p1,
        pool: { poolId: 'p1', symbol: 'USDC-WETH' },
        alertType: 'apr',
        condition: 'greater_than',
        kind: 'apr_above',
        threshold: '12.5',
        cooldownMinutes: 360,
        isActive: true,
        emailEnabled: false,
        telegramEnabled: false,
        armed: true,
        hysteresisMargin: '1.25',
        description: 'APR above 12.5 %',
        lastTriggered: null,
      });
      const spike = await createYieldAlert(db.dataSource, ann, input({ alertType: 'apy_spike', threshold: 3 }), access);
      expect(spike).toMatchObject({ kind: 'apy_spike', spikeUnit: 'sigma', windowHours: null });
      const drop = await createYieldAlert(db.dataSource, ann, input({ alertType: 'tvl_drop', threshold: 20, cooldownMinutes: 60 }), access, { defaultCooldownMinutes: 30 });
      expect(drop).toMatchObject({ kind: 'tvl_drop', windowHours: 24, cooldownMinutes: 60, description: 'TVL down 20 % within 24 h' });
      expect((await listYieldAlerts(db.dataSource, ann)).map((a) => a.id)).toEqual([drop.id, spike.id, alert.id]);
      for (const a of [alert, spike, drop]) await deleteYieldAlert(db.dataSource, ann, a.id);
    });

    it.each<[string, Partial<YieldAlertInput>, string]>([
      ['a threshold that is not a number', { threshold: 'ten' }, 'threshold'],
      ['a negative APR', { threshold: -1 }, 'threshold'],
      ['a drop over 100 %', { alertType: 'tvl_drop', threshold: 150 }, 'threshold'],
      ['an unknown type', { alertType: 'apy_above' as never }, 'alertType'],
      ['less_than on a spike', { alertType: 'apy_spike', condition: 'less_than' }, 'condition'],
      ['a spike unit on an APR alert', { spikeUnit: 'sigma' }, 'spikeUnit'],
      ['a window over 30 days', { alertType: 'tvl_drop', threshold: 10, windowHours: 721 }, 'windowHours'],
      ['a fractional cooldown', { cooldownMinutes: 1.5 }, 'cooldownMinutes'],
      ['an unknown pool', { poolId: 987654 }, 'poolId'],
    ])('refuses %s, naming the field', async (_what, over, field) => {
      const error = await createYieldAlert(db.dataSource, ann, input(over), access).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(YieldsError);
      expect(error).toMatchObject({ code: 'invalid', field });
    });

    it('keeps each user to their own alerts and to the plan limit', async () => {
      const mine = await createYieldAlert(db.dataSource, ann, input({}), access);
      await expect(getYieldAlert(db.dataSource, ben, mine.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(updateYieldAlert(db.dataSource, ben, mine.id, { threshold: 1 })).rejects.toMatchObject({ code: 'not_found' });
      await expect(deleteYieldAlert(db.dataSource, ben, mine.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(yieldAlertHistory(db.dataSource, ben, { alertId: mine.id })).rejects.toMatchObject({ code: 'not_found' });
      // The plan's number of yield alerts (here the self-hosted plan of an operator who set 1).
      const oneAlert = { entitlements: createEntitlements({ billingEnabled: false, selfHostedLimits: { yieldAlerts: 1 }, graceDays: 7 }), now: new Date() };
      await createYieldAlert(db.dataSource, ben, input({}), oneAlert);
      await expect(createYieldAlert(db.dataSource, ben, input({}), oneAlert)).rejects.toMatchObject({ code: 'plan_limit', details: { limit: 'yieldAlerts', max: 1, used: 1 } });
      // A change of definition re-arms; a change of channels does not touch the state.
      await db.dataSource.query(`UPDATE yield_alerts SET armed = false WHERE id = $1`, [mine.id]);
      expect(await updateYieldAlert(db.dataSource, ann, mine.id, { emailEnabled: true })).toMatchObject({ armed: false, emailEnabled: true });
      expect(await updateYieldAlert(db.dataSource, ann, mine.id, { condition: 'less_than', threshold: 3 })).toMatchObject({ armed: true, kind: 'apr_below', threshold: '3' });
      await expect(updateYieldAlert(db.dataSource, ann, mine.id, { alertType: 'vtr' })).resolves.toMatchObject({ kind: 'vtr_above', condition: 'greater_than' });
      await expect(updateYieldAlert(db.dataSource, ann, mine.id, { windowHours: 5 })).rejects.toMatchObject({ code: 'invalid', field: 'windowHours' });
      await db.dataSource.query(`DELETE FROM yield_alerts`);
    });
  });

  describe('evaluation', () => {
    it('APR above: fires once, does not flap within the margin, re-arms past it, holds the cooldown', async () => {
      const alert = await createYieldAlert(db.dataSource, ann, input({ threshold: 10, cooldownMinutes: 150 }), access);
      const fired: number[] = [];
      for (const apr of [9, 10.5, 9.6, 10.8, 9.2, 10.3, 8.9, 10.4, 10.6, 8, 11]) fired.push(await hour({ p1: { apr } }));
      // 10.5 fires (h1); 10.8 and 10.3 do not (disarmed: 9.6 and 9.2 stayed within the 1-point margin);
      // 8.9 re-arms (h6); 10.4 fires (h7, 6 h after h1, past the 150-minute cooldown); 10.6 does not
      // (disarmed); 8 re-arms; 11 fires (h10, 3 h after h7).
      expect(fired).toEqual([0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1]);
      const history = await yieldAlertHistory(db.dataSource, ann, { alertId: alert.id });
      expect(history.rows.map((r) => r.triggeredValue)).toEqual(['11', '10.4', '10.5']);
      expect(history.rows[0]).toMatchObject({ kind: 'apr_above', threshold: '10', poolSymbol: 'USDC-WETH', emailSent: false, telegramSent: false });
      expect(history.rows[0].message).toBe('USDC-WETH (uniswap-v3, Ethereum): APR 11 %, above your 10 %.');
      const page = await yieldAlertHistory(db.dataSource, ann, { alertId: alert.id, limit: 2 });
      const rest = await yieldAlertHistory(db.dataSource, ann, { alertId: alert.id, cursor: page.nextCursor! });
      expect([...page.rows, ...rest.rows].map((r) => r.id)).toEqual(history.rows.map((r) => r.id));
      expect(rest.nextCursor).toBeNull();
      await deleteYieldAlert(db.dataSource, ann, alert.id);
    });

    it('the cooldown holds a firing until it is over, then fires if the condition still holds', async () => {
      const alert = await createYieldAlert(db.dataSource, ann, input({ threshold: 10, cooldownMinutes: 180 }), access);
      const fired: number[] = [];
      // Fires at h0; 5 re-arms at h1; 12 at h2 and h3 is within 180 minutes of h0; at h3 (180 min) it fires.
      for (const apr of [12, 5, 12, 12, 12]) fired.push(await hour({ p1: { apr } }));
      expect(fired).toEqual([1, 0, 0, 1, 0]);
      await deleteYieldAlert(db.dataSource, ann, alert.id);
    });

    it('APR below, a spike in sigmas or percent, a TVL drop within its window, volume/TVL above', async () => {
      const below = await createYieldAlert(db.dataSource, ann, input({ condition: 'less_than', threshold: 4, cooldownMinutes: 0 }), access);
      const sigma = await createYieldAlert(db.dataSource, ann, input({ poolId: pools.p2, alertType: 'apy_spike', threshold: 3, cooldownMinutes: 0 }), access);
      const pct = await createYieldAlert(db.dataSource, ann, input({ poolId: pools.p2, alertType: 'apy_spike', spikeUnit: 'percent', threshold: 100, cooldownMinutes: 0 }), access);
      const drop = await createYieldAlert(db.dataSource, ann, input({ poolId: pools.p3, alertType: 'tvl_drop', threshold: 20, windowHours: 3, cooldownMinutes: 0 }), access);
      const vtr = await createYieldAlert(db.dataSource, ann, input({ poolId: pools.p3, alertType: 'vtr', threshold: 0.5, cooldownMinutes: 0 }), access);
      const steps: Array<Partial<Record<keyof typeof pools, Values>>> = [
        { p1: { apr: 5 }, p2: { apr: 6, mean: 5, sigma: 1 }, p3: { tvl: 1_000_000, vtr: 0.1 } },
        // p1 3.9 < 4; p2 z = 2, +40 %; p3 -10 % of its peak
        { p1: { apr: 3.9 }, p2: { apr: 7, mean: 5, sigma: 1 }, p3: { tvl: 900_000, vtr: 0.2 } },
        // p2 z = 4 (> 3 sigma), +80 %; p3 -25 % of the 1 M peak within 3 h; vtr 0.6
        { p1: { apr: 4.1 }, p2: { apr: 9, mean: 5, sigma: 1 }, p3: { tvl: 750_000, vtr: 0.6 } },
        // p2 +120 % with no sigma today: only the percent alert can tell; p3's drop alert is disarmed (25.9 %).
        { p1: { apr: 4.5 }, p2: { apr: 11, mean: 5 }, p3: { tvl: 740_000, vtr: 0.7 } },
        // Nothing new: every alert that fired is disarmed, and p3's drop from the 900 k peak of the window is 18 %.
        { p1: { apr: 4.5 }, p2: { apr: 11, mean: 5 }, p3: { tvl: 738_000, vtr: 0.3 } },
      ];
      const log: string[][] = [];
      for (const values of steps) {
        clock.advance(HOUR);
        const at = await snapshot(values);
        await evaluateYieldAlerts(context, at, index);
        const rows: Array<{ alert_id: number }> = await db.dataSource.query(
          `SELECT l.alert_id FROM yield_alert_logs l JOIN yield_data d ON d.id = l.yield_data_id WHERE d.timestamp = $1 ORDER BY l.alert_id`,
          [at],
        );
        const name = new Map([[below.id, 'below'], [sigma.id, 'sigma'], [pct.id, 'pct'], [drop.id, 'drop'], [vtr.id, 'vtr']]);
        log.push(rows.map((r) => name.get(Number(r.alert_id)) as string));
      }
      expect(log).toEqual([[], ['below'], ['sigma', 'drop', 'vtr'], ['pct'], []]);
      const [dropLog] = (await yieldAlertHistory(db.dataSource, ann, { alertId: drop.id })).rows;
      expect(dropLog).toMatchObject({ kind: 'tvl_drop', triggeredValue: '25', message: 'DAI-USDC (uniswap-v3, Ethereum): TVL down 25 % within 3 h (your threshold 20 %).' });
      await db.dataSource.query(`DELETE FROM yield_alerts`);
    });

    it('fires exactly once under two concurrent evaluations, with one notification each on the channels asked', async () => {
      await db.dataSource.query(`INSERT INTO telegram_links (user_id, chat_id, username, linked_at) VALUES ($1, 4242, 'ben', now())`, [ben]);
      const alerts = [];
      for (let i = 0; i < 30; i++) {
        alerts.push(await createYieldAlert(db.dataSource, i % 2 ? ann : ben, input({ poolId: pools.p2, threshold: 10 + i / 10, emailEnabled: i === 0, telegramEnabled: i === 0 }), access));
      }
      clock.advance(HOUR);
      const at = await snapshot({ p2: { apr: 50 } });
      // Two workers, each with its own index, on the same snapshot at once.
      const [a, b] = await Promise.all([evaluateYieldAlerts(context, at, new YieldAlertIndex()), evaluateYieldAlerts(context, at, new YieldAlertIndex())]);
      expect(a.fired + b.fired).toBe(30);
      const [{ logs }] = await db.dataSource.query(`SELECT count(*)::int AS logs FROM yield_alert_logs l JOIN yield_data d ON d.id = l.yield_data_id WHERE d.timestamp = $1`, [at]);
      expect(logs).toBe(30);
      const [{ notes }] = await db.dataSource.query(`SELECT count(*)::int AS notes FROM notifications WHERE activity_type = 'YIELD_ALERT' AND created_at >= $1`, [at]);
      expect(notes).toBe(30);
      // Evaluated again (a retried job), by the long-lived index: nothing new.
      expect(await evaluateYieldAlerts(context, at, index)).toMatchObject({ status: 'evaluated', alerts: 30, fired: 0 });

      // The first alert asked for email and Telegram: both queued with the log's delivery receipts.
      const [first] = (await yieldAlertHistory(db.dataSource, ben, { alertId: alerts[0].id })).rows;
      const mail = (await queues.queue('mail').getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => (j.data as { receipt?: { id: number } }).receipt?.id === first.id);
      expect(mail.map((j) => j.data.receipt)).toEqual([{ target: 'yield_alert_logs.email_sent', id: first.id }]);
      const telegram = (await queues.queue('notifications').getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j.name === 'notifications.telegram');
      expect(telegram.map((j) => j.data.receipt)).toEqual([{ target: 'yield_alert_logs.telegram_sent', id: first.id }]);
      // The delivery jobs set the flags through the receipts; the history shows them.
      await setDeliveryReceipt(db.dataSource, { target: 'yield_alert_logs.email_sent', id: first.id });
      await setDeliveryReceipt(db.dataSource, { target: 'yield_alert_logs.telegram_sent', id: first.id });
      expect((await yieldAlertHistory(db.dataSource, ben, { alertId: alerts[0].id })).rows[0]).toMatchObject({ emailSent: true, telegramSent: true });
    });

    it('an older snapshot is superseded, a deleted account\'s alerts are not evaluated', async () => {
      const old = new Date(Math.floor(clock.now().getTime() / HOUR) * HOUR - HOUR);
      expect(await evaluateYieldAlerts(context, old)).toMatchObject({ status: 'superseded', fired: 0 });
      await db.dataSource.query(`DELETE FROM yield_alerts`);
      await createYieldAlert(db.dataSource, ann, input({ threshold: 1, cooldownMinutes: 0 }), access);
      await db.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [ann]);
      clock.advance(HOUR);
      const at = await snapshot({ p1: { apr: 50 } });
      // The index still holds the alert (deleteUser would remove it; here only the user is marked): the locked re-check refuses it.
      expect(await evaluateYieldAlerts(context, at, index)).toMatchObject({ status: 'evaluated', alerts: 1, fired: 0 });
    });
  });
});
