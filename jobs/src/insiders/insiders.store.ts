import type { DataSource, EntityManager } from 'typeorm';
import type { InsiderFilingView, TransactionTable } from './insiders.shapes';

// The writes of the insiders pipeline (discovery, failures, tickers) and the stored filing as the
// CLI and the api show it. The import of a parsed filing is in insiders-import.store.ts; the
// screener, pages and follows are W's read and follows stores.
export { importParsedFiling, relationshipText, type ImportFilingMeta, type ImportFilingResult, type InsiderDiscoveryVia } from './insiders-import.store';
export type { InsiderSourceTag } from './insiders-sec.client';

type Db = DataSource | EntityManager;
const padCik = (cik: string) => cik.padStart(10, '0');

/** A filing found by discovery, before it is fetched. */
export interface DiscoveredFiling {
  accession: string;
  formType: string;
  /** The issuer's CIK when the discovery says which filer is the issuer (the feed's issuer entry, a company's submissions). */
  issuerCik: string | null;
  filedAt: Date | null;
  filingDate: string | null;
  secUrl: string | null;
}

/**
 * Records discovered filings as pending (one row per accession; a known one is left as it is) and
 * answers which to fetch: the new ones, and those listed again while still pending under the
 * attempt limit (a fetch lost between this insert and its queueing is queued again; the
 * deterministic job id keeps a fetch in flight from being added twice).
 */
export async function recordDiscoveredFilings(
  db: Db,
  filings: DiscoveredFiling[],
  meta: { via: 'feed' | 'index' | 'submissions'; now: Date; maxAttempts: number },
): Promise<{ added: string[]; toFetch: string[] }> {
  if (!filings.length) return { added: [], toFetch: [] };
  const unique = [...new Map(filings.map((f) => [f.accession, f])).values()];
  const inserted = (await db.query(
    `INSERT INTO insider_trading_filings (accession_number, form_type, status, issuer_cik, filed_at, filing_date, sec_url, discovered_via, discovered_at)
     SELECT a, t, 'pending', c, fa, fd, u, $8, $9
     FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::date[], $6::text[], $7::int[]) AS x(a, t, c, fa, fd, u, ord)
     ORDER BY ord
     ON CONFLICT (accession_number) DO NOTHING
     RETURNING accession_number AS accession`,
    [
      unique.map((f) => f.accession),
      unique.map((f) => f.formType.slice(0, 10)),
      unique.map((f) => (f.issuerCik ? padCik(f.issuerCik) : null)),
      unique.map((f) => f.filedAt),
      unique.map((f) => f.filingDate),
      unique.map((f) => f.secUrl),
      unique.map((_, i) => i),
      meta.via,
      meta.now,
    ],
  )) as { accession: string }[];
  const added = new Set(inserted.map((r) => r.accession));
  const pending = (await db.query(
    `SELECT accession_number AS accession FROM insider_trading_filings
     WHERE accession_number = ANY($1::varchar[]) AND status = 'pending' AND attempts < $2`,
    [unique.map((f) => f.accession).filter((a) => !added.has(a)), meta.maxAttempts],
  )) as { accession: string }[];
  const again = new Set(pending.map((r) => r.accession));
  const order = unique.map((f) => f.accession);
  return { added: order.filter((a) => added.has(a)), toFetch: order.filter((a) => added.has(a) || again.has(a)) };
}

/** A filing's status, or null when unknown. */
export async function filingStatus(db: Db, accession: string): Promise<{ id: number; status: 'pending' | 'parsed' | 'failed'; attempts: number; companyId: number | null } | null> {
  const [row] = (await db.query(
    `SELECT id, status, attempts, company_id AS "companyId" FROM insider_trading_filings WHERE accession_number = $1`,
    [accession],
  )) as { id: number; status: 'pending' | 'parsed' | 'failed'; attempts: number; companyId: number | null }[];
  return row ?? null;
}

async function recordAttempt(db: Db, accession: string, reason: string, meta: { cik?: string; via?: string; now: Date }, status: 'failed' | 'pending'): Promise<{ attempts: number }> {
  // A parsed filing stays parsed: a late failure of a duplicate fetch changes nothing.
  const [row] = (await db.query(
    `INSERT INTO insider_trading_filings (accession_number, status, failure_reason, attempts, issuer_cik, discovered_via, discovered_at)
     VALUES ($1, $2, $3, 1, $4, $5, $6)
     ON CONFLICT (accession_number) DO UPDATE SET
       status = CASE WHEN insider_trading_filings.status = 'parsed' THEN 'parsed' ELSE EXCLUDED.status END,
       failure_reason = CASE WHEN insider_trading_filings.status = 'parsed' THEN insider_trading_filings.failure_reason ELSE EXCLUDED.failure_reason END,
       attempts = CASE WHEN insider_trading_filings.status = 'parsed' THEN insider_trading_filings.attempts ELSE insider_trading_filings.attempts + 1 END,
       issuer_cik = COALESCE(insider_trading_filings.issuer_cik, EXCLUDED.issuer_cik),
       updated_at = now()
     RETURNING attempts`,
    [accession, status, reason.slice(0, 4000), meta.cik ? padCik(meta.cik) : null, meta.via ?? 'import', meta.now],
  )) as { attempts: number }[];
  return { attempts: row.attempts };
}

