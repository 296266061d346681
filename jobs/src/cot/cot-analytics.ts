import Decimal from 'decimal.js';
import {
  COT_EXTREME_LONG_AT,
  COT_EXTREME_SHORT_AT,
  COT_MIN_REPORTS_TO_RANK,
  COT_PROVISIONAL_BELOW,
  RANKED_GROUPS,
  type AlertLevel,
  type DivergenceType,
  type ExtremeSide,
  type NetGroup,
  type RankedGroup,
} from './cot.shapes';

/**
 * COT analytics, pure. The exact definitions are in docs/cot.md; keep the two in step.
 *
 * Net percents are computed with decimal.js and rounded half away from zero to 2 decimals; the
 * percentile rank and COT index compare those rounded net percents (as whole hundredths, so the
 * ratios are exact integer arithmetic, rounded half up), so anyone recomputing from the stored net
 * percents gets the same ranks.
 */

/** The lookbacks (in reports) a caller may ask for. */
export const COT_LOOKBACKS = [26, 52, 156] as const;
export type CotLookback = (typeof COT_LOOKBACKS)[number];
export const DEFAULT_COT_LOOKBACK: CotLookback = 156;
/** |divergenceScore| thresholds of the alert levels. */
export const COT_DIVERGENCE_LEVELS = { high: 80, medium: 60, low: 40 } as const;

// The groups, sides, levels, divergence types and thresholds the api answers with: the HTTP shapes'.
export {
  COT_EXTREME_LONG_AT,
  COT_EXTREME_SHORT_AT,
  COT_MIN_REPORTS_TO_RANK,
  COT_PROVISIONAL_BELOW,
  DIVERGENCE_TYPES,
  NET_GROUPS,
  RANKED_GROUPS,
  type AlertLevel,
  type DivergenceType,
  type ExtremeSide,
  type NetGroup,
  type RankedGroup,
} from './cot.shapes';

/** One report of one instrument: the reported long and short contracts per group. */
export interface CotAnalyticsInput {
  reportDate: string;
  openInterest: number;
  dealerLong: number;
  dealerShort: number;
  assetManagerLong: number;
  assetManagerShort: number;
  leveragedLong: number;
  leveragedShort: number;
  otherLong: number;
  otherShort: number;
  nonReportableLong: number;
  nonReportableShort: number;
}

export type CotAlertEvent =
  | { type: 'extreme'; group: RankedGroup; side: ExtremeSide; previousSide: ExtremeSide | null; percentileRank: string }
  | {
      type: 'divergence';
      divergenceType: DivergenceType | null;
      alertLevel: AlertLevel;
      previousDivergenceType: DivergenceType | null;
      previousAlertLevel: AlertLevel;
      divergenceScore: string | null;
    };

export interface CotAnalyticsPoint {
  reportDate: string;
  /** Net (long - short) as percent of open interest, 2 decimals; null when open interest is 0. */
  netPercent: Record<NetGroup, string | null>;
  percentileRank: Record<RankedGroup, string | null>;
  cotIndex: Record<RankedGroup, string | null>;
  extremes: Record<RankedGroup, ExtremeSide | null>;
  divergenceScore: string | null;
  divergenceType: DivergenceType | null;
  alertLevel: AlertLevel;
  lookback: number;
  /** Reports (with a value) in the window the ranks were computed over. */
  windowSize: number;
  /** Reports of this instrument up to and including this one. */
  reportsInHistory: number;
  provisional: boolean;
  /** Changes since the previous report, for alerts: empty on the first and on provisional reports. */
  events: CotAlertEvent[];
}

const HUNDRED = new Decimal(100);

