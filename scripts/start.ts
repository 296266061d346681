// `npm start`: the whole system on one machine. Finds (or starts) PostgreSQL and Redis, migrates,
// seeds demo data once, starts the api, the workers and the web client, and stops it all on Ctrl-C.
import path from 'node:path';
import { createDataSource, runMigrations } from '@tickerbell/entities';
import { runSeeds } from '@tickerbell/jobs/seeds';
import { loadDotEnv } from './env-file';
import { info, InfraError } from './infra/log';
import { REPO_ROOT } from './infra/paths';
import { freePort } from './infra/ports';
import { resolvePostgres, type PostgresServer } from './infra/postgres';
import { startNodeProcess, tsxArgs, waitForHttp, type ManagedProcess } from './infra/processes';
import { resolveRedis, type RedisServer } from './infra/redis';

async function prepareDatabase(url: string): Promise<void> {
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'tickerbell-start' });
  await dataSource.initialize();
  try {
    const migrations = await runMigrations(dataSource);
    info(migrations.length ? `applied ${migrations.length} migration(s)` : 'database schema is up to date');
    const seeds = await runSeeds(dataSource);
    if (seeds.length) info(`loaded demo data: ${seeds.join(', ')}`);
  } finally {
    await dataSource.destroy();
  }
}

async function main(): Promise<void> {
  loadDotEnv();
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  const processes: ManagedProcess[] = [];
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    info('stopping ...');
    // Web and api first (no new work), then workers finish their jobs, then the stores.
    for (const name of ['web', 'api', 'workers']) await processes.find((p) => p.name === name)?.stop();
    await redis?.stop();
    await postgres?.stop();
    info('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGHUP', () => void stopAll(0));

  try {
    const pg = await resolvePostgres({ envUrl: process.env.DATABASE_URL, database: process.env.TB_DATABASE_NAME ?? 'tickerbell' });
    postgres = pg.server;
    redis = await resolveRedis(process.env.REDIS_URL);
    await prepareDatabase(pg.databaseUrl);

    const apiPort = await freePort(Number(process.env.PORT ?? 3000));
    const webPort = await freePort(Number(process.env.WEB_PORT ?? 5173));
    const env = {
      ...process.env,
      DATABASE_URL: pg.databaseUrl,
      REDIS_URL: redis.url,
      PORT: String(apiPort),
      HOST: process.env.HOST ?? '127.0.0.1',
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${webPort}`,
      // Lock-up expirations are discovered once a weekday: the system started here fills its calendar at once.
      LOCKUPS_DISCOVER_ON_START: process.env.LOCKUPS_DISCOVER_ON_START ?? 'true',
    };
    const api = startNodeProcess('api', tsxArgs('api/src/main.ts'), env);
    const workers = startNodeProcess('workers', tsxArgs('workers/src/main.ts'), env);
    const web = startNodeProcess(
      'web',
      [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js')],
      { ...env, API_URL: `http://127.0.0.1:${apiPort}`, WEB_PORT: String(webPort) },
      path.join(REPO_ROOT, 'web'),
    );
    processes.push(api, workers, web);
    for (const proc of processes) {
      proc.child.once('exit', (code) => {
        if (!stopping) {
          info(`${proc.name} exited unexpectedly (code ${code}); stopping everything`);
          void stopAll(1);
        }
      });
    }
    await waitForHttp(`http://127.0.0.1:${apiPort}/api/ready`, api);
    await waitForHttp(`http://127.0.0.1:${webPort}/`, web);
    info('');
    info(`Tickerbell is running: http://localhost:${webPort}`);
    info(`  api:    http://localhost:${apiPort}/api/health`);
    info('  Ctrl-C stops everything.');
  } catch (error) {
    if (error instanceof InfraError) info(`error: ${error.message}`);
    else info(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    await stopAll(1);
  }
}

void main();
