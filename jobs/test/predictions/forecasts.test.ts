import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext, JobHandler } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { loadPredictionsConfig } from '../../src/predictions/predictions.config';
import { PredictionsError } from '../../src/predictions/predictions.errors';
import { predictionsJobIds } from '../../src/predictions/predictions.jobs';
import { createPredictionsHandlers } from '../../src/predictions/predictions.processor';
import {
  forecastsOnMarket,
  listForecasts,
  makeForecast,
  performanceForEmail,
  performanceOf,
  recomputePerformance,
  withdrawForecast,
} from '../../src/predictions/predictions-forecasts.store';
import { forecastPoints } from '../../src/predictions/predictions-scoring';

// Forecasts on real PostgreSQL (make, edit, withdraw, list; the market price read from our snapshots,
// never from the client; refusals after the close) and the resolution jobs on real Redis: points per
// row, the scorecard row, and the same result when a job runs twice. Fixed clock.

const DAY = 86_400_000;
const T = new Date('2025-05-01T12:00:00Z');
const at = (days: number) => new Date(T.getTime() + days * DAY);

describe('predictions forecasts and resolution (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock(T);
  let context: JobContext;
  let handlers: JobHandler[];
  const users = { ann: 0, ben: 0, cat: 0 };
  const markets = { election: 0, unpriced: 0, closed: 0, rain: 0, ended: 0 };

  const run = (name: string, payload: unknown) => {
    const handler = handlers.find((h) => h.name === name);
    if (!handler) throw new Error(`no handler ${name}`);
    return handler.run(payload as never, context);
  };
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      if (error instanceof PredictionsError) return { code: error.code, field: error.field };
      throw error;
    }
    throw new Error('not refused');
  };
  const market = async (slug: string, fields: { category?: string; yesPrice?: string | null; closed?: boolean; closedTime?: Date | null } = {}) => {
    const [{ id }] = (await db.dataSource.query(
      `INSERT INTO prediction_markets (polymarket_id, slug, question, category, outcomes, yes_price, closed, is_active, closed_time, content_hash, data_source, synced_at)
       VALUES ($1, $1, $2, $3, '["Yes","No"]', $4, $5, NOT $5, $6, 'h', 'replay', $7) RETURNING id`,
      [slug, `Will ${slug} happen?`, fields.category ?? 'Politics', fields.yesPrice === undefined ? '0.5000' : fields.yesPrice, fields.closed ?? false, fields.closedTime ?? null, at(-10)],
    )) as { id: number }[];
    return id;
  };
  const snapshot = (marketId: number, takenAt: Date, price: string) =>
    db.dataSource.query(`INSERT INTO prediction_market_snapshots (market_id, taken_at, price, source) VALUES ($1, $2, $3, 'replay')`, [marketId, takenAt, price]);
  const resolveMarket = (marketId: number, resolution: 'yes' | 'no' | 'void', closedTime: Date, resolvedAt: Date) =>
    db.dataSource.query(`UPDATE prediction_markets SET closed = true, is_active = false, closed_time = $2, resolution = $3, resolved_at = $4 WHERE id = $1`, [
      marketId,
      closedTime,
      resolution,
      resolvedAt,
    ]);
  const rowsOf = async (marketId: number) =>
    (await db.dataSource.query(
      `SELECT id, user_id, user_prediction::text AS p, market_price::text AS m, resolution, date_resolved, points::text AS points, superseded_at
       FROM user_predictions WHERE market_id = $1 ORDER BY id`,
      [marketId],
    )) as { id: number; user_id: number; p: string; m: string; resolution: string | null; date_resolved: Date | null; points: string | null; superseded_at: Date | null }[];
  const waitingJobs = async () =>
    (await queues.queue('predictions').getJobs(['waiting', 'delayed', 'prioritized'])).map((j) => ({ name: j.name, id: j.id, data: j.data as unknown })).sort((a, b) => String(a.id).localeCompare(String(b.id)));

  beforeAll(async () => {
    db = await createTestDatabase();
    context = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    handlers = createPredictionsHandlers({ config: () => loadPredictionsConfig({}) } as Parameters<typeof createPredictionsHandlers>[0]);
    const rows = (await db.dataSource.query(`INSERT INTO users (email) SELECT unnest($1::varchar[]) RETURNING id`, [
      ['ann@example.test', 'ben@example.test', 'cat@example.test'],
    ])) as { id: number }[];
    [users.ann, users.ben, users.cat] = rows.map((r) => r.id);
    markets.election = await market('election');
    markets.unpriced = await market('unpriced', { yesPrice: null });
    markets.closed = await market('closed', { closed: true });
    markets.rain = await market('rain', { category: 'Weather' });
    markets.ended = await market('ended', { closedTime: at(-1) });
    await snapshot(markets.election, at(-1 / 24), '0.4000');
    await snapshot(markets.election, at(1), '0.5500');
    await snapshot(markets.election, at(30), '0.9000'); // after the forecasts: never read for them
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  it('makes a forecast priced from the newest snapshot at that moment, and an edit supersedes it', async () => {
    const first = await makeForecast(db.dataSource, { userId: users.ann, marketId: markets.election, prediction: ' 62% ', confidence: 70, notes: ' polls ' }, T);
    expect(first).toMatchObject({
      marketId: markets.election,
      userPrediction: '0.6200',
      marketPrice: '0.4000', // the snapshot an hour before, not the market row's 0.5000
      confidence: 70,
      notes: 'polls',
      inputForm: 'percent',
      inputText: '62%',
      dateMade: T.toISOString(),
      supersededAt: null,
      resolution: null,
      points: null,
    });
    // The client cannot pass a price: extra fields are not read.
    const edited = await makeForecast(db.dataSource, { userId: users.ann, marketId: markets.election, prediction: '3:2', marketPrice: '0.01' } as never, at(2));
    expect(edited).toMatchObject({ userPrediction: '0.6000', marketPrice: '0.5500', inputForm: 'odds', inputText: '3:2', confidence: null, notes: null });
    const history = await forecastsOnMarket(db.dataSource, users.ann, markets.election);
    expect(history.map((f) => [f.id, f.userPrediction, f.supersededAt])).toEqual([
      [edited.id, '0.6000', null],
      [first.id, '0.6200', at(2).toISOString()],
    ]);
    // The market row's price when no snapshot is known yet.
    const rain = await makeForecast(db.dataSource, { userId: users.ann, marketId: markets.rain, prediction: '0.2' }, T);
    expect(rain).toMatchObject({ userPrediction: '0.2000', marketPrice: '0.5000', inputForm: 'probability' });
  });

  it('refuses bad input, unknown and closed markets, and a market with no price', async () => {
    const make = (prediction: string, marketId = markets.election, extra: object = {}) =>
      refusal(makeForecast(db.dataSource, { userId: users.cat, marketId, prediction, ...extra }, T));
    expect(await make('abc')).toEqual({ code: 'invalid_prediction', field: 'prediction' });
    expect(await make('100%')).toEqual({ code: 'invalid_prediction', field: 'prediction' });
    expect(await make('0.5', markets.election, { confidence: 101 })).toEqual({ code: 'invalid_prediction', field: 'confidence' });
    expect(await make('0.5', markets.election, { confidence: 2.5 })).toEqual({ code: 'invalid_prediction', field: 'confidence' });
    expect(await make('0.5', markets.election, { notes: 'x'.repeat(1001) })).toEqual({ code: 'invalid_prediction', field: 'notes' });
    expect(await make('0.5', 999_999)).toEqual({ code: 'unknown_market', field: undefined });
    expect(await make('0.5', markets.closed)).toEqual({ code: 'market_closed', field: undefined });
    expect(await make('0.5', markets.ended)).toEqual({ code: 'market_closed', field: undefined });
    expect(await make('0.5', markets.unpriced)).toEqual({ code: 'no_market_price', field: undefined });
    expect(await forecastsOnMarket(db.dataSource, users.cat, markets.election)).toEqual([]);
  });

  it('withdraws the current forecast and keeps its history', async () => {
    await makeForecast(db.dataSource, { userId: users.ben, marketId: markets.election, prediction: '0.3' }, at(1));
    await withdrawForecast(db.dataSource, users.ben, markets.election, at(3));
    expect(await refusal(withdrawForecast(db.dataSource, users.ben, markets.election, at(3)))).toEqual({ code: 'no_forecast', field: undefined });
    expect(await refusal(withdrawForecast(db.dataSource, users.ben, 999_999, at(3)))).toEqual({ code: 'unknown_market', field: undefined });
    const [row] = await forecastsOnMarket(db.dataSource, users.ben, markets.election);
    expect(row).toMatchObject({ userPrediction: '0.3000', marketPrice: '0.5500', supersededAt: at(3).toISOString() });
  });

  it('lists the latest forecast per market, newest first, with a cursor', async () => {
    const open = await listForecasts(db.dataSource, users.ann, { status: 'open', limit: 1 });
    expect(open.rows.map((r) => [r.market.id, r.userPrediction])).toEqual([[markets.election, '0.6000']]);
    expect(open.rows[0].market).toEqual({ id: markets.election, question: 'Will election happen?', category: 'Politics', yesPrice: '0.5000', closed: false, resolution: null, endDate: null });
    const next = await listForecasts(db.dataSource, users.ann, { status: 'open', limit: 1, cursor: open.nextCursor as string });
    expect(next.rows.map((r) => r.market.id)).toEqual([markets.rain]);
    expect(next.nextCursor).toBeNull();
    // ben withdrew: nothing open, the withdrawn forecast under all.
    expect((await listForecasts(db.dataSource, users.ben, { status: 'open', limit: 10 })).rows).toEqual([]);
    expect((await listForecasts(db.dataSource, users.ben, { status: 'all', limit: 10 })).rows.map((r) => r.supersededAt)).toEqual([at(3).toISOString()]);
    expect(await refusal(listForecasts(db.dataSource, users.ann, { status: 'all', limit: 10, cursor: 'nope' }))).toEqual({ code: 'bad_cursor', field: undefined });
  });

  it('resolves: rows get the resolution and points, each user a scorecard, and a retried job changes nothing', async () => {
    await resolveMarket(markets.election, 'yes', at(4), at(5));
    clock.set(at(6));
    // Closed: no forecast, no edit, no withdrawal any more.
    expect(await refusal(makeForecast(db.dataSource, { userId: users.ann, marketId: markets.election, prediction: '0.9' }, at(6)))).toEqual({
      code: 'market_closed',
      field: undefined,
    });
    expect(await refusal(withdrawForecast(db.dataSource, users.ann, markets.election, at(6)))).toEqual({ code: 'market_closed', field: undefined });

    const outcome = await run('predictions.resolve', { marketId: markets.election });
    expect(outcome).toEqual({ status: 'resolved', marketId: markets.election, resolution: 'yes', dateResolved: at(5).toISOString(), forecasts: 3, users: [users.ann, users.ben] });
    const rows = await rowsOf(markets.election);
    for (const r of rows) {
      expect(r).toMatchObject({ resolution: 'yes', date_resolved: at(5) });
      expect(Number(r.points)).toBe(forecastPoints(Number(r.p), Number(r.m), 1));
    }
    // ann: 0.62 vs 0.40 -> 100 × (0.36 − 0.1444) = 21.56; 0.60 vs 0.55 -> 100 × (0.2025 − 0.16) = 4.25; ben: 0.30 vs 0.55 -> −28.75
    expect(rows.map((r) => r.points)).toEqual(['21.5600', '4.2500', '-28.7500']);
    const jobs = await waitingJobs();
    expect(jobs).toEqual(
      [users.ann, users.ben]
        .map((userId) => ({ name: 'predictions.performance', id: predictionsJobIds.performance(userId, markets.election), data: { userId } }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );

    // The retry: the same rows, no new job.
    expect(await run('predictions.resolve', { marketId: markets.election })).toEqual(outcome);
    expect(await rowsOf(markets.election)).toEqual(rows);
    expect(await waitingJobs()).toEqual(jobs);
    // One scored question per user, written with the resolution: the scorecard is recomputed from these.
    const scores = async () =>
      db.dataSource.query(`SELECT user_id, outcome, p, m, points, forecasts FROM prediction_question_scores WHERE market_id = $1 ORDER BY user_id`, [markets.election]);
    const written = await scores();
    expect(written).toEqual([
      { user_id: users.ann, outcome: 1, p: expect.closeTo(0.61, 12), m: expect.closeTo(0.475, 12), points: expect.closeTo(12.905, 12), forecasts: 2 },
      { user_id: users.ben, outcome: 1, p: expect.closeTo(0.3, 12), m: expect.closeTo(0.55, 12), points: expect.closeTo(-28.75, 12), forecasts: 1 },
    ]);

    expect(await run('predictions.performance', { userId: users.ann })).toEqual({ status: 'recomputed', userId: users.ann, questions: 1 });
    const ann = await performanceOf(db.dataSource, users.ann);
    // Two forecasts covering two days each up to the close (day 4): p̂ = 0.61, m̂ = 0.475, YES.
    expect(ann).toMatchObject({
      totalPredictions: 1,
      correctPredictions: 1,
      accuracy: 1,
      brierScore: 0.1521, // 0.39²
      logScore: expect.closeTo(Math.log(0.61), 6),
      market: { brier: 0.2756, log: expect.closeTo(Math.log(0.475), 6) }, // 0.525²
      skill: { brier: 0.1235, log: expect.closeTo(Math.log(0.61) - Math.log(0.475), 6) },
      totalPoints: 12.905, // (21.56 + 4.25) / 2
      decomposition: { reliability: 0.1521, resolution: 0, uncertainty: 0 },
      trend: [{ month: '2025-05', count: 1, brier: 0.1521, marketBrier: 0.2756, log: expect.closeTo(Math.log(0.61), 6), marketLog: expect.closeTo(Math.log(0.475), 6), accuracy: 1 }],
      bestCategories: [], // one Politics question: under the minimum of 3
      improvementAreas: [],
      lastCalculated: at(6).toISOString(),
    });
    expect(ann.calibration[6]).toEqual({ from: 0.6, to: 0.7, count: 1, meanForecast: 0.61, observedRate: 1, low: 0.2065, high: 1 });
    // The stored row reads back exactly as computed, and a second run writes the same.
    expect(await recomputePerformance(db.dataSource, users.ann, at(6))).toEqual(ann);
    expect(await run('predictions.performance', { userId: users.ann })).toEqual({ status: 'recomputed', userId: users.ann, questions: 1 });
    expect(await performanceOf(db.dataSource, users.ann)).toEqual(ann);
    const [{ count }] = (await db.dataSource.query(`SELECT count(*)::int AS count FROM prediction_performance WHERE user_id = $1`, [users.ann])) as { count: number }[];
    expect(count).toBe(1);
    // A database from before the scores table: the rows missing and the scorecard without the marker
    // that every question is scored. The next recompute scores the questions first.
    await db.dataSource.query(`DELETE FROM prediction_question_scores WHERE user_id = $1`, [users.ann]);
    await db.dataSource.query(`UPDATE prediction_performance SET details = details - 'questionScores' WHERE user_id = $1`, [users.ann]);
    expect(await recomputePerformance(db.dataSource, users.ann, at(6))).toEqual(ann);
    expect(await scores()).toEqual(written);

    // ben's withdrawn forecast covered days 1 to 3: scored for that time.
    await run('predictions.performance', { userId: users.ben });
    expect(await performanceOf(db.dataSource, users.ben)).toMatchObject({ totalPredictions: 1, correctPredictions: 0, brierScore: 0.49, totalPoints: -28.75 });

    const resolved = await listForecasts(db.dataSource, users.ann, { status: 'resolved', limit: 10 });
    expect(resolved.rows.map((r) => [r.market.id, r.resolution, r.points, r.market.resolution])).toEqual([[markets.election, 'yes', '4.2500', 'yes']]);
  });

  it('resolves a void market without points and scores nothing of it', async () => {
    await resolveMarket(markets.rain, 'void', at(7), at(7));
    clock.set(at(8));
    // As if the market had first resolved YES (built in the database: no recorded re-resolution exists).
    await db.dataSource.query(
      `INSERT INTO prediction_question_scores (user_id, market_id, category, outcome, resolved_at, p, m, points, forecasts) VALUES ($1, $2, 'Weather', 1, $3, 0.5, 0.5, 0, 1)`,
      [users.ann, markets.rain, at(7)],
    );
    await run('predictions.resolve', { marketId: markets.rain });
    expect((await rowsOf(markets.rain)).map((r) => [r.resolution, r.points])).toEqual([['void', null]]);
    expect(await db.dataSource.query(`SELECT 1 FROM prediction_question_scores WHERE market_id = $1`, [markets.rain])).toEqual([]);
    await run('predictions.performance', { userId: users.ann });
    expect(await performanceOf(db.dataSource, users.ann)).toMatchObject({ totalPredictions: 1, brierScore: 0.1521, lastCalculated: at(8).toISOString() });
    // An unresolved market and an unknown one: nothing written, nothing queued.
    expect(await run('predictions.resolve', { marketId: markets.unpriced })).toEqual({ status: 'unresolved', marketId: markets.unpriced });
    expect(await run('predictions.resolve', { marketId: 999_999 })).toEqual({ status: 'unknown_market', marketId: 999_999 });
  });

  it('answers the empty scorecard before any resolution, by email, and nothing for a deleted user', async () => {
    const empty = await performanceOf(db.dataSource, users.cat);
    expect(empty).toMatchObject({ totalPredictions: 0, accuracy: null, brierScore: null, decomposition: null, totalPoints: 0, lastCalculated: null });
    expect(empty.calibration).toHaveLength(10);
    expect(await performanceForEmail(db.dataSource, ' ANN@example.test ')).toEqual(await performanceOf(db.dataSource, users.ann));
    expect(await refusal(performanceForEmail(db.dataSource, 'nobody@example.test'))).toEqual({ code: 'unknown_user', field: undefined });
    await db.dataSource.query(`UPDATE users SET deleted_at = $2 WHERE id = $1`, [users.cat, at(8)]);
    expect(await run('predictions.performance', { userId: users.cat })).toEqual({ status: 'no_user', userId: users.cat });
    expect(await db.dataSource.query(`SELECT 1 FROM prediction_performance WHERE user_id = $1`, [users.cat])).toEqual([]);
  });
});
