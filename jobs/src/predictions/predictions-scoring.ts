// Forecast input and the scorecard (pure: no I/O, no clock). Formulas in docs/predictions.md,
// "Forecasts and scoring"; the store loads the rows, these functions do the arithmetic.
import { PredictionsError } from './predictions.errors';
import {
  PREDICTION_MAX,
  PREDICTION_MIN,
  type PredictionCalibrationBin,
  type PredictionCategoryScore,
  type PredictionInputForm,
  type PredictionPerformanceView,
  type PredictionTrendPoint,
} from './predictions.shapes';

/** The longest forecast text kept (user_predictions.input_text is varchar(40)). */
export const PREDICTION_INPUT_MAX = 40;
/** Categories with fewer scored questions are left out of best categories and improvement areas. */
export const DEFAULT_MIN_CATEGORY_QUESTIONS = 3;
/** How many categories each list shows. */
export const CATEGORY_LIST_SIZE = 5;
export const CALIBRATION_BINS = 10;

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const PERCENT_RE = new RegExp(`^${NUMBER}\\s*%$`);
const PLAIN_RE = new RegExp(`^${NUMBER}$`);
const ODDS_RE = new RegExp(`^${NUMBER}\\s*(?::|/|\\s+to\\s+)\\s*${NUMBER}$`, 'i');

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  // Half away from zero, as PostgreSQL's round(numeric); -0 becomes 0.
  const r = (Math.sign(value) * Math.round(Math.abs(value) * f)) / f;
  return r === 0 ? 0 : r;
};
/** Probabilities, Brier scores, accuracy, points: 4 decimals (the columns' scale). */
export const round4 = (value: number) => round(value, 4);
/** Log scores and the decomposition terms: 6 decimals. */
export const round6 = (value: number) => round(value, 6);

function invalid(message: string): never {
  throw new PredictionsError('invalid_prediction', message, 'prediction');
}

/**
 * A forecast as the user typed it: a probability ("0.62", ".62"), a percentage ("62%", "62 %", or a
 * bare number above 1 and below 100: "62"), or odds for:against on YES ("3:2", "3/2", "3 to 2" are
 * 3/(3+2) = 0.6). The probability is rounded to 4 decimals and must lie in [0.0001, 0.9999].
 */
export function parseForecastInput(text: string): { p: number; form: PredictionInputForm } {
  const input = typeof text === 'string' ? text.trim() : '';
  if (!input) invalid('Enter a probability (0.62), a percentage (62%) or odds (3:2)');
  if (input.length > PREDICTION_INPUT_MAX) invalid(`A forecast is at most ${PREDICTION_INPUT_MAX} characters`);
  let value: number;
  let form: PredictionInputForm;
  let match: RegExpExecArray | null;
  if ((match = PERCENT_RE.exec(input))) {
    value = Number(match[1]) / 100;
    form = 'percent';
  } else if ((match = ODDS_RE.exec(input))) {
    const forYes = Number(match[1]);
    const against = Number(match[2]);
    if (!(forYes > 0) || !(against > 0)) invalid('Both sides of the odds must be above 0 (3:2 is 3 for YES against 2)');
    value = forYes / (forYes + against);
    form = 'odds';
  } else if ((match = PLAIN_RE.exec(input))) {
    const n = Number(match[1]);
    if (n < 1) {
      value = n;
      form = 'probability';
    } else if (n > 1 && n < 100) {
      value = n / 100;
      form = 'percent';
    } else {
      invalid(`${input} is not a probability: use a number between 0 and 1 (0.62) or a percentage between 0 and 100 (62%)`);
    }
  } else {
    invalid(`"${input}" is not a probability, a percentage or odds (0.62, 62%, 3:2)`);
  }
  const p = round4(value);
  if (!(p >= PREDICTION_MIN && p <= PREDICTION_MAX)) {
    invalid(`A forecast must be between ${PREDICTION_MIN} and ${PREDICTION_MAX} (0.01 % to 99.99 %); ${input} is ${p}`);
  }
  return { p, form };
}

/**
 * Skill points of one forecast against the market price at its moment, on the outcome o (1 YES, 0 NO):
 * 100 × ((m − o)² − (p − o)²), rounded to 4 decimals (half away from zero). Positive: the user's
 * probability was closer to what happened than the market's. Computed on whole ten-thousandths, so
 * the same inputs give exactly the same points everywhere.
 */
