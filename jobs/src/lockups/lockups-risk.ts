// The lock-up risk score (pure): 0..100 as the sum of named factors, each weight x value (0..1),
// with the input in words and the study it comes from. docs/lockups.md, "Risk score".
import { LOCKUP_RISK_FACTORS, type LockupRiskFactorName, type LockupRiskFactorView } from './lockups.shapes';

export type LockupRiskWeights = Record<LockupRiskFactorName, number>;

/**
 * Default weights (sum 100): the share of the float that unlocks and VC backing carry the most
 * (both in every study), then the post-IPO run-up and the sector, then volume and underwriter tier.
 */
export const DEFAULT_LOCKUP_RISK_WEIGHTS: LockupRiskWeights = {
  vcBacked: 20,
  floatUnlock: 25,
  runUp: 20,
  volume: 10,
  sector: 15,
  underwriterTier: 10,
};

/** floatUnlock: the value reaches 1 when this share of the shares outstanding unlocks (50 %). */
export const FLOAT_UNLOCK_FULL_SHARE = 0.5;
/** runUp: the value reaches 1 at this run-up since the IPO price (+100 %: the price doubled); 0 at or below the IPO price. */
export const RUN_UP_FULL = 1;
/** volume: recent (30-day) / early (first 30 days) average volume; 0 at or below LOW, 1 at or above HIGH. */
export const VOLUME_RATIO_LOW = 0.25;
export const VOLUME_RATIO_HIGH = 1;

/** Words of an industry that count as high-tech or biotech (case-insensitive, matched as words or prefixes). */
export const HIGH_RISK_SECTOR_WORDS = [
  'technology', 'tech', 'software', 'internet', 'semiconductor', 'computer', 'electronic', 'telecommunication', 'cloud', 'saas',
  'biotech', 'biotechnology', 'pharmaceutical', 'biological', 'life sciences', 'medical device', 'therapeutics', 'genomics',
] as const;

/**
 * Top-tier bookrunners (the prestige group of underwriter rankings; Bradley et al. 2001 find the
 * largest expiry losses for the highest-quality underwriters). Matched case-insensitively on the
 * name as written in the prospectus.
 */
export const TOP_TIER_UNDERWRITERS = [
  'goldman sachs', 'morgan stanley', 'j.p. morgan', 'jp morgan', 'jpmorgan', 'bofa securities', 'merrill lynch', 'citigroup', 'citi',
  'credit suisse', 'barclays', 'deutsche bank', 'ubs', 'wells fargo', 'jefferies',
] as const;

export const LOCKUP_FACTOR_SOURCES: Record<LockupRiskFactorName, string> = {
  vcBacked: 'Field & Hanka (2001); Brav & Gompers (2003)',
  floatUnlock: 'Brav & Gompers (2003)',
  runUp: 'Bradley et al. (2001)',
  volume: 'Field & Hanka (2001); Bradley et al. (2001)',
  sector: 'Bradley et al. (2001)',
  underwriterTier: 'Bradley et al. (2001)',
};

export const LOCKUP_FACTOR_LABELS: Record<LockupRiskFactorName, string> = {
  vcBacked: 'Venture-capital backed',
  floatUnlock: 'Share of the float unlocking',
  runUp: 'Run-up since the IPO',
  volume: 'Recent trading volume',
  sector: 'High-tech or biotech',
  underwriterTier: 'Underwriter tier',
};

/** What the score reads (null: unknown, counted as 0 and said). */
export interface LockupRiskInput {
  vcBacked: boolean | null;
  /** Shares this tranche releases. */
  sharesLockedUp: string | number | null;
  totalSharesOutstanding: string | number | null;
  /** Last close / IPO price - 1 (0.5 = +50 %). */
  runUp: number | null;
  /** Average volume of the last 30 trading days / of the first 30 after the IPO. */
  avgVolumeRatio: number | null;
  industry: string | null;
  underwriters: readonly string[] | null;
}

export interface LockupRiskResult {
  score: number;
  factors: LockupRiskFactorView[];
}

