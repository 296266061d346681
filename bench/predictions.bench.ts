import Redis from 'ioredis';
import pino from 'pino';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, fixedClock } from '@tickerbell/jobs';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import {
  computeScorecard,
  recomputePerformance,
  resolvedQuestionsOf,
  scoreQuestion,
  // Source
  PolymarketClient,
  PolymarketReplayWorld,
  loadPredictionsConfig,
  polymarketRateLimit,
  startPolymarketReplayServer,
  syncMarkets,
} from '@tickerbell/jobs/predictions';
import { benchDatabase, type Benchmark, type BenchContext, type BenchRow } from './bench';

// Issue 16's targets: the replay sync of 20,000 markets (section "source"), and the recompute of the
// scorecard of a user with 10,000 resolved forecasts under 50 ms (section "forecasts and performance").

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// Source
const SYNC_MARKETS = Number(process.env.TB_BENCH_PREDICTIONS_MARKETS ?? 20_000);
const SYNC_TARGET_S = 60;
/** Time between the first and the second sync; each simulated market steps once per 100 of these, so about 1 % change. */
const SYNC_STEP_MS = 10 * 60_000;
const SYNC_T0 = new Date('2026-03-02T00:00:00Z');

/**
 * The replay source with 20,000 simulated markets (and the 13 recorded active ones) behind the real
 * client and the cluster rate limit (Gamma: 250 requests per 10 s, the default), into an empty
 * database: the first sync inserts every market; 10 minutes later about 1 % of them have moved and a
 * second sync writes only those (and the few that closed or opened meanwhile); a third finds nothing.
 */
async function sourceRows({ pgAdminUrl, redisUrl }: BenchContext): Promise<BenchRow[]> {
  const database = await benchDatabase(pgAdminUrl, 'predictions_sync', 4);
  const { dataSource } = database;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const prefix = `bench-predictions-${Date.now()}`;
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock(SYNC_T0);
  const world = new PolymarketReplayWorld({ simulated: SYNC_MARKETS, priceEveryMs: 100 * SYNC_STEP_MS });
  const server = await startPolymarketReplayServer({ clock, world });
  try {
    await dataSource.initialize();
    await runMigrations(dataSource);
    const source = new PolymarketClient({
      gammaUrl: server.url,
      clobUrl: server.url,
      kind: 'replay',
      acquireGamma: polymarketRateLimit(redis, `${prefix}:polymarket-gamma:rate`, Number(loadPredictionsConfig({}).POLYMARKET_GAMMA_REQUESTS_PER_10S)),
      health: { dataSource, clock },
    });
    const context = { dataSource, queues, clock, logger: pino({ level: 'silent' }) };
    const run = async (label: string) => {
      // Rows written by the sync: those whose row version (xmin) is newer than a transaction taken just before it.
      const [{ before }] = (await dataSource.query(`SELECT (txid_current() % 4294967296)::bigint AS before`)) as { before: string }[];
      const started = performance.now();
      const out = await syncMarkets(context, source);
      const seconds = (performance.now() - started) / 1000;
      const [{ written }] = (await dataSource.query(`SELECT count(*)::int AS written FROM prediction_markets WHERE xmin::text::bigint > $1`, [before])) as { written: number }[];
      return {
        scenario: label,
        's': seconds,
        markets: out.listed,
        requests: out.requests,
        inserted: out.inserted,
        changed: out.changed,
        unchanged: out.unchanged,
        closed: out.closed,
        'rows written': written,
        'target s': SYNC_TARGET_S,
        met: seconds < SYNC_TARGET_S ? 'yes' : 'NO',
      } satisfies BenchRow;
    };
    const first = await run(`sync ${SYNC_MARKETS.toLocaleString('en-US')} markets (replay, real client, rate limit) into an empty table`);
    clock.advance(SYNC_STEP_MS);
    const second = await run('sync again 10 minutes later (~1 % moved): rows written only for what changed');
    const third = await run('sync again, nothing changed: no row written');
    return [first, second, third];
  } finally {
    await server.close();
    await queues.close();
    await deleteKeysWithPrefix(redisUrl, prefix);
    redis.disconnect();
    await database.drop();
  }
}

// Forecasts and performance
const FORECASTS = 10_000;
const PERFORMANCE_RUNS = 100;
const PERFORMANCE_TARGET_MS = 50;
const PERFORMANCE_NOW = new Date('2026-01-01T00:00:00Z');

/**
 * One user with 10,000 resolved forecasts: 5,000 markets of 8 categories resolved over 21 months,
 * each forecast twice (the first row covering five days, its edit the last five before the close),
 * probabilities and market prices spread over 0.05..0.94 and leaning towards the outcome.
 */