export function forecastPoints(p: number, marketPrice: number, outcome: 0 | 1): number {
  const P = Math.round(p * 10_000);
  const M = Math.round(marketPrice * 10_000);
  const O = outcome * 10_000;
  // 100 × (M² − P²) / 10⁸ = n / 10⁶, n an exact integer; 4 decimals = n / 100 rounded, / 10⁴.
  const n = (M - O) ** 2 - (P - O) ** 2;
  const r = (Math.sign(n) * Math.round(Math.abs(n) / 100)) / 10_000;
  return r === 0 ? 0 : r;
}

/**
 * The Wilson score interval of k successes in n trials (z = 1.96: 95 %), clamped to [0, 1]; null when
 * n is 0. low = (p̂ + z²/2n − z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), high with +.
 */
export function wilsonInterval(k: number, n: number, z = 1.96): { low: number; high: number } | null {
  if (!(n > 0)) return null;
  if (k < 0 || k > n) throw new RangeError(`wilsonInterval: k=${k} is not within 0..n=${n}`);
  const phat = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = phat + z2 / (2 * n);
  const margin = z * Math.sqrt((phat * (1 - phat)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, (center - margin) / denominator), high: Math.min(1, (center + margin) / denominator) };
}

/** One forecast row of a question (times in epoch milliseconds). */
export interface QuestionForecast {
  /** The user's probability of YES. */
  p: number;
  /** The market's YES price when the forecast was made (from our snapshot). */
  marketPrice: number;
  madeAt: number;
  /** Replaced by the next forecast or withdrawn at this time; null: still the current forecast. */
  supersededAt: number | null;
}

/** A market the user forecast that resolved YES or NO (void markets are not scored). */
export interface ResolvedQuestion {
  marketId: number;
  category: string | null;
  outcome: 0 | 1;
  /** End of the scoring window (epoch ms): the market's close time, at the latest its resolution. */
  closesAt: number;
  /** When it resolved (epoch ms): the trend's month. */
  resolvedAt: number;
  /** The user's forecast rows on the market, in the order they were made. */
  forecasts: QuestionForecast[];
}

export interface QuestionScore {
  marketId: number;
  category: string | null;
  outcome: 0 | 1;
  resolvedAt: number;
  /** Time-weighted probabilities of the user and of the market. */
  p: number;
  m: number;
  brier: number;
  log: number;
  correct: boolean;
  marketBrier: number;
  marketLog: number;
  /** Time-weighted mean of the rows' points. */
  points: number;
}

/**
 * The weight of each forecast row: the time it covered, [madeAt, min(supersededAt, closesAt)), never
 * negative. When no row covered any time, the last row alone (weight 1).
 */
export function forecastWeights(forecasts: QuestionForecast[], closesAt: number): number[] {
  const weights = forecasts.map((f) => Math.max(0, Math.min(f.supersededAt ?? Infinity, closesAt) - f.madeAt));
  if (weights.some((w) => w > 0)) return weights;
  return forecasts.map((_, i) => (i === forecasts.length - 1 ? 1 : 0));
}

/** A probability the log score can take: the market's price may be 0 or 1 (PREDICTION_MIN..MAX bound it). */
const clampForLog = (q: number) => Math.min(PREDICTION_MAX, Math.max(PREDICTION_MIN, q));
const logOf = (q: number, o: 0 | 1) => Math.log(o === 1 ? clampForLog(q) : 1 - clampForLog(q));

/** One question's scores: the time-weighted probabilities of the user and the market, scored on what happened. */
export function scoreQuestion(question: ResolvedQuestion): QuestionScore {
  const { forecasts, outcome: o } = question;
  if (!forecasts.length) throw new RangeError(`question ${question.marketId} has no forecast`);
  const weights = forecastWeights(forecasts, question.closesAt);
  let total = 0;
  let p = 0;
  let m = 0;
  let points = 0;
  for (let i = 0; i < forecasts.length; i++) {
    const w = weights[i];
    if (w === 0) continue;
    const f = forecasts[i];
    total += w;
    p += w * f.p;
    m += w * f.marketPrice;
    points += w * forecastPoints(f.p, f.marketPrice, o);
  }
  return questionScore({ marketId: question.marketId, category: question.category, outcome: o, resolvedAt: question.resolvedAt, p: p / total, m: m / total, points: points / total });
}

/** What is stored of a scored question (prediction_question_scores): the time-weighted p, m and points. */
export type StoredQuestionScore = Pick<QuestionScore, 'marketId' | 'category' | 'outcome' | 'resolvedAt' | 'p' | 'm' | 'points'>;

