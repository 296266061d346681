// `npm run cli -- <command>`: the operator CLI (workers/src/cli) with the same PostgreSQL and
// Redis discovery as `npm start`.
import { runCli } from '../workers/src/cli/main';
import { loadDotEnv } from './env-file';
import { info } from './infra/log';
import { resolvePostgres, type PostgresServer } from './infra/postgres';
import { resolveRedis, type RedisServer } from './infra/redis';

async function main(): Promise<number> {
  loadDotEnv();
  const args = process.argv.slice(2);
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  try {
    const wantsHelp = !args.length || args.includes('--help') || args.includes('-h');
    if (!wantsHelp) {
      const pg = await resolvePostgres({ envUrl: process.env.DATABASE_URL, database: process.env.TB_DATABASE_NAME ?? 'tickerbell' });
      postgres = pg.server;
      redis = await resolveRedis(process.env.REDIS_URL);
      process.env.DATABASE_URL = pg.databaseUrl;
      process.env.REDIS_URL = redis.url;
    }
    return await runCli(args.length ? args : ['--help']);
  } catch (error) {
    info(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await redis?.stop();
    await postgres?.stop();
  }
}

void main().then((code) => process.exit(code));
