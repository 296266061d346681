import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../data-source';

/**
 * Test databases. `npm test` (jest global setup) builds one migrated template database per run;
 * each test file clones it (CREATE DATABASE ... TEMPLATE, ~50 ms) so files never share rows,
 * and the global teardown drops everything the run created.
 */

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export function testAdminUrl(): string {
  return process.env.TB_TEST_PG_ADMIN_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
}

export function testRunId(): string {
  const id = process.env.TB_TEST_RUN_ID;
  if (!id) throw new Error('TB_TEST_RUN_ID is not set: run tests through `npm test` (jest global setup sets it)');
  return id;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function templateDatabaseName(runId: string): string {
  return `tb_test_${runId}_tpl`;
}

async function withAdmin<T>(adminUrl: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the admin server; returns its name and url. */
export async function createEmptyDatabase(
  adminUrl: string,
  name: string,
  template?: string,
): Promise<{ name: string; url: string }> {
  await withAdmin(adminUrl, (c) =>
    c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`),
  );
  return { name, url: databaseUrl(adminUrl, name) };
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Drops every database whose name starts with the prefix (the teardown of a run). */
export async function dropDatabasesWithPrefix(adminUrl: string, prefix: string): Promise<string[]> {
  return withAdmin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 || '%'`,
      [prefix],
    );
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.map((r) => r.datname);
  });
}

/** Builds the migrated template database of a test run. */
export async function createTemplateDatabase(adminUrl: string, runId: string): Promise<void> {
  const { url, name } = await createEmptyDatabase(adminUrl, templateDatabaseName(runId));
  const ds = createDataSource({ url, poolSize: 2, applicationName: 'tickerbell-test-template' });
  await ds.initialize();
  try {
    await runMigrations(ds);
  } finally {
    await ds.destroy();
  }
  // Nobody may connect to a template while it is being cloned.
  await withAdmin(adminUrl, (c) => c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`));
}

export interface TestDatabase {
  name: string;
  url: string;
  dataSource: DataSource;
  /** Closes the data source and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, fully migrated database for one test file.
 * `migrated: false` gives an empty database (for migration tests).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = testAdminUrl();
  const runId = testRunId();
  const name = `tb_test_${runId}_${randomBytes(4).toString('hex')}`;
  const migrated = options.migrated ?? true;
  const { url } = await createEmptyDatabase(adminUrl, name, migrated ? templateDatabaseName(runId) : undefined);
  const dataSource = createDataSource({ url, poolSize: 5, applicationName: 'tickerbell-test' });
  await dataSource.initialize();
  return {
    name,
    url,
    dataSource,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropDatabase(adminUrl, name);
    },
  };
}
