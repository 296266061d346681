import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { deliverNotifications } from '../../src/notifications/notification-delivery';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { createMispricingHandlers, runMispricing, type MispricingRunSettings } from '../../src/predictions/predictions-mispricing-run';
import {
  consensusOf,
  follow,
  isFollowing,
  listFollows,
  listMispricing,
  mispricingOfMarket,
  unfollow,
} from '../../src/predictions/predictions-mispricing.store';
import { loadPredictionsConfig } from '../../src/predictions/predictions.config';
import { PredictionsError } from '../../src/predictions/predictions.errors';

/**
 * The mispricing run on real PostgreSQL and Redis (queues under their own prefix; the
 * notifications.deliver jobs are run by calling the delivery): alerts open once, are refreshed in
 * place, close when the gap closes or the market resolves, and each new one reaches the followers of
 * the market or its category exactly once. Markets, snapshots and forecasts are written directly in
 * the committed tables; their prices vary values inside the recorded Gamma shapes (bestBid, bestAsk,
 * spread, outcomePrices), and the CLOB book prices inside the recorded /book's (no /midpoint sample exists).
 */

const MIN = 60_000;
const DAY = 86_400_000;
const SETTINGS: MispricingRunSettings = { threshold: 0.05, feeRate: 0, minForecasters: 3, consensusDays: 7 };

interface MarketInput {
  question: string;
  category?: string | null;
  bid?: number | null;
  ask?: number | null;
  yes?: number | null;
  spread?: number | null;
  eventId?: string | null;
  eventTitle?: string | null;
  negRisk?: boolean;
  augmented?: boolean;
}

