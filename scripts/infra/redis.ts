import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { DATA_DIR } from './paths';
import { freePort, isProcessAlive } from './ports';
import { info, InfraError, warn } from './log';

export interface RedisServer {
  url: string;
  origin: 'env' | 'local' | 'spawned' | 'spawned-running';
  stop(): Promise<void>;
}

// The local server probed before starting our own; overridable to test that fallback.
const LOCAL_URL = process.env.TB_LOCAL_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SPAWN_DIR = path.join(DATA_DIR, 'redis');
const STATE_FILE = path.join(SPAWN_DIR, 'server.json');

export const HOW_TO_GET_REDIS =
  'Redis is needed and none was found. Either set REDIS_URL, or install it:\n' +
  '  Debian/Ubuntu: apt-get install redis-server\n' +
  '  macOS:         brew install redis\n' +
  '  Docker:        docker compose up -d redis';

/** PING with a short timeout and no retries; the error when it fails. */
export async function probeRedis(url: string, timeoutMs = 1500): Promise<Error | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    client.disconnect();
  }
}

/** BullMQ needs Redis to keep every key: warn when keys may be evicted under memory pressure. */
export async function warnIfEvicting(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const reply = (await client.config('GET', 'maxmemory-policy')) as string[];
    const policy = reply[1];
    if (policy && policy !== 'noeviction') {
      warn(
        `Redis maxmemory-policy is "${policy}", not "noeviction": under memory pressure Redis may ` +
          'evict queue keys and jobs get lost. Set `maxmemory-policy noeviction` (CONFIG SET or redis.conf).',
      );
    }
  } catch {
    // Managed Redis services often forbid CONFIG; nothing to check then.
  } finally {
    client.disconnect();
  }
}

function whichRedisServer(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'redis-server');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

function runningSpawned(): { pid: number; port: number } | null {
  if (!fs.existsSync(STATE_FILE)) return null;
  try {
    const state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as { pid: number; port: number };
    return isProcessAlive(state.pid) ? state : null;
  } catch {
    return null;
  }
}

async function spawnRedis(): Promise<RedisServer> {
  const running = runningSpawned();
  if (running) {
    info(`using the Redis we started earlier on port ${running.port}`);
    return { url: `redis://127.0.0.1:${running.port}`, origin: 'spawned-running', stop: async () => undefined };
  }
  const port = await freePort(Number(process.env.SPAWNED_REDIS_PORT ?? 63799));
  const server = ownRedisServer(SPAWN_DIR, port);
  const pid = await server.start();
  fs.writeFileSync(STATE_FILE, JSON.stringify({ pid, port }));
  info(`started redis-server on port ${port} (data in ${SPAWN_DIR})`);
  return {
    url: server.url,
    origin: 'spawned',
    stop: async () => {
      await server.stop();
      fs.rmSync(STATE_FILE, { force: true });
      info('redis-server stopped');
    },
  };
}

/** A redis-server of our own that can be stopped and started again on the same port and data. */
export interface OwnRedisServer {
  url: string;
  /** Starts it and waits until it answers; its pid. */
  start(): Promise<number>;
  /** SIGTERM (it writes its append-only file) and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * redis-server on 127.0.0.1:`port` with its append-only file in `dir`: what was written before a
 * stop is there after the start, as with a managed Redis (`fsync: 'always'` also across a crash).
 */
export function ownRedisServer(dir: string, port: number, options: { fsync?: 'always' | 'everysec' } = {}): OwnRedisServer {
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  return {
    url,
    async start() {
      const binary = whichRedisServer();
      if (!binary) throw new InfraError(HOW_TO_GET_REDIS);
      fs.mkdirSync(dir, { recursive: true });
      const started: ChildProcess = spawn(
        binary,
        [
          '--port', String(port),
          '--bind', '127.0.0.1',
          '--dir', dir,
          '--appendonly', 'yes',
          '--appendfsync', options.fsync ?? 'everysec',
          '--save', '',
          '--maxmemory-policy', 'noeviction',
          '--daemonize', 'no',
        ],
        { stdio: 'ignore' },
      );
      child = started;
      for (let i = 0; i < 50; i++) {
        if (!(await probeRedis(url, 200))) break;
        if (started.exitCode !== null) throw new InfraError(`redis-server exited at start (code ${started.exitCode})`);
        await new Promise((r) => setTimeout(r, 100));
      }
      if (await probeRedis(url)) throw new InfraError(`redis-server did not answer on port ${port}`);
      return started.pid!;
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((r) => running.once('exit', r));
      running.kill('SIGTERM');
      await exited;
    },
  };
}

/** REDIS_URL when set, else 127.0.0.1:6379 when it answers, else a redis-server we start. */
export async function resolveRedis(envUrl?: string): Promise<RedisServer> {
  if (envUrl) {
    const error = await probeRedis(envUrl, 3000);
    if (error) throw new InfraError(`REDIS_URL is set but Redis does not answer there: ${error.message}`);
    await warnIfEvicting(envUrl);
    return { url: envUrl, origin: 'env', stop: async () => undefined };
  }
  if (!(await probeRedis(LOCAL_URL))) {
    info(`using the Redis server at ${new URL(LOCAL_URL).host}`);
    await warnIfEvicting(LOCAL_URL);
    return { url: LOCAL_URL, origin: 'local', stop: async () => undefined };
  }
  return spawnRedis();
}
