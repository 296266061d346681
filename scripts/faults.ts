// `npm run test:faults`: the real api and two worker processes on a PostgreSQL and a Redis of their
// own (the embedded server binaries and redis-server, on free ports, in a temporary directory),
// under load from the alert and market-hours pipelines, while the test kills a worker with
// SIGKILL several times, stops Redis for 10 s and restarts PostgreSQL. Then it checks that nothing
// was lost or duplicated (alert logs, notifications, pushes at a local push service), that no job
// is stuck, that the api answered 503 (never 5xx otherwise) during the outages and 200 after, and
// prints the figures. Exit code 0 when every check holds.
//
// The load is built in the database (there is no recorded sample of it): users with an
// every-time price alert on a crypto pair (cooldown 0: every stored tick of the simulated feed
// fires), a push subscription each, and a synthetic exchange (UTC, every weekday) whose session
// opens and closes during the run, followed by every user.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { createDataSource, runMigrations } from '@tickerbell/entities';
import { runSeeds } from '@tickerbell/jobs/seeds';
import { browserKeys, decryptPushMessage, LocalPushService, type BrowserKeys } from '@tickerbell/jobs/testing/push-service';
import { info } from './infra/log';
import { REPO_ROOT } from './infra/paths';
import { freePort } from './infra/ports';
import { embeddedCluster, ensureDatabase } from './infra/postgres';
import { ownRedisServer } from './infra/redis';

const USERS = 12;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
const KILLS = 3;
const REDIS_DOWN_MS = 10_000;
/** How long before the alerts are switched off a stored tick must have fired its alert. */
const SETTLE_MS = 20_000;
const PREFIX = 'faults';
const EXCHANGE = 'XFLT';
/** A route that reads PostgreSQL on every request (the exchanges list is cached for 30 s). */
const DB_PROBE = '/api/markets?q=BTC';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secondsSince = (t: number) => ((Date.now() - t) / 1000).toFixed(1);

/** A process of the system, its output in a log file (printed when a check fails). */
class SystemProcess {
  child?: ChildProcess;
  readonly log: string;
  exits: { code: number | null; signal: string | null; expected: boolean }[] = [];
  private expectExit = false;

  constructor(
    readonly name: string,
    private readonly file: string,
    private readonly env: NodeJS.ProcessEnv,
    dir: string,
  ) {
    this.log = path.join(dir, `${name}.log`);
  }

  start(): void {
    const out = fs.openSync(this.log, 'a');
    this.expectExit = false;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, this.file)], {
      cwd: REPO_ROOT,
      env: this.env,
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    child.once('exit', (code, signal) => this.exits.push({ code, signal, expected: this.expectExit }));
    this.child = child;
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectExit = true;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  unexpectedExits() {
    return this.exits.filter((e) => !e.expected);
  }
}

interface Probe {
  at: number;
  path: string;
  status: number;
  code?: string;
  retryAfter?: string | null;
}

/** Requests to the api every 200 ms (a database route, a Redis route, readiness), every answer kept. */
class ApiLoad {
  readonly probes: Probe[] = [];
  private running = true;
  private loop?: Promise<void>;

  constructor(private readonly baseUrl: string) {}

  start(): void {
    const paths = [DB_PROBE, `/api/markets/quotes?symbols=${SYMBOLS.join(',')}`, '/api/ready'];
    this.loop = (async () => {
      while (this.running) {
        await Promise.all(paths.map((p) => this.probe(p)));
        await sleep(200);
      }
    })();
  }

