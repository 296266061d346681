import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { chatEnvSchema, roomHistory, type ChatDeps } from '@tickerbell/jobs/chat';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { hashPassword } from '../api/src/accounts/password-hash';
import { REPO_ROOT } from '../scripts/infra/paths';
import { freePort } from '../scripts/infra/ports';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';
import { wallNow, type FromReaders, type ReaderMember, type ReadersResult, type ToReaders } from './chat-readers';

/** The run's size, from the environment (defaults: the targets). */
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SECONDS = num('CHAT_BENCH_SECONDS', 60);
/** Posting at the same rate before the measured SECONDS (JIT, connection pools, caches); reported apart. 0 for none. */
const WARMUP = process.env.CHAT_BENCH_WARMUP_SECONDS === '0' ? 0 : num('CHAT_BENCH_WARMUP_SECONDS', 5);
const MEMBERS = num('CHAT_BENCH_MEMBERS', 1000);
const ROOMS = num('CHAT_BENCH_ROOMS', 20);
const RATE = num('CHAT_BENCH_RATE', 200);
const HISTORY_ROWS = num('CHAT_BENCH_HISTORY_ROWS', 1_000_000);
const PASSWORD = 'correct horse battery staple';
const SECRET = 'chat-bench-session-secret-0123456789abcdef';

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One api process (`node --import tsx api/src/main.ts`, as `npm start` and the fault test run it), its output in a log file. */
class ApiProcess {
  readonly child: ChildProcess;
  readonly base: string;

  constructor(
    readonly port: number,
    readonly log: string,
    env: NodeJS.ProcessEnv,
  ) {
    const out = fs.openSync(log, 'a');
    // CHAT_BENCH_API_PROFILE=<dir>: each api process writes a V8 CPU profile there when it stops.
    const profile = process.env.CHAT_BENCH_API_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CHAT_BENCH_API_PROFILE}`] : [];
    this.child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(REPO_ROOT, 'api/src/main.ts')], {
      cwd: REPO_ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}` },
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    this.base = `http://127.0.0.1:${port}`;
  }

  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`api on ${this.port} exited (${this.child.exitCode}): ${fs.readFileSync(this.log, 'utf8').slice(-2000)}`);
      const ok = await fetch(`${this.base}/api/ready`).then((r) => r.ok, () => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`api on ${this.port} not ready after ${timeoutMs} ms`);
      await sleep(250);
    }
  }

  /** SIGTERM (the api's graceful shutdown), SIGKILL when it has not exited 10 s later. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** CPU seconds a process used so far (Linux /proc; NaN elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The machine's busy and total CPU time so far (Linux /proc/stat, in jiffies). */
function machineCpu(): { busy: number; total: number } {
  try {
    const [, ...values] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - values[3] - values[4], total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** The cookies a response sets, as `name=value` pairs. */
const setCookies = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]);

/**
 * A member signed in through the real routes of an api process: GET /api/auth/csrf (the
 * pre-session and its token), POST /api/auth/callback/credentials (argon2id verify, a new session),
 * GET /api/auth/csrf again (the session's token, sent as x-csrf-token with each post).
 */
async function signIn(base: string, email: string): Promise<{ cookie: string; csrf: string }> {
  const first = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await first.json()) as { csrfToken: string };
  const signedIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: setCookies(first).join('; ') },
    body: JSON.stringify({ email, password: PASSWORD, csrfToken, json: true }),
  });
  if (signedIn.status !== 200) throw new Error(`sign-in of ${email} answered ${signedIn.status}: ${await signedIn.text()}`);
  await signedIn.arrayBuffer();
  const cookie = setCookies(signedIn).find((c) => c.startsWith('tb.sid='));
  if (!cookie) throw new Error(`sign-in of ${email} set no session cookie`);
  const token = await fetch(`${base}/api/auth/csrf`, { headers: { cookie } });
  return { cookie, csrf: ((await token.json()) as { csrfToken: string }).csrfToken };
}

