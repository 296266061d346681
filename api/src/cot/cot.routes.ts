import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { COT_CATEGORIES, COT_EXTREME_LONG_AT, COT_REPORT_TYPE } from '@tickerbell/jobs';
import { notFound } from '../http/errors';

/** Screener sort keys (public name -> column of the `latest` query). Nothing else reaches ORDER BY. */
const SORTS = {
  name: { column: 'instrument_name', text: true },
  symbol: { column: 'symbol', text: true },
  cftcCode: { column: 'cftc_code', text: true },
  category: { column: 'category', text: true },
  reportDate: { column: 'report_date', text: false },
  openInterest: { column: 'open_interest', text: false },
  leveragedNetPercent: { column: 'leveraged_net_percent', text: false },
  commercialNetPercent: { column: 'commercial_net_percent', text: false },
  assetManagerNetPercent: { column: 'asset_manager_net_percent', text: false },
  leveragedPercentileRank: { column: 'leveraged_percentile_rank', text: false },
  commercialPercentileRank: { column: 'commercial_percentile_rank', text: false },
  assetManagerPercentileRank: { column: 'asset_manager_percentile_rank', text: false },
  leveragedCotIndex: { column: 'leveraged_cot_index', text: false },
  commercialCotIndex: { column: 'commercial_cot_index', text: false },
  assetManagerCotIndex: { column: 'asset_manager_cot_index', text: false },
  divergenceScore: { column: 'divergence_score', text: false },
} as const;
type SortKey = keyof typeof SORTS;
const SORT_KEYS = Object.keys(SORTS) as [SortKey, ...SortKey[]];

export const cotLatestQuerySchema = z
  .object({
    sort: z.enum(SORT_KEYS).default('name'),
    order: z.enum(['asc', 'desc']).optional(),
    category: z.enum(COT_CATEGORIES).optional(),
  })
  .strict();

export const cotHistoryQuerySchema = z
  .object({
    // 20 years of weekly reports at most.
    weeks: z.coerce.number().int().min(1).max(1040).default(156),
  })
  .strict();

// Codes are letters and digits, and a few consolidated ones carry a sign (e.g. a trailing +).
export const cftcCodeSchema = z.string().regex(/^[\x21-\x7e]{1,20}$/);

type Row = Record<string, string | number | boolean | null>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const side = (isExtreme: unknown, percentile: unknown): 'long' | 'short' | null =>
  isExtreme === true && percentile !== null ? (Number(percentile) >= COT_EXTREME_LONG_AT ? 'long' : 'short') : null;

function instrumentJson(row: Row) {
  return { cftcCode: row.cftc_code, name: row.instrument_name, symbol: row.symbol, category: row.category, exchange: row.exchange };
}

/** One report's analytics as JSON (null fields before the analytics have run). */
function analyticsJson(row: Row) {
  return {
    reportDate: row.report_date,
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
      leveraged: side(row.is_leveraged_extreme, row.leveraged_percentile_rank),
      commercial: side(row.is_commercial_extreme, row.commercial_percentile_rank),
      assetManager: side(row.is_asset_manager_extreme, row.asset_manager_percentile_rank),
    },
    divergence: { score: num(row.divergence_score), type: row.divergence_type, alertLevel: row.alert_level },
    lookback: row.lookback,
    provisional: row.is_provisional,
  };
}

const ANALYTICS_SELECT = `to_char(r.report_date, 'YYYY-MM-DD') AS report_date, p.open_interest,
  a.leveraged_net_percent, a.commercial_net_percent, a.asset_manager_net_percent, a.dealer_net_percent,
  a.other_net_percent, a.non_reportable_net_percent,
  a.leveraged_percentile_rank, a.commercial_percentile_rank, a.asset_manager_percentile_rank,
  a.leveraged_cot_index, a.commercial_cot_index, a.asset_manager_cot_index,
  a.is_leveraged_extreme, a.is_commercial_extreme, a.is_asset_manager_extreme,
  a.divergence_score, a.divergence_type, a.alert_level, a.lookback, a.is_provisional`;

/** Public read routes of the futures positioning (COT) feature. */
export function cotRoutes(deps: { dataSource: DataSource }): Router {
  const router = Router();
  const db = deps.dataSource;

  router.get('/cot/instruments', async (_req, res) => {
    const rows: Row[] = await db.query(
      `SELECT i.cftc_code, i.instrument_name, i.symbol, i.category, i.exchange, i.contract_size, i.is_active,
              to_char(max(r.report_date), 'YYYY-MM-DD') AS latest_report_date, count(p.id)::int AS reports
       FROM cot_instruments i
       LEFT JOIN cot_positions p ON p.instrument_id = i.id
       LEFT JOIN cot_reports r ON r.id = p.report_id
       GROUP BY i.id
       ORDER BY i.instrument_name, i.cftc_code`,
    );
    res.json({
      items: rows.map((row) => ({
        ...instrumentJson(row),
        contractSize: num(row.contract_size),
        isActive: row.is_active,
        latestReportDate: row.latest_report_date,
        reports: row.reports,
      })),
    });
  });

  router.get('/cot/latest', async (req, res) => {
    const query = cotLatestQuerySchema.parse(req.query);
    const sort = SORTS[query.sort];
    const order = query.order ?? (sort.text ? 'asc' : 'desc');
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
       ORDER BY ${sort.column} ${order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, cftc_code`,
      [query.category ?? null, COT_REPORT_TYPE],
    );
    res.json({
      sort: query.sort,
      order,
      category: query.category ?? null,
      items: rows.map((row) => ({ instrument: instrumentJson(row), ...analyticsJson(row) })),
    });
  });

  router.get('/cot/instruments/:code/history', async (req, res) => {
    const { weeks } = cotHistoryQuerySchema.parse(req.query);
    const code = cftcCodeSchema.safeParse(req.params.code);
    const [instrument]: Row[] = code.success
      ? await db.query(`SELECT id, cftc_code, instrument_name, symbol, category, exchange FROM cot_instruments WHERE cftc_code = $1`, [code.data])
      : [];
    if (!instrument) throw notFound(`No COT instrument with code ${String(req.params.code).slice(0, 40)}`);
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
    res.json({
      instrument: instrumentJson(instrument),
      weeks,
      history: rows.map((row) => ({
        ...analyticsJson(row),
        positions: {
          dealer: { long: row.dealer_long, short: row.dealer_short, spreading: row.dealer_spreading },
          assetManager: { long: row.asset_manager_long, short: row.asset_manager_short, spreading: row.asset_manager_spreading },
          leveraged: { long: row.leveraged_long, short: row.leveraged_short, spreading: row.leveraged_spreading },
          other: { long: row.other_long, short: row.other_short, spreading: row.other_spreading },
          nonReportable: { long: row.non_reportable_long, short: row.non_reportable_short },
        },
      })),
    });
  });

  return router;
}
