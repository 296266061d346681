import { HEAT_LEGEND, HEAT_TONES, percentileHeat } from './cot-heat';

describe('percentile heat colours', () => {
  it('colours 0 as the strongest short step, a short extreme', () => {
    expect(percentileHeat(0)).toEqual({ tone: 'short-3', extreme: 'short', label: '0', description: 'short extreme' });
  });

  it('counts 10 as a short extreme and anything above it as not extreme', () => {
    expect(percentileHeat(10)).toMatchObject({ tone: 'short-3', extreme: 'short' });
    expect(percentileHeat(10.01)).toMatchObject({ tone: 'short-2', extreme: null });
  });

  it('leaves 50 neutral', () => {
    expect(percentileHeat(50)).toEqual({ tone: 'neutral', extreme: null, label: '50', description: 'neutral' });
  });

  it('counts 90 as a long extreme and anything below it as not extreme', () => {
    expect(percentileHeat(90)).toMatchObject({ tone: 'long-3', extreme: 'long', description: 'long extreme' });
    expect(percentileHeat(89.99)).toMatchObject({ tone: 'long-2', extreme: null });
  });

  it('colours 100 as the strongest long step, a long extreme', () => {
    expect(percentileHeat(100)).toEqual({ tone: 'long-3', extreme: 'long', label: '100', description: 'long extreme' });
  });

  it('gives null (analytics not run) no colour and a dash', () => {
    expect(percentileHeat(null)).toEqual({ tone: 'none', extreme: null, label: '—', description: 'not computed' });
  });

  it('prints the number with two decimals when it has a fraction', () => {
    expect(percentileHeat(90.91).label).toBe('90.91');
    expect(percentileHeat(3.03).label).toBe('3.03');
  });

  it('is symmetric: p and 100 − p sit on mirrored steps', () => {
    const mirror = (tone: string): string => tone.replace('short', 'x').replace('long', 'short').replace('x', 'long');
    for (const p of [0, 5, 10, 10.5, 20, 25, 30, 44.9, 45, 50]) {
      expect(percentileHeat(100 - p).tone).toBe(mirror(percentileHeat(p).tone));
    }
  });

  it('steps monotonically from short extreme to long extreme across 0..100', () => {
    const order = (p: number): number => HEAT_TONES.indexOf(percentileHeat(p).tone as (typeof HEAT_TONES)[number]);
    const steps = Array.from({ length: 101 }, (_, p) => order(p));
    expect(steps.every((step, i) => i === 0 || step >= (steps[i - 1] ?? 0))).toBe(true);
    expect(new Set(steps).size).toBe(HEAT_TONES.length);
    expect(HEAT_LEGEND.map((step) => step.tone)).toEqual([...HEAT_TONES]);
  });
});
