import { DateTime } from 'luxon';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { filingIndexUrl } from './edgar-index.parse';
import { Form4ParseError, type ParsedForm4, type ParsedReportingOwner, type ParsedTransaction } from './form4.parse';
import type { InsiderSourceTag } from './insiders-sec.client';

/** How a filing was found: the current-filings feed, a daily index, a company's submissions, or a file imported by an operator. */
export type InsiderDiscoveryVia = 'feed' | 'index' | 'submissions' | 'import';

export interface ImportFilingMeta {
  /** The accession number (from the document's header, the feed or index, or a local key for a bare XML file). */
  accessionNumber: string;
  via: InsiderDiscoveryVia;
  dataSource: InsiderSourceTag;
  /** When discovery first saw it (kept from the pending row when there is one). */
  discoveredAt?: Date;
  /** The filing's index page on sec.gov (default: built from the issuer's CIK for a real accession; none for simulated rows). */
  secUrl?: string;
  now: Date;
}

export interface ImportFilingResult {
  filingId: number;
  companyId: number;
  /** inserted: stored now; unchanged: already stored (nothing written); replaced: a 4/A that replaced the lines of the filing it amends. */
  status: 'inserted' | 'unchanged' | 'replaced';
  /** Transaction lines the filing has stored (0 for an original already replaced by its amendment). */
  lines: number;
  /** The filing whose lines this 4/A replaced. */
  amendedFilingId: number | null;
}

const NEW_YORK = 'America/New_York';
/** A filing older than this never takes a ticker from the company that holds it now (symbols are reused). */
const TICKER_MOVE_MAX_AGE_DAYS = 365;
const LINES_PER_STATEMENT = 500;
const REAL_ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

const cut = (value: string | null | undefined, length: number): string | null => (value == null ? null : value.slice(0, length));
const padCik = (cik: string) => cik.padStart(10, '0');

/** The relationship as a reader says it: the officer title, else the roles ("Director, 10% Owner"), else the other text. */
export function relationshipText(owner: Pick<ParsedReportingOwner, 'isOfficer' | 'isDirector' | 'isTenPercentOwner' | 'isOther' | 'officerTitle' | 'otherText'>): string | null {
  const roles: string[] = [];
  if (owner.isOfficer) roles.push(owner.officerTitle?.trim() || 'Officer');
  if (owner.isDirector) roles.push('Director');
  if (owner.isTenPercentOwner) roles.push('10% Owner');
  if (owner.isOther) roles.push(owner.otherText?.trim() || 'Other');
  return roles.length ? roles.join(', ').slice(0, 200) : null;
}

/** The business date of a filing: as filed, else its acceptance day in New York. */
function filingDateOf(parsed: ParsedForm4): string | null {
  if (parsed.filingDate) return parsed.filingDate;
  if (parsed.filedAt) return DateTime.fromISO(parsed.filedAt, { zone: NEW_YORK }).toISODate();
  return null;
}