/**
 * Chat: MEMBERS members in ROOMS rooms, each signed in (real credentials route) and with its live
 * stream open on one of two api processes (`api/src/main.ts`, each with its own stream hub, on the
 * bench's PostgreSQL database and Redis prefix). The 1,000 stream readers run in a child process
 * (chat-readers.ts); this process's event loop only posts: RATE messages a second over HTTP for
 * SECONDS, each from the next member (round robin) to its own api process. Measured: post-to-
 * delivery latency (from sending the POST to a reader receiving the event; the send time travels
 * in the text), lost and duplicated deliveries, the rate sustained. Then a room of HISTORY_ROWS
 * messages: a history page of 50 (the latest, before a random id, around the first unread), in
 * the store and through HTTP. CHAT_BENCH_SECONDS / _MEMBERS / _ROOMS / _RATE / _HISTORY_ROWS change the size.
 */
export const chatBench: Benchmark = {
  name: 'chat',
  description: `Chat: ${MEMBERS} members with open streams on 2 api processes, ${RATE} msg/s for ${SECONDS} s in ${ROOMS} rooms; history pages of 50 in a room of ${HISTORY_ROWS.toLocaleString('en-US')}`,
  async run({ pgAdminUrl, redisUrl }) {
    const database = await benchDatabase(pgAdminUrl, 'chat', 10);
    const { dataSource } = database;
    const prefix = `tb-bench-${randomBytes(4).toString('hex')}`;
    const redis = createProducerConnection(redisUrl);
    const queues = new JobQueues(redis, prefix);
    const rows: BenchRow[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tickerbell-chat-bench-'));
    const apis: ApiProcess[] = [];
    let readers: ChildProcess | undefined;
    let failed = true;
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      const hash = await hashPassword(PASSWORD);
      await dataSource.query(
        `INSERT INTO users (email, name, password_hash, is_verified, created_at) SELECT 'member' || g || '@bench.test', 'Member ' || g, $2, true, now() - interval '30 days' FROM generate_series(1, $1) g`,
        [MEMBERS, hash],
      );
      const userIds = ((await dataSource.query(`SELECT id FROM users ORDER BY id`)) as { id: number }[]).map((r) => r.id);
      const roomIds = ((await dataSource.query(`INSERT INTO chat_rooms (name) SELECT 'Room ' || g FROM generate_series(1, $1) g RETURNING id`, [ROOMS])) as { id: number }[]).map((r) => r.id);
      const roomOf = (i: number) => i % ROOMS;
      await dataSource.query(`INSERT INTO chat_room_members (room_id, user_id) SELECT * FROM unnest($1::int[], $2::int[])`, [userIds.map((_, i) => roomIds[roomOf(i)]), userIds]);

      // Two api processes. The chat rate limit stays at its default (1 a second, 3 at once) unless
      // the run posts more often per member than that.
      const perMember = Math.ceil(RATE / MEMBERS);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        SESSION_SECRET: SECRET,
        ...(perMember > 1 ? { CHAT_RATE_PER_SECOND: String(perMember), CHAT_RATE_BURST: String(perMember * 3) } : {}),
      };
      for (const preferred of [3960, 3961]) apis.push(new ApiProcess(await freePort(preferred), path.join(dir, `api-${apis.length}.log`), env));
      await Promise.all(apis.map((api) => api.ready()));

      // Every member signs in through the real routes on the process its stream will use (8 at a time: argon2id verifies).
      // Member i is in room i % ROOMS; the api process alternates per round of rooms, so every room has
      // members on both processes and each post reaches half its room through the other process.
      const apiIndex = (i: number) => Math.floor(i / ROOMS) % 2;
      const apiOf = (i: number) => apis[apiIndex(i)];
      const sessions: { cookie: string; csrf: string }[] = new Array(MEMBERS);
      const signInStarted = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < MEMBERS; i = next++) sessions[i] = await signIn(apiOf(i).base, `member${i + 1}@bench.test`);
        }),
      );
      const signInSeconds = (performance.now() - signInStarted) / 1000;

      // The readers: a child process with an IPC channel.
      const warmPosts = Math.round(RATE * WARMUP);
      const total = warmPosts + Math.round(RATE * SECONDS);
      const child = fork(path.join(__dirname, 'chat-readers.ts'), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, TB_CHAT_READERS: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      readers = child;
      const fromReaders = <T extends FromReaders['type']>(type: T) =>
        new Promise<Extract<FromReaders, { type: T }>>((resolve, reject) => {
          const onMessage = (message: FromReaders) => {
            if (message.type === 'error') reject(new Error(`stream readers: ${message.message}`));
            else if (message.type === type) resolve(message as Extract<FromReaders, { type: T }>);
            else return;
            child.off('message', onMessage);
          };
          child.on('message', onMessage);
          child.once('exit', (code) => reject(new Error(`stream readers exited (${code})`)));
        });
      const members: ReaderMember[] = sessions.map((s, i) => ({ index: i, room: roomOf(i), port: apiOf(i).port, cookie: s.cookie }));
      const opened = fromReaders('opened');
      const openStarted = performance.now();
      child.send({ type: 'open', members, total, rooms: ROOMS } satisfies ToReaders);
      const { streams } = await opened;
      for (let r = 0; r < ROOMS; r++) {
        const on = new Set(members.filter((m) => m.room === r).map((m) => m.port));
        if (on.size < 2 && MEMBERS >= 2 * ROOMS) throw new Error(`room ${r} has members on one api process only`);
      }
      const openSeconds = (performance.now() - openStarted) / 1000;

      // RATE posts a second, seq from member seq % MEMBERS to its own room through its own api
      // process. Each post's send time goes into its text for the readers.
      // Idle sockets are dropped before the api's 5 s keep-alive timeout would close them under a request (ECONNRESET).
      const agents = apis.map(() => new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo', timeout: 4000 }));
      const accepted: number[] = [];
      const responseTimes: number[] = [];
      const refusals = new Map<string, number>();
      let answeredMeasured = 0;
      let lastAnswer = 0;
      const postOne = (seq: number) =>
        new Promise<void>((resolve) => {
          const i = seq % MEMBERS;
          const sentAt = wallNow();
          const body = JSON.stringify({ text: `bench ${seq} ${sentAt.toFixed(3)}` });
          const req = http.request(
            {
              host: '127.0.0.1',
              port: apiOf(i).port,
              path: `/api/chat/rooms/${roomIds[roomOf(i)]}/messages`,
              method: 'POST',
              agent: agents[apiIndex(i)],
              headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie: sessions[i].cookie, 'x-csrf-token': sessions[i].csrf },
            },
            (res) => {
              if (res.statusCode === 201) accepted.push(seq);
              else refusals.set(String(res.statusCode), (refusals.get(String(res.statusCode)) ?? 0) + 1);
              res.resume().on('end', () => {
                if (seq >= warmPosts) {
                  responseTimes.push(wallNow() - sentAt);
                  if (res.statusCode === 201) answeredMeasured++;
                  lastAnswer = wallNow();
                }
                resolve();
              });
            },
          );
          req.on('error', (error) => {
            refusals.set(error.message, (refusals.get(error.message) ?? 0) + 1);
            resolve();
          });
          req.end(body);
        });
      // The processes of the run: ours, then PostgreSQL's (this database's backends and the server's own background processes) and Redis.
      const serverPids = async () => {
        const pg = ((await dataSource.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() OR datname IS NULL`)) as { pid: number }[]).map((r) => r.pid);
        const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
        return { pg, redis: Number.isFinite(redisPid) ? [redisPid] : [] };
      };
      const serversBefore = await serverPids();
      const pids = [...apis.map((api) => api.child.pid), child.pid, process.pid];
      let cpuBefore = new Map<number | undefined, number>();
      let machineBefore = machineCpu();
      const startedAt = wallNow();
      const measuredFrom = startedAt + WARMUP * 1000;
      const inFlight: Promise<void>[] = [];
      let maxLag = 0;
      for (let seq = 0; seq < total; seq++) {
        const due = startedAt + (seq * 1000) / RATE;
        const wait = due - wallNow();
        if (wait > 1) await sleep(wait);
        if (seq === warmPosts) {
          cpuBefore = new Map([...pids, ...serversBefore.pg, ...serversBefore.redis].map((pid) => [pid, cpuSeconds(pid)]));
          machineBefore = machineCpu();
        }
        if (seq >= warmPosts) maxLag = Math.max(maxLag, wallNow() - due);
        inFlight.push(postOne(seq));
      }
      const sendSeconds = (wallNow() - measuredFrom) / 1000;
      await Promise.all(inFlight);
      const postSeconds = (wallNow() - measuredFrom) / 1000;
      agents.forEach((agent) => agent.destroy());
      // Cores used while posting: each api process, the readers, this process (the poster), and the whole machine (PostgreSQL, Redis, anything else).
      const machineAfter = machineCpu();
      const serversAfter = await serverPids();
      const used = (pid: number | undefined) => ((cpuSeconds(pid) - (cpuBefore.get(pid) ?? 0)) || 0) / postSeconds;
      const cores = pids.map(used);
      const pgCores = [...new Set([...serversBefore.pg, ...serversAfter.pg])].reduce((sum, pid) => sum + used(pid), 0);
      const redisCores = serversAfter.redis.reduce((sum, pid) => sum + used(pid), 0);
      const machineCores = ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * os.cpus().length;
      const otherCores = machineCores - cores.reduce((a, b) => a + b, 0) - pgCores - redisCores;

      const result = fromReaders('result');
      child.send({ type: 'finish', accepted, graceMs: 15_000, startedAt, measuredFrom } satisfies ToReaders);
      const r: ReadersResult = await result;
      responseTimes.sort((a, b) => a - b);
      const fmt = (values: number[]) => values.map((v) => Math.round(v)).join(' / ');
      rows.push({
        scenario: `${MEMBERS} streams (${streams} open) on 2 api processes, ${ROOMS} rooms, ${RATE} msg/s for ${SECONDS} s (after ${WARMUP} s of warm-up)`,
        posted: accepted.length,
        'failed posts': total - accepted.length,
        'msg/s sent': (total - warmPosts) / sendSeconds,
        'msg/s answered': answeredMeasured / ((lastAnswer - measuredFrom) / 1000),
        deliveries: r.deliveries,
        'deliveries/s': r.deliveries / r.deliverySpanSeconds,
        lost: r.lost,
        duplicated: r.duplicated,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'p99.9 ms': r.p999,
        'max ms': r.max,
      });
      rows.push({
        scenario: `  post answered (201), p50 / p99 / max ms: ${fmt([percentile(responseTimes, 50), percentile(responseTimes, 99), responseTimes[responseTimes.length - 1] ?? NaN])}`,
      });
      rows.push({ scenario: `  delivery p99 ms by 5 s of posting: ${fmt(r.p99By5s)}; the warm-up's p50 / p99 / max: ${fmt(r.warmup)}` });
      rows.push({
        scenario: `  poster max lag behind schedule ${Math.round(maxLag)} ms; refusals ${refusals.size ? JSON.stringify(Object.fromEntries(refusals)) : 'none'}; unexpected deliveries ${r.foreign}; stream errors ${r.streamErrors}`,
      });
      rows.push({
        scenario: `  cores busy while posting: api ${cores[0].toFixed(2)} + ${cores[1].toFixed(2)}, readers ${cores[2].toFixed(2)}, poster ${cores[3].toFixed(2)}, PostgreSQL ${pgCores.toFixed(2)}, Redis ${redisCores.toFixed(2)}, anything else ${otherCores.toFixed(2)}; machine ${machineCores.toFixed(2)} of ${os.cpus().length}`,
      });
      rows.push({ scenario: `  setup: ${MEMBERS} sign-ins in ${signInSeconds.toFixed(1)} s, ${streams} streams opened in ${openSeconds.toFixed(1)} s` });
      child.disconnect();
      readers = undefined;

      // History: one room of HISTORY_ROWS messages.
      const [{ id: big }] = (await dataSource.query(`INSERT INTO chat_rooms (name) VALUES ('History') RETURNING id`)) as { id: number }[];
      await dataSource.query(`INSERT INTO chat_room_members (room_id, user_id) SELECT $1, unnest($2::int[])`, [big, userIds]);
      const insertStarted = performance.now();
      await dataSource.query(
        `INSERT INTO chat_messages (room_id, user_id, message, cashtags, created_at, updated_at)
         SELECT $1, ($2::int[])[1 + g % array_length($2::int[], 1)], 'history message ' || g || CASE WHEN g % 10 = 0 THEN ' $BTC' ELSE '' END,
                CASE WHEN g % 10 = 0 THEN '{BTC}'::text[] ELSE '{}' END, now() - (($3 - g) || ' seconds')::interval, now()
           FROM generate_series(1, $3) g`,
        [big, userIds, HISTORY_ROWS],
      );
      await dataSource.query(`ANALYZE chat_messages`);
      const insertSeconds = (performance.now() - insertStarted) / 1000;
      const [{ lo, hi }] = (await dataSource.query(`SELECT min(id)::text AS lo, max(id)::text AS hi FROM chat_messages WHERE room_id = $1`, [big])) as { lo: string; hi: string }[];
      const randomId = () => String(BigInt(lo) + BigInt(Math.floor(Math.random() * (Number(BigInt(hi) - BigInt(lo)) + 1))));
      await dataSource.query(`UPDATE chat_room_members SET last_read_message_id = $3 WHERE room_id = $1 AND user_id = $2`, [big, userIds[0], String(BigInt(hi) - 500n)]);
      const deps: ChatDeps = { dataSource, redis, queues, prefix, config: chatEnvSchema.parse({}), now: new Date() };
      const measure = async (scenario: string, runs: number, op: () => Promise<unknown>) => {
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          await op();
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        rows.push({ scenario, posted: '', runs, 'p50 ms': percentile(times, 50), 'p99 ms': percentile(times, 99), 'max ms': times[times.length - 1] });
      };
      const readPage = async (url: string) => {
        const res = await fetch(`${apis[1].base}${url}`, { headers: { cookie: sessions[0].cookie } });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        await res.arrayBuffer();
      };
      rows.push({ scenario: `insert ${HISTORY_ROWS.toLocaleString('en-US')} messages (generate_series)`, 'msg/s': HISTORY_ROWS / insertSeconds });
      for (let i = 0; i < 20; i++) await roomHistory(deps, userIds[0], big, { limit: 50 });
      await measure('history page of 50, latest (store)', 300, () => roomHistory(deps, userIds[0], big, { limit: 50 }));
      await measure('history page of 50, before a random id (store)', 300, () => roomHistory(deps, userIds[0], big, { before: randomId(), limit: 50 }));
      await measure('history page of 50, around the first unread (store)', 300, () => roomHistory(deps, userIds[0], big, { around: 'unread', limit: 50 }));
      await measure('GET .../messages?before=<random>&limit=50 (HTTP, session)', 300, () => readPage(`/api/chat/rooms/${big}/messages?before=${randomId()}&limit=50`));
      failed = false;
    } finally {
      if (readers?.connected) readers.disconnect();
      await Promise.all(apis.map((api) => api.stop()));
      await queues.close();
      redis.disconnect();
      await database.drop();
      await deleteKeysWithPrefix(redisUrl, prefix);
      // The api processes' logs stay when the run failed.
      if (failed) process.stderr.write(`chat bench: api logs in ${dir}\n`);
      else fs.rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
