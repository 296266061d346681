import { bandOf, chartDomain, linePath, linearScale, niceDomain, niceStep, pointX, ticks, valueExtent } from './cot-scale';

describe('chart scaling', () => {
  it('finds min and max, skipping nulls and non-finite values', () => {
    expect(valueExtent([3, null, -7.5, 12, Number.NaN, undefined])).toEqual({ min: -7.5, max: 12 });
  });

  it('has no extent for an empty or all-null series', () => {
    expect(valueExtent([])).toBeNull();
    expect(valueExtent([null, null])).toBeNull();
    expect(chartDomain([null])).toEqual([0, 1]);
  });

  it('widens a flat series around its value so it is drawn mid-height', () => {
    expect(chartDomain([2_000_000, 2_000_000])).toEqual([1_800_000, 2_200_000]);
    expect(chartDomain([-5, -5])).toEqual([-5.5, -4.5]);
    expect(chartDomain([0, 0, 0])).toEqual([-1, 1]);
    const [lo, hi] = chartDomain([42]);
    const y = linearScale([lo, hi], [200, 0]);
    expect(y(42)).toBe(100);
  });

  it('includes zero on request (bars and net positions start from zero)', () => {
    expect(chartDomain([120, 300])).toEqual([120, 300]);
    expect(chartDomain([120, 300], { includeZero: true })).toEqual([0, 300]);
    expect(chartDomain([-40, -10], { includeZero: true })).toEqual([-40, 0]);
  });

  it('maps the domain onto an inverted SVG range', () => {
    const y = linearScale([0, 100], [230, 12]);
    expect(y(0)).toBe(230);
    expect(y(100)).toBe(12);
    expect(y(50)).toBe(121);
    expect(y(90)).toBeCloseTo(33.8);
  });

  it('picks 1/2/2.5/5 steps and extends the domain to whole steps', () => {
    expect(niceStep(100, 5)).toBe(20);
    expect(niceStep(2_346_224, 5)).toBe(500_000);
    expect(niceDomain([-598_669, 443_000])).toEqual([-750_000, 500_000]);
    expect(ticks([0, 100])).toEqual([0, 20, 40, 60, 80, 100]);
    expect(ticks([-0.3, 0.3], 3)).toEqual([-0.2, 0, 0.2]);
  });

  it('spaces points evenly and centres a single point', () => {
    expect(pointX(0, 33, 72, 704)).toBe(72);
    expect(pointX(32, 33, 72, 704)).toBe(704);
    expect(pointX(16, 33, 72, 704)).toBe(388);
    expect(pointX(0, 1, 72, 704)).toBe(388);
  });

  it('gives each bar its slot with a gap', () => {
    expect(bandOf(0, 4, 0, 400)).toEqual({ x: 10, width: 80 });
    expect(bandOf(3, 4, 0, 400)).toEqual({ x: 310, width: 80 });
  });

  it('breaks a line at nulls instead of dropping to zero', () => {
    expect(linePath([{ x: 0, y: 10 }, { x: 1, y: 20 }, { x: 2, y: null }, { x: 3, y: 5 }, { x: 4, y: 6.123 }])).toBe('M0 10L1 20M3 5L4 6.12');
    expect(linePath([])).toBe('');
  });
});
