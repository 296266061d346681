import { loadLockupsConfig } from '../../src/lockups/lockups.config';
import { DEFAULT_LOCKUP_RISK_WEIGHTS, highRiskSectorWord, scoreLockup, topLockupFactors, topTierUnderwriter, type LockupRiskInput } from '../../src/lockups/lockups-risk';
import { ConfigError } from '../../src/config/env';

// The risk score on hand-computed events (pure). Default weights: vcBacked 20, floatUnlock 25,
// runUp 20, volume 10, sector 15, underwriterTier 10 (sum 100).

const base: LockupRiskInput = {
  vcBacked: true,
  sharesLockedUp: '30000000',
  totalSharesOutstanding: '100000000',
  runUp: 0.5,
  avgVolumeRatio: 0.625,
  industry: 'Services-Prepackaged Software',
  underwriters: ['Morgan Stanley & Co. LLC', 'Goldman Sachs & Co. LLC'],
};

describe('lockups risk score', () => {
  it('sums the named factors: each weight x value, rounded to 0.1', () => {
    const { score, factors } = scoreLockup(base);
    // vc 20 x 1 = 20; float 30 % / 50 % = 0.6 -> 25 x 0.6 = 15; run-up +50 % / 100 % = 0.5 -> 20 x 0.5 = 10;
    // volume (0.625 - 0.25) / 0.75 = 0.5 -> 10 x 0.5 = 5; software -> 15; Morgan Stanley -> 10. Total 75.
    expect(factors.map((f) => [f.name, f.points, f.value, f.known])).toEqual([
      ['vcBacked', 20, 1, true],
      ['floatUnlock', 15, 0.6, true],
      ['runUp', 10, 0.5, true],
      ['volume', 5, 0.5, true],
      ['sector', 15, 1, true],
      ['underwriterTier', 10, 1, true],
    ]);
    expect(score).toBe(75);
    expect(factors[1].input).toBe('30.0 % of the shares outstanding unlock');
    expect(factors[2].input).toBe('+50.0 % since the IPO price');
    expect(factors[0].source).toBe('Field & Hanka (2001); Brav & Gompers (2003)');
    expect(factors[5].input).toBe('top-tier bookrunner: Morgan Stanley & Co. LLC');
    expect(topLockupFactors(factors).map((f) => f.name)).toEqual(['vcBacked', 'floatUnlock']);
  });

  it('caps values at 1 and floors them at 0 (a fall since the IPO, thin volume, half the float or more)', () => {
    const { score, factors } = scoreLockup({ ...base, vcBacked: false, sharesLockedUp: '80000000', runUp: -0.2, avgVolumeRatio: 0.1, industry: 'Retail-Eating Places', underwriters: ['Roth Capital Partners'] });
    expect(factors.map((f) => f.points)).toEqual([0, 25, 0, 0, 0, 0]);
    expect(factors[2].input).toBe('−20.0 % since the IPO price');
    expect(factors[5].input).toBe('no top-tier bookrunner (Roth Capital Partners)');
    expect(score).toBe(25);
  });

  it('counts an unknown input as 0 points and says so', () => {
    const { score, factors } = scoreLockup({ vcBacked: null, sharesLockedUp: null, totalSharesOutstanding: '100', runUp: null, avgVolumeRatio: null, industry: null, underwriters: [] });
    expect(score).toBe(0);
    expect(factors.every((f) => !f.known && f.points === 0 && f.input === null)).toBe(true);
    expect(topLockupFactors(factors)).toEqual([]);
  });

  it('uses the configured weights (a partial JSON keeps the other defaults) and refuses weights not summing to 100', () => {
    const config = loadLockupsConfig({ LOCKUP_RISK_WEIGHTS: '{"vcBacked":30,"volume":0}' });
    expect(config.LOCKUP_RISK_WEIGHTS).toEqual({ ...DEFAULT_LOCKUP_RISK_WEIGHTS, vcBacked: 30, volume: 0 });
    // 30 + 15 + 10 + 0 + 15 + 10 = 80 with 30 x 1, 25 x 0.6, 20 x 0.5, 0, 15, 10.
    expect(scoreLockup(base, config.LOCKUP_RISK_WEIGHTS).score).toBe(80);
    expect(loadLockupsConfig({}).LOCKUP_RISK_WEIGHTS).toEqual(DEFAULT_LOCKUP_RISK_WEIGHTS);
    expect(() => loadLockupsConfig({ LOCKUP_RISK_WEIGHTS: '{"vcBacked":50}' })).toThrow(/LOCKUP_RISK_WEIGHTS: the six weights must sum to 100 \(they sum to 130\)/);
    expect(() => loadLockupsConfig({ LOCKUP_RISK_WEIGHTS: '{"luck":5}' })).toThrow(ConfigError);
    expect(() => loadLockupsConfig({ LOCKUP_RISK_WEIGHTS: 'not json' })).toThrow(/must be a JSON object/);
    expect(() => loadLockupsConfig({ LOCKUPS_SOURCE: 'live' })).toThrow(/SEC_USER_AGENT: required when LOCKUPS_SOURCE is live/);
  });

  it('reads sectors and underwriter tiers as words', () => {
    expect(highRiskSectorWord('Biological Products, Except Diagnostic')).toBe('biological');
    expect(highRiskSectorWord('Pharmaceutical Preparations')).toBe('pharmaceutical');
    expect(highRiskSectorWord('Hotels & Motels')).toBeNull();
    expect(topTierUnderwriter(['J.P. Morgan Securities LLC'])).toBe('J.P. Morgan Securities LLC');
    expect(topTierUnderwriter(['BofA Securities, Inc.'])).toBe('BofA Securities, Inc.');
    expect(topTierUnderwriter(['Citigroup Global Markets Inc.'])).toBe('Citigroup Global Markets Inc.');
    // "ubs" inside another word is not UBS.
    expect(topTierUnderwriter(['Rubström Capital'])).toBeNull();
  });
});