/**
 * A filing that cannot be stored (it does not parse, or its fetches are exhausted): status failed,
 * the reason, one more attempt. Only the filing row is written (its lines never were), and it is
 * not fetched again: discovery leaves known accessions alone.
 */
export function recordFilingFailure(db: Db, accession: string, reason: string, meta: { cik?: string; via?: string; now: Date }): Promise<{ attempts: number }> {
  return recordAttempt(db, accession, reason, meta, 'failed');
}

/** A fetch that failed and will be retried: still pending, one more attempt, the last error as the reason. */
export function recordFilingRetry(db: Db, accession: string, reason: string, meta: { cik?: string; via?: string; now: Date }): Promise<{ attempts: number }> {
  return recordAttempt(db, accession, reason, meta, 'pending');
}

/**
 * Companies from company_tickers.json: upserted by CIK with their ticker and name. One ticker per
 * company (the first listed, EDGAR lists the primary class first); a ticker now listed under
 * another CIK is cleared on the company that had it. Answers the rows inserted or changed.
 */
export async function upsertCompanies(db: Db, rows: { cik: string; ticker: string | null; name: string }[]): Promise<number> {
  const byCik = new Map<string, { cik: string; ticker: string | null; name: string }>();
  const tickers = new Set<string>();
  for (const row of rows) {
    const cik = padCik(row.cik);
    if (byCik.has(cik)) continue;
    const ticker = row.ticker?.trim().toUpperCase().slice(0, 20) || null;
    byCik.set(cik, { cik, ticker: ticker && !tickers.has(ticker) ? ticker : null, name: row.name.trim().slice(0, 200) || cik });
    if (ticker) tickers.add(ticker);
  }
  const list = [...byCik.values()];
  if (!list.length) return 0;
  const run = async (manager: EntityManager) => {
    let changed = 0;
    for (let start = 0; start < list.length; start += 5000) {
      const chunk = list.slice(start, start + 5000);
      const params = [chunk.map((r) => r.cik), chunk.map((r) => r.ticker), chunk.map((r) => r.name)];
      await manager.query(
        `UPDATE insider_trading_companies c SET ticker = NULL, updated_at = now()
         FROM unnest($1::varchar[], $2::varchar[]) AS x(cik, ticker)
         WHERE x.ticker IS NOT NULL AND c.ticker = x.ticker AND c.cik <> x.cik`,
        params.slice(0, 2),
      );
      const written = (await manager.query(
        `INSERT INTO insider_trading_companies (cik, ticker, company_name)
         SELECT cik, ticker, name FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS x(cik, ticker, name)
         ON CONFLICT (cik) DO UPDATE SET ticker = COALESCE(EXCLUDED.ticker, insider_trading_companies.ticker),
           company_name = EXCLUDED.company_name, updated_at = now()
         WHERE (insider_trading_companies.ticker, insider_trading_companies.company_name)
           IS DISTINCT FROM (COALESCE(EXCLUDED.ticker, insider_trading_companies.ticker), EXCLUDED.company_name)
         RETURNING id`,
        params,
      )) as unknown[];
      changed += written.length;
    }
    return changed;
  };
  return db.transaction(async (manager) => {
    // One sync at a time (two would clear each other's moved tickers in turn).
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['insiders:upsert-companies']);
    return run(manager);
  });
}

/** Whether no company is known yet (the first start: the tickers are synced before anything else needs them). */
export async function hasNoCompanies(db: Db): Promise<boolean> {
  const [row] = (await db.query(`SELECT NOT EXISTS (SELECT 1 FROM insider_trading_companies) AS empty`)) as { empty: boolean }[];
  return row.empty;
}

/** Records a daily index as read (again: the counts of the latest read). */
export async function recordIndexDay(db: Db, day: { day: string; listed: number; added: number; readAt: Date }): Promise<void> {
  await db.query(
    `INSERT INTO insider_trading_index_days (day, filings_listed, filings_new, read_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (day) DO UPDATE SET filings_listed = EXCLUDED.filings_listed, filings_new = EXCLUDED.filings_new, read_at = EXCLUDED.read_at`,
    [day.day, day.listed, day.added, day.readAt],
  );
}

