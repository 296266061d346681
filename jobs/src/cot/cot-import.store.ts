import type { DataSource, EntityManager } from 'typeorm';
import { POSITION_FIELDS, type CotPositionField, type CotRow } from './cftc.parse';
import { KNOWN_COT_CONTRACTS, exchangeOf } from './cot-instruments';
import { COT_REPORT_TYPE } from './cot.store';

/** The import of TFF reports: instruments, reports and positions (the other COT queries are in cot.store.ts). */
export interface CotImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface CotImportProgress {
  rows: number;
  positions: CotImportCounts;
}

export interface CotImportResult {
  rows: number;
  reports: CotImportCounts;
  instruments: CotImportCounts;
  positions: CotImportCounts;
  /** Every instrument and report the input touched (changed or not). */
  instrumentIds: number[];
  reportDates: string[];
}

export interface CotImportOptions {
  /** Where the rows came from (API request, archive URL, file name); kept on new reports. */
  sourceUrl: string | null;
  /** Marks the reports processed (fully stored) at this instant. */
  now: Date;
  batchSize?: number;
  onProgress?: (progress: CotImportProgress) => void;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const POSITION_COLUMNS: { field: CotPositionField; column: string }[] = POSITION_FIELDS.map((f) => ({ field: f.field, column: snake(f.field) }));
// Enough rows per statement to amortise the round trip, under PostgreSQL's 65,535 parameters.
const DEFAULT_BATCH = 700;

/** Runs in a transaction of its own, or in a savepoint of the caller's (a seed, a job). */
export function inTransaction<T>(db: DataSource | EntityManager, run: (manager: EntityManager) => Promise<T>): Promise<T> {
  return 'isInitialized' in db ? db.transaction(run) : db.transaction(run);
}

function counts(): CotImportCounts {
  return { inserted: 0, updated: 0, unchanged: 0 };
}

interface InstrumentState {
  id: number;
  latestDate: string;
  latestName: string;
}

/**
 * Stores parsed TFF rows, idempotently, in one transaction: instruments (by CFTC code; the name
 * of the latest report wins), one report per date, and the positions exactly as reported (an
 * identical row is left untouched). The columns the positions table does not hold (totals,
 * concentration ratios, units, codes) go into the report's rawData, per contract code.
 */
export async function importCotRows(
  db: DataSource | EntityManager,
  rows: AsyncIterable<CotRow> | Iterable<CotRow>,
  options: CotImportOptions,
): Promise<CotImportResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  return inTransaction(db, async (manager) => {
    const result: CotImportResult = { rows: 0, reports: counts(), instruments: counts(), positions: counts(), instrumentIds: [], reportDates: [] };
    const instruments = new Map<string, InstrumentState>();
    const reports = new Map<string, number>();
    const raw = new Map<number, Record<string, Record<string, string | null>>>();
    let batch: CotRow[] = [];

    const flush = async () => {
      if (!batch.length) return;
      await ensureInstruments(manager, batch, instruments, result);
      await ensureReports(manager, batch, reports, options.sourceUrl, result);
      // The same instrument twice in one report: the later row wins (and one statement cannot touch a row twice).
      const unique = new Map<string, CotRow>();
      for (const row of batch) unique.set(`${row.reportDate}|${row.cftcCode}`, row);
      for (const row of unique.values()) {
        const reportId = reports.get(row.reportDate)!;
        const markets = raw.get(reportId) ?? {};
        markets[row.cftcCode] = row.extras as Record<string, string | null>;
        raw.set(reportId, markets);
      }
      const positions = await upsertPositions(manager, [...unique.values()], instruments, reports);
      result.positions.inserted += positions.inserted;
      result.positions.updated += positions.updated;
      result.positions.unchanged += positions.unchanged + (batch.length - unique.size);
      result.rows += batch.length;
      batch = [];
      options.onProgress?.({ rows: result.rows, positions: { ...result.positions } });
    };

    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= batchSize) await flush();
    }
    await flush();