async function fillForecasts(dataSource: import('typeorm').DataSource): Promise<number> {
  const [{ id: userId }] = (await dataSource.query(`INSERT INTO users (email) VALUES ('forecaster@bench.test') RETURNING id`)) as { id: number }[];
  const markets = FORECASTS / 2;
  await dataSource.query(
    `INSERT INTO prediction_markets (polymarket_id, slug, question, category, outcomes, yes_price, closed, is_active, closed_time, resolution, resolved_at,
                                     content_hash, data_source, synced_at)
     SELECT 'bench-' || i, 'bench-' || i, 'Bench question ' || i,
            (ARRAY['Politics','Crypto','Sports','Economy','Science','Culture','Weather','Tech'])[1 + i % 8], '["Yes","No"]', 0.5, true, false,
            timestamptz '2024-01-01' + i * interval '3 hours',
            CASE WHEN (i * 7919) % 10 < 4 THEN 'yes' ELSE 'no' END,
            timestamptz '2024-01-01' + i * interval '3 hours' + interval '1 day', 'h', 'replay', timestamptz '2024-01-01'
     FROM generate_series(1, $1::int) AS i`,
    [markets],
  );
  await dataSource.query(
    `INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made, superseded_at, resolution, date_resolved, points, updated_at)
     SELECT $1, m.id, f.p, f.mp, 'probability', f.p::text, m.closed_time - (10 - 5 * k) * interval '1 day',
            CASE WHEN k = 0 THEN m.closed_time - interval '5 days' END, m.resolution, m.resolved_at, 0, m.resolved_at
     FROM prediction_markets m
     CROSS JOIN generate_series(0, 1) AS k
     CROSS JOIN LATERAL (SELECT
       round((CASE WHEN m.resolution = 'yes' THEN 0.35 ELSE 0.05 END + ((m.id * 37 + k * 11) % 60) / 100.0)::numeric, 4) AS p,
       round((CASE WHEN m.resolution = 'yes' THEN 0.30 ELSE 0.10 END + ((m.id * 53 + k * 7) % 60) / 100.0)::numeric, 4) AS mp) f
     WHERE m.polymarket_id LIKE 'bench-%'`,
    [userId],
  );
  await dataSource.query('ANALYZE user_predictions; ANALYZE prediction_markets');
  return userId;
}

async function performanceRows({ pgAdminUrl }: BenchContext): Promise<BenchRow[]> {
  const database = await benchDatabase(pgAdminUrl, 'predictions_perf', 4);
  const { dataSource } = database;
  try {
    await dataSource.initialize();
    await runMigrations(dataSource);
    const userId = await fillForecasts(dataSource);
    const total = async () => {
      const started = performance.now();
      await recomputePerformance(dataSource, userId, PERFORMANCE_NOW);
      return performance.now() - started;
    };
    // The rows were inserted already resolved, so no question is scored yet: the first recompute scores
    // all 5,000 from their forecast rows (what predictions.resolve does one market at a time).
    const firstRun = await total();
    for (let i = 0; i < 5; i++) await total();
    const times: number[] = [];
    for (let i = 0; i < PERFORMANCE_RUNS; i++) times.push(await total());
    times.sort((a, b) => a - b);

    const { questions } = await resolvedQuestionsOf(dataSource, userId);
    const scored = questions.map(scoreQuestion);
    const forecasts = questions.reduce((s, q) => s + q.forecasts.length, 0);
    const computes: number[] = [];
    for (let i = 0; i < PERFORMANCE_RUNS; i++) {
      const started = performance.now();
      computeScorecard(scored);
      computes.push(performance.now() - started);
    }
    computes.sort((a, b) => a - b);
    const p99 = percentile(times, 99);
    return [
      {
        scenario: `recompute a scorecard: ${forecasts.toLocaleString('en-US')} resolved forecasts, ${questions.length.toLocaleString('en-US')} scored questions (load + compute + upsert)`,
        'p50 ms': percentile(times, 50),
        'p99 ms': p99,
        'target p99 ms': PERFORMANCE_TARGET_MS,
        met: p99 < PERFORMANCE_TARGET_MS ? 'yes' : 'NO',
      },
      { scenario: '  of which: computeScorecard of the scored questions (pure)', 'p50 ms': percentile(computes, 50), 'p99 ms': percentile(computes, 99) },
      { scenario: `first recompute: scores the ${questions.length.toLocaleString('en-US')} questions from their forecast rows and stores them`, 'p50 ms': firstRun },
    ];
  } finally {
    await database.drop();
  }
}

export const predictionsBench: Benchmark = {
  name: 'predictions',
  description: 'predictions: replay sync of 20,000 markets; the scorecard of a user with 10,000 resolved forecasts recomputed (target < 50 ms)',
  async run(context) {
    return [...(await sourceRows(context)), ...(await performanceRows(context))];
  },
};
