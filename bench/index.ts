// `npm run bench [-- name ...]`: every benchmark, each printing a table. Not part of `npm test`.
import { cpus, totalmem } from 'node:os';
import { info } from '../scripts/infra/log';
import { resolvePostgresServer, type PostgresServer } from '../scripts/infra/postgres';
import { resolveRedis, type RedisServer } from '../scripts/infra/redis';
import { formatTable, type Benchmark } from './bench';
import { bullmqBaseline } from './bullmq-baseline.bench';
import { cotImportBenchmark } from './cot.bench';
import { marketHoursBench } from './market-hours.bench';
import { alertsIndexBench } from './alerts-index.bench';
import { accountsBench } from './accounts.bench';
import { webBundleBench } from './web-bundle.bench';
import { notificationsBench } from './notifications.bench';
import { alertsE2eBench } from './alerts-e2e.bench';
import { alertsVolatilityBench } from './alerts-volatility.bench';
import { newsBench } from './news.bench';
import { insidersBench } from './insiders.bench';
import { whalesBench } from './whales.bench';
import { predictionsBench } from './predictions.bench';
import { yieldsBench } from './yields.bench';
import { lockupsBench } from './lockups.bench';
import { chatBench } from './chat.bench';
import { billingBench } from './billing.bench';

const BENCHMARKS: Benchmark[] = [bullmqBaseline, marketHoursBench, cotImportBenchmark, alertsIndexBench, accountsBench, notificationsBench, webBundleBench, alertsE2eBench, alertsVolatilityBench, newsBench, insidersBench, whalesBench, predictionsBench, yieldsBench, lockupsBench, chatBench, billingBench];

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const selected = wanted.length ? BENCHMARKS.filter((b) => wanted.includes(b.name)) : BENCHMARKS;
  if (!selected.length) {
    info(`no benchmark named ${wanted.join(', ')}; there are: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    return 2;
  }
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  try {
    postgres = await resolvePostgresServer(process.env.TEST_DATABASE_URL);
    redis = await resolveRedis(process.env.REDIS_URL);
    process.stdout.write(`\nmachine: ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}\n`);
    for (const bench of selected) {
      process.stdout.write(`\n## ${bench.name}: ${bench.description}\n\n`);
      const rows = await bench.run({ redisUrl: redis.url, pgAdminUrl: postgres.adminUrl });
      process.stdout.write(`${formatTable(rows)}\n`);
    }
    return 0;
  } catch (error) {
    info(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return 1;
  } finally {
    await redis?.stop();
    await postgres?.stop();
  }
}

void main().then((code) => process.exit(code));
