import type { DataSource, EntityManager } from 'typeorm';
import { followersOf, type Audience } from '../notifications/notifications.store';
import { storedExtremeSide, type AlertLevel, type CotAlertEvent, type CotAnalyticsInput, type CotAnalyticsPoint, type DivergenceType } from './cot-analytics';
import type { CotAlertSource } from './cot-alerts';
import {
  COT_STALE_AFTER_DAYS,
  COT_TEXT_SORT_KEYS,
  type CotAnalyticsView,
  type CotDataStatus,
  type CotCategory,
  type CotFollowView,
  type CotHistory,
  type CotInstrumentListItem,
  type CotInstrumentRef,
  type CotLatestItem,
  type CotSortKey,
  type CotSortOrder,
} from './cot.shapes';

/**
 * Every query of the COT domain except the import of reports (cot-import.store.ts): the reads the
 * api serves (instruments, screener, history), follows, the analytics' series and their rows, and
 * what the pipeline and the alerts read.
 */
type Db = DataSource | EntityManager;

export const COT_REPORT_TYPE = 'financial';

// ---------------------------------------------------------------------------------------------
// Reads for the api (JSON as the clients read it; null fields before the analytics have run).

/** Screener sort keys (public name -> column of the `latest` query). Nothing else reaches ORDER BY. */
const COT_SORT_COLUMNS: Record<CotSortKey, string> = {
  name: 'instrument_name',
  symbol: 'symbol',
  cftcCode: 'cftc_code',
  category: 'category',
  reportDate: 'report_date',
  openInterest: 'open_interest',
  leveragedNetPercent: 'leveraged_net_percent',
  commercialNetPercent: 'commercial_net_percent',
  assetManagerNetPercent: 'asset_manager_net_percent',
  leveragedPercentileRank: 'leveraged_percentile_rank',
  commercialPercentileRank: 'commercial_percentile_rank',
  assetManagerPercentileRank: 'asset_manager_percentile_rank',
  leveragedCotIndex: 'leveraged_cot_index',
  commercialCotIndex: 'commercial_cot_index',
  assetManagerCotIndex: 'asset_manager_cot_index',
  divergenceScore: 'divergence_score',
};

/** The screener's default order: ascending for text columns, descending for numbers. */
export function defaultCotOrder(sort: CotSortKey): CotSortOrder {
  return (COT_TEXT_SORT_KEYS as readonly CotSortKey[]).includes(sort) ? 'asc' : 'desc';
}

type Row = Record<string, string | number | boolean | null>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const percentile = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function instrumentJson(row: Row): CotInstrumentRef {
  return {
    cftcCode: row.cftc_code as string,
    name: row.instrument_name as string,
    symbol: row.symbol as string | null,
    category: row.category as string | null,
    exchange: row.exchange as string | null,
  };
}

/** One report's analytics as JSON; the extreme sides come from the analytics' own rule (storedExtremeSide). */
function analyticsJson(row: Row): CotAnalyticsView {
  return {
    reportDate: row.report_date as string,
    openInterest: num(row.open_interest),
    netPercent: {
      leveraged: num(row.leveraged_net_percent),
      commercial: num(row.commercial_net_percent),
      assetManager: num(row.asset_manager_net_percent),
      dealer: num(row.dealer_net_percent),
      other: num(row.other_net_percent),
      nonReportable: num(row.non_reportable_net_percent),
    },
    percentileRank: {
      leveraged: num(row.leveraged_percentile_rank),
      commercial: num(row.commercial_percentile_rank),
      assetManager: num(row.asset_manager_percentile_rank),
    },
    cotIndex: {
      leveraged: num(row.leveraged_cot_index),
      commercial: num(row.commercial_cot_index),
      assetManager: num(row.asset_manager_cot_index),
    },
    extremes: {
      leveraged: storedExtremeSide(row.is_leveraged_extreme === true, percentile(row.leveraged_percentile_rank)),
      commercial: storedExtremeSide(row.is_commercial_extreme === true, percentile(row.commercial_percentile_rank)),
      assetManager: storedExtremeSide(row.is_asset_manager_extreme === true, percentile(row.asset_manager_percentile_rank)),
    },
    divergence: { score: num(row.divergence_score), type: row.divergence_type as DivergenceType | null, alertLevel: row.alert_level as AlertLevel | null },
    lookback: row.lookback as number | null,
    provisional: row.is_provisional as boolean | null,
  };
}