/** A question's scores from its time-weighted probabilities (scoreQuestion's result, or a stored row). */
export function questionScore(q: StoredQuestionScore): QuestionScore {
  const { p, m, outcome: o } = q;
  // Built field by field: an object spread here costs ten times more over thousands of questions.
  return {
    marketId: q.marketId,
    category: q.category,
    outcome: o,
    resolvedAt: q.resolvedAt,
    p,
    m,
    points: q.points,
    brier: (p - o) ** 2,
    log: logOf(p, o),
    // p = 0.5 is not correct either way.
    correct: o === 1 ? p > 0.5 : p < 0.5,
    marketBrier: (m - o) ** 2,
    marketLog: logOf(m, o),
  };
}

interface RawBin {
  count: number;
  sumForecast: number;
  yes: number;
}

/** The calibration bin of a probability: [k/10, (k+1)/10), the last one closed at 1. */
export function binOf(p: number): number {
  return Math.min(CALIBRATION_BINS - 1, Math.max(0, Math.floor(p * CALIBRATION_BINS + 1e-9)));
}

/**
 * Murphy's decomposition over the bins (unrounded): reliability = Σ n_k (f̄_k − ō_k)² / N,
 * resolution = Σ n_k (ō_k − ō)² / N, uncertainty = ō (1 − ō). Brier = reliability − resolution +
 * uncertainty exactly when every forecast of a bin is the bin's mean. Null with no forecast.
 */
export function brierDecomposition(bins: { count: number; meanForecast: number | null; observedRate: number | null }[]): {
  reliability: number;
  resolution: number;
  uncertainty: number;
} | null {
  const n = bins.reduce((s, b) => s + b.count, 0);
  if (!n) return null;
  const base = bins.reduce((s, b) => s + b.count * (b.observedRate ?? 0), 0) / n;
  let reliability = 0;
  let resolution = 0;
  for (const b of bins) {
    if (!b.count) continue;
    reliability += b.count * ((b.meanForecast as number) - (b.observedRate as number)) ** 2;
    resolution += b.count * ((b.observedRate as number) - base) ** 2;
  }
  return { reliability: reliability / n, resolution: resolution / n, uncertainty: base * (1 - base) };
}

/** Sums of a group of questions (a category, a month). */
interface GroupSums {
  count: number;
  correct: number;
  brier: number;
  marketBrier: number;
  log: number;
  marketLog: number;
}

function addTo<K>(groups: Map<K, GroupSums>, key: K, q: QuestionScore): void {
  let g = groups.get(key);
  if (!g) {
    g = { count: 0, correct: 0, brier: 0, marketBrier: 0, log: 0, marketLog: 0 };
    groups.set(key, g);
  }
  g.count += 1;
  if (q.correct) g.correct += 1;
  g.brier += q.brier;
  g.marketBrier += q.marketBrier;
  g.log += q.log;
  g.marketLog += q.marketLog;
}

/** The UTC month of an epoch-ms time as year × 12 + month (0-based), by calendar arithmetic (no Date, no string). */
export function utcMonthIndex(ms: number): number {
  // Days since 1970-01-01 to a civil date (H. Hinnant's days_from_civil inverse).
  const z = Math.floor(ms / 86_400_000) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 2 : mp - 10; // 0-based, January = 0
  const year = yoe + era * 400 + (month <= 1 ? 1 : 0);
  return year * 12 + month;
}

const monthLabel = (index: number) => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

export interface PerformanceOptions {
  /** Scored questions a category needs to be listed (best categories, improvement areas). */
  minCategoryQuestions?: number;
}

export type PredictionScorecard = Omit<PredictionPerformanceView, 'lastCalculated'>;

/** The scorecard of no resolved question. */
export function emptyScorecard(): PredictionScorecard {
  return {
    totalPredictions: 0,
    correctPredictions: 0,
    accuracy: null,
    brierScore: null,
    logScore: null,
    decomposition: null,
    calibration: Array.from({ length: CALIBRATION_BINS }, (_, k) => ({
      from: k / CALIBRATION_BINS,
      to: (k + 1) / CALIBRATION_BINS,
      count: 0,
      meanForecast: null,
      observedRate: null,
      low: null,
      high: null,
    })),
    market: { brier: null, log: null },
    skill: { brier: null, log: null },
    totalPoints: 0,
    bestCategories: [],
    improvementAreas: [],
    trend: [],
  };
}

/**
 * The scorecard of a user's resolved questions (docs/predictions.md, "Forecasts and scoring"). Every
 * figure is computed unrounded and then rounded: probabilities, Brier scores, accuracy and points to
 * 4 decimals, log scores and decomposition terms to 6.
 */
export function computePerformance(questions: ResolvedQuestion[], options: PerformanceOptions = {}): PredictionScorecard {
  return computeScorecard(questions.filter((q) => q.forecasts.length).map(scoreQuestion), options);
}