describe('predictions: the mispricing run and its notifications (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock('2026-03-12T12:00:00Z');
  let context: JobContext;
  const delivered = new Set<string>();
  const users: Record<string, number> = {};
  let seq = 0;
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => db.dataSource.query(sql, params);

  async function market(input: MarketInput): Promise<number> {
    seq++;
    const [{ id }] = await q<{ id: number }>(
      `INSERT INTO prediction_markets (polymarket_id, slug, question, category, outcomes, yes_price, best_bid, best_ask, spread, is_active, closed,
         event_id, event_title, neg_risk, neg_risk_augmented, content_hash, data_source, synced_at)
       VALUES ($1, $2, $3, $4, '["Yes","No"]', $5, $6, $7, $8, true, false, $9, $10, $11, $12, 'h', 'replay', $13) RETURNING id`,
      [
        `pm-${seq}`,
        `market-${seq}`,
        input.question,
        input.category ?? null,
        input.yes ?? (input.bid != null && input.ask != null ? (input.bid + input.ask) / 2 : null),
        input.bid ?? null,
        input.ask ?? null,
        input.spread ?? (input.bid != null && input.ask != null ? input.ask - input.bid : null),
        input.eventId ?? null,
        input.eventTitle ?? null,
        input.negRisk ?? false,
        input.augmented ?? false,
        new Date(clock.now().getTime() - 10 * MIN),
      ],
    );
    return id;
  }

  async function forecast(user: string, marketId: number, p: number, daysAgo: number, superseded = false): Promise<void> {
    const made = new Date(clock.now().getTime() - daysAgo * DAY);
    await q(
      `INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made, superseded_at)
       VALUES ($1, $2, $3, 0.6, 'probability', $4, $5, $6)`,
      [users[user], marketId, p, String(p), made, superseded ? new Date(made.getTime() + MIN) : null],
    );
  }

  async function snapshot(marketId: number, bid: number, ask: number): Promise<void> {
    await q(`INSERT INTO prediction_market_snapshots (market_id, taken_at, price, best_bid, best_ask, source) VALUES ($1, $2, $3, $4, $5, 'clob')`, [
      marketId,
      clock.now(),
      (bid + ask) / 2,
      bid,
      ask,
    ]);
  }

  const run = () => runMispricing({ dataSource: db.dataSource, queues, clock }, SETTINGS);

  async function alerts(marketId: number) {
    return q<{ id: number; fair_value_source: string; current_price: string; fair_value: string; deviation: string; confidence: string; reasoning: string; is_active: boolean; resolved_at: Date | null; details: { closed?: { reason?: string } } & Record<string, unknown> }>(
      `SELECT id, fair_value_source, current_price, fair_value, deviation, confidence, reasoning, is_active, resolved_at, details FROM mispricing_alerts WHERE market_id = $1 ORDER BY id`,
      [marketId],
    );
  }

  /** Runs each notifications.deliver job not run yet (as the worker would). */
  async function deliver(): Promise<void> {
    const jobs = (await queues.queue('notifications').getJobs(['waiting'])).filter((j) => j.name === 'notifications.deliver' && !delivered.has(String(j.id)));
    for (const job of jobs) {
      delivered.add(String(job.id));
      await deliverNotifications(job.data, context);
    }
  }

  async function notified(alertId: number): Promise<string[]> {
    const rows = await q<{ email: string }>(
      `SELECT u.email FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.dedupe_key = $1 ORDER BY u.email`,
      [`predictions:mispricing:${alertId}`],
    );
    return rows.map((r) => r.email.split('@')[0]);
  }

  let fed: number;
  let other: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    context = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'f1', 'f2', 'f3', 'f4'];
    const rows = await q<{ id: number }>(`INSERT INTO users (email) SELECT unnest($1::varchar[]) RETURNING id`, [names.map((n) => `${n}@example.test`)]);
    names.forEach((n, i) => (users[n] = rows[i].id));
    // f1-f3 have good records (10 resolved, Brier 0.125: weight 0.625 each); f4 none.
    for (const f of ['f1', 'f2', 'f3']) await q(`INSERT INTO prediction_performance (user_id, total_predictions, brier_score) VALUES ($1, 10, 0.125)`, [users[f]]);

    fed = await market({ question: 'Will the Fed cut rates in June?', category: 'Economy', bid: 0.6, ask: 0.62 });
    other = await market({ question: 'Will CPI top 3%?', category: 'Economy', bid: 0.3, ask: 0.32 });
    // Followers: alice the market; bob its category; carol both (notified once); dave another market; frank another
    // category; erin the market, but she deleted her account.
    await follow(db.dataSource, users.alice, { marketId: fed });
    await follow(db.dataSource, users.bob, { category: 'economy' });
    await follow(db.dataSource, users.carol, { marketId: fed });
    await follow(db.dataSource, users.carol, { category: 'Economy' });
    await follow(db.dataSource, users.dave, { marketId: other });
    await follow(db.dataSource, users.erin, { marketId: fed });
    await q(`UPDATE users SET deleted_at = now() WHERE id = $1`, [users.erin]);
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  it('opens a consensus alert once, refreshes it in place, closes it below 0.6 x the threshold and when the market resolves; followers are notified once per alert', async () => {
    // f1-f3 put YES at 0.70, 0.71, 0.72 two days ago (f1 edited an older forecast); f4's forecast is 10 days old: out of the window.
    await forecast('f1', fed, 0.4, 3, true);
    await forecast('f1', fed, 0.7, 2);
    await forecast('f2', fed, 0.71, 2);
    await forecast('f3', fed, 0.72, 1);
    await forecast('f4', fed, 0.1, 10);
    expect(await consensusOf(db.dataSource, fed, clock.now())).toEqual({ probability: '0.7100', forecasters: 3 });
    expect(await consensusOf(db.dataSource, other, clock.now())).toBeNull();

    expect(await run()).toEqual({ markets: 1, events: 0, opened: 1, refreshed: 0, closed: 0, notified: { alerts: 1, batches: 1, users: 3 } });
    const [alert] = await alerts(fed);
    expect(alert).toMatchObject({
      fair_value_source: 'consensus',
      current_price: '0.6200',
      fair_value: '0.7100',
      deviation: '0.0900',
      // (1.875 / 3.875) x (1 - 5 x 0.02)
      confidence: '0.4355',
      reasoning: '3 forecasters with good records put YES at 0.71; the ask is 0.62: YES is 9 points cheap after fees.',
      is_active: true,
      resolved_at: null,
    });
    expect(alert.details).toMatchObject({ rule: 'consensus', forecasters: 3, priceBasis: 'book', priceSource: 'market', side: 'buy_yes', bid: 0.6, ask: 0.62, feeRate: 0, closesBelow: 0.03 });
    expect(alert.details).toMatchObject({ withRecord: 3, totalWeight: 1.875 });
    // No forecaster's own probability in what everyone is shown.
    expect(alert.details).not.toHaveProperty('weights');
    expect(JSON.stringify(alert.details)).not.toMatch(/0\.7[02]\b/);
    await deliver();
    expect(await notified(alert.id)).toEqual(['alice', 'bob', 'carol']);
    const [sent] = await q<{ title: string; message: string; activity_type: string; details: { url: string; marketId: number } }>(
      `SELECT title, message, activity_type, details FROM notifications WHERE dedupe_key = $1 LIMIT 1`,
      [`predictions:mispricing:${alert.id}`],
    );
    expect(sent).toMatchObject({
      title: 'Will the Fed cut rates in June? YES looks 9 points cheap',
      message: "3 forecasters with good records put YES at 0.71; the ask is 0.62: YES is 9 points cheap after fees. Fair value from our forecasters' consensus; confidence 44 %.",
      activity_type: 'PREDICTION_MISPRICING',
      details: { url: `/dashboard/predictions/markets/${fed}`, marketId: fed },
    });
    // The feed and the market page show it; the run's bookkeeping is not in its details.
    const [view] = await mispricingOfMarket(db.dataSource, fed);
    expect(view).toMatchObject({ id: alert.id, marketId: fed, question: 'Will the Fed cut rates in June?', category: 'Economy', deviation: '0.0900', isActive: true, resolvedAt: null });
    expect(view.details.notified).toBeUndefined();

    // The same run again (a retry, the next slot with nothing new): nothing opens, nothing is written, nobody is notified.
    expect(await run()).toEqual({ markets: 1, events: 0, opened: 0, refreshed: 0, closed: 0, notified: { alerts: 0, batches: 0, users: 0 } });
    // A crash between the fan-out and its record: the next run fans out again, and the followers still get one notification.
    await q(`UPDATE mispricing_alerts SET details = details - 'notified' WHERE id = $1`, [alert.id]);
    expect((await run()).notified).toEqual({ alerts: 1, batches: 1, users: 3 });
    delivered.clear();
    await deliver();
    expect(await notified(alert.id)).toEqual(['alice', 'bob', 'carol']);
    // One active alert per market and source: the partial unique index refuses a second.
    await expect(
      q(`INSERT INTO mispricing_alerts (market_id, fair_value_source, current_price, fair_value, confidence, deviation) VALUES ($1, 'consensus', 0.5, 0.6, 0.5, 0.1)`, [fed]),
    ).rejects.toThrow(/uq_mispricing_alerts_active/);

    // 5 minutes later the book (a CLOB snapshot, newer than the row) asks 0.66: 5 points, above 0.03: refreshed in place.
    clock.advance(5 * MIN);
    await snapshot(fed, 0.64, 0.66);
    expect(await run()).toMatchObject({ opened: 0, refreshed: 1, closed: 0, notified: { alerts: 0 } });
    const [refreshed] = await alerts(fed);
    expect(refreshed).toMatchObject({ id: alert.id, current_price: '0.6600', deviation: '0.0500', is_active: true });
    expect(refreshed.details).toMatchObject({ priceSource: 'snapshot', ask: 0.66, notified: { batches: 1, users: 3 } });

    // Ask 0.69: 2 points, below 0.03: closed.
    clock.advance(5 * MIN);
    await snapshot(fed, 0.67, 0.69);
    expect(await run()).toMatchObject({ opened: 0, refreshed: 0, closed: 1 });
    const [closed] = await alerts(fed);
    expect(closed).toMatchObject({ id: alert.id, is_active: false, resolved_at: clock.now(), current_price: '0.6600' });
    expect(closed.details.closed).toEqual({ reason: 'gap_closed', deviation: 0.02, price: 0.69 });
    expect((await listMispricing(db.dataSource, { active: true, limit: 10 })).rows).toEqual([]);

    // Back to 0.62: a new alert (a new id, so a new notification).
    clock.advance(5 * MIN);
    await snapshot(fed, 0.6, 0.62);
    expect(await run()).toMatchObject({ opened: 1, closed: 0, notified: { alerts: 1, users: 3 } });
    const reopened = (await alerts(fed)).filter((a) => a.is_active);
    expect(reopened).toHaveLength(1);
    expect(reopened[0].id).not.toBe(alert.id);

    // The market resolves: its alert closes, whatever the gap.
    clock.advance(5 * MIN);
    await q(`UPDATE prediction_markets SET is_active = false, closed = true, resolution = 'yes', resolved_at = $2 WHERE id = $1`, [fed, clock.now()]);
    expect(await run()).toMatchObject({ markets: 1, opened: 0, closed: 1 });
    const after = await alerts(fed);
    expect(after.map((a) => [a.is_active, a.details.closed?.reason])).toEqual([
      [false, 'gap_closed'],
      [false, 'market_resolved'],
    ]);
    expect(await mispricingOfMarket(db.dataSource, fed)).toEqual([]);
    const closedPage = await listMispricing(db.dataSource, { active: false, category: 'Economy', limit: 1 });
    expect(closedPage.rows.map((r) => r.id)).toEqual([after[1].id]);
    const next = await listMispricing(db.dataSource, { active: false, category: 'Economy', limit: 1, cursor: closedPage.nextCursor! });
    expect([next.rows.map((r) => r.id), next.nextCursor]).toEqual([[after[0].id], null]);
    await expect(listMispricing(db.dataSource, { active: false, limit: 1, cursor: 'nope' })).rejects.toMatchObject({ code: 'bad_cursor' });
  });

  it('checks negative-risk events: an inconsistent one opens alerts on the markets whose gap reaches the threshold; augmented and plain events never', async () => {
    const legs = [
      [0.29, 0.31],
      [0.19, 0.21],
      [0.29, 0.31],
    ];
    // Buying the 3 outcomes costs 0.83 and pays 1: each is worth its mid / 0.80 -> 0.375, 0.25, 0.375.
    const event = [];
    for (const [i, [bid, ask]] of legs.entries()) {
      event.push(await market({ question: `Will candidate ${i + 1} win?`, category: 'Politics', bid, ask, eventId: 'ev-1', eventTitle: 'Who wins?', negRisk: true }));
    }
    // The same prices in an augmented negative-risk event and in an event that is not negative risk.
    for (const [i, [bid, ask]] of legs.entries()) {
      await market({ question: `Augmented ${i}`, category: 'Politics', bid, ask, eventId: 'ev-2', eventTitle: 'Open field', negRisk: true, augmented: true });
      await market({ question: `Plain ${i}`, category: 'Politics', bid, ask, eventId: 'ev-3', eventTitle: 'Several', negRisk: false });
    }
    await follow(db.dataSource, users.frank, { category: 'Politics' });

    expect(await run()).toEqual({ markets: 6, events: 1, opened: 2, refreshed: 0, closed: 0, notified: { alerts: 2, batches: 2, users: 2 } });
    const opened = await listMispricing(db.dataSource, { active: true, category: 'Politics', limit: 10 });
    expect(opened.rows.map((r) => [r.marketId, r.fairValueSource, r.fairValue, r.currentPrice, r.deviation, r.confidence])).toEqual([
      [event[2], 'event_consistency', '0.3750', '0.3100', '0.0650', '0.9000'],
      [event[0], 'event_consistency', '0.3750', '0.3100', '0.0650', '0.9000'],
    ]);
    expect(opened.rows[1].reasoning).toBe(
      'The 3 outcomes of "Who wins?" cost 0.83 together at the asks though one of them pays 1: YES here is worth 0.375 (its share of the mids); the ask is 0.31: YES is 6.5 points cheap after fees.',
    );
    expect(opened.rows[1].details).toMatchObject({ rule: 'event_consistency', eventId: 'ev-1', direction: 'buy_all', sumAsks: 0.83, sumMids: 0.8, edge: 0.17 });
    await deliver();
    expect(await notified(opened.rows[0].id)).toEqual(['frank']);

    // The event is repriced consistently (asks sum to 1.02, bids to 0.96): no fair value any more, both alerts close.
    clock.advance(5 * MIN);
    for (const [i, id] of event.entries()) await snapshot(id, [0.39, 0.19, 0.38][i], [0.41, 0.21, 0.4][i]);
    expect(await run()).toMatchObject({ opened: 0, closed: 2 });
    const closed = await q<{ reason: string }>(`SELECT details->'closed'->>'reason' AS reason FROM mispricing_alerts WHERE market_id = ANY($1::int[]) ORDER BY id`, [event]);
    expect(closed).toEqual([{ reason: 'no_fair_value' }, { reason: 'no_fair_value' }]);
  });

  it('follows: idempotent, checked, capped per user, removable only by their owner; the scheduled tick runs once per slot', async () => {
    const first = await follow(db.dataSource, users.dave, { category: 'POLITICS' });
    expect(first).toMatchObject({ marketId: null, question: null, category: 'Politics' });
    expect(await follow(db.dataSource, users.dave, { category: 'Politics' })).toEqual(first);
    const follows = await listFollows(db.dataSource, users.dave);
    expect(follows.map((f) => [f.marketId, f.question, f.category])).toEqual([
      [null, null, 'Politics'],
      [other, 'Will CPI top 3%?', null],
    ]);
    expect(await isFollowing(db.dataSource, users.dave, other)).toBe(true);
    expect(await isFollowing(db.dataSource, users.bob, other)).toBe(false);
    await expect(follow(db.dataSource, users.dave, { marketId: 999_999 })).rejects.toMatchObject({ code: 'unknown_market' });
    await expect(follow(db.dataSource, users.dave, { category: 'Knitting' })).rejects.toMatchObject({ code: 'unknown_category' });
    await expect(follow(db.dataSource, users.dave, { marketId: fed }, { maxFollows: 2 })).rejects.toBeInstanceOf(PredictionsError);
    await expect(follow(db.dataSource, users.dave, { marketId: fed }, { maxFollows: 2 })).rejects.toMatchObject({ code: 'too_many_follows' });
    // Another user's follow is unknown to this one.
    await expect(unfollow(db.dataSource, users.bob, first.id)).rejects.toMatchObject({ code: 'unknown_follow' });
    await unfollow(db.dataSource, users.dave, first.id);
    await expect(unfollow(db.dataSource, users.dave, first.id)).rejects.toMatchObject({ code: 'unknown_follow' });
    expect((await listFollows(db.dataSource, users.dave)).map((f) => f.marketId)).toEqual([other]);

    const [handler] = createMispricingHandlers({ config: () => loadPredictionsConfig({}) });
    clock.set('2026-03-12T14:00:30Z');
    expect(await handler.run({ tick: true }, context)).toMatchObject({ status: 'ran' });
    clock.set('2026-03-12T14:04:30Z');
    expect(await handler.run({ tick: true }, context)).toEqual({ status: 'not-due' });
    // A sync's request (no tick) always runs.
    expect(await handler.run({}, context)).toMatchObject({ status: 'ran', opened: 0 });
  });
});
