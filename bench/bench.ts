import { Client } from 'pg';
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
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