async function lock(manager: EntityManager, key: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

/**
 * The issuer by CIK (created on first sight with the filed name). The filed ticker is taken when
 * the filing is at least as new as the company's newest stored filing; when another company holds
 * it, it moves (the other loses it) unless this filing is over a year old.
 */
async function upsertIssuer(manager: EntityManager, parsed: ParsedForm4, filingDate: string | null, now: Date): Promise<number> {
  const cik = padCik(parsed.issuer.cik);
  await lock(manager, `insiders:company:${cik}`);
  await manager.query(`INSERT INTO insider_trading_companies (cik, company_name) VALUES ($1, $2) ON CONFLICT (cik) DO NOTHING`, [
    cik,
    cut(parsed.issuer.name, 200) || cik,
  ]);
  const [company] = (await manager.query(`SELECT id, ticker FROM insider_trading_companies WHERE cik = $1`, [cik])) as { id: number; ticker: string | null }[];
  const ticker = cut(parsed.issuer.ticker, 20);
  if (!ticker || ticker === company.ticker) return company.id;
  const [{ newest }] = (await manager.query(
    `SELECT to_char(max(filing_date), 'YYYY-MM-DD') AS newest FROM insider_trading_filings WHERE company_id = $1 AND status = 'parsed'`,
    [company.id],
  )) as { newest: string | null }[];
  if (newest && (!filingDate || filingDate < newest)) return company.id;
  await lock(manager, `insiders:ticker:${ticker}`);
  const [holder] = (await manager.query(`SELECT id FROM insider_trading_companies WHERE ticker = $1 AND id <> $2`, [ticker, company.id])) as { id: number }[];
  if (holder) {
    const recent = filingDate !== null && DateTime.fromISO(filingDate, { zone: NEW_YORK }) >= DateTime.fromJSDate(now, { zone: NEW_YORK }).minus({ days: TICKER_MOVE_MAX_AGE_DAYS }).startOf('day');
    if (!recent) return company.id;
    await manager.query(`UPDATE insider_trading_companies SET ticker = NULL, updated_at = now() WHERE id = $1`, [holder.id]);
  }
  await manager.query(`UPDATE insider_trading_companies SET ticker = $2, updated_at = now() WHERE id = $1`, [company.id, ticker]);
  return company.id;
}

/** Each reporting owner by CIK; name and role flags are the latest known (an older filing does not overwrite a newer one's). */
async function upsertOwners(manager: EntityManager, owners: ParsedReportingOwner[], filingDate: string | null): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  // CIK order: two imports sharing owners take their row locks in the same order.
  for (const owner of [...owners].sort((a, b) => padCik(a.cik).localeCompare(padCik(b.cik)))) {
    const cik = padCik(owner.cik);
    if (ids.has(cik)) continue;
    const flags = [owner.isOfficer, owner.isDirector, owner.isTenPercentOwner, owner.isOther];
    const inserted = (await manager.query(
      `INSERT INTO insider_trading_insiders (cik, name, is_officer, is_director, is_ten_percent_owner, is_other)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (cik) DO NOTHING RETURNING id`,
      [cik, cut(owner.name, 200) || cik, ...flags],
    )) as { id: number }[];
    if (inserted.length) {
      ids.set(cik, inserted[0].id);
      continue;
    }
    const [row] = (await manager.query(
      `SELECT i.id, (SELECT to_char(max(f.filing_date), 'YYYY-MM-DD') FROM insider_trading_filing_owners o
                     JOIN insider_trading_filings f ON f.id = o.filing_id AND f.status = 'parsed' WHERE o.insider_id = i.id) AS newest
       FROM insider_trading_insiders i WHERE i.cik = $1 FOR UPDATE`,
      [cik],
    )) as { id: number; newest: string | null }[];
    ids.set(cik, row.id);
    if (!row.newest || (filingDate !== null && filingDate >= row.newest)) {
      await manager.query(
        `UPDATE insider_trading_insiders SET name = $2, is_officer = $3, is_director = $4, is_ten_percent_owner = $5, is_other = $6, updated_at = now()
         WHERE id = $1 AND (name, is_officer, is_director, is_ten_percent_owner, is_other) IS DISTINCT FROM ($2, $3, $4, $5, $6)`,
        [row.id, cut(owner.name, 200) || cik, ...flags],
      );
    }
  }
  return ids;
}

const LINE_COLUMNS = [
  'company_id', 'insider_id', 'filing_id', 'table_kind', 'line_number', 'security_title', 'transaction_date', 'transaction_type',
  'shares_traded', 'price_per_share', 'acquired_disposed', 'is_weighted_price', 'price_footnote', 'total_value', 'shares_owned_after',
  'direct_or_indirect', 'nature_of_ownership', 'exercise_price', 'underlying_title', 'underlying_shares', 'rule10b5_one',
  'sec_form_type', 'sec_accession_number', 'sec_filing_date', 'sec_url', 'relationship', 'data_source',
  'filed_as_officer', 'filed_as_director', 'filed_as_ten_percent_owner', 'filed_as_other',
] as const;

