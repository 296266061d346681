import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@tickerbell/entities';
/** What every benchmark gets and returns. Benchmarks run on real Redis/PostgreSQL, never in `npm test`. */
export interface BenchContext {
  redisUrl: string;
  /** A PostgreSQL server on which a benchmark may create (and must drop) its own database. */
  pgAdminUrl: string;
}

export interface BenchRow {
  scenario: string;
  [column: string]: string | number;
}

export interface Benchmark {
  name: string;
  description: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}

export function formatTable(rows: BenchRow[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined) =>
    v === undefined ? '' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : v;
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(columns),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join('\n');
}

/** One statement on the admin connection (CREATE / DROP DATABASE of a benchmark's own database). */
async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A benchmark's own empty database `tb_bench_<label>_<random>` (not yet initialised or migrated);
 * `drop` closes the data source and drops the database, whatever state the run reached.
 */
export async function benchDatabase(pgAdminUrl: string, label: string, poolSize: number): Promise<{ dataSource: DataSource; url: string; drop(): Promise<void> }> {
  const name = `tb_bench_${label}_${randomBytes(4).toString('hex')}`;
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  await adminQuery(pgAdminUrl, `CREATE DATABASE "${name}"`);
  const dataSource = createDataSource({ url: url.toString(), poolSize, applicationName: `tickerbell-bench-${label}` });
  return {
    dataSource,
    url: url.toString(),
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await adminQuery(pgAdminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
