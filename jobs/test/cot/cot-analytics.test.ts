import {
  alertLevelOf,
  computeCotAnalytics,
  COT_MIN_REPORTS_TO_RANK,
  cotIndex,
  percentileRank,
  divergenceOf,
  netPercent,
  type CotAnalyticsInput,
} from '../../src/cot/cot-analytics';
import { parseTffCsv } from '../../src/cot/cftc.parse';
import { SAMPLE_PATH } from './api-rows';
import { readFileSync } from 'node:fs';

const OI = 10000;
let day = 0;
/** A weekly report whose leveraged and asset-manager net percents are `lev` and `am` (2 decimals). */
function report(lev: number, am = 0, extra: Partial<CotAnalyticsInput> = {}): CotAnalyticsInput {
  const date = new Date(Date.UTC(2020, 0, 7) + 7 * 86400000 * day++).toISOString().slice(0, 10);
  const side = (net: number) => ({ long: Math.max(0, Math.round(net * 100)), short: Math.max(0, -Math.round(net * 100)) });
  const l = side(lev);
  const a = side(am);
  return {
    reportDate: date,
    openInterest: OI,
    dealerLong: 0,
    dealerShort: 0,
    assetManagerLong: a.long,
    assetManagerShort: a.short,
    leveragedLong: l.long,
    leveragedShort: l.short,
    otherLong: 0,
    otherShort: 0,
    nonReportableLong: 0,
    nonReportableShort: 0,
    ...extra,
  };
}
const series = (levs: number[], ams: number[] = []) => levs.map((v, i) => report(v, ams[i] ?? 0));
const last = <T>(list: T[]) => list[list.length - 1];

describe('cot analytics: net percent', () => {
  it('is (long - short) / open interest x 100, rounded half away from zero to 2 decimals', () => {
    expect(netPercent(1, 0, 3)).toBe('33.33');
    expect(netPercent(2, 0, 3)).toBe('66.67');
    expect(netPercent(1, 0, 800)).toBe('0.13');
    expect(netPercent(0, 1, 800)).toBe('-0.13');
    expect(netPercent(5, 5, 800)).toBe('0.00');
  });

  it('is null without open interest', () => {
    expect(netPercent(0, 0, 0)).toBeNull();
  });

  it('sums dealer and asset manager for commercial before rounding once', () => {
    const [point] = computeCotAnalytics([report(0, 0, { openInterest: 3, dealerLong: 1, assetManagerLong: 1, assetManagerShort: 0 })]);
    expect(point.netPercent.dealer).toBe('33.33');
    expect(point.netPercent.assetManager).toBe('33.33');
    expect(point.netPercent.commercial).toBe('66.67');
  });

  it('matches the hand-computed values of Euro FX on 2022-08-16 (real sample)', () => {
    const rows = parseTffCsv(readFileSync(SAMPLE_PATH)).filter((r) => r.cftcCode === '099741');
    const points = computeCotAnalytics(rows.map((r) => ({ reportDate: r.reportDate, ...r.position })));
    const point = points.find((p) => p.reportDate === '2022-08-16')!;
    // (70967 - 93137) / 698570 x 100 = -3.1736..., (384008 - 177485) / 698570 x 100 = 29.5637...
    expect(point.netPercent).toEqual({
      leveraged: '-3.17',
      assetManager: '29.56',
      dealer: '-34.12',
      other: '4.60',
      nonReportable: '3.13',
      commercial: '-4.56',
    });
    expect(point.reportsInHistory).toBe(33);
    expect(point.provisional).toBe(false);
  });
});

describe('cot analytics: percentile rank and COT index', () => {
  it('counts ties as at-or-below: 100 x (window values <= current) / window size', () => {
    // Values in hundredths of a percent, as the analytics compare them.
    expect([percentileRank(3000, [3000]), percentileRank(2000, [3000, 2000]), percentileRank(2000, [3000, 2000, 2000])]).toEqual(['100.00', '50.00', '66.67']);
    expect(percentileRank(2000, [1000, 2000, 2000, 2000])).toBe('100.00');
  });

  it('gives a flat series the top rank and a COT index of 50', () => {
    const points = computeCotAnalytics(series([5, 5, 5, 5, 5, 5, 5, 5, 5, 5])).slice(COT_MIN_REPORTS_TO_RANK - 1);
    expect(points.every((p) => p.percentileRank.leveraged === '100.00')).toBe(true);
    expect(points.every((p) => p.cotIndex.leveraged === '50.00')).toBe(true);
  });

  it('is 100 x (current - min) / (max - min) for the COT index', () => {
    expect(cotIndex(0, [-1000, 3000, 0])).toBe('25.00');
    expect(cotIndex(3000, [-1000, 3000])).toBe('100.00');
    const filler = Array.from({ length: COT_MIN_REPORTS_TO_RANK - 3 }, () => 0);
    expect(last(computeCotAnalytics(series([...filler, -10, 30, 0]))).cotIndex.leveraged).toBe('25.00');
  });

  it('looks back only `lookback` reports: older values fall out of the window', () => {
    const values = [100, 100, 100, 100, ...Array.from({ length: 26 }, (_, i) => i + 1)];
    const short = last(computeCotAnalytics(series(values), { lookback: 26 }));
    expect(short).toMatchObject({ windowSize: 26, lookback: 26 });
    expect(short.percentileRank.leveraged).toBe('100.00');
    expect(short.cotIndex.leveraged).toBe('100.00');
    const long = last(computeCotAnalytics(series(values), { lookback: 52 }));
    expect(long.windowSize).toBe(30);
    expect(long.percentileRank.leveraged).toBe('86.67');
    expect(long.cotIndex.leveraged).toBe('25.25');
  });

  it('marks fewer than 26 reports of history provisional', () => {
    const points = computeCotAnalytics(series(Array.from({ length: 27 }, (_, i) => i % 7)));
    expect(points[0]).toMatchObject({ provisional: true, reportsInHistory: 1 });
    expect(points[24]).toMatchObject({ provisional: true, reportsInHistory: 25 });
    expect(points[25]).toMatchObject({ provisional: false, reportsInHistory: 26 });
  });

  it('does not rank a history too short to rank: percentile, index and extremes null until COT_MIN_REPORTS_TO_RANK reports', () => {
    const [point] = computeCotAnalytics(series([-42]));
    expect(point.percentileRank).toEqual({ leveraged: null, commercial: null, assetManager: null });
    expect(point.cotIndex.leveraged).toBeNull();
    expect(point.extremes.leveraged).toBeNull();
    expect(point.netPercent.leveraged).not.toBeNull();
    const points = computeCotAnalytics(series(Array.from({ length: COT_MIN_REPORTS_TO_RANK }, (_, i) => i)));
    expect(points.map((p) => p.percentileRank.leveraged !== null)).toEqual(points.map((_, i) => i + 1 >= COT_MIN_REPORTS_TO_RANK));
    expect(last(points).percentileRank.leveraged).toBe('100.00');
  });

  it('orders the input by date whatever order it comes in', () => {
    const ordered = series([1, 2, 3]);
    expect(computeCotAnalytics([...ordered].reverse()).map((p) => p.reportDate)).toEqual(ordered.map((r) => r.reportDate));
  });
});