  async probe(p: string): Promise<Probe> {
    const at = Date.now();
    let probe: Probe;
    try {
      const res = await fetch(this.baseUrl + p, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
      probe = { at, path: p, status: res.status, code: body.error?.code, retryAfter: res.headers.get('retry-after') };
    } catch {
      probe = { at, path: p, status: 0 };
    }
    this.probes.push(probe);
    return probe;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** The first instant after `from` at which every path answered 200 again. */
  recoveredAt(from: number): number | null {
    const last = new Map<string, Probe>();
    for (const probe of this.probes.filter((p) => p.at >= from).sort((a, b) => a.at - b.at)) {
      last.set(probe.path, probe);
      if (last.size === 3 && [...last.values()].every((p) => p.status === 200)) return probe.at;
    }
    return null;
  }
}

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tickerbell-faults-'));
  const pg = await embeddedCluster(path.join(dir, 'postgres'), await freePort(55439));
  const redis = ownRedisServer(path.join(dir, 'redis'), await freePort(63899), { fsync: 'always' });
  const push = new LocalPushService();
  const processes: SystemProcess[] = [];
  let failed = false;
  let client: Redis | undefined;
  try {
    await pg.start();
    await redis.start();
    await push.start();
    const databaseUrl = await ensureDatabase(pg.adminUrl, 'tickerbell');
    info(`PostgreSQL on ${pg.port}, Redis at ${redis.url}, data in ${dir}`);

    // The schema, the seeded markets and exchanges, and the load.
    const db = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'tickerbell-faults' });
    await db.initialize();
    await runMigrations(db);
    await runSeeds(db);
    const keys = new Map<number, BrowserKeys>();
    const alertIds: number[] = [];
    for (let i = 0; i < USERS; i++) {
      const [{ id: userId }] = await db.query(`INSERT INTO users (email, is_verified) VALUES ($1, true) RETURNING id`, [`fault-${i}@example.test`]);
      const browser = browserKeys();
      keys.set(userId, browser);
      await db.query(`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)`, [
        userId,
        push.endpoint(`u${userId}`),
        browser.p256dh,
        browser.auth,
      ]);
      const symbol = SYMBOLS[i % SYMBOLS.length];
      const [{ id }] = await db.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency, cooldown_seconds, notify_push)
         SELECT $1, id, $2, 'greater_than', 0.000001, '{"type":"greater_than","value":"0.000001"}'::jsonb, 'every_time', 0, true
         FROM markets WHERE symbol = $3 RETURNING id`,
        [userId, `${symbol} above zero`, symbol],
      );
      alertIds.push(id);
    }
    // The exchange opens at the first whole minute at least 110 s away and closes a minute later:
    // its 'opening soon' and 'closing soon' (10 min ahead, so already past) are due at the market
    // clock's first run (whose window looks 15 minutes back), its open and close during the faults.
    // The first run comes at the first whole minute after the workers are up, and it must come before
    // the open (else 'opening soon' is rightly dropped as superseded): 110 s leaves the system about a
    // minute to start (it takes 10 to 15 s), and the check below says so if it took longer.
    const openAt = new Date(Math.ceil((Date.now() + 110_000) / 60_000) * 60_000);
    const closeAt = new Date(openAt.getTime() + 60_000);
    if (closeAt.getUTCDate() !== openAt.getUTCDate()) throw new Error('the run would cross midnight UTC: run it again in two minutes');
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    await db.query(
      `INSERT INTO exchanges (id, name, location, timezone, open_time, close_time, weekdays)
       VALUES ($1, 'Fault Test Exchange', 'Nowhere', 'UTC', $2, $3, ARRAY[0,1,2,3,4,5,6]::smallint[])`,
      [EXCHANGE, hhmm(openAt), hhmm(closeAt)],
    );
    await db.query(`INSERT INTO exchange_follows (user_id, exchange_id) SELECT id, $1 FROM users`, [EXCHANGE]);

    // The system: the api and two workers.
    const apiPort = await freePort(3900);
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: PREFIX,
      LOG_LEVEL: 'warn',
      PRICES_SOURCE: 'simulated',
      MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    };
    const api = new SystemProcess('api', 'api/src/main.ts', { ...env, PORT: String(apiPort), HOST: '127.0.0.1' }, dir);
    const workerPorts = [await freePort(3910), await freePort(3911)];
    const workers = workerPorts.map((port, i) => new SystemProcess(`workers-${'ab'[i]}`, 'workers/src/main.ts', { ...env, WORKER_HEALTH_PORT: String(port) }, dir));
    processes.push(api, ...workers);
    for (const p of processes) p.start();
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    await waitFor('the api', async () => (await fetch(`${baseUrl}/api/ready`)).ok, 60_000);
    await Promise.all(workerPorts.map((port) => waitFor(`worker on ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000)));
    const loadStart = Date.now();
    info(`system up in ${secondsSince(started)} s; exchange ${EXCHANGE} opens ${openAt.toISOString()}, closes ${closeAt.toISOString()}`);
    assert.ok(
      Math.ceil(loadStart / 60_000) * 60_000 < openAt.getTime(),
      `the system came up at ${new Date(loadStart).toISOString()}, too late for a market clock run before the open at ${openAt.toISOString()}: run it again`,
    );

    const load = new ApiLoad(baseUrl);
    load.start();
    const faults: { kind: string; at: number; until: number }[] = [];

    // 1. kill -9 worker a, restarted a second later (as a supervisor would), several times.
    await sleep(8_000);
    for (let i = 0; i < KILLS; i++) {
      const at = Date.now();
      await workers[0].kill('SIGKILL');
      await sleep(1_000);
      workers[0].start();
      await waitFor('worker a back', async () => (await fetch(`http://127.0.0.1:${workerPorts[0]}/health`)).ok, 60_000);
      faults.push({ kind: 'worker kill -9', at, until: Date.now() });
      await sleep(5_000);
    }

    // 2. Redis stopped for 10 s.
    const redisDownAt = Date.now();
    await redis.stop();
    await sleep(REDIS_DOWN_MS);
    await redis.start();
    const redisUpAt = Date.now();
    faults.push({ kind: 'redis stopped', at: redisDownAt, until: redisUpAt });
    await waitFor('the api after Redis', async () => load.recoveredAt(redisUpAt), 30_000);

    // 3. PostgreSQL restarted (a fast shutdown cuts every connection).
    await sleep(5_000);
    const pgDownAt = Date.now();
    await pg.stop();
    await sleep(3_000);
    await pg.start();
    const pgUpAt = Date.now();
    faults.push({ kind: 'postgres restarted', at: pgDownAt, until: pgUpAt });
    await waitFor('the api after PostgreSQL', async () => load.recoveredAt(pgUpAt), 30_000);

    // Steady load until the exchange has closed and the clock has run after it. The close is up to
    // 4 minutes after the start: faults that recover fast leave most of that to wait, so the timeout
    // is counted from the close itself, not from now.
    const closeRunAt = closeAt.getTime() + 10_000;
    await waitFor('the close of the exchange', async () => Date.now() > closeRunAt, Math.max(0, closeRunAt - Date.now()) + 30_000);
    const loadEnd = Date.now();
    await db.query(`UPDATE alerts SET is_active = false WHERE id = ANY($1)`, [alertIds]);
    // A tick stamped in the last seconds before the alerts were switched off may be evaluated after
    // that (its job runs a moment after it is stored) and then rightly fires nothing: only ticks
    // stamped at least SETTLE_MS before must have fired. Every firing must still have its tick.
    const mustFireUntil = loadEnd - SETTLE_MS;
    await load.stop();

    // No job stuck: every queue drains (only the schedules' next runs wait), none left active.
    const checker = new Redis(redis.url, { maxRetriesPerRequest: 3 });
    client = checker;
    const drained = await waitFor(
      'the queues to drain',
      async () => {
        const pending = await pendingJobs(checker);
        return pending.length === 0 ? pending : null;
      },
      60_000,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await pendingJobs(checker))}`);
    });
    assert.deepEqual(drained, []);
    const failedJobs = await failedJobCounts(checker);

    // Alert logs: every stored tick of each alerted symbol fired its alert exactly once (the dedupe
    // key names the tick's instant), and no firing without a tick. The alerts were written before
    // the system started and Redis is new, so every stored tick counts (the simulated feed stamps a
    // tick at its 10 s step, which may be before the alert's created_at).
    const alerts: { id: number; symbol: string }[] = await db.query(
      `SELECT a.id, m.symbol FROM alerts a JOIN markets m ON m.id = a.market_id WHERE a.id = ANY($1)`,
      [alertIds],
    );
    let expectedLogs = 0;
    const missingLogs: string[] = [];
    const extraLogs: string[] = [];
    let storedTicks = 0;
    for (const alert of alerts) {
      const members = await checker.zrangebyscore(`${PREFIX}:prices:history:${alert.symbol}`, '-inf', '+inf');
      const ticks = members.map((m) => Number(m.split(':')[0]));
      const settled = ticks.filter((ms) => ms <= mustFireUntil);
      storedTicks = Math.max(storedTicks, settled.length);
      const logs: { dedupe_key: string }[] = await db.query(`SELECT dedupe_key FROM alert_logs WHERE alert_id = $1`, [alert.id]);
      const have = new Set(logs.map((l) => l.dedupe_key));
      assert.equal(have.size, logs.length, `alert ${alert.id}: duplicate alert logs`);
      const want = new Set(settled.map((ms) => `${alert.id}:at:${ms}`));
      const stored = new Set(ticks.map((ms) => `${alert.id}:at:${ms}`));
      expectedLogs += want.size;
      for (const key of want) if (!have.has(key)) missingLogs.push(key);
      for (const key of have) if (!stored.has(key)) extraLogs.push(key);
    }
    const [{ logs: alertLogs, notified, orphaned }] = await db.query(
      `SELECT count(*)::int AS logs, count(n.id)::int AS notified, count(*) FILTER (WHERE n.id IS NULL)::int AS orphaned
       FROM alert_logs l LEFT JOIN notifications n ON n.id = l.notification_id WHERE l.alert_id = ANY($1)`,
      [alertIds],
    );

    // Market notifications: the exchange's four events, once for each follower.
    const marketRows: { user_id: number; dedupe_key: string; n: number }[] = await db.query(
      `SELECT user_id, dedupe_key, count(*)::int AS n FROM notifications WHERE exchange_id = $1 GROUP BY 1, 2`,
      [EXCHANGE],
    );
    const marketPerUser = new Map<number, number>();
    for (const row of marketRows) marketPerUser.set(row.user_id, (marketPerUser.get(row.user_id) ?? 0) + row.n);
    const marketDuplicates = marketRows.filter((r) => r.n > 1).length;

    // Pushes: every notification reached its user's push subscription; a second copy only when a
    // worker was killed between sending it and recording it (at-least-once over HTTP).
    const notifications: { id: string; user_id: number }[] = await db.query(`SELECT id::text, user_id FROM notifications`);
    const received = new Map<string, number[]>();
    for (const p of push.received) {
      const userId = Number(p.path.replace('/push/u', ''));
      const body = JSON.parse(decryptPushMessage(p.body, keys.get(userId)!).toString('utf8')) as { id: string };
      received.set(String(body.id), [...(received.get(String(body.id)) ?? []), p.at]);
    }
    const unpushed = notifications.filter((n) => !received.has(n.id)).map((n) => n.id);
    const kills = faults.filter((f) => f.kind === 'worker kill -9');
    const duplicatePushes = [...received].filter(([, times]) => times.length > 1);
    const unexplained = duplicatePushes.filter(([, times]) => !kills.some((k) => Math.abs(toEpoch(times[0]) - k.at) < 5_000));

    // The api during and after the faults.
    const fiveHundreds = load.probes.filter((p) => p.status >= 500 && p.status !== 503);
    const unreachable = load.probes.filter((p) => p.status === 0);
    const during = (f: { at: number; until: number }) => load.probes.filter((p) => p.at > f.at + 500 && p.at < f.until - 500);
    const redisFault = faults.find((f) => f.kind === 'redis stopped')!;
    const pgFault = faults.find((f) => f.kind === 'postgres restarted')!;
    const redis503 = during(redisFault).filter((p) => p.path.startsWith('/api/markets/quotes'));
    const pg503 = during(pgFault).filter((p) => p.path === DB_PROBE);
    const redisRecovery = (load.recoveredAt(redisFault.until)! - redisFault.until) / 1000;
    const pgRecovery = (load.recoveredAt(pgFault.until)! - pgFault.until) / 1000;
    const deaths = processes.flatMap((p) => p.unexpectedExits().map((e) => `${p.name} exited (${e.code ?? e.signal})`));

    info('figures');
    const figures: [string, string | number][] = [
      ['load', `${((loadEnd - loadStart) / 1000).toFixed(0)} s, ${USERS} users, ${alertIds.length} every-time alerts on ${SYMBOLS.length} pairs, 1 synthetic exchange`],
      ['faults injected', `${KILLS} worker kill -9, Redis down ${REDIS_DOWN_MS / 1000} s, PostgreSQL restart (${((pgFault.until - pgFault.at) / 1000).toFixed(1)} s down)`],
      ['stored ticks per pair', storedTicks],
      [`alert logs (expected: ticks ${SETTLE_MS / 1000} s before the end / written)`, `${expectedLogs} / ${alertLogs}`],
      ['alert logs lost / duplicated / without a tick', `${missingLogs.length} / 0 / ${extraLogs.length}`],
      ['alert notifications', `${notified} (${orphaned} logs without one)`],
      ['market notifications', `${[...marketPerUser.values()].reduce((a, b) => a + b, 0)} for ${marketPerUser.size} followers (${marketDuplicates} duplicated)`],
      ['pushes received / notifications', `${push.received.length} / ${notifications.length}`],
      ['notifications never pushed', unpushed.length],
      ['duplicate pushes (around a kill / unexplained)', `${duplicatePushes.length - unexplained.length} / ${unexplained.length}`],
      ['jobs waiting or active after the run', drained.length],
      ['jobs failed for good (each retried work is re-done by the next run)', JSON.stringify(failedJobs)],
      ['api requests', load.probes.length],
      ['api 5xx other than 503', fiveHundreds.length],
      ['api 503 during Redis outage (quotes)', `${redis503.filter((p) => p.status === 503 && p.code === 'redis_unavailable').length} of ${redis503.length}`],
      ['api 503 during PostgreSQL restart (market search)', `${pg503.filter((p) => p.status === 503 && p.code === 'database_unavailable').length} of ${pg503.length}`],
      ['api all 200 again after Redis', `${redisRecovery.toFixed(1)} s`],
      ['api all 200 again after PostgreSQL', `${pgRecovery.toFixed(1)} s`],
      ['unexpected process exits', deaths.length ? deaths.join(', ') : 0],
    ];
    for (const [label, value] of figures) process.stdout.write(`  ${label.padEnd(68)} ${value}\n`);

    assert.deepEqual(deaths, [], 'a process of the system died');
    assert.ok(storedTicks >= 5, `too few ticks stored (${storedTicks}) for the run to mean anything`);
    assert.deepEqual(missingLogs, [], 'stored ticks whose alert never fired (lost)');
    assert.deepEqual(extraLogs, [], 'alert logs without a stored tick');
    assert.equal(orphaned, 0, 'alert logs without their notification');
    assert.equal(marketDuplicates, 0, 'duplicated market notifications');
    assert.equal(marketPerUser.size, USERS, 'followers without market notifications');
    for (const [userId, n] of marketPerUser) assert.equal(n, 4, `user ${userId}: ${n} market notifications, expected 4 (opening soon, opened, closing soon, closed)`);
    assert.deepEqual(unpushed, [], 'notifications never pushed');
    assert.deepEqual(unexplained, [], 'duplicate pushes not explained by a worker kill');
    assert.deepEqual(fiveHundreds.map((p) => `${p.path} ${p.status}`), [], 'the api answered 5xx other than 503');
    assert.deepEqual(unreachable.map((p) => p.path), [], 'the api did not answer');
    assert.ok(redis503.length > 0 && redis503.every((p) => p.status === 503 && p.code === 'redis_unavailable' && p.retryAfter), 'quotes during the Redis outage: 503 redis_unavailable with Retry-After');
    assert.ok(pg503.length > 0 && pg503.every((p) => p.status === 503 && p.code === 'database_unavailable' && p.retryAfter), 'market search during the PostgreSQL restart: 503 database_unavailable with Retry-After');
    assert.ok(redisRecovery < 10 && pgRecovery < 10, 'the api took more than 10 s to recover');
    await db.destroy();
    info(`fault tests passed in ${secondsSince(started)} s`);
  } catch (error) {
    failed = true;
    info(`fault tests FAILED: ${error instanceof Error ? error.message : String(error)}`);
    for (const p of processes) {
      const tail = fs.existsSync(p.log) ? fs.readFileSync(p.log, 'utf8').split('\n').slice(-25).join('\n') : '';
      process.stdout.write(`--- last lines of ${p.name} (${p.log})\n${tail}\n`);
    }
    // Again after the logs, so that the reason is in the last lines a CI shows.
    info(`fault tests FAILED: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    client?.disconnect();
    for (const p of processes) await p.kill('SIGTERM');
    await push.stop();
    await redis.stop();
    await pg.stop().catch(() => undefined);
    if (!failed) fs.rmSync(dir, { recursive: true, force: true });
  }
  // Explicitly: the embedded server's exit hook would otherwise end the process with code 0.
  process.exit(failed ? 1 : 0);
}