function round2(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** (long - short) / open interest x 100, rounded to 2 decimals; null when open interest is not positive. */
export function netPercent(long: number, short: number, openInterest: number): string | null {
  if (!(openInterest > 0)) return null;
  return round2(new Decimal(long).minus(short).div(openInterest).times(HUNDRED)).toFixed(2);
}

export function netPercents(row: CotAnalyticsInput): Record<NetGroup, string | null> {
  const oi = row.openInterest;
  return {
    dealer: netPercent(row.dealerLong, row.dealerShort, oi),
    assetManager: netPercent(row.assetManagerLong, row.assetManagerShort, oi),
    leveraged: netPercent(row.leveragedLong, row.leveragedShort, oi),
    other: netPercent(row.otherLong, row.otherShort, oi),
    nonReportable: netPercent(row.nonReportableLong, row.nonReportableShort, oi),
    // Commercial = dealer + asset manager, summed before dividing and rounding once.
    commercial: netPercent(row.dealerLong + row.assetManagerLong, row.dealerShort + row.assetManagerShort, oi),
  };
}

/** A 2-decimal string as a whole number of hundredths: exact, and fast to compare. */
function hundredths(value: string): number {
  return Math.round(Number(value) * 100);
}

/** a / b x 100 in hundredths, rounded half up, for whole a >= 0 and b > 0: exact integer arithmetic. */
function percentHundredths(a: number, b: number): number {
  return Math.floor((20000 * a + b) / (2 * b));
}

function formatHundredths(h: number): string {
  const sign = h < 0 ? '-' : '';
  const abs = Math.abs(h);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 100 x (values in the window <= current) / (values in the window), 2 decimals. Values in hundredths. */
export function percentileRank(current: number, window: number[]): string {
  let atOrBelow = 0;
  for (const v of window) if (v <= current) atOrBelow += 1;
  return formatHundredths(percentHundredths(atOrBelow, window.length));
}

/** 100 x (current - min) / (max - min) over the window, 2 decimals; 50 when max = min. Values in hundredths. */
export function cotIndex(current: number, window: number[]): string {
  let min = Infinity;
  let max = -Infinity;
  for (const v of window) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (max === min) return '50.00';
  return formatHundredths(percentHundredths(current - min, max - min));
}

export function extremeOf(percentile: string | null): ExtremeSide | null {
  if (percentile === null) return null;
  const p = hundredths(percentile);
  if (p >= COT_EXTREME_LONG_AT * 100) return 'long';
  if (p <= COT_EXTREME_SHORT_AT * 100) return 'short';
  return null;
}

/**
 * The side of a stored extreme: a stored row keeps whether a group was at an extreme
 * (is_*_extreme) and its percentile rank; at or above the long threshold it is long, else short.
 */
export function storedExtremeSide(isExtreme: boolean, percentile: string | null): ExtremeSide | null {
  if (!isExtreme || percentile === null) return null;
  return Number(percentile) >= COT_EXTREME_LONG_AT ? 'long' : 'short';
}

export function alertLevelOf(score: string | null): AlertLevel {
  if (score === null) return 'none';
  const size = Math.abs(hundredths(score));
  if (size >= COT_DIVERGENCE_LEVELS.high * 100) return 'high';
  if (size >= COT_DIVERGENCE_LEVELS.medium * 100) return 'medium';
  if (size >= COT_DIVERGENCE_LEVELS.low * 100) return 'low';
  return 'none';
}

/** Names the pattern between leveraged funds and asset managers from their percentile ranks. */
export function divergenceOf(leveraged: string | null, assetManager: string | null): { score: string | null; type: DivergenceType | null } {
  if (leveraged === null || assetManager === null) return { score: null, type: null };
  const score = hundredths(leveraged) - hundredths(assetManager);
  const lev = extremeOf(leveraged);
  const am = extremeOf(assetManager);
  let type: DivergenceType;
  if (lev === 'long' && am === 'short') type = 'leveraged_crowded_long_asset_managers_short';
  else if (lev === 'short' && am === 'long') type = 'leveraged_crowded_short_asset_managers_long';
  else if (lev === 'long' && am === 'long') type = 'both_crowded_long';
  else if (lev === 'short' && am === 'short') type = 'both_crowded_short';
  else if (score >= COT_DIVERGENCE_LEVELS.low * 100) type = 'leveraged_longer';
  else if (score <= -COT_DIVERGENCE_LEVELS.low * 100) type = 'leveraged_shorter';
  else type = 'aligned';
  return { score: formatHundredths(score), type };
}

function eventsBetween(previous: CotAnalyticsPoint | undefined, current: Omit<CotAnalyticsPoint, 'events'>): CotAlertEvent[] {
  if (!previous || current.provisional) return [];
  const events: CotAlertEvent[] = [];
  for (const group of RANKED_GROUPS) {
    const side = current.extremes[group];
    if (side !== null && side !== previous.extremes[group]) {
      events.push({ type: 'extreme', group, side, previousSide: previous.extremes[group], percentileRank: current.percentileRank[group]! });
    }
  }
  const levelChanged = current.alertLevel !== previous.alertLevel;
  const typeChanged = current.divergenceType !== previous.divergenceType && current.alertLevel !== 'none';
  if (levelChanged || typeChanged) {
    events.push({
      type: 'divergence',
      divergenceType: current.divergenceType,
      alertLevel: current.alertLevel,
      previousDivergenceType: previous.divergenceType,
      previousAlertLevel: previous.alertLevel,
      divergenceScore: current.divergenceScore,
    });
  }
  return events;
}

/**
 * Analytics for every report of one instrument. `series` may come in any order; points come back
 * oldest first. The window of a report is that report and the previous ones, up to `lookback`.
 */
export function computeCotAnalytics(series: CotAnalyticsInput[], options: { lookback?: number } = {}): CotAnalyticsPoint[] {
  const lookback = options.lookback ?? DEFAULT_COT_LOOKBACK;
  if (!Number.isInteger(lookback) || lookback < 1) throw new RangeError(`lookback must be a positive whole number, got ${lookback}`);
  const sorted = [...series].sort((a, b) => (a.reportDate < b.reportDate ? -1 : a.reportDate > b.reportDate ? 1 : 0));
  const nets = sorted.map(netPercents);
  const values = nets.map((n) => ({
    leveraged: n.leveraged === null ? null : hundredths(n.leveraged),
    commercial: n.commercial === null ? null : hundredths(n.commercial),
    assetManager: n.assetManager === null ? null : hundredths(n.assetManager),
  }));
  const points: CotAnalyticsPoint[] = [];
  sorted.forEach((row, i) => {
    const from = Math.max(0, i - lookback + 1);
    const percentile = {} as Record<RankedGroup, string | null>;
    const index = {} as Record<RankedGroup, string | null>;
    const extremes = {} as Record<RankedGroup, ExtremeSide | null>;
    let windowSize = 0;
    for (const group of RANKED_GROUPS) {
      const current = values[i][group];
      const window: number[] = [];
      for (let j = from; j <= i; j++) {
        const v = values[j][group];
        if (v !== null) window.push(v);
      }
      windowSize = Math.max(windowSize, window.length);
      const ranked = current !== null && window.length >= COT_MIN_REPORTS_TO_RANK;
      percentile[group] = ranked ? percentileRank(current, window) : null;
      index[group] = ranked ? cotIndex(current, window) : null;
      extremes[group] = extremeOf(percentile[group]);
    }
    const divergence = divergenceOf(percentile.leveraged, percentile.assetManager);
    const point = {
      reportDate: row.reportDate,
      netPercent: nets[i],
      percentileRank: percentile,
      cotIndex: index,
      extremes,
      divergenceScore: divergence.score,
      divergenceType: divergence.type,
      alertLevel: alertLevelOf(divergence.score),
      lookback,
      windowSize,
      reportsInHistory: i + 1,
      provisional: i + 1 < COT_PROVISIONAL_BELOW,
    };
    points.push({ ...point, events: eventsBetween(points[i - 1], point) });
  });
  return points;
}
