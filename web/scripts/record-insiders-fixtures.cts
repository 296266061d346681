// Records the insiders api's real answers (web/test/fixtures/insiders/*.json) for the web tests:
// stores every recorded Form 4 (jobs/src/insiders/data) and the three NCV purchase variants of the
// api tests (api/test/insiders/insiders-fixtures.ts) in a scratch database, runs the real analytics,
// and asks the real insidersRoutes. Needs PostgreSQL at 127.0.0.1:5432 and Redis (REDIS_URL or
// 127.0.0.1:6379: the recompute's queue). Run from the repository root:
//   npx tsx --eval "require('./web/scripts/record-insiders-fixtures.cts')"
// (through require: web/ is an ES module package, the server packages are CommonJS)
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { Client } from 'pg';
import pino from 'pino';
import request from 'supertest';
import { createDataSource, runMigrations } from '@tickerbell/entities/src/data-source';
import { JobQueues, createProducerConnection, fixedClock } from '@tickerbell/jobs';
import { createUser } from '@tickerbell/jobs/accounts';
import { findInsiderCompany, recomputeInsiderAnalytics } from '@tickerbell/jobs/insiders';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { insidersRoutes } from '../../api/src/insiders/insiders.routes';
import { errorHandler, notFoundHandler } from '../../api/src/http/errors';
import { CLUSTER, importPurchaseVariant, importRecordedFilings } from '../../api/test/insiders/insiders-fixtures';

const ROOT = join(__dirname, '..', '..');
const OUT = join(ROOT, 'web/test/fixtures/insiders');
const ADMIN_URL = process.env.TB_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const database = `tb_web_fixtures_${Math.random().toString(16).slice(2, 10)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize: 2, applicationName: 'web-fixtures' });
  const redis = createProducerConnection(REDIS_URL);
  const prefix = `tb-web-fixtures-${database}`;
  const queues = new JobQueues(redis, prefix);
  try {
    await dataSource.initialize();
    await runMigrations(dataSource);
    const user = await createUser(dataSource, { email: 'fixtures@example.com', name: null, passwordHash: null, isVerified: true }, null);
    const app = express();
    app.use(express.json());
    // A signed-in request is this user (the real app loads req.user from the session).
    app.use((req, _res, next) => {
      if (req.headers['x-test-user']) req.user = { id: user.id, name: null, email: 'fixtures@example.com', image: null, role: 'member', isVerified: true };
      next();
    });
    app.use('/api', insidersRoutes({ dataSource, queues, clock: fixedClock('2026-11-20T15:00:00Z') }));
    app.use('/api', notFoundHandler);
    app.use(errorHandler(pino({ level: 'silent' })));
    const save = (name: string, requestLine: string, res: request.Response) => {
      writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify({ request: requestLine, status: res.status, body: res.body }, null, 1)}\n`);
      console.log(`${name}.json: ${res.status}`);
    };
    const get = async (name: string, path: string, signedIn = false) => save(name, `GET ${path}`, await request(app).get(path).set(signedIn ? { 'x-test-user': '1' } : {}));

    // Before the third purchase of the cluster: what the screener showed, and its first live refresh after.
    const recompute = async (at: string) => {
      const ncv = await findInsiderCompany(dataSource, 'NCV');
      await recomputeInsiderAnalytics({ dataSource, queues, clock: fixedClock(at) }, ncv!.id);
    };
    await importRecordedFilings(dataSource, new Date('2026-11-18T15:00:00Z'));
    await importPurchaseVariant(dataSource, CLUSTER[0]!, new Date('2026-11-17T22:00:00Z'));
    await recompute('2026-11-17T23:00:00Z');
    await importPurchaseVariant(dataSource, CLUSTER[1]!, new Date('2026-11-18T22:00:00Z'));
    await recompute('2026-11-18T23:00:00Z');
    await get('screener-latest-purchases-before', '/api/insiders/screener?codes=P&sort=filedAt&order=desc');
    // Two buyers: no cluster yet.
    await get('cluster-buys-none', '/api/insiders/cluster-buys');
    await importPurchaseVariant(dataSource, CLUSTER[2]!, new Date('2026-11-19T22:00:00Z'));
    await recompute('2026-11-19T23:00:00Z');
    await recompute('2026-11-20T15:00:00Z');
    await dataSource.query(`INSERT INTO markets (symbol, name, type, cik) VALUES ('SNOW', 'Snowflake Inc.', 'stock', '0001640147')`);

    await get('screener-all', '/api/insiders/screener');
    await get('screener-latest-purchases', '/api/insiders/screener?codes=P&sort=filedAt&order=desc');
    await get('screener-cluster-buys', '/api/insiders/screener?codes=P&clusterOnly=true&sort=filedAt&order=desc');
    await get('screener-officer-buys', '/api/insiders/screener?codes=P&minValue=25000&roles=officer,director&sort=filedAt&order=desc');
    await get('screener-snow-by-value', '/api/insiders/screener?ticker=SNOW&sort=totalValue');
    await get('screener-none', '/api/insiders/screener?ticker=WDAY&codes=P');
    await get('screener-bad-filter', '/api/insiders/screener?codes=QQ');
    await get('company-ncv', '/api/insiders/companies/NCV');
    await get('company-snow', '/api/insiders/companies/SNOW');
    await get('company-unknown', '/api/insiders/companies/NOPE');
    await get('insider-scarpelli', '/api/insiders/insiders/0001402349');
    await get('cluster-buys', '/api/insiders/cluster-buys');
    await get('search-snow', '/api/insiders/companies?q=snow');
    save(
      'follow-ncv',
      'PUT /api/insiders/follows/NCV',
      await request(app).put('/api/insiders/follows/NCV').set('x-test-user', '1').send({ notifyClusterBuy: true, officerBuyMinValue: 50000, notifyUnusualActivity: false }),
    );
    await get('company-ncv-followed', '/api/insiders/companies/NCV', true);
    await get('follows', '/api/insiders/follows', true);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(REDIS_URL, prefix);
    await admin(`DROP DATABASE IF EXISTS ${database}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