describe('cot analytics: extremes and divergence', () => {
  it('flags a long extreme at a percentile of 90 and a short one at 10, and neither in between', () => {
    expect(last(computeCotAnalytics(series([1, 2, 3, 4, 5, 6, 7, 8, 10, 9]))).extremes.leveraged).toBe('long');
    expect(last(computeCotAnalytics(series([2, 3, 4, 5, 6, 7, 8, 9, 10, 1]))).extremes.leveraged).toBe('short');
    const middle = last(computeCotAnalytics(series([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5.5])));
    expect(middle.percentileRank.leveraged).toBe('54.55');
    expect(middle.extremes.leveraged).toBeNull();
  });

  it('names leveraged crowded long against asset managers at a short extreme, at the high level', () => {
    const levs = Array.from({ length: 10 }, (_, i) => i);
    const ams = Array.from({ length: 10 }, (_, i) => 10 - i);
    const point = last(computeCotAnalytics(series(levs, ams)));
    expect(point.percentileRank).toMatchObject({ leveraged: '100.00', assetManager: '10.00' });
    expect(point).toMatchObject({
      divergenceScore: '90.00',
      divergenceType: 'leveraged_crowded_long_asset_managers_short',
      alertLevel: 'high',
      extremes: { leveraged: 'long', assetManager: 'short' },
    });
  });

  it('names the other patterns', () => {
    expect(divergenceOf('5.00', '95.00')).toEqual({ score: '-90.00', type: 'leveraged_crowded_short_asset_managers_long' });
    expect(divergenceOf('95.00', '92.00')).toEqual({ score: '3.00', type: 'both_crowded_long' });
    expect(divergenceOf('8.00', '2.00')).toEqual({ score: '6.00', type: 'both_crowded_short' });
    expect(divergenceOf('70.00', '30.00')).toEqual({ score: '40.00', type: 'leveraged_longer' });
    expect(divergenceOf('30.00', '70.00')).toEqual({ score: '-40.00', type: 'leveraged_shorter' });
    expect(divergenceOf('50.00', '30.01')).toEqual({ score: '19.99', type: 'aligned' });
    expect(divergenceOf(null, '30.00')).toEqual({ score: null, type: null });
  });

  it('grades |divergenceScore| into none < 40 <= low < 60 <= medium < 80 <= high', () => {
    expect(['39.99', '40.00', '59.99', '60.00', '79.99', '80.00', '-80.00', '-45.00'].map(alertLevelOf)).toEqual([
      'none', 'low', 'low', 'medium', 'medium', 'high', 'high', 'low',
    ]);
    expect(alertLevelOf(null)).toBe('none');
  });

  it('records new extremes and divergence changes against the previous report, not on provisional ones', () => {
    // 30 reports swinging between 10 and 30, one in the middle (20), then a jump of leveraged to a new high.
    const levs = [...Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 10 : 30)), 20, 50];
    const points = computeCotAnalytics(series(levs, levs.map(() => 0)));
    expect(points.slice(0, 25).every((p) => p.events.length === 0)).toBe(true);
    const jump = last(points);
    expect(jump.extremes.leveraged).toBe('long');
    expect(jump.events).toContainEqual({ type: 'extreme', group: 'leveraged', side: 'long', previousSide: null, percentileRank: '100.00' });
    // Asset managers sit flat (rank 100): leveraged ranks 16 of 31 = 51.61, so the score moves from -48.39 (low) to 0 (none).
    const previous = points[points.length - 2];
    expect(previous).toMatchObject({ divergenceScore: '-48.39', alertLevel: 'low', divergenceType: 'leveraged_shorter' });
    expect(jump).toMatchObject({ divergenceScore: '0.00', alertLevel: 'none', divergenceType: 'both_crowded_long' });
    expect(previous.events).toContainEqual(expect.objectContaining({ type: 'divergence', alertLevel: 'low' }));
    expect(jump.events).toContainEqual(
      expect.objectContaining({ type: 'divergence', alertLevel: jump.alertLevel, previousAlertLevel: previous.alertLevel }),
    );
  });

  it('rejects a lookback that is not a positive whole number', () => {
    expect(() => computeCotAnalytics(series([1]), { lookback: 0 })).toThrow(RangeError);
  });
});
