import pino from 'pino';
import type { DataSource } from 'typeorm';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import {
  DefiLlamaYieldsClient,
  UniswapSubgraphClient,
  evaluateYieldAlerts,
  ingestSnapshot,
  loadCandidates,
  loadYieldsConfig,
  planEvaluation,
  startSubgraphReplayServer,
  startYieldsReplayServer,
  yieldsIngestOptions,
  YieldAlertIndex,
  type IngestOutcome,
} from '@tickerbell/jobs/yields';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

const POOLS = Number(process.env.TB_BENCH_YIELDS_POOLS ?? 15_000);
const ALERTS = Number(process.env.TB_BENCH_YIELDS_ALERTS ?? 100_000);
const USERS = 2_000; // 50 alerts each
const INGEST_TARGET_S = 10;
const INGEST_TARGET_MB = 200;
const EVALUATE_TARGET_MS = 200;

const mb = (bytes: number) => bytes / 2 ** 20;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** Peak RSS and heap over the baseline taken before `work`, sampled every 10 ms. */
async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; rssMb: number; heapMb: number }> {
  gc();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 10);
  const started = performance.now();
  try {
    const value = await work();
    const m = process.memoryUsage();
    return { value, seconds: (performance.now() - started) / 1000, rssMb: mb(Math.max(rss, m.rss) - base.rss), heapMb: mb(Math.max(heap, m.heapUsed) - base.heapUsed) };
  } finally {
    clearInterval(timer);
  }
}

/** 100,000 alerts of 2,000 users over the tracked pools: APR above/below, spikes, TVL drops, vtr; about 1 % set to fire. */
async function fillAlerts(db: DataSource, createdAt: Date): Promise<number> {
  await db.query(`INSERT INTO users (email) SELECT 'yields' || g || '@bench.test' FROM generate_series(1, $1) g`, [USERS]);
  await db.query(
    `WITH pools AS (SELECT id, row_number() OVER (ORDER BY id) AS rn, count(*) OVER () AS n FROM yield_pools WHERE tracked)
     INSERT INTO yield_alerts (user_id, pool_id, alert_type, condition, threshold, spike_unit, window_hours, cooldown_minutes, created_at, updated_at)
     SELECT 1 + (g - 1) / 50, p.id,
       (ARRAY['apr', 'apr', 'apy_spike', 'tvl_drop', 'vtr'])[1 + g % 5],
       CASE WHEN g % 5 = 1 THEN 'less_than' ELSE 'greater_than' END,
       CASE g % 5 WHEN 0 THEN CASE WHEN g % 100 = 0 THEN 0.01 ELSE 500 END WHEN 1 THEN 0.5 WHEN 2 THEN 3 WHEN 3 THEN 50 ELSE 5 END,
       CASE WHEN g % 5 = 2 THEN 'sigma' END, CASE WHEN g % 5 = 3 THEN 24 END, 360, $2, $2
     FROM generate_series(1, $1) g JOIN pools p ON p.rn = 1 + (g % (SELECT max(n) FROM pools))`,
    [ALERTS, createdAt],
  );
  await db.query('VACUUM ANALYZE');
  return Number((await db.query(`SELECT count(*)::int AS n FROM yield_alerts`))[0].n);
}