async function insertLines(
  manager: EntityManager,
  lines: ParsedTransaction[],
  common: {
    companyId: number; insiderId: number; filingId: number; formType: string; accession: string; filingDate: string | null; secUrl: string | null; relationship: string | null; dataSource: InsiderSourceTag;
    owner: Pick<ParsedReportingOwner, 'isOfficer' | 'isDirector' | 'isTenPercentOwner' | 'isOther'>;
  },
): Promise<void> {
  for (let start = 0; start < lines.length; start += LINES_PER_STATEMENT) {
    const chunk = lines.slice(start, start + LINES_PER_STATEMENT);
    const params: unknown[] = [];
    const rows = chunk.map((line) => {
      const values: unknown[] = [
        common.companyId, common.insiderId, common.filingId, line.table, line.lineNumber, cut(line.securityTitle, 200), line.transactionDate,
        cut(line.transactionCode, 20), line.sharesTraded, line.pricePerShare, line.acquiredDisposed, line.isWeightedPrice, line.priceFootnote,
        line.totalValue, line.sharesOwnedAfter, line.directOrIndirect, cut(line.natureOfOwnership, 300), line.exercisePrice,
        cut(line.underlyingTitle, 200), line.underlyingShares, line.rule10b5One, common.formType, common.accession, common.filingDate,
        common.secUrl, common.relationship, common.dataSource,
        common.owner.isOfficer, common.owner.isDirector, common.owner.isTenPercentOwner, common.owner.isOther,
      ];
      const placeholders = values.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await manager.query(`INSERT INTO insider_trading_transactions (${LINE_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, params);
  }
}

interface StoredFilingRow {
  id: number;
  filingDate: string | null;
  filedAt: Date | null;
}

/**
 * A 4/A replaces the lines of the filing it amends: same issuer, same first reporting owner, and
 * the original's filing date is the 4/A's dateOfOriginalSubmission; else the newest earlier filing
 * of that owner and issuer for the same periodOfReport. Both are linked.
 */
async function findAmendedOriginal(manager: EntityManager, amendment: StoredFilingRow, parsed: ParsedForm4, companyId: number, insiderId: number): Promise<number | null> {
  const candidates = `FROM insider_trading_filings f
     JOIN insider_trading_filing_owners o ON o.filing_id = f.id AND o.position = 0
     WHERE f.company_id = $1 AND o.insider_id = $2 AND f.id <> $3 AND f.status = 'parsed' AND f.amended_by_filing_id IS NULL`;
  if (parsed.dateOfOriginalSubmission) {
    const named = (await manager.query(`SELECT f.id ${candidates} AND f.filing_date = $4::date ORDER BY f.filed_at DESC NULLS LAST, f.id DESC LIMIT 1`, [
      companyId,
      insiderId,
      amendment.id,
      parsed.dateOfOriginalSubmission,
    ])) as { id: number }[];
    if (named.length) return named[0].id;
  }
  const earlier = (await manager.query(
    `SELECT f.id ${candidates} AND f.period_of_report IS NOT DISTINCT FROM $4::date
       AND CASE WHEN f.filed_at IS NOT NULL AND $5::timestamptz IS NOT NULL THEN f.filed_at < $5::timestamptz
                WHEN f.filing_date IS NOT NULL AND $6::date IS NOT NULL THEN f.filing_date <= $6::date
                ELSE f.id < $3 END
     ORDER BY f.filed_at DESC NULLS LAST, f.filing_date DESC NULLS LAST, f.id DESC LIMIT 1`,
    [companyId, insiderId, amendment.id, parsed.periodOfReport, amendment.filedAt, amendment.filingDate],
  )) as { id: number }[];
  return earlier[0]?.id ?? null;
}

/** An original stored after its amendment: the stored 4/A that names it (or, without a date, covers its period later). */
async function findAmendmentOf(manager: EntityManager, original: StoredFilingRow, parsed: ParsedForm4, companyId: number, insiderId: number): Promise<number | null> {
  const rows = (await manager.query(
    `SELECT f.id FROM insider_trading_filings f
     JOIN insider_trading_filing_owners o ON o.filing_id = f.id AND o.position = 0
     WHERE f.company_id = $1 AND o.insider_id = $2 AND f.id <> $3 AND f.status = 'parsed' AND f.form_type = '4/A' AND f.amends_filing_id IS NULL
       AND (f.date_of_original_submission = $4::date
         OR (f.date_of_original_submission IS NULL AND f.period_of_report IS NOT DISTINCT FROM $5::date
             AND CASE WHEN f.filed_at IS NOT NULL AND $6::timestamptz IS NOT NULL THEN f.filed_at > $6::timestamptz ELSE f.filing_date >= $4::date END))
     ORDER BY f.filed_at ASC NULLS LAST, f.id ASC
     LIMIT 1`,
    [companyId, insiderId, original.id, original.filingDate, parsed.periodOfReport, original.filedAt],
  )) as { id: number }[];
  return rows[0]?.id ?? null;
}

async function link(manager: EntityManager, originalId: number, amendmentId: number): Promise<void> {
  await manager.query(`DELETE FROM insider_trading_transactions WHERE filing_id = $1`, [originalId]);
  await manager.query(`UPDATE insider_trading_filings SET amended_by_filing_id = $2, updated_at = now() WHERE id = $1`, [originalId, amendmentId]);
  await manager.query(`UPDATE insider_trading_filings SET amends_filing_id = $1, updated_at = now() WHERE id = $2`, [originalId, amendmentId]);
}

/** PostgreSQL's answers to values a column cannot hold: bad data in the filing, not a failure to retry. */
const BAD_VALUE_CODES = new Set(['22003', '22P02', '22007', '22008', '22001', '22023']);

/**
 * Stores a parsed Form 4 or 4/A in one transaction: the issuer (by CIK, ticker moves handled), each
 * reporting owner (by CIK, latest name and roles), the filing (status parsed, stored_at = now), its
 * owners (position 0 = the first, as filed) and every transaction line under the first owner. A
 * joint filing's lines are stored once. Idempotent: an accession already parsed answers
 * 'unchanged' and writes nothing; concurrent imports of one accession are serialised. A 4/A deletes
 * the lines of the original it amends and links both ('replaced'). A value no column can hold
 * throws Form4ParseError('malformed'), with nothing written.
 */
export async function importParsedFiling(db: DataSource | EntityManager, parsed: ParsedForm4, meta: ImportFilingMeta): Promise<ImportFilingResult> {
  const accession = meta.accessionNumber;
  try {
    return await db.transaction(async (manager) => {
      await lock(manager, `insiders:filing:${accession}`);
      const [existing] = (await manager.query(
        `SELECT f.id, f.status, f.company_id AS "companyId", f.amends_filing_id AS "amendsFilingId",
                (SELECT count(*)::int FROM insider_trading_transactions t WHERE t.filing_id = f.id) AS lines
         FROM insider_trading_filings f WHERE f.accession_number = $1`,
        [accession],
      )) as { id: number; status: string; companyId: number | null; amendsFilingId: number | null; lines: number }[];
      if (existing?.status === 'parsed' && existing.companyId !== null) {
        return { filingId: existing.id, companyId: existing.companyId, status: 'unchanged', lines: existing.lines, amendedFilingId: existing.amendsFilingId };
      }

      const filingDate = filingDateOf(parsed);
      const companyId = await upsertIssuer(manager, parsed, filingDate, meta.now);
      const owners = parsed.reportingOwners.filter((owner, i, all) => all.findIndex((o) => padCik(o.cik) === padCik(owner.cik)) === i);
      const insiderIds = await upsertOwners(manager, owners, filingDate);
      const issuerCik = padCik(parsed.issuer.cik);
      const secUrl = meta.secUrl ?? (meta.dataSource !== 'simulated' && REAL_ACCESSION.test(accession) ? filingIndexUrl(issuerCik, accession) : null);

      const [stored] = (await manager.query(
        `INSERT INTO insider_trading_filings (accession_number, form_type, status, failure_reason, attempts, company_id, issuer_cik, filed_at,
           filing_date, period_of_report, schema_version, rule10b5_one, date_of_original_submission, footnotes, remarks, sec_url,
           discovered_via, discovered_at, stored_at)
         VALUES ($1, $2, 'parsed', NULL, 1, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15, $16)
         ON CONFLICT (accession_number) DO UPDATE SET form_type = EXCLUDED.form_type, status = 'parsed', failure_reason = NULL,
           attempts = insider_trading_filings.attempts + 1, company_id = EXCLUDED.company_id, issuer_cik = EXCLUDED.issuer_cik,
           filed_at = COALESCE(EXCLUDED.filed_at, insider_trading_filings.filed_at),
           filing_date = COALESCE(EXCLUDED.filing_date, insider_trading_filings.filing_date),
           period_of_report = EXCLUDED.period_of_report, schema_version = EXCLUDED.schema_version, rule10b5_one = EXCLUDED.rule10b5_one,
           date_of_original_submission = EXCLUDED.date_of_original_submission, footnotes = EXCLUDED.footnotes, remarks = EXCLUDED.remarks,
           sec_url = COALESCE(EXCLUDED.sec_url, insider_trading_filings.sec_url),
           discovered_at = COALESCE(insider_trading_filings.discovered_at, EXCLUDED.discovered_at),
           stored_at = EXCLUDED.stored_at, updated_at = now()
         RETURNING id, to_char(filing_date, 'YYYY-MM-DD') AS "filingDate", filed_at AS "filedAt", sec_url AS "secUrl"`,
        [
          accession, parsed.formType, companyId, issuerCik, parsed.filedAt, filingDate, parsed.periodOfReport, cut(parsed.schemaVersion, 10),
          parsed.rule10b5One, parsed.dateOfOriginalSubmission, JSON.stringify(parsed.footnotes ?? {}), parsed.remarks, secUrl, meta.via,
          meta.discoveredAt ?? meta.now, meta.now,
        ],
      )) as (StoredFilingRow & { secUrl: string | null })[];

      await manager.query(`DELETE FROM insider_trading_filing_owners WHERE filing_id = $1`, [stored.id]);
      for (const [position, owner] of owners.entries()) {
        await manager.query(
          `INSERT INTO insider_trading_filing_owners (filing_id, insider_id, position, is_officer, is_director, is_ten_percent_owner, is_other, officer_title)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [stored.id, insiderIds.get(padCik(owner.cik)), position, owner.isOfficer, owner.isDirector, owner.isTenPercentOwner, owner.isOther, cut(owner.officerTitle, 200)],
        );
      }

      const first = owners[0];
      const firstId = insiderIds.get(padCik(first.cik)) as number;
      await manager.query(`DELETE FROM insider_trading_transactions WHERE sec_accession_number = $1`, [accession]);
      await insertLines(manager, parsed.transactions, {
        companyId,
        insiderId: firstId,
        filingId: stored.id,
        formType: parsed.formType,
        accession,
        filingDate: stored.filingDate,
        secUrl: stored.secUrl,
        relationship: relationshipText(first),
        dataSource: meta.dataSource,
        owner: first,
      });

      if (parsed.formType === '4/A') {
        const originalId = await findAmendedOriginal(manager, stored, parsed, companyId, firstId);
        if (originalId !== null) await link(manager, originalId, stored.id);
        return { filingId: stored.id, companyId, status: originalId !== null ? 'replaced' : 'inserted', lines: parsed.transactions.length, amendedFilingId: originalId };
      }
      const amendmentId = await findAmendmentOf(manager, stored, parsed, companyId, firstId);
      if (amendmentId !== null) await link(manager, stored.id, amendmentId);
      return { filingId: stored.id, companyId, status: 'inserted', lines: amendmentId !== null ? 0 : parsed.transactions.length, amendedFilingId: null };
    });
  } catch (error) {
    const code = error instanceof QueryFailedError ? (error.driverError as { code?: string }).code : undefined;
    if (code && BAD_VALUE_CODES.has(code)) throw new Form4ParseError('malformed', `${accession}: a value the database cannot hold (${error instanceof Error ? error.message : String(error)})`);
    throw error;
  }
}
