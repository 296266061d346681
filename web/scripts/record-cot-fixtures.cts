// Records the COT api's real answers (web/test/fixtures/cot/*.json) for the web tests: imports the
// real 2022 CFTC sample into a scratch database, runs the analytics, and asks the real cotRoutes.
// Needs PostgreSQL at 127.0.0.1:5432. Run from the repository root:
//   npx tsx --eval "require('./web/scripts/record-cot-fixtures.cts')"
// (through require: web/ is an ES module package, the server packages are CommonJS)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { Client } from 'pg';
import pino from 'pino';
import request from 'supertest';
import { createDataSource, runMigrations } from '@tickerbell/entities/src/data-source';
import { importCotRows, openCotFile, recomputeCotAnalyticsFor } from '@tickerbell/jobs';
import { cotRoutes } from '../../api/src/cot/cot.routes';
import { errorHandler, notFoundHandler } from '../../api/src/http/errors';

const ROOT = join(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');
const OUT = join(ROOT, 'web/test/fixtures/cot');
const ADMIN_URL = process.env.TB_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Imports the sample (rows up to `until`, or all), then saves each path's status and body. */
async function record(name: string, until: string | null, paths: Record<string, string>): Promise<void> {
  const database = `tb_web_fixtures_${Math.random().toString(16).slice(2, 10)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize: 2, applicationName: 'web-fixtures' });
  try {
    await dataSource.initialize();
    await runMigrations(dataSource);
    const file = openCotFile(SAMPLE);
    async function* rows() {
      for await (const row of file.rows) if (until === null || row.reportDate <= until) yield row;
    }
    const result = await importCotRows(dataSource, rows(), { sourceUrl: file.sourceUrl, now: new Date('2022-08-19T20:00:00Z') });
    await recomputeCotAnalyticsFor(dataSource, result.instrumentIds);
    const app = express();
    app.use('/api', cotRoutes({ dataSource }));
    app.use('/api', notFoundHandler);
    app.use(errorHandler(pino({ level: 'silent' })));
    for (const [key, path] of Object.entries(paths)) {
      const res = await request(app).get(path);
      writeFileSync(join(OUT, `${name}-${key}.json`), `${JSON.stringify({ request: path, status: res.status, body: res.body }, null, 1)}\n`);
      console.log(`${name}-${key}.json: ${res.status}`);
    }
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${database}`);
  }
}

async function main(): Promise<void> {
  await record('sample', null, {
    latest: '/api/cot/latest',
    'latest-by-leveraged-rank': '/api/cot/latest?sort=leveragedPercentileRank&order=desc',
    'latest-by-leveraged-rank-asc': '/api/cot/latest?sort=leveragedPercentileRank&order=asc',
    'latest-crypto': '/api/cot/latest?category=crypto',
    'history-es-26': '/api/cot/instruments/13874A/history?weeks=26',
    'history-es-52': '/api/cot/instruments/13874A/history?weeks=52',
    'history-es-156': '/api/cot/instruments/13874A/history?weeks=156',
    'history-es-1040': '/api/cot/instruments/13874A/history?weeks=1040',
    'history-unknown': '/api/cot/instruments/999999/history?weeks=156',
  });
  // Only 22 reports in the database: every instrument's latest analytics are provisional.
  await record('until-2022-05-31', '2022-05-31', { latest: '/api/cot/latest' });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
