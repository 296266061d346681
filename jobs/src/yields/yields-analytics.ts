// Pure analytics of the yields domain: fee APR, volume/TVL, the APR cross-check against DefiLlama,
// the 30-day baseline and spike measures, the score and its components, and the alert state machine
// (threshold, hysteresis, cooldown). No I/O. Every formula is written out in docs/yields.md.
import {
  YIELD_APR_TOLERANCE,
  type YieldAlertCondition,
  type YieldAlertKind,
  type YieldAlertType,
  type YieldScoreBreakdown,
  type YieldScoreComponent,
  type YieldScoreComponentName,
  type YieldSpikeUnit,
} from './yields.shapes';

const DAY_MS = 86_400_000;

/** One day of a pool (the subgraph's poolDayDatas, or DefiLlama's /chart points); USD. */
export interface YieldDay {
  /** Unix seconds of the UTC day's start. */
  date: number;
  tvlUsd: number | null;
  volumeUsd: number | null;
  feesUsd: number | null;
}

/** Least number of days with data a window needs before its fee APR is given (else null). */
export const FEE_APR_MIN_DAYS: Readonly<Record<1 | 7 | 30, number>> = { 1: 1, 7: 5, 30: 20 };

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Fee APR in percent: fees over the window x 365 / the window's days / average TVL over the window x 100.
 * Null when the average TVL is not positive or an input is missing.
 */
export function feeApr(feesUsd: number | null, days: number, avgTvlUsd: number | null): number | null {
  if (!finite(feesUsd) || !finite(avgTvlUsd) || avgTvlUsd <= 0 || days <= 0 || feesUsd < 0) return null;
  return ((feesUsd * 365) / days / avgTvlUsd) * 100;
}

export interface WindowFees {
  feesUsd: number;
  volumeUsd: number | null;
  avgTvlUsd: number;
  /** Days of the window that had data. */
  days: number;
  apr: number | null;
}

/**
 * The fee APR of the last `window` complete UTC days before `now` (today's partial day is left out:
 * its fees are not all in yet). Uses the days that have both fees and a positive TVL; null below
 * FEE_APR_MIN_DAYS[window] of them.
 */
export function windowFees(days: readonly YieldDay[], window: 1 | 7 | 30, now: Date): WindowFees | null {
  const today = Math.floor(now.getTime() / DAY_MS) * 86_400;
  const from = today - window * 86_400;
  let fees = 0;
  let volume = 0;
  let volumeDays = 0;
  let tvl = 0;
  let n = 0;
  for (const d of days) {
    if (d.date < from || d.date >= today) continue;
    if (!finite(d.feesUsd) || !finite(d.tvlUsd) || d.tvlUsd <= 0 || d.feesUsd < 0) continue;
    fees += d.feesUsd;
    tvl += d.tvlUsd;
    n++;
    if (finite(d.volumeUsd) && d.volumeUsd >= 0) {
      volume += d.volumeUsd;
      volumeDays++;
    }
  }
  if (n < FEE_APR_MIN_DAYS[window]) return null;
  const avgTvlUsd = tvl / n;
  return { feesUsd: fees, volumeUsd: volumeDays === n ? volume : null, avgTvlUsd, days: n, apr: feeApr(fees, n, avgTvlUsd) };
}

/** Volume-to-TVL: 24 h volume / TVL (null without both, or with a TVL that is not positive). */
export function volumeToTvl(volumeUsd24h: number | null, tvlUsd: number | null): number | null {
  if (!finite(volumeUsd24h) || !finite(tvlUsd) || tvlUsd <= 0 || volumeUsd24h < 0) return null;
  return volumeUsd24h / tvlUsd;
}

/**
 * Whether our APR and DefiLlama's disagree: both present and their gap above BOTH the absolute
 * tolerance (percentage points) and the relative one (fraction of the larger magnitude). Null when
 * either is missing: nothing to compare.
 */