/** The scorecard from scored questions (computePerformance once each question is scored; the store's recompute from the stored scores). */
export function computeScorecard(scored: QuestionScore[], options: PerformanceOptions = {}): PredictionScorecard {
  if (!scored.length) return emptyScorecard();
  const minCategory = options.minCategoryQuestions ?? DEFAULT_MIN_CATEGORY_QUESTIONS;
  const n = scored.length;

  const raw: RawBin[] = Array.from({ length: CALIBRATION_BINS }, () => ({ count: 0, sumForecast: 0, yes: 0 }));
  let correct = 0;
  let brier = 0;
  let log = 0;
  let marketBrier = 0;
  let marketLog = 0;
  let points = 0;
  for (const q of scored) {
    const bin = raw[binOf(q.p)];
    bin.count += 1;
    bin.sumForecast += q.p;
    bin.yes += q.outcome;
    if (q.correct) correct += 1;
    brier += q.brier;
    log += q.log;
    marketBrier += q.marketBrier;
    marketLog += q.marketLog;
    points += q.points;
  }
  brier /= n;
  log /= n;
  marketBrier /= n;
  marketLog /= n;

  const unroundedBins = raw.map((b) => ({
    count: b.count,
    meanForecast: b.count ? b.sumForecast / b.count : null,
    observedRate: b.count ? b.yes / b.count : null,
  }));
  const calibration: PredictionCalibrationBin[] = unroundedBins.map((b, k) => {
    const interval = wilsonInterval(raw[k].yes, b.count);
    return {
      from: k / CALIBRATION_BINS,
      to: (k + 1) / CALIBRATION_BINS,
      count: b.count,
      meanForecast: b.meanForecast === null ? null : round4(b.meanForecast),
      observedRate: b.observedRate === null ? null : round4(b.observedRate),
      low: interval ? round4(interval.low) : null,
      high: interval ? round4(interval.high) : null,
    };
  });
  const decomposition = brierDecomposition(unroundedBins);

  return {
    totalPredictions: n,
    correctPredictions: correct,
    accuracy: round4(correct / n),
    brierScore: round4(brier),
    logScore: round6(log),
    decomposition: decomposition && {
      reliability: round6(decomposition.reliability),
      resolution: round6(decomposition.resolution),
      uncertainty: round6(decomposition.uncertainty),
    },
    calibration,
    market: { brier: round4(marketBrier), log: round6(marketLog) },
    skill: { brier: round4(marketBrier - brier), log: round6(log - marketLog) },
    totalPoints: round4(points),
    ...categoryLists(scored, minCategory),
    trend: trendOf(scored),
  };
}

function categoryLists(scored: QuestionScore[], minCategory: number): Pick<PredictionPerformanceView, 'bestCategories' | 'improvementAreas'> {
  const groups = new Map<string, GroupSums>();
  for (const q of scored) if (q.category !== null && q.category !== '') addTo(groups, q.category, q);
  const categories: { score: PredictionCategoryScore; skill: number }[] = [];
  for (const [category, g] of groups) {
    if (g.count < minCategory) continue;
    const brier = g.brier / g.count;
    const marketBrier = g.marketBrier / g.count;
    const skill = marketBrier - brier;
    categories.push({ skill, score: { category, count: g.count, brier: round4(brier), marketBrier: round4(marketBrier), skill: round4(skill) } });
  }
  const tie = (a: { score: PredictionCategoryScore }, b: { score: PredictionCategoryScore }) =>
    b.score.count - a.score.count || (a.score.category < b.score.category ? -1 : a.score.category > b.score.category ? 1 : 0);
  return {
    bestCategories: categories
      .filter((c) => c.skill > 0)
      .sort((a, b) => b.skill - a.skill || tie(a, b))
      .slice(0, CATEGORY_LIST_SIZE)
      .map((c) => c.score),
    improvementAreas: categories
      .filter((c) => c.skill < 0)
      .sort((a, b) => a.skill - b.skill || tie(a, b))
      .slice(0, CATEGORY_LIST_SIZE)
      .map((c) => c.score),
  };
}

function trendOf(scored: QuestionScore[]): PredictionTrendPoint[] {
  const months = new Map<number, GroupSums>();
  for (const q of scored) addTo(months, utcMonthIndex(q.resolvedAt), q);
  return [...months.keys()]
    .sort((a, b) => a - b)
    .map((month) => {
      const g = months.get(month) as GroupSums;
      return {
        month: monthLabel(month),
        count: g.count,
        brier: round4(g.brier / g.count),
        marketBrier: round4(g.marketBrier / g.count),
        log: round6(g.log / g.count),
        marketLog: round6(g.marketLog / g.count),
        accuracy: round4(g.correct / g.count),
      };
    });
}
