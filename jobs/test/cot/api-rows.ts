import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * The CFTC public reporting API (Socrata dataset gpe5-46if) serves the same report with lowercase
 * field names. No recorded API answer exists in our fixtures, so the API rows here are the real
 * sample's rows with their fields RENAMED to the API's documented names, values unchanged except
 * for the API's form: no padding, dates as 2022-08-16T00:00:00.000, a suppressed value left out.
 * Which fields drop the `_all` suffix is taken from public clients of the dataset.
 */
const API_NAMES_WITHOUT_ALL = new Set([
  'asset_mgr_positions_long', 'asset_mgr_positions_short', 'asset_mgr_positions_spread',
  'lev_money_positions_long', 'lev_money_positions_short', 'lev_money_positions_spread',
  'other_rept_positions_long', 'other_rept_positions_short', 'other_rept_positions_spread',
  'tot_rept_positions_short',
  'change_in_asset_mgr_long', 'change_in_asset_mgr_short', 'change_in_asset_mgr_spread',
  'change_in_lev_money_long', 'change_in_lev_money_short', 'change_in_lev_money_spread',
  'change_in_other_rept_long', 'change_in_other_rept_short', 'change_in_other_rept_spread',
  'pct_of_oi_asset_mgr_long', 'pct_of_oi_asset_mgr_short', 'pct_of_oi_asset_mgr_spread',
  'pct_of_oi_lev_money_long', 'pct_of_oi_lev_money_short', 'pct_of_oi_lev_money_spread',
  'pct_of_oi_other_rept_long', 'pct_of_oi_other_rept_short', 'pct_of_oi_other_rept_spread',
  'pct_of_oi_tot_rept_short',
  'traders_asset_mgr_spread', 'traders_lev_money_spread', 'traders_other_rept_short', 'traders_other_rept_spread',
  'conc_gross_le_4_tdr_long', 'conc_gross_le_4_tdr_short', 'conc_gross_le_8_tdr_long', 'conc_gross_le_8_tdr_short',
]);
const NOT_IN_API = new Set(['As_of_Date_In_Form_YYMMDD', 'CFTC_Contract_Market_Code_Quotes', 'CFTC_Market_Code_Quotes', 'CFTC_Commodity_Code_Quotes']);

export function asApiRow(csvRecord: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [column, padded] of Object.entries(csvRecord)) {
    if (NOT_IN_API.has(column)) continue;
    const value = padded.trim();
    if (value === '.') continue;
    let name = column.toLowerCase().replace(/-/g, '_');
    if (name.endsWith('_all') && API_NAMES_WITHOUT_ALL.has(name.slice(0, -4))) name = name.slice(0, -4);
    out[name] = column === 'Report_Date_as_YYYY-MM-DD' ? `${value}T00:00:00.000` : value;
  }
  return out;
}

/** The real 2022 sample, and its rows renamed to the API's field names. */
export const SAMPLE_PATH = join(__dirname, '../fixtures/cot/cftc_tff_futures_only_2022_sample.csv');

export function sampleApiRows(): Record<string, string>[] {
  const records = parse(readFileSync(SAMPLE_PATH), { columns: true, bom: true }) as Record<string, string>[];
  return records.map(asApiRow);
}