const clamp01 = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x);
const round1 = (x: number) => Math.round(x * 10) / 10;
const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)} %`;

function num(value: string | number | null): number | null {
  if (value === null || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** sharesLockedUp / totalSharesOutstanding, or null when either is unknown (or outstanding is 0). */
export function floatShareOf(sharesLockedUp: string | number | null, totalSharesOutstanding: string | number | null): number | null {
  const locked = num(sharesLockedUp);
  const total = num(totalSharesOutstanding);
  if (locked === null || total === null || total <= 0) return null;
  return locked / total;
}

/** The high-tech / biotech word an industry matches, or null. */
const SECTOR_PATTERNS = HIGH_RISK_SECTOR_WORDS.map((word) => ({ word, pattern: new RegExp(`(^|[^a-z])${word.replace(/ /g, '\\s+')}`) }));

export function highRiskSectorWord(industry: string): string | null {
  const text = industry.toLowerCase();
  return SECTOR_PATTERNS.find(({ pattern }) => pattern.test(text))?.word ?? null;
}

const TOP_TIER_PATTERNS = TOP_TIER_UNDERWRITERS.map((tier) => new RegExp(`(^|[^a-z])${tier.replace(/[.]/g, '\\.').replace(/ /g, '\\s+')}([^a-z]|$)`));

/** The first top-tier bookrunner among the names, or null. */
export function topTierUnderwriter(underwriters: readonly string[]): string | null {
  for (const name of underwriters) {
    const text = name.toLowerCase();
    if (TOP_TIER_PATTERNS.some((pattern) => pattern.test(text))) return name;
  }
  return null;
}

type FactorValue = { value: number; input: string | null; known: boolean };

function factorValue(name: LockupRiskFactorName, input: LockupRiskInput): FactorValue {
  switch (name) {
    case 'vcBacked':
      if (input.vcBacked === null) return { value: 0, input: null, known: false };
      return { value: input.vcBacked ? 1 : 0, input: input.vcBacked ? 'venture-capital backed' : 'not venture-capital backed', known: true };
    case 'floatUnlock': {
      const share = floatShareOf(input.sharesLockedUp, input.totalSharesOutstanding);
      if (share === null) return { value: 0, input: null, known: false };
      return { value: clamp01(share / FLOAT_UNLOCK_FULL_SHARE), input: `${pct(share)} of the shares outstanding unlock`, known: true };
    }
    case 'runUp': {
      if (input.runUp === null || !Number.isFinite(input.runUp)) return { value: 0, input: null, known: false };
      const sign = input.runUp >= 0 ? '+' : '−';
      return { value: clamp01(input.runUp / RUN_UP_FULL), input: `${sign}${pct(Math.abs(input.runUp))} since the IPO price`, known: true };
    }
    case 'volume': {
      const ratio = input.avgVolumeRatio;
      if (ratio === null || !Number.isFinite(ratio)) return { value: 0, input: null, known: false };
      return {
        value: clamp01((ratio - VOLUME_RATIO_LOW) / (VOLUME_RATIO_HIGH - VOLUME_RATIO_LOW)),
        input: `30-day volume ${(Math.round(ratio * 100) / 100).toFixed(2)}× the first 30 days'`,
        known: true,
      };
    }
    case 'sector': {
      if (!input.industry || !input.industry.trim()) return { value: 0, input: null, known: false };
      const word = highRiskSectorWord(input.industry);
      return { value: word ? 1 : 0, input: word ? `${input.industry} (high-tech or biotech)` : `${input.industry} (not high-tech or biotech)`, known: true };
    }
    case 'underwriterTier': {
      if (!input.underwriters || !input.underwriters.length) return { value: 0, input: null, known: false };
      const top = topTierUnderwriter(input.underwriters);
      return { value: top ? 1 : 0, input: top ? `top-tier bookrunner: ${top}` : `no top-tier bookrunner (${input.underwriters.slice(0, 3).join(', ')})`, known: true };
    }
  }
}

/**
 * The score of one event: each factor's points = weight x value (rounded to 0.1), the score their
 * sum (capped at 100). An unknown input counts 0 points, with known: false.
 */
export function scoreLockup(input: LockupRiskInput, weights: LockupRiskWeights = DEFAULT_LOCKUP_RISK_WEIGHTS): LockupRiskResult {
  const factors: LockupRiskFactorView[] = [];
  let total = 0;
  for (const name of LOCKUP_RISK_FACTORS) {
    const weight = weights[name];
    const { value, input: said, known } = factorValue(name, input);
    const points = round1(weight * value);
    total += points;
    factors.push({ name, label: LOCKUP_FACTOR_LABELS[name], points, weight, value: Math.round(value * 1000) / 1000, input: said, source: LOCKUP_FACTOR_SOURCES[name], known });
  }
  return { score: Math.min(100, round1(total)), factors };
}

/** The factors with the most points (ties: the shapes' order), at most n, leaving out those with 0 points. */
export function topLockupFactors(factors: readonly LockupRiskFactorView[], n = 2): LockupRiskFactorView[] {
  return [...factors]
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.points > 0)
    .sort((a, b) => b.f.points - a.f.points || a.i - b.i)
    .slice(0, n)
    .map(({ f }) => f);
}