export function aprDisagrees(ours: number | null, theirs: number | null, tolerance = YIELD_APR_TOLERANCE): boolean | null {
  if (!finite(ours) || !finite(theirs)) return null;
  const gap = Math.abs(ours - theirs);
  const scale = Math.max(Math.abs(ours), Math.abs(theirs));
  return gap > tolerance.absolutePoints && gap > tolerance.relative * scale;
}

/** Mean and (population) standard deviation; null for an empty list. */
export function meanSigma(values: readonly number[]): { mean: number; sigma: number; n: number } | null {
  const xs = values.filter(finite);
  if (!xs.length) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length;
  return { mean, sigma: Math.sqrt(variance), n: xs.length };
}

/** Days of our own series the 30-day baseline needs before its sigma is used (else DefiLlama's mean, no sigma). */
export const BASELINE_MIN_DAYS = 7;

export interface AprBaseline {
  mean: number | null;
  sigma: number | null;
  /** 'own': our daily APRs of the last 30 days; 'defillama': its apyMean30d (no sigma); null: nothing. */
  source: 'own' | 'defillama' | null;
}

/**
 * The spike detection's 30-day baseline: the mean and standard deviation of the pool's daily APR
 * (one value per UTC day, the mean of that day's snapshots) over the last 30 days, from at least
 * BASELINE_MIN_DAYS days; otherwise DefiLlama's apyMean30d as the mean and no sigma.
 */
export function aprBaseline(dailyAprs: readonly number[], defillamaMean30d: number | null): AprBaseline {
  const stats = dailyAprs.length >= BASELINE_MIN_DAYS ? meanSigma(dailyAprs) : null;
  if (stats) return { mean: stats.mean, sigma: stats.sigma, source: 'own' };
  if (finite(defillamaMean30d)) return { mean: defillamaMean30d, sigma: null, source: 'defillama' };
  return { mean: null, sigma: null, source: null };
}

/** How far the APR is above its 30-day mean: in standard deviations (z) and in percent of the mean. */
export function spikeOf(apr: number | null, mean: number | null, sigma: number | null): { z: number | null; pct: number | null } {
  if (!finite(apr) || !finite(mean)) return { z: null, pct: null };
  return {
    z: finite(sigma) && sigma > 0 ? (apr - mean) / sigma : null,
    pct: mean > 0 ? ((apr - mean) / mean) * 100 : null,
  };
}

/** Coefficient of variation (sigma / mean) of the daily TVLs; null below BASELINE_MIN_DAYS days or a mean that is not positive. */
export function tvlVariation(dailyTvls: readonly number[]): number | null {
  if (dailyTvls.length < BASELINE_MIN_DAYS) return null;
  const stats = meanSigma(dailyTvls);
  if (!stats || stats.mean <= 0) return null;
  return stats.sigma / stats.mean;
}

/** TVL drop in percent from the highest TVL of the window to now (0 when now is the highest). */
export function tvlDropPct(peakTvlUsd: number | null, tvlUsd: number | null): number | null {
  if (!finite(peakTvlUsd) || !finite(tvlUsd) || peakTvlUsd <= 0) return null;
  return Math.max(0, ((peakTvlUsd - tvlUsd) / peakTvlUsd) * 100);
}

// ---------------------------------------------------------------------------------------------
// Score

/** Weights out of 100 (docs/yields.md, "Score"). */
export const SCORE_WEIGHTS: Readonly<Record<YieldScoreComponentName, number>> = {
  feeApr: 25,
  vtr: 10,
  tvlStability: 20,
  muSigma: 10,
  outlier: 10,
  rewardShare: 15,
  mean30d: 10,
};

/** Fee APR at which that part scores full marks (percent). */
export const SCORE_APR_FULL = 20;
/** Volume/TVL at which that part scores one half (x / (x + k)). */
export const SCORE_VTR_HALF = 0.1;
/** TVL coefficient of variation at which stability scores 0. */
export const SCORE_CV_ZERO = 0.5;
/** Components needed for a total. */
export const SCORE_MIN_COMPONENTS = 3;