/** The index days read between two dates (inclusive). */
export async function readIndexDays(db: Db, from: string, to: string): Promise<string[]> {
  const rows = (await db.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM insider_trading_index_days WHERE day BETWEEN $1::date AND $2::date ORDER BY day`,
    [from, to],
  )) as { day: string }[];
  return rows.map((r) => r.day);
}

/** The first index day ever read, or null (a fresh install). */
export async function firstIndexDay(db: Db): Promise<string | null> {
  const [row] = (await db.query(`SELECT to_char(min(day), 'YYYY-MM-DD') AS day FROM insider_trading_index_days`)) as { day: string | null }[];
  return row.day;
}

/** Decimal strings as filed: no trailing zeros of the column's scale ('300.0000' -> '300'). */
function plain(value: string | null): string | null {
  if (value === null) return null;
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** One stored filing as the api and `npm run cli -- insiders filing <accession>` show it (InsiderFilingView), or null. */
export async function storedFiling(db: Db, accession: string): Promise<InsiderFilingView | null> {
  const [filing] = (await db.query(
    `SELECT f.id, f.accession_number AS "accessionNumber", f.form_type AS "formType", f.status, f.failure_reason AS "failureReason",
            f.filed_at AS "filedAt", to_char(f.filing_date, 'YYYY-MM-DD') AS "filingDate", to_char(f.period_of_report, 'YYYY-MM-DD') AS "periodOfReport",
            f.sec_url AS "secUrl", f.rule10b5_one AS "rule10b5One", f.footnotes, f.issuer_cik AS "issuerCik",
            c.cik AS "companyCik", c.ticker, c.company_name AS "companyName",
            a.accession_number AS "amends", b.accession_number AS "amendedBy"
     FROM insider_trading_filings f
     LEFT JOIN insider_trading_companies c ON c.id = f.company_id
     LEFT JOIN insider_trading_filings a ON a.id = f.amends_filing_id
     LEFT JOIN insider_trading_filings b ON b.id = f.amended_by_filing_id
     WHERE f.accession_number = $1`,
    [accession],
  )) as {
    id: number;
    accessionNumber: string;
    formType: string;
    status: InsiderFilingView['status'];
    failureReason: string | null;
    filedAt: Date | null;
    filingDate: string | null;
    periodOfReport: string | null;
    secUrl: string | null;
    rule10b5One: boolean | null;
    footnotes: Record<string, string> | null;
    companyCik: string | null;
    ticker: string | null;
    companyName: string | null;
    amends: string | null;
    amendedBy: string | null;
  }[];
  if (!filing) return null;
  const owners = (await db.query(
    `SELECT i.cik, i.name, o.is_officer AS "isOfficer", o.is_director AS "isDirector", o.is_ten_percent_owner AS "isTenPercentOwner",
            o.is_other AS "isOther", o.officer_title AS "officerTitle"
     FROM insider_trading_filing_owners o JOIN insider_trading_insiders i ON i.id = o.insider_id
     WHERE o.filing_id = $1 ORDER BY o.position, i.cik`,
    [filing.id],
  )) as InsiderFilingView['reportingOwners'];
  const lines = (await db.query(
    `SELECT table_kind AS "table", line_number AS "lineNumber", security_title AS "securityTitle",
            to_char(transaction_date, 'YYYY-MM-DD') AS "transactionDate", transaction_type AS "transactionCode",
            shares_traded::text AS "sharesTraded", price_per_share::text AS "pricePerShare", acquired_disposed AS "acquiredDisposed",
            shares_owned_after::text AS "sharesOwnedAfter", total_value::text AS "totalValue", is_weighted_price AS "isWeightedPrice",
            rule10b5_one AS "rule10b5One"
     FROM insider_trading_transactions WHERE filing_id = $1
     ORDER BY CASE table_kind WHEN 'non-derivative' THEN 0 ELSE 1 END, line_number`,
    [filing.id],
  )) as (InsiderFilingView['transactions'][number] & { table: TransactionTable; acquiredDisposed: 'A' | 'D' | null })[];
  return {
    accessionNumber: filing.accessionNumber,
    formType: filing.formType,
    status: filing.status,
    failureReason: filing.failureReason,
    filedAt: filing.filedAt ? filing.filedAt.toISOString() : null,
    filingDate: filing.filingDate,
    periodOfReport: filing.periodOfReport,
    secUrl: filing.secUrl,
    issuer: filing.companyCik ? { cik: filing.companyCik, ticker: filing.ticker, name: filing.companyName ?? filing.companyCik } : null,
    reportingOwners: owners.map((o) => ({ ...o })),
    rule10b5One: filing.rule10b5One,
    amends: filing.amends,
    amendedBy: filing.amendedBy,
    footnotes: filing.footnotes ?? {},
    transactions: lines.map((line) => ({
      ...line,
      sharesTraded: plain(line.sharesTraded) as string,
      pricePerShare: plain(line.pricePerShare),
      sharesOwnedAfter: plain(line.sharesOwnedAfter),
    })),
  };
}