    result.instruments.updated += await renameToLatest(manager, instruments);
    // An instrument both given a symbol and renamed counts once as updated.
    result.instruments.updated = Math.min(result.instruments.updated, instruments.size - result.instruments.inserted);
    result.instruments.unchanged = instruments.size - result.instruments.inserted - result.instruments.updated;
    await mergeRawData(manager, raw);
    if (reports.size) {
      await manager.query(`UPDATE cot_reports SET processed_at = $2 WHERE id = ANY($1::int[]) AND processed_at IS NULL`, [
        [...reports.values()],
        options.now,
      ]);
    }
    result.instrumentIds = [...instruments.values()].map((i) => i.id);
    result.reportDates = [...reports.keys()].sort();
    return result;
  });
}

async function ensureInstruments(
  manager: EntityManager,
  batch: CotRow[],
  known: Map<string, InstrumentState>,
  result: CotImportResult,
): Promise<void> {
  const fresh = new Map<string, CotRow>();
  for (const row of batch) {
    const state = known.get(row.cftcCode);
    if (state) {
      if (row.reportDate >= state.latestDate) Object.assign(state, { latestDate: row.reportDate, latestName: row.marketAndExchangeName });
      continue;
    }
    const seen = fresh.get(row.cftcCode);
    if (!seen || row.reportDate >= seen.reportDate) fresh.set(row.cftcCode, row);
  }
  if (!fresh.size) return;
  const values: unknown[] = [];
  const tuples = [...fresh.values()].map((row, i) => {
    const contract = KNOWN_COT_CONTRACTS[row.cftcCode];
    values.push(row.cftcCode, row.marketAndExchangeName.slice(0, 200), contract?.symbol ?? null, exchangeOf(row.marketAndExchangeName), contract?.contractSize ?? null, contract?.category ?? null);
    const p = i * 6;
    return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}::numeric, $${p + 6})`;
  });
  // A contract we learned to recognise since it was first stored gets its symbol and category.
  const inserted: { cftc_code: string; inserted: boolean }[] = await manager.query(
    `INSERT INTO cot_instruments (cftc_code, instrument_name, symbol, exchange, contract_size, category)
     VALUES ${tuples.join(', ')}
     ON CONFLICT (cftc_code) DO UPDATE SET
       symbol = COALESCE(cot_instruments.symbol, EXCLUDED.symbol),
       category = COALESCE(cot_instruments.category, EXCLUDED.category),
       contract_size = COALESCE(cot_instruments.contract_size, EXCLUDED.contract_size),
       updated_at = now()
     WHERE (cot_instruments.symbol IS NULL AND EXCLUDED.symbol IS NOT NULL)
        OR (cot_instruments.category IS NULL AND EXCLUDED.category IS NOT NULL)
        OR (cot_instruments.contract_size IS NULL AND EXCLUDED.contract_size IS NOT NULL)
     RETURNING cftc_code, (xmax = 0) AS inserted`,
    values,
  );
  for (const r of inserted) {
    if (r.inserted) result.instruments.inserted += 1;
    else result.instruments.updated += 1;
  }
  const ids: { id: number; cftc_code: string }[] = await manager.query(`SELECT id, cftc_code FROM cot_instruments WHERE cftc_code = ANY($1::varchar[])`, [
    [...fresh.keys()],
  ]);
  for (const { id, cftc_code } of ids) {
    const row = fresh.get(cftc_code)!;
    known.set(cftc_code, { id, latestDate: row.reportDate, latestName: row.marketAndExchangeName });
  }
}

async function ensureReports(
  manager: EntityManager,
  batch: CotRow[],
  known: Map<string, number>,
  sourceUrl: string | null,
  result: CotImportResult,
): Promise<void> {
  const dates = [...new Set(batch.map((r) => r.reportDate))].filter((d) => !known.has(d));
  if (!dates.length) return;
  const inserted: unknown[] = await manager.query(
    `INSERT INTO cot_reports (report_date, report_type, source_url)
     SELECT d, $2, $3 FROM unnest($1::date[]) AS d
     ON CONFLICT (report_date, report_type) DO NOTHING
     RETURNING id`,
    [dates, COT_REPORT_TYPE, sourceUrl],
  );
  result.reports.inserted += inserted.length;
  result.reports.unchanged += dates.length - inserted.length;
  const ids: { id: number; report_date: string }[] = await manager.query(
    `SELECT id, to_char(report_date, 'YYYY-MM-DD') AS report_date FROM cot_reports
     WHERE report_type = $2 AND report_date = ANY($1::date[])`,
    [dates, COT_REPORT_TYPE],
  );
  for (const { id, report_date } of ids) known.set(report_date, id);
}

// PostgreSQL takes at most 65,535 parameters per statement.
const MAX_PARAMETERS = 65535;

async function upsertPositions(
  manager: EntityManager,
  rows: CotRow[],
  instruments: Map<string, InstrumentState>,
  reports: Map<string, number>,
): Promise<CotImportCounts> {
  const perStatement = Math.floor(MAX_PARAMETERS / (POSITION_COLUMNS.length + 2));
  const total = counts();
  for (let i = 0; i < rows.length; i += perStatement) {
    const part = await upsertPositionChunk(manager, rows.slice(i, i + perStatement), instruments, reports);
    total.inserted += part.inserted;
    total.updated += part.updated;
    total.unchanged += part.unchanged;
  }
  return total;
}

async function upsertPositionChunk(
  manager: EntityManager,
  rows: CotRow[],
  instruments: Map<string, InstrumentState>,
  reports: Map<string, number>,
): Promise<CotImportCounts> {
  const columns = ['report_id', 'instrument_id', ...POSITION_COLUMNS.map((c) => c.column)];
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const start = values.length;
    values.push(reports.get(row.reportDate)!, instruments.get(row.cftcCode)!.id);
    for (const { field } of POSITION_COLUMNS) values.push(row.position[field]);
    return `(${columns.map((_, i) => `$${start + i + 1}`).join(', ')})`;
  });
  const data = POSITION_COLUMNS.map((c) => c.column);
  const returned: { inserted: boolean }[] = await manager.query(
    `INSERT INTO cot_positions (${columns.join(', ')}) VALUES ${tuples.join(', ')}
     ON CONFLICT (report_id, instrument_id) DO UPDATE SET ${data.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
     WHERE (${data.map((c) => `cot_positions.${c}`).join(', ')}) IS DISTINCT FROM (${data.map((c) => `EXCLUDED.${c}`).join(', ')})
     RETURNING (xmax = 0) AS inserted`,
    values,
  );
  const inserted = returned.filter((r) => r.inserted).length;
  return { inserted, updated: returned.length - inserted, unchanged: rows.length - returned.length };
}

/** An instrument keeps the name of its latest report, whichever order the reports arrive in. */
async function renameToLatest(manager: EntityManager, instruments: Map<string, InstrumentState>): Promise<number> {
  if (!instruments.size) return 0;
  const list = [...instruments.values()];
  const renamed: unknown = await manager.query(
    `UPDATE cot_instruments i SET instrument_name = u.name, exchange = u.exchange, updated_at = now()
     FROM unnest($1::int[], $2::varchar[], $3::date[], $4::varchar[]) AS u(id, name, latest, exchange)
     WHERE i.id = u.id AND i.instrument_name IS DISTINCT FROM u.name
       AND NOT EXISTS (
         SELECT 1 FROM cot_positions p JOIN cot_reports r ON r.id = p.report_id
         WHERE p.instrument_id = i.id AND r.report_date > u.latest)
     RETURNING i.id`,
    [list.map((i) => i.id), list.map((i) => i.latestName.slice(0, 200)), list.map((i) => i.latestDate), list.map((i) => exchangeOf(i.latestName))],
  );
  return updatedRows(renamed).length;
}

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL with [rows, affected count]. */
function updatedRows(result: unknown): unknown[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0];
  return Array.isArray(result) ? result : [];
}

/** Adds each contract's other reported columns to its report's rawData (a no-op when already there). */
async function mergeRawData(manager: EntityManager, raw: Map<number, Record<string, Record<string, string | null>>>): Promise<void> {
  const entries = [...raw];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = Object.fromEntries(entries.slice(i, i + 100).map(([id, markets]) => [String(id), markets]));
    await manager.query(
      `UPDATE cot_reports r
       SET raw_data = jsonb_build_object('layout', 'cftc-tff-futures-only', 'markets', COALESCE(r.raw_data -> 'markets', '{}'::jsonb) || u.markets)
       FROM jsonb_each($1::jsonb) AS u(id, markets)
       WHERE r.id = u.id::int AND (r.raw_data IS NULL OR NOT (COALESCE(r.raw_data -> 'markets', '{}'::jsonb) @> u.markets))`,
      [JSON.stringify(chunk)],
    );
  }
}