const ANALYTICS_SELECT = `to_char(r.report_date, 'YYYY-MM-DD') AS report_date, p.open_interest,
  a.leveraged_net_percent, a.commercial_net_percent, a.asset_manager_net_percent, a.dealer_net_percent,
  a.other_net_percent, a.non_reportable_net_percent,
  a.leveraged_percentile_rank, a.commercial_percentile_rank, a.asset_manager_percentile_rank,
  a.leveraged_cot_index, a.commercial_cot_index, a.asset_manager_cot_index,
  a.is_leveraged_extreme, a.is_commercial_extreme, a.is_asset_manager_extreme,
  a.divergence_score, a.divergence_type, a.alert_level, a.lookback, a.is_provisional`;

/** Every instrument, by name, with its latest report date and number of reports. */
export async function listCotInstruments(db: Db): Promise<CotInstrumentListItem[]> {
  const rows: Row[] = await db.query(
    `SELECT i.cftc_code, i.instrument_name, i.symbol, i.category, i.exchange, i.contract_size, i.is_active,
            to_char(max(r.report_date), 'YYYY-MM-DD') AS latest_report_date, count(p.id)::int AS reports
     FROM cot_instruments i
     LEFT JOIN cot_positions p ON p.instrument_id = i.id
     LEFT JOIN cot_reports r ON r.id = p.report_id
     GROUP BY i.id
     ORDER BY i.instrument_name, i.cftc_code`,
  );
  return rows.map((row) => ({
    ...instrumentJson(row),
    contractSize: num(row.contract_size),
    isActive: row.is_active as boolean,
    latestReportDate: row.latest_report_date as string | null,
    reports: row.reports as number,
  }));
}

/** The screener: every active instrument's latest report and its analytics, sorted (then by code). */
export async function latestCotAnalytics(
  db: Db,
  query: { sort: CotSortKey; order: CotSortOrder; category: CotCategory | null },
): Promise<CotLatestItem[]> {
  const column = COT_SORT_COLUMNS[query.sort];
  const rows: Row[] = await db.query(
    `SELECT * FROM (
       SELECT DISTINCT ON (i.id) i.cftc_code, i.instrument_name, i.symbol, i.category, i.exchange, ${ANALYTICS_SELECT}
       FROM cot_instruments i
       JOIN cot_positions p ON p.instrument_id = i.id
       JOIN cot_reports r ON r.id = p.report_id AND r.report_type = $2
       LEFT JOIN cot_analytics a ON a.position_id = p.id
       WHERE i.is_active AND ($1::varchar IS NULL OR i.category = $1)
       ORDER BY i.id, r.report_date DESC
     ) latest
     ORDER BY ${column} ${query.order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, cftc_code`,
    [query.category, COT_REPORT_TYPE],
  );
  return rows.map((row) => ({ instrument: instrumentJson(row), ...analyticsJson(row) }));
}