/** Issue 15's figures: a 15,000-pool snapshot ingested (< 10 s, < 200 MB over baseline); 100,000 alerts evaluated against a new snapshot (< 200 ms). */
export const yieldsBench: Benchmark = {
  name: 'yields',
  description: `yields: ingest a ${POOLS.toLocaleString('en-US')}-pool /pools snapshot streamed from the replay twin (time, peak memory), then evaluate ${ALERTS.toLocaleString('en-US')} yield alerts against the next snapshot`,
  async run({ pgAdminUrl, redisUrl }) {
    const rows: BenchRow[] = [];
    const database = await benchDatabase(pgAdminUrl, 'yields', 8);
    const { dataSource } = database;
    const prefix = `tb-bench-yields-${Date.now()}`;
    const redis = createWorkerConnection(redisUrl);
    const queues = new JobQueues(redis, prefix);
    const clock = fixedClock('2025-06-02T10:07:00Z');
    const llama = await startYieldsReplayServer({ now: () => clock.now(), pools: POOLS });
    const graph = await startSubgraphReplayServer({ now: () => clock.now() });
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      const config = loadYieldsConfig({});
      const sources = {
        pools: new DefiLlamaYieldsClient({ baseUrl: llama.url, kind: 'replay' as const, health: { dataSource, clock } }),
        subgraph: new UniswapSubgraphClient({ url: graph.url, kind: 'replay' as const, health: { dataSource, clock } }),
      };
      const options = yieldsIngestOptions(config);
      const ingest = async (label: string) => {
        // The replay server runs in this process: its answer is serialised (and cached) before the measure, as a remote server's would be.
        await (await fetch(`${llama.url}/pools`)).arrayBuffer();
        const run = await withPeakMemory(() => ingestSnapshot({ dataSource, clock }, sources, options));
        const o: IngestOutcome = run.value;
        rows.push({
          scenario: label,
          pools: o.seen,
          stored: o.stored,
          seconds: run.seconds,
          'target s': INGEST_TARGET_S,
          'peak RSS MB over baseline': run.rssMb,
          'peak heap MB over baseline': run.heapMb,
          'target MB': INGEST_TARGET_MB,
          'stream s': o.phases.streamMs / 1000,
          'enrich s': o.phases.enrichMs / 1000,
          'write s': o.phases.writeMs / 1000,
        });
        return o;
      };
      await ingest(`ingest: first snapshot (every pool upserted; top ${options.topPerChain}/chain stored; ${options.chartBackfillPerRun} /chart backfills)`);
      clock.advance(3_600_000);
      await ingest('ingest: next hour (30-day history read for the tracked pools)');

      const filled = performance.now();
      // Created a day before (on the benchmark's clock): a worker's index has them already and reads only what changes.
      const alerts = await fillAlerts(dataSource, new Date(clock.now().getTime() - 86_400_000));
      rows.push({ scenario: `generate ${alerts.toLocaleString('en-US')} yield alerts of ${USERS.toLocaleString('en-US')} users (SQL)`, seconds: (performance.now() - filled) / 1000 });
      clock.advance(3_600_000);
      const snapshot = await ingest('ingest: the snapshot the alerts are evaluated on');
      const at = new Date(snapshot.snapshotAt);

      // The pure pass alone (what the evaluation decides), on the loaded candidates.
      const loadStart = performance.now();
      const candidates = await loadCandidates(dataSource, at);
      const loadMs = performance.now() - loadStart;
      let planMs = Infinity;
      let plan = planEvaluation(candidates, new Map(), clock.now());
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        plan = planEvaluation(candidates, new Map(), clock.now());
        planMs = Math.min(planMs, performance.now() - t);
      }
      rows.push({ scenario: `evaluate: decide ${candidates.length.toLocaleString('en-US')} alerts (pure pass, best of 5)`, ms: planMs, 'target ms': EVALUATE_TARGET_MS, fire: plan.fire.length });
      rows.push({ scenario: `evaluate: load ${candidates.length.toLocaleString('en-US')} alerts with their pool's new row (SQL)`, ms: loadMs });

      const context = { dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
      // A worker's index: loaded by its first evaluation, refreshed by the later ones.
      const index = new YieldAlertIndex();
      const full = performance.now();
      const outcome = await evaluateYieldAlerts(context, at, index);
      rows.push({
        scenario: "evaluate: a worker's first job (index load, decide, fire + logs + notifications, dispatch)",
        ms: performance.now() - full,
        alerts: outcome.alerts,
        fire: outcome.fired,
        rearmed: outcome.rearmed,
        phases: Object.entries(outcome.phases ?? {}).map(([k, v]) => `${k} ${v}`).join(', '),
      });
      for (let h = 0; h < 2; h++) {
        clock.advance(3_600_000);
        const next = await ingest('ingest: one more hour');
        const again = performance.now();
        const second = await evaluateYieldAlerts(context, new Date(next.snapshotAt), index);
        rows.push({
          scenario: 'evaluate: the next snapshot with the warm index (refresh, pool values, TVL peaks, decide, writes)',
          ms: performance.now() - again,
          'target ms': EVALUATE_TARGET_MS,
          alerts: second.alerts,
          fire: second.fired,
          rearmed: second.rearmed,
          phases: Object.entries(second.phases ?? {}).map(([k, v]) => `${k} ${v}`).join(', '),
        });
      }
    } finally {
      await Promise.all([llama.close(), graph.close()]);
      await queues.close();
      redis.disconnect();
      await deleteKeysWithPrefix(redisUrl, prefix);
      await database.drop();
    }
    return rows;
  },
};
