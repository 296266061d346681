// `npm test`: type-checks every package, then runs every jest suite against real PostgreSQL and
// Redis (TEST_DATABASE_URL / 127.0.0.1:5432 / embedded; REDIS_URL / 6379 / spawned). Each run
// creates its own databases and queue prefixes and removes them after. Extra arguments go to jest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { info, InfraError } from './infra/log';
import { REPO_ROOT } from './infra/paths';
import { resolvePostgresServer, type PostgresServer } from './infra/postgres';
import { resolveRedis, type RedisServer } from './infra/redis';

interface JestSummary {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTestSuites: number;
  success: boolean;
}

/**
 * The browser tests drive Debian's Chromium (never a downloaded browser). As root with apt-get
 * (CI, containers) it is installed when missing; elsewhere the message says how.
 */
function ensureChromium(): boolean {
  const chromium = process.env.TB_CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(chromium)) return true;
  const canApt = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (!canApt) {
    info(`Chromium is needed for the browser tests and is not at ${chromium}: install Debian's chromium (apt-get install chromium) or set TB_CHROMIUM_PATH`);
    return false;
  }
  info('installing Debian chromium for the browser tests (apt-get) ...');
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
  const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit' }) : update;
  return install.status === 0 && fs.existsSync(chromium);
}

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): number {
  info(label);
  const result = spawnSync(command, args, { cwd: REPO_ROOT, env, stdio: 'inherit' });
  return result.status ?? 1;
}

async function main(): Promise<number> {
  const jestArgs = process.argv.slice(2);
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  try {
    postgres = await resolvePostgresServer(process.env.TEST_DATABASE_URL);
    redis = await resolveRedis(process.env.TEST_REDIS_URL ?? process.env.REDIS_URL);
    const env = { ...process.env, NODE_ENV: 'test', TB_TEST_PG_ADMIN_URL: postgres.adminUrl, TB_TEST_REDIS_URL: redis.url };

    const bin = (name: string) => path.join(REPO_ROOT, 'node_modules', '.bin', name);
    if (!jestArgs.length && process.env.TB_SKIP_TYPECHECK !== '1') {
      if (run('type-checking the server packages', bin('tsc'), ['-p', 'tsconfig.json'], env) !== 0) return 1;
      if (run('type-checking the web client', bin('tsc'), ['-p', 'web/tsconfig.json'], env) !== 0) return 1;
    }
    if (!ensureChromium()) return 1;
    const summaryFile = path.join(REPO_ROOT, 'node_modules', '.cache', 'tickerbell-jest-summary.json');
    fs.mkdirSync(path.dirname(summaryFile), { recursive: true });
    fs.rmSync(summaryFile, { force: true });
    const code = run('running jest', bin('jest'), ['--json', `--outputFile=${summaryFile}`, ...jestArgs], env);
    if (fs.existsSync(summaryFile)) {
      const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as JestSummary;
      // The plain closing line CI reads.
      process.stdout.write(
        `\nTests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed` +
          (summary.numPendingTests ? `, ${summary.numPendingTests} skipped` : '') +
          '\n',
      );
    }
    return code;
  } catch (error) {
    info(`error: ${error instanceof InfraError || error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await redis?.stop();
    await postgres?.stop();
  }
}

void main().then((code) => process.exit(code));