/** The last `weeks` reports of an instrument, oldest first, with positions; null: no such instrument. */
export async function cotInstrumentHistory(db: Db, cftcCode: string, weeks: number): Promise<CotHistory | null> {
  const [instrument]: Row[] = await db.query(
    `SELECT id, cftc_code, instrument_name, symbol, category, exchange FROM cot_instruments WHERE cftc_code = $1`,
    [cftcCode],
  );
  if (!instrument) return null;
  const rows: Row[] = await db.query(
    `SELECT * FROM (
       SELECT ${ANALYTICS_SELECT},
              p.dealer_long, p.dealer_short, p.dealer_spreading, p.asset_manager_long, p.asset_manager_short, p.asset_manager_spreading,
              p.leveraged_long, p.leveraged_short, p.leveraged_spreading, p.other_long, p.other_short, p.other_spreading,
              p.non_reportable_long, p.non_reportable_short
       FROM cot_positions p
       JOIN cot_reports r ON r.id = p.report_id AND r.report_type = $3
       LEFT JOIN cot_analytics a ON a.position_id = p.id
       WHERE p.instrument_id = $1
       ORDER BY r.report_date DESC
       LIMIT $2
     ) recent ORDER BY report_date`,
    [instrument.id, weeks, COT_REPORT_TYPE],
  );
  const n = (v: unknown) => v as number | null;
  return {
    instrument: instrumentJson(instrument),
    weeks,
    history: rows.map((row) => ({
      ...analyticsJson(row),
      positions: {
        dealer: { long: n(row.dealer_long), short: n(row.dealer_short), spreading: n(row.dealer_spreading) },
        assetManager: { long: n(row.asset_manager_long), short: n(row.asset_manager_short), spreading: n(row.asset_manager_spreading) },
        leveraged: { long: n(row.leveraged_long), short: n(row.leveraged_short), spreading: n(row.leveraged_spreading) },
        other: { long: n(row.other_long), short: n(row.other_short), spreading: n(row.other_spreading) },
        nonReportable: { long: n(row.non_reportable_long), short: n(row.non_reportable_short) },
      },
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Follows.

/**
 * Follows (true) or unfollows (false) an instrument by its CFTC code. Idempotent: following twice
 * keeps the first row, unfollowing what is not followed changes nothing. Null: no such instrument.
 */
export async function setCotFollow(db: Db, userId: number, cftcCode: string, follow: boolean): Promise<boolean | null> {
  const [instrument]: { id: number }[] = await db.query('SELECT id FROM cot_instruments WHERE cftc_code = $1', [cftcCode]);
  if (!instrument) return null;
  if (follow) {
    await db.query('INSERT INTO cot_follows (user_id, instrument_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, instrument.id]);
  } else {
    await db.query('DELETE FROM cot_follows WHERE user_id = $1 AND instrument_id = $2', [userId, instrument.id]);
  }
  return follow;
}

/** The instruments a user follows, by name. */
export async function listCotFollows(db: Db, userId: number): Promise<CotFollowView[]> {
  const rows: { cftc_code: string; instrument_name: string; symbol: string | null; category: string | null; exchange: string | null; created_at: Date }[] =
    await db.query(
      `SELECT i.cftc_code, i.instrument_name, i.symbol, i.category, i.exchange, f.created_at
       FROM cot_follows f JOIN cot_instruments i ON i.id = f.instrument_id
       WHERE f.user_id = $1 ORDER BY i.instrument_name, i.cftc_code`,
      [userId],
    );
  return rows.map((r) => ({
    cftcCode: r.cftc_code,
    name: r.instrument_name,
    symbol: r.symbol,
    category: r.category,
    exchange: r.exchange,
    followedAt: new Date(r.created_at).toISOString(),
  }));
}

/** Who an instrument's alerts notify: its followers (the fan-out pages them by user id). */
export function cotFollowers(instrumentId: number): Audience {
  return followersOf('cot_follows', 'instrument_id', instrumentId);
}

// ---------------------------------------------------------------------------------------------
// The pipeline and the analytics.

export interface CotInstrumentKey {
  id: number;
  cftcCode: string;
}

export async function findCotInstrument(db: Db, cftcCode: string): Promise<CotInstrumentKey | null> {
  const rows: { id: number; cftc_code: string }[] = await db.query(`SELECT id, cftc_code FROM cot_instruments WHERE cftc_code = $1`, [cftcCode]);
  return rows[0] ? { id: rows[0].id, cftcCode: rows[0].cftc_code } : null;
}

/** The newest report date whose rows are fully stored. */
/** The source_url the bundled sample's reports are stored with (sourceUrlOfFile of cot.seed.ts's COT_SAMPLE_PATH). */
export const COT_SAMPLE_SOURCE_URL = 'file:cftc_tff_futures_only_2022_sample.csv';

/**
 * Where the newest stored report came from and its age: the bundled sample (its source is the
 * sample file, see cot.seed.ts) or the CFTC, stale after COT_STALE_AFTER_DAYS.
 */
export async function cotDataStatus(db: Db, now: Date): Promise<CotDataStatus> {
  const [row]: { report_date: string; source_url: string | null }[] = await db.query(
    `SELECT to_char(report_date, 'YYYY-MM-DD') AS report_date, source_url FROM cot_reports ORDER BY report_date DESC, id DESC LIMIT 1`,
  );
  if (!row) return { latestReportDate: null, sample: false, stale: false };
  const ageDays = (now.getTime() - Date.parse(`${row.report_date}T00:00:00Z`)) / 86_400_000;
  return { latestReportDate: row.report_date, sample: row.source_url === COT_SAMPLE_SOURCE_URL, stale: ageDays > COT_STALE_AFTER_DAYS };
}

export async function latestStoredCotReport(db: Db): Promise<string | null> {
  const [row]: { latest: string | null }[] = await db.query(
    `SELECT to_char(max(report_date), 'YYYY-MM-DD') AS latest FROM cot_reports WHERE report_type = $1 AND processed_at IS NOT NULL`,
    [COT_REPORT_TYPE],
  );
  return row?.latest ?? null;
}

/** Positions of the newest stored report without analytics (an import whose jobs were never queued). */
export async function cotReportsMissingAnalytics(db: Db): Promise<{ cftcCode: string; reportDate: string }[]> {
  const rows: { cftc_code: string; report_date: string }[] = await db.query(
    `SELECT i.cftc_code, to_char(r.report_date, 'YYYY-MM-DD') AS report_date
     FROM cot_reports r
     JOIN cot_positions p ON p.report_id = r.id
     JOIN cot_instruments i ON i.id = p.instrument_id
     LEFT JOIN cot_analytics a ON a.position_id = p.id
     WHERE a.id IS NULL AND r.report_type = $1
       AND r.report_date = (SELECT max(report_date) FROM cot_reports WHERE report_type = $1 AND processed_at IS NOT NULL)`,
    [COT_REPORT_TYPE],
  );
  return rows.map((r) => ({ cftcCode: r.cftc_code, reportDate: r.report_date }));
}

export interface CotSeriesRow extends CotAnalyticsInput {
  positionId: string;
}

/** Every stored report of one instrument, oldest first, with what the analytics need. */
export async function loadCotSeries(db: Db, instrumentId: number): Promise<CotSeriesRow[]> {
  const rows: Record<string, string | number>[] = await db.query(
    `SELECT p.id AS "positionId", to_char(r.report_date, 'YYYY-MM-DD') AS "reportDate", p.open_interest AS "openInterest",
            p.dealer_long AS "dealerLong", p.dealer_short AS "dealerShort",
            p.asset_manager_long AS "assetManagerLong", p.asset_manager_short AS "assetManagerShort",
            p.leveraged_long AS "leveragedLong", p.leveraged_short AS "leveragedShort",
            p.other_long AS "otherLong", p.other_short AS "otherShort",
            p.non_reportable_long AS "nonReportableLong", p.non_reportable_short AS "nonReportableShort"
     FROM cot_positions p JOIN cot_reports r ON r.id = p.report_id
     WHERE p.instrument_id = $1
     ORDER BY r.report_date`,
    [instrumentId],
  );
  return rows.map((r) => ({ ...(r as unknown as CotSeriesRow), positionId: String(r.positionId) }));
}

/** One recompute per instrument at a time (two would race on the same rows): held until the transaction ends. */
export async function lockCotAnalytics(manager: EntityManager, instrumentId: number): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cot-analytics:${instrumentId}`]);
}

const ANALYTICS_COLUMNS = [
  'position_id',
  'leveraged_net_percent',
  'commercial_net_percent',
  'asset_manager_net_percent',
  'dealer_net_percent',
  'other_net_percent',
  'non_reportable_net_percent',
  'leveraged_percentile_rank',
  'commercial_percentile_rank',
  'asset_manager_percentile_rank',
  'is_leveraged_extreme',
  'is_commercial_extreme',
  'is_asset_manager_extreme',
  'divergence_score',
  'divergence_type',
  'alert_level',
  'leveraged_cot_index',
  'commercial_cot_index',
  'asset_manager_cot_index',
  'lookback',
  'history_size',
  'is_provisional',
  'alert_events',
] as const;

function analyticsValues(positionId: string, p: CotAnalyticsPoint): unknown[] {
  return [
    positionId,
    p.netPercent.leveraged,
    p.netPercent.commercial,
    p.netPercent.assetManager,
    p.netPercent.dealer,
    p.netPercent.other,
    p.netPercent.nonReportable,
    p.percentileRank.leveraged,
    p.percentileRank.commercial,
    p.percentileRank.assetManager,
    p.extremes.leveraged !== null,
    p.extremes.commercial !== null,
    p.extremes.assetManager !== null,
    p.divergenceScore,
    p.divergenceType,
    p.alertLevel,
    p.cotIndex.leveraged,
    p.cotIndex.commercial,
    p.cotIndex.assetManager,
    p.lookback,
    p.windowSize,
    p.provisional,
    JSON.stringify(p.events),
  ];
}

/**
 * Upserts the analytics rows of (position, point) pairs; rows whose values did not change are not
 * written. Answers how many rows were inserted and updated.
 */
export async function upsertCotAnalytics(db: Db, rows: readonly { positionId: string; point: CotAnalyticsPoint }[]): Promise<{ inserted: number; updated: number }> {
  if (!rows.length) return { inserted: 0, updated: 0 };
  const data = ANALYTICS_COLUMNS.filter((c) => c !== 'position_id');
  const values: unknown[] = [];
  const tuples = rows.map(({ positionId, point }) => {
    const start = values.length;
    values.push(...analyticsValues(positionId, point));
    return `(${ANALYTICS_COLUMNS.map((c, j) => `$${start + j + 1}${c === 'alert_events' ? '::jsonb' : ''}`).join(', ')})`;
  });
  const returned: { inserted: boolean }[] = await db.query(
    `INSERT INTO cot_analytics (${ANALYTICS_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
     ON CONFLICT (position_id) DO UPDATE SET ${data.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
     WHERE (${data.map((c) => `cot_analytics.${c}`).join(', ')}) IS DISTINCT FROM (${data.map((c) => `EXCLUDED.${c}`).join(', ')})
     RETURNING (xmax = 0) AS inserted`,
    values,
  );
  const inserted = returned.filter((r) => r.inserted).length;
  return { inserted, updated: returned.length - inserted };
}

/** The analytics of the newest report of an instrument, as the alerts read them (null before any are stored). */
export async function newestCotAlertSource(db: Db, instrumentId: number): Promise<CotAlertSource | null> {
  const [row]: Record<string, unknown>[] = await db.query(
    `SELECT i.id AS instrument_id, i.cftc_code, i.instrument_name, i.symbol, to_char(r.report_date, 'YYYY-MM-DD') AS report_date,
            a.leveraged_percentile_rank, a.commercial_percentile_rank, a.asset_manager_percentile_rank,
            a.divergence_score, a.divergence_type, a.alert_level, a.history_size, a.alert_events
     FROM cot_positions p
     JOIN cot_reports r ON r.id = p.report_id AND r.report_type = $2
     JOIN cot_instruments i ON i.id = p.instrument_id
     JOIN cot_analytics a ON a.position_id = p.id
     WHERE p.instrument_id = $1
     ORDER BY r.report_date DESC LIMIT 1`,
    [instrumentId, COT_REPORT_TYPE],
  );
  if (!row) return null;
  return {
    instrumentId: Number(row.instrument_id),
    cftcCode: String(row.cftc_code),
    instrumentName: String(row.instrument_name),
    symbol: (row.symbol as string | null) ?? null,
    reportDate: String(row.report_date),
    percentileRank: {
      leveraged: (row.leveraged_percentile_rank as string | null) ?? null,
      commercial: (row.commercial_percentile_rank as string | null) ?? null,
      assetManager: (row.asset_manager_percentile_rank as string | null) ?? null,
    },
    divergenceScore: (row.divergence_score as string | null) ?? null,
    divergenceType: (row.divergence_type as DivergenceType | null) ?? null,
    alertLevel: row.alert_level as AlertLevel,
    windowSize: Number(row.history_size),
    events: (row.alert_events as CotAlertEvent[] | null) ?? [],
  };
}