export interface ScoreInputs {
  /** Our fee APR 7 d, else 24 h (percent). */
  feeApr: number | null;
  /** DefiLlama's apyBase, used as the native yield when we have no fee APR. */
  apyBase: number | null;
  vtr: number | null;
  /** Coefficient of variation of the daily TVL over 30 days. */
  tvlCv: number | null;
  mu: number | null;
  sigma: number | null;
  outlier: boolean | null;
  apy: number | null;
  apyReward: number | null;
  apr: number | null;
  mean30d: number | null;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const pct = (x: number) => `${round(x, 2)} %`;

/**
 * yieldScore 0..100: each available component scores 0..1, is weighted (SCORE_WEIGHTS) and the
 * weights renormalised over the available ones: total = 100 x sum(w x s) / sum(w). Null total below
 * SCORE_MIN_COMPONENTS available components. Every component is returned, available or not.
 */
export function yieldScore(inputs: ScoreInputs): YieldScoreBreakdown {
  const parts: Array<Omit<YieldScoreComponent, 'points'>> = [];
  const add = (name: YieldScoreComponentName, label: string, input: number | null, score: number | null, explanation: string) =>
    parts.push({ name, label, weight: SCORE_WEIGHTS[name], input: input === null ? null : round(input, 6), score: score === null ? null : round(score, 4), explanation });

  const native = finite(inputs.feeApr) ? inputs.feeApr : finite(inputs.apyBase) ? inputs.apyBase : null;
  add(
    'feeApr',
    'Fee APR',
    native,
    native === null ? null : clamp01(native / SCORE_APR_FULL),
    native === null
      ? 'No fee APR and no base APY.'
      : `${finite(inputs.feeApr) ? 'Our fee APR' : "DefiLlama's base APY"} ${pct(native)}; full marks at ${SCORE_APR_FULL} %.`,
  );
  add(
    'vtr',
    'Volume / TVL',
    inputs.vtr,
    finite(inputs.vtr) ? clamp01(inputs.vtr / (inputs.vtr + SCORE_VTR_HALF)) : null,
    finite(inputs.vtr) ? `Daily volume is ${round(inputs.vtr, 4)} x TVL; half marks at ${SCORE_VTR_HALF}.` : 'No volume data.',
  );
  add(
    'tvlStability',
    'TVL stability (30 d)',
    inputs.tvlCv,
    finite(inputs.tvlCv) ? clamp01(1 - inputs.tvlCv / SCORE_CV_ZERO) : null,
    finite(inputs.tvlCv) ? `Daily TVL varies by ${pct(inputs.tvlCv * 100)} of its mean; 0 at ${SCORE_CV_ZERO * 100} %.` : 'Under 7 days of TVL history.',
  );
  const muSigma = finite(inputs.mu) && finite(inputs.sigma) ? (inputs.mu > 0 ? inputs.sigma / inputs.mu : null) : null;
  add(
    'muSigma',
    'Consistency (mu / sigma)',
    muSigma,
    muSigma === null ? (finite(inputs.mu) && inputs.mu <= 0 ? 0 : null) : clamp01(1 / (1 + muSigma)),
    muSigma === null
      ? finite(inputs.mu) && inputs.mu <= 0
        ? `DefiLlama's mu is ${inputs.mu}: no positive mean yield.`
        : "No mu / sigma from DefiLlama."
      : `DefiLlama's sigma is ${round(muSigma, 4)} x its mu; scored 1 / (1 + sigma / mu).`,
  );
  add(
    'outlier',
    'Not an outlier',
    inputs.outlier === null ? null : inputs.outlier ? 1 : 0,
    inputs.outlier === null ? null : inputs.outlier ? 0 : 1,
    inputs.outlier === null ? 'DefiLlama gave no outlier flag.' : inputs.outlier ? "DefiLlama flags its mu or sigma as an outlier." : 'Within the median +- 1.5 IQR of all pools.',
  );
  const rewardShare = finite(inputs.apy) && inputs.apy > 0 ? clamp01((finite(inputs.apyReward) ? inputs.apyReward : 0) / inputs.apy) : null;
  add(
    'rewardShare',
    'Organic share of APY',
    rewardShare,
    rewardShare === null ? null : 1 - rewardShare,
    rewardShare === null ? 'No positive APY.' : `${pct(rewardShare * 100)} of the APY is token rewards; scored 1 - that share.`,
  );
  const deviation = finite(inputs.apr) && finite(inputs.mean30d) && inputs.mean30d > 0 ? Math.abs(inputs.apr - inputs.mean30d) / inputs.mean30d : null;
  add(
    'mean30d',
    'Close to its 30-day mean',
    deviation,
    deviation === null ? null : clamp01(1 - deviation),
    deviation === null ? 'No 30-day mean.' : `The APR is ${pct(deviation * 100)} away from its 30-day mean; 0 at 100 %.`,
  );

  const available = parts.filter((p) => p.score !== null);
  const weights = available.reduce((a, p) => a + p.weight, 0);
  const total = available.length >= SCORE_MIN_COMPONENTS && weights > 0 ? (100 * available.reduce((a, p) => a + p.weight * (p.score as number), 0)) / weights : null;
  return {
    total: total === null ? null : round(total, 2),
    components: parts.map((p) => ({ ...p, points: p.score === null || weights === 0 || total === null ? 0 : round((100 * p.weight * p.score) / weights, 2) })),
  };
}

// ---------------------------------------------------------------------------------------------
// Alerts

/** The kind of a (type, condition) pair. */
export function yieldAlertKind(type: YieldAlertType, condition: YieldAlertCondition): YieldAlertKind {
  switch (type) {
    case 'apr':
      return condition === 'less_than' ? 'apr_below' : 'apr_above';
    case 'apy_spike':
      return 'apy_spike';
    case 'tvl_drop':
      return 'tvl_drop';
    case 'vtr':
      return 'vtr_above';
  }
}

/** The hysteresis margin is this fraction of the threshold, and at least HYSTERESIS_FLOOR of its unit. */
export const HYSTERESIS_FRACTION = 0.1;
export const HYSTERESIS_FLOOR: Readonly<Record<YieldAlertType, number>> = { apr: 0.25, apy_spike: 0.25, tvl_drop: 1, vtr: 0.01 };

/**
 * How far back past the threshold the value must go before a fired alert re-arms:
 * max(HYSTERESIS_FRACTION x |threshold|, HYSTERESIS_FLOOR[type]), in the threshold's unit.
 */
export function hysteresisMargin(type: YieldAlertType, threshold: number): number {
  return Math.max(HYSTERESIS_FRACTION * Math.abs(threshold), HYSTERESIS_FLOOR[type]);
}

/** The values of a snapshot an alert is evaluated on. */
export interface AlertInputs {
  apr: number | null;
  vtr: number | null;
  tvlUsd: number | null;
  aprMean30d: number | null;
  aprSigma30d: number | null;
  /** The highest TVL within the alert's window (including this snapshot). */
  peakTvlUsd?: number | null;
}

/** The value an alert compares with its threshold, in the threshold's unit (null: cannot be told from this snapshot). */
export function alertValue(type: YieldAlertType, spikeUnit: YieldSpikeUnit | null, inputs: AlertInputs): number | null {
  switch (type) {
    case 'apr':
      return finite(inputs.apr) ? inputs.apr : null;
    case 'vtr':
      return finite(inputs.vtr) ? inputs.vtr : null;
    case 'apy_spike': {
      const spike = spikeOf(inputs.apr, inputs.aprMean30d, inputs.aprSigma30d);
      return spikeUnit === 'percent' ? spike.pct : spike.z;
    }
    case 'tvl_drop':
      return tvlDropPct(inputs.peakTvlUsd ?? null, inputs.tvlUsd);
  }
}

export interface AlertState {
  condition: YieldAlertCondition;
  threshold: number;
  /** hysteresisMargin(type, threshold). */
  margin: number;
  armed: boolean;
  lastTriggered: Date | null;
  cooldownMinutes: number;
}

export type AlertStep = { fire: boolean; armed: boolean };

/**
 * One evaluation. Met: value > threshold (greater_than) or value < threshold (less_than).
 * - armed and met: fires when the cooldown since lastTriggered is over, and disarms; within the
 *   cooldown it stays armed (it fires at the first evaluation after the cooldown if still met);
 * - disarmed: re-arms once the value is back past the threshold by the margin
 *   (value <= threshold - margin, or >= threshold + margin for less_than); it cannot fire in that same evaluation;
 * - a null value changes nothing.
 */
export function stepAlert(state: AlertState, value: number | null, now: Date): AlertStep {
  if (!finite(value)) return { fire: false, armed: state.armed };
  const above = state.condition === 'greater_than';
  if (!state.armed) {
    const rearm = above ? value <= state.threshold - state.margin : value >= state.threshold + state.margin;
    return { fire: false, armed: rearm };
  }
  const met = above ? value > state.threshold : value < state.threshold;
  if (!met) return { fire: false, armed: true };
  const cooled = state.lastTriggered === null || now.getTime() - state.lastTriggered.getTime() >= state.cooldownMinutes * 60_000;
  return cooled ? { fire: true, armed: false } : { fire: false, armed: true };
}

/** A threshold as the user set it (up to 4 decimals). */
const num = (x: number) => {
  const r = Math.round(x * 10_000) / 10_000;
  return r.toLocaleString('en-US', { maximumFractionDigits: 4 });
};
/** A measured value in a sentence: 2 decimals are what a reader compares ("APR 28.7 %", not 28.7028). */
const measured = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** One sentence naming an alert, e.g. "APR above 12 %". */
export function describeYieldAlert(a: { alertType: YieldAlertType; condition: YieldAlertCondition; threshold: number; spikeUnit: YieldSpikeUnit | null; windowHours: number | null }): string {
  switch (a.alertType) {
    case 'apr':
      return `APR ${a.condition === 'less_than' ? 'below' : 'above'} ${num(a.threshold)} %`;
    case 'apy_spike':
      return a.spikeUnit === 'percent' ? `APR ${num(a.threshold)} % above its 30-day mean` : `APR ${num(a.threshold)} sigma above its 30-day mean`;
    case 'tvl_drop':
      return `TVL down ${num(a.threshold)} % within ${a.windowHours ?? 24} h`;
    case 'vtr':
      return `Volume/TVL above ${num(a.threshold)}`;
  }
}

/** The notification sentence of a firing: what crossed, by how much. */
export function yieldAlertMessage(
  pool: { symbol: string; chain: string; dex: string },
  a: { alertType: YieldAlertType; condition: YieldAlertCondition; threshold: number; spikeUnit: YieldSpikeUnit | null; windowHours: number | null },
  value: number,
): string {
  const where = `${pool.symbol} (${pool.dex}, ${pool.chain})`;
  switch (a.alertType) {
    case 'apr':
      return `${where}: APR ${measured(value)} %, ${a.condition === 'less_than' ? 'below' : 'above'} your ${num(a.threshold)} %.`;
    case 'apy_spike':
      return a.spikeUnit === 'percent'
        ? `${where}: APR ${measured(value)} % above its 30-day mean (your threshold ${num(a.threshold)} %).`
        : `${where}: APR ${measured(value)} sigma above its 30-day mean (your threshold ${num(a.threshold)}).`;
    case 'tvl_drop':
      return `${where}: TVL down ${measured(value)} % within ${a.windowHours ?? 24} h (your threshold ${num(a.threshold)} %).`;
    case 'vtr':
      return `${where}: volume/TVL ${measured(value)}, above your ${num(a.threshold)}.`;
  }
}
