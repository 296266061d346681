import {
  yieldAlertMessage,
  aprBaseline,
  aprDisagrees,
  alertValue,
  describeYieldAlert,
  feeApr,
  hysteresisMargin,
  meanSigma,
  spikeOf,
  stepAlert,
  tvlDropPct,
  tvlVariation,
  volumeToTvl,
  windowFees,
  yieldScore,
  type AlertState,
  type YieldDay,
} from '../../src/yields/yields-analytics';
import { snapshotValues, trackedSet } from '../../src/yields/yields-ingest';
import { parseDefiLlamaPool, type DefiLlamaPool } from '../../src/yields/yields.parse';
import { openApiExamplePool } from '../../src/yields/yields-replay';

// The definitions of docs/yields.md on crafted series: fee APR over 24 h / 7 d / 30 d, vtr, the APR
// cross-check, the 30-day baseline and spikes, the score and its components, and the alert state
// machine (threshold, hysteresis, cooldown) with a fixed clock.

const DAY = 86_400;
const now = new Date('2025-06-10T12:00:00Z');
const today = Date.parse('2025-06-10T00:00:00Z') / 1000;

/** `n` complete days before today, oldest first, each with the given fees and TVL. */
const days = (n: number, fees: (i: number) => number, tvl: (i: number) => number = () => 1_000_000): YieldDay[] =>
  Array.from({ length: n }, (_, k) => ({ date: today - (n - k) * DAY, feesUsd: fees(k), tvlUsd: tvl(k), volumeUsd: fees(k) / 0.003 }));

describe('fee APR, vtr and the cross-check', () => {
  it('fee APR = fees over the window x 365 / days / average TVL x 100', () => {
    expect(feeApr(1000, 1, 1_000_000)).toBeCloseTo(36.5, 10);
    expect(feeApr(7000, 7, 1_000_000)).toBeCloseTo(36.5, 10);
    expect(feeApr(1000, 1, 0)).toBeNull();
    expect(feeApr(null, 1, 1)).toBeNull();
  });

  it('uses the last complete UTC days, with the average TVL of the window', () => {
    // 30 days: fees 100 a day on 1 M for the first 23, then 1,000 a day on 2 M for the last 7.
    const series = days(30, (i) => (i < 23 ? 100 : 1000), (i) => (i < 23 ? 1_000_000 : 2_000_000));
    // Today's partial day is left out.
    series.push({ date: today, feesUsd: 1e9, tvlUsd: 1, volumeUsd: 1 });
    expect(windowFees(series, 1, now)?.apr).toBeCloseTo((1000 * 365) / 2_000_000 * 100, 8); // 18.25 %
    expect(windowFees(series, 7, now)?.apr).toBeCloseTo(18.25, 8);
    const thirty = windowFees(series, 30, now);
    const fees = 23 * 100 + 7 * 1000;
    const avgTvl = (23 * 1_000_000 + 7 * 2_000_000) / 30;
    expect(thirty).toMatchObject({ feesUsd: fees, days: 30, avgTvlUsd: avgTvl });
    expect(thirty?.volumeUsd).toBeCloseTo(fees / 0.003, 4);
    expect(thirty?.apr).toBeCloseTo(((fees * 365) / 30 / avgTvl) * 100, 8);
  });

  it('needs enough days in a window, and skips days without fees or TVL', () => {
    const four = days(4, () => 100);
    expect(windowFees(four, 7, now)).toBeNull(); // under 5 of 7
    expect(windowFees(four, 1, now)?.apr).toBeCloseTo(3.65, 8);
    const gaps = days(30, (i) => (i % 2 ? 100 : Number.NaN));
    expect(windowFees(gaps, 30, now)).toBeNull(); // 15 of 30 < 20
  });

  it('vtr = 24 h volume / TVL', () => {
    expect(volumeToTvl(250_000, 1_000_000)).toBe(0.25);
    expect(volumeToTvl(1, 0)).toBeNull();
    expect(volumeToTvl(null, 1)).toBeNull();
  });

  it('flags a disagreement only beyond both the absolute and the relative tolerance', () => {
    expect(aprDisagrees(10, 10.9)).toBe(false); // 0.9 point
    expect(aprDisagrees(10, 12)).toBe(false); // 2 points but 16.7 % of 12
    expect(aprDisagrees(10, 14)).toBe(true); // 4 points, 28.6 %
    expect(aprDisagrees(0.5, 1.4)).toBe(false); // 64 % but under 1 point
    expect(aprDisagrees(null, 3)).toBeNull();
  });
});