/** performance.now() of this process (the push service's clock) as epoch ms. */
function toEpoch(performanceMs: number): number {
  return performance.timeOrigin + performanceMs;
}

/** Jobs waiting, active or delayed in any queue, except the schedules' next runs. */
async function pendingJobs(redis: Redis): Promise<string[]> {
  const pending: string[] = [];
  for (const queue of await queueNames(redis)) {
    for (const state of ['wait', 'active', 'paused', 'prioritized', 'waiting-children']) {
      const key = `${PREFIX}:${queue}:${state}`;
      const type = await redis.type(key);
      const ids = type === 'list' ? await redis.lrange(key, 0, -1) : type === 'zset' ? await redis.zrange(key, 0, -1) : [];
      pending.push(...ids.map((id) => `${queue} ${state} ${id}`));
    }
    for (const id of await redis.zrange(`${PREFIX}:${queue}:delayed`, 0, -1)) {
      // A scheduler's next run is stored as repeat:<scheduler id>:<time>.
      if (!id.startsWith('repeat:')) pending.push(`${queue} delayed ${id}`);
    }
  }
  return pending;
}

async function failedJobCounts(redis: Redis): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const queue of await queueNames(redis)) {
    for (const id of await redis.zrange(`${PREFIX}:${queue}:failed`, 0, -1)) {
      const name = await redis.hget(`${PREFIX}:${queue}:${id}`, 'name');
      counts[name ?? queue] = (counts[name ?? queue] ?? 0) + 1;
    }
  }
  return counts;
}

async function queueNames(redis: Redis): Promise<string[]> {
  const metas = await redis.keys(`${PREFIX}:*:meta`);
  return metas.map((k) => k.slice(PREFIX.length + 1, -':meta'.length));
}

void main();