describe('baseline, spikes and TVL', () => {
  it('uses our daily APRs from 7 days on, else DefiLlama\'s 30-day mean without a sigma', () => {
    expect(meanSigma([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({ mean: 5, sigma: 2, n: 8 });
    expect(aprBaseline([2, 4, 4, 4, 5, 5, 7, 9], 3)).toEqual({ mean: 5, sigma: 2, source: 'own' });
    expect(aprBaseline([5, 5, 5], 2.73539)).toEqual({ mean: 2.73539, sigma: null, source: 'defillama' });
    expect(aprBaseline([], null)).toEqual({ mean: null, sigma: null, source: null });
  });

  it('a spike is the APR above its mean in sigmas and in percent', () => {
    expect(spikeOf(11, 5, 2)).toEqual({ z: 3, pct: 120 });
    expect(spikeOf(4, 5, 0)).toEqual({ z: null, pct: -20 });
    expect(spikeOf(4, 5, null).z).toBeNull();
    expect(spikeOf(null, 5, 1)).toEqual({ z: null, pct: null });
  });

  it('TVL: coefficient of variation over 7+ days, drop from the window\'s peak', () => {
    expect(tvlVariation([100, 100, 100, 100, 100, 100])).toBeNull();
    expect(tvlVariation([90, 110, 90, 110, 90, 110, 90, 110])).toBeCloseTo(0.1, 10);
    expect(tvlDropPct(200, 150)).toBe(25);
    expect(tvlDropPct(200, 250)).toBe(0);
    expect(tvlDropPct(null, 1)).toBeNull();
  });
});

describe('score', () => {
  const full = { feeApr: 10, apyBase: 10, vtr: 0.1, tvlCv: 0.1, mu: 4, sigma: 1, outlier: false, apy: 12, apyReward: 3, apr: 11, mean30d: 10 };

  it('weights named components and explains each', () => {
    const score = yieldScore(full);
    const by = Object.fromEntries(score.components.map((c) => [c.name, c]));
    expect(by.feeApr).toMatchObject({ weight: 25, input: 10, score: 0.5 });
    expect(by.vtr).toMatchObject({ weight: 10, input: 0.1, score: 0.5 });
    expect(by.tvlStability).toMatchObject({ weight: 20, input: 0.1, score: 0.8 });
    expect(by.muSigma).toMatchObject({ weight: 10, input: 0.25, score: 0.8 });
    expect(by.outlier).toMatchObject({ weight: 10, score: 1 });
    expect(by.rewardShare).toMatchObject({ weight: 15, input: 0.25, score: 0.75 });
    expect(by.mean30d).toMatchObject({ weight: 10, input: 0.1, score: 0.9 });
    const expected = 25 * 0.5 + 10 * 0.5 + 20 * 0.8 + 10 * 0.8 + 10 * 1 + 15 * 0.75 + 10 * 0.9;
    expect(score.total).toBeCloseTo(expected, 2);
    expect(score.components.reduce((a, c) => a + c.points, 0)).toBeCloseTo(expected, 1);
    for (const c of score.components) expect(c.explanation.length).toBeGreaterThan(10);
  });

  it('renormalises over the available components, and needs three', () => {
    const partial = yieldScore({ ...full, vtr: null, tvlCv: null, mu: null, sigma: null, outlier: true });
    // feeApr 0.5 (25), outlier 0 (10), rewardShare 0.75 (15), mean30d 0.9 (10) over 60.
    expect(partial.total).toBeCloseTo((100 * (12.5 + 0 + 11.25 + 9)) / 60, 2);
    expect(partial.components.find((c) => c.name === 'vtr')).toMatchObject({ score: null, points: 0 });
    const thin = yieldScore({ feeApr: null, apyBase: null, vtr: null, tvlCv: null, mu: null, sigma: null, outlier: false, apy: null, apyReward: null, apr: null, mean30d: null });
    expect(thin.total).toBeNull();
  });

  it('a pool with only rewards and a high spread scores low', () => {
    const farm = yieldScore({ ...full, feeApr: 0, apyBase: 0, vtr: 0.001, tvlCv: 0.6, mu: 50, sigma: 200, outlier: true, apy: 80, apyReward: 80, apr: 80, mean30d: 20 });
    expect(farm.total).toBeLessThan(10);
  });
});

describe('alert state machine', () => {
  const t0 = new Date('2025-06-10T12:00:00Z');
  const at = (hours: number) => new Date(t0.getTime() + hours * 3_600_000);
  const base: AlertState = { condition: 'greater_than', threshold: 10, margin: hysteresisMargin('apr', 10), armed: true, lastTriggered: null, cooldownMinutes: 120 };

  /** Runs a series of hourly values; answers the hours that fired. */
  function run(values: number[], state: AlertState = base): number[] {
    let s = { ...state };
    const fired: number[] = [];
    values.forEach((v, h) => {
      const step = stepAlert(s, v, at(h));
      if (step.fire) {
        fired.push(h);
        s = { ...s, armed: false, lastTriggered: at(h) };
      } else s = { ...s, armed: step.armed };
    });
    return fired;
  }

  it('margin: 10 % of the threshold, at least the type\'s floor', () => {
    expect(hysteresisMargin('apr', 10)).toBe(1);
    expect(hysteresisMargin('apr', 1)).toBe(0.25);
    expect(hysteresisMargin('tvl_drop', 20)).toBe(2);
    expect(hysteresisMargin('vtr', 0.05)).toBe(0.01);
  });

  it('does not flap around its threshold: re-arms only past the margin', () => {
    // 10.2 fires; 9.5 / 10.5 / 9.2 stay within the 1-point margin; 8.9 re-arms; 10.1 fires again (cooldown over).
    expect(run([9, 10.2, 9.5, 10.5, 9.2, 10.4, 8.9, 10.1])).toEqual([1, 7]);
  });

  it('holds a firing within the cooldown and fires at its end if still met', () => {
    const short = { ...base, margin: 0.1 };
    // Fires at 0, re-arms at 1, met again at 2 (cooldown 120 min not over) and 3, fires at 2 h.
    expect(run([11, 9, 11, 11, 11], short)).toEqual([0, 2]);
    expect(run([11, 9, 11, 11, 11], { ...short, cooldownMinutes: 180 })).toEqual([0, 3]);
  });

  it('below-threshold alerts mirror it, and a missing value changes nothing', () => {
    const below: AlertState = { ...base, condition: 'less_than', threshold: 5, margin: hysteresisMargin('apr', 5) };
    expect(run([6, 4.9, 5.3, 4, 5.6, 4.5], below)).toEqual([1, 5]);
    expect(stepAlert(base, null, t0)).toEqual({ fire: false, armed: true });
    expect(stepAlert({ ...base, armed: false }, Number.NaN, t0)).toEqual({ fire: false, armed: false });
  });

  it('reads each type\'s value from a snapshot', () => {
    const inputs = { apr: 12, vtr: 0.3, tvlUsd: 750, aprMean30d: 8, aprSigma30d: 2, peakTvlUsd: 1000 };
    expect(alertValue('apr', null, inputs)).toBe(12);
    expect(alertValue('vtr', null, inputs)).toBe(0.3);
    expect(alertValue('apy_spike', 'sigma', inputs)).toBe(2);
    expect(alertValue('apy_spike', 'percent', inputs)).toBe(50);
    expect(alertValue('tvl_drop', null, inputs)).toBe(25);
    expect(describeYieldAlert({ alertType: 'tvl_drop', condition: 'greater_than', threshold: 20, spikeUnit: null, windowHours: 6 })).toBe('TVL down 20 % within 6 h');
    // The measured value reads with 2 decimals; the threshold as the user set it.
    const pool = { symbol: 'USDC-WETH', dex: 'uniswap-v3', chain: 'Ethereum' };
    expect(yieldAlertMessage(pool, { alertType: 'apr', condition: 'greater_than', threshold: 12.125, spikeUnit: null, windowHours: null }, 28.7028)).toBe(
      'USDC-WETH (uniswap-v3, Ethereum): APR 28.7 %, above your 12.125 %.',
    );
  });
});

describe('a pool\'s snapshot values', () => {
  const example = (parseDefiLlamaPool(openApiExamplePool()) as { pool: DefiLlamaPool }).pool;
  const uni: DefiLlamaPool = { ...example, pool: 'u', project: 'uniswap-v3', symbol: 'USDC-WETH', poolMeta: '0.3%', exposure: 'multi', tvlUsd: 2_000_000, apy: 20, apyBase: 18, apyReward: 2, volumeUsd1d: 400_000, volumeUsd7d: 2_800_000 };

  it('without the subgraph: fee APR from DefiLlama\'s volume x fee tier, apr = that + rewards', () => {
    const v = snapshotValues({ pool: uni, feeTier: 3000, days: null, history: null }, now);
    expect(v.dataSource).toBe('defillama');
    expect(v.feesUsd).toBeCloseTo(1200, 8);
    expect(v.feeApr24h).toBeCloseTo(21.9, 8); // 1,200 x 365 / 2 M
    expect(v.feeApr7d).toBeCloseTo(21.9, 8);
    expect(v.apr).toBeCloseTo(23.9, 8);
    expect(v.aprSource).toBe('computed');
    expect(v.vtr).toBeCloseTo(0.2, 10);
    expect(v.aprDisagrees).toBe(false); // 21.9 vs 18: 3.9 points but 17.8 %
  });

  it('with the subgraph: its daily fees, and a flag when DefiLlama says otherwise', () => {
    const series = days(30, () => 3000, () => 2_000_000);
    const v = snapshotValues({ pool: uni, feeTier: 3000, days: series, history: null }, now);
    expect(v.dataSource).toBe('uniswap-subgraph');
    expect(v.feeApr24h).toBeCloseTo(54.75, 8);
    expect(v.feeApr30d).toBeCloseTo(54.75, 8);
    expect(v.aprDisagrees).toBe(true); // 54.75 vs 18
  });

  it('a single-asset pool keeps DefiLlama\'s APY as its apr', () => {
    const v = snapshotValues({ pool: example, feeTier: 0, days: null, history: { aprs: [2.7, 2.8, 2.9, 2.8, 2.7, 2.8, 2.9], tvls: [3.2e10, 3.25e10, 3.24e10, 3.25e10, 3.24e10, 3.25e10, 3.2e10], days: 7, tvl7d: 3.23e10 } }, now);
    expect(v).toMatchObject({ apr: 2.84, aprSource: 'defillama', feeApr24h: null, aprDisagrees: null, dataSource: 'defillama' });
    expect(v.aprMean30d).toBeCloseTo(2.8, 8);
    expect(v.yieldScore).toBeGreaterThan(60);
  });

  it('tracks the top N by TVL of each chain and every alerted pool', () => {
    const p = (pool: string, chain: string, tvlUsd: number) => ({ ...example, pool, chain, tvlUsd });
    const pools = [p('a', 'Ethereum', 5), p('b', 'Ethereum', 9), p('c', 'Ethereum', 1), p('d', 'Base', 3), p('e', 'Base', 4)];
    expect([...trackedSet(pools, 1, new Set(['c']))].sort()).toEqual(['b', 'c', 'e']);
  });
});
