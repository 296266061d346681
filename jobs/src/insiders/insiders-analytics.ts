import Decimal from 'decimal.js';
import {
  BUY_CODE,
  CLUSTER_BUY_MIN_INSIDERS,
  INSIDER_WINDOW_DAYS,
  SELL_CODE,
  type InsiderAlertLevel,
  type InsiderAnalyticsView,
  type InsiderRole,
  type InsiderSentiment,
  type TraderPattern,
} from './insiders.shapes';
import type { InsiderAlertKind } from './insiders.jobs';

/**
 * Insider analytics, pure (no I/O). The exact definitions are in docs/insiders.md ("Analytics" and
 * "Alerts"); keep the two in step. Money and shares are computed with decimal.js; values are
 * rounded half away from zero (money and scores to 2 decimals, shares to 4, confidence to 4).
 */

/** Role weights of the sentiment: the highest weight among the roles an insider filed with. */
export const INSIDER_ROLE_WEIGHTS: Readonly<Record<InsiderRole, number>> = {
  officer: 1,
  director: 0.8,
  tenPercentOwner: 0.5,
  other: 0.3,
};
/** sentimentScore at or above: bullish; at or below the negative: bearish; between: neutral. */
export const INSIDER_BULLISH_AT = 20;
export const INSIDER_BEARISH_AT = -20;
/** Confidence: distinct discretionary traders that give the full insider part. */
export const CONFIDENCE_FULL_INSIDERS = 5;
/** Confidence: the value part is 0 at or below this (USD), 1 at or above CONFIDENCE_FULL_VALUE, log-scaled between. */
export const CONFIDENCE_VALUE_FLOOR = 10_000;
export const CONFIDENCE_FULL_VALUE = 1_000_000;
export const CONFIDENCE_INSIDER_WEIGHT = 0.6;
export const CONFIDENCE_VALUE_WEIGHT = 0.4;
/** Cohen-Malloy-Pomorski: the previous calendar years looked at. */
export const ROUTINE_YEARS = 3;
/** Unusual activity (medium): an officer's or director's non-routine discretionary purchases in the window summing to at least this (USD). */
export const UNUSUAL_OFFICER_BUY_MIN_VALUE = 100_000;
/** Unusual activity (low): a bullish score at or above this percentile of the company's own history... */
export const UNUSUAL_HISTORY_PERCENTILE = 95;
/** ...with at least this many earlier scores... */
export const UNUSUAL_MIN_HISTORY = 20;
/** ...and at least this confidence. */
export const UNUSUAL_MIN_CONFIDENCE = 0.5;
/** A filing is news (can notify) for this long after EDGAR accepted it. */
export const INSIDER_ALERT_MAX_AGE_HOURS = 72;
/** Buyers a reason sentence names before "and N more". */
const REASON_MAX_NAMED = 5;

/** One transaction line of a company, as the analytics read it. */
export interface InsiderLine {
  id: string;
  insiderId: number;
  insiderName: string;
  /** The roles the insider filed this line's filing with (latest known when the filing has none). */
  roles: InsiderRole[];
  officerTitle: string | null;
  /** The SEC transaction code (P, S, A, M, G, F, ...). */
  code: string;
  table: 'non-derivative' | 'derivative';
  transactionDate: string;
  /** Decimal strings. */
  shares: string;
  value: string | null;
  rule10b5One: boolean | null;
  acquiredDisposed: 'A' | 'D' | null;
  accessionNumber: string;
  /** EDGAR acceptance time, ISO; null when only the filing date is known. */
  filedAt: string | null;
  filingDate: string | null;
  secUrl: string | null;
}

export interface InsiderAnalyticsInput {
  analysisDate: string;
  /**
   * The company's lines up to analysisDate: every line of the window, and the P and S lines before
   * it (the routine history and the cluster episode). Later lines are ignored.
   */
  lines: readonly InsiderLine[];
  /** Other companies' sentiment scores of analysisDate (percentileRank); none: null. */
  peerScores?: readonly string[];
  /** The company's own scores of earlier dates (historyPercentile); none: null. */
  historyScores?: readonly string[];
}

/** A run of consecutive days on which the company was in a cluster buy, up to analysisDate. */
export interface ClusterEpisode {
  /** The first day of the run. */
  startDate: string;
  /** The earliest purchase in the window of startDate: the episode's alert key. */
  firstBuyDate: string;
}

export interface InsiderAnalyticsResult {
  view: InsiderAnalyticsView;
  /** Every P and S line up to analysisDate: its Cohen-Malloy-Pomorski pattern (null: under 3 years of history). */
  traderPatterns: Map<string, TraderPattern | null>;
  cluster: ClusterEpisode | null;
  /** The lines of the window (analysisDate - 29 days .. analysisDate), oldest first. */
  windowLines: InsiderLine[];
}

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);
const DAY_MS = 86_400_000;

const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dayString = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The first day of the 30-day window ending on analysisDate (inclusive at both ends). */
export function insiderWindowStart(analysisDate: string): string {
  return dayString(dayNumber(analysisDate) - (INSIDER_WINDOW_DAYS - 1));
}

export const isBuy = (line: Pick<InsiderLine, 'code'>): boolean => line.code === BUY_CODE;
export const isSell = (line: Pick<InsiderLine, 'code'>): boolean => line.code === SELL_CODE;
/** P or S not declared under a 10b5-1 plan (false and unknown both count). */
export const isDiscretionary = (line: Pick<InsiderLine, 'code' | 'rule10b5One'>): boolean => (isBuy(line) || isSell(line)) && line.rule10b5One !== true;
export const isOfficerOrDirector = (line: Pick<InsiderLine, 'roles'>): boolean => line.roles.includes('officer') || line.roles.includes('director');

/** The highest weight among the roles; an insider with none flagged weighs as 'other'. */
export function roleWeight(roles: readonly InsiderRole[]): number {
  return roles.length ? Math.max(...roles.map((r) => INSIDER_ROLE_WEIGHTS[r])) : INSIDER_ROLE_WEIGHTS.other;
}

/** What a reason sentence calls the insider: the officer title, else the heaviest role. */
export function roleLabel(line: Pick<InsiderLine, 'roles' | 'officerTitle'>): string {
  if (line.roles.includes('officer')) return line.officerTitle?.trim() || 'Officer';
  if (line.roles.includes('director')) return 'Director';
  if (line.roles.includes('tenPercentOwner')) return '10% owner';
  return 'Insider';
}

const money = (value: string | null): Decimal => (value === null ? ZERO : new Decimal(value).abs());
const sum = (values: Decimal[]): Decimal => values.reduce((a, b) => a.plus(b), ZERO);
const fixed2 = (d: Decimal): string => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
const fixed4 = (d: Decimal): string => d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4);

/** $950, $12.5k, $500k, $1.2M, $3B (one decimal at most, trailing .0 dropped). */
export function formatUsd(value: Decimal.Value): string {
  const v = new Decimal(value).abs();
  const whole = v.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  if (whole.lt(1000)) return `$${whole.toString()}`;
  const units = ['k', 'M', 'B'];
  let unit = 0;
  let scaled = v.div(1e3).toDecimalPlaces(1, Decimal.ROUND_HALF_UP);
  // 999,950 is 1000.0k after rounding: say $1M.
  while (scaled.gte(1000) && unit < units.length - 1) {
    unit++;
    scaled = v.div(new Decimal(1000).pow(unit + 1)).toDecimalPlaces(1, Decimal.ROUND_HALF_UP);
  }
  return `$${scaled.toString()}${units[unit]}`;
}

/** '54.5' -> '+54.50'. */
export function signedScore(value: string): string {
  const d = new Decimal(value);
  return `${d.gt(0) ? '+' : ''}${d.toFixed(2)}`;
}

/**
 * Cohen-Malloy-Pomorski, per P or S line: the insider's P and S lines at this company are its
 * trading history. A line of month M of year Y is `routine` when the insider traded (P or S) in
 * month M of each of Y-1, Y-2 and Y-3; `opportunistic` when the insider traded in each of those
 * three years (any month) but is not routine; null otherwise (under 3 years of history).
 */
export function classifyTraderPatterns(lines: readonly InsiderLine[]): Map<string, TraderPattern | null> {
  const trades = lines.filter((l) => isBuy(l) || isSell(l));
  const months = new Map<number, Set<string>>();
  const years = new Map<number, Set<number>>();
  for (const line of trades) {
    const y = Number(line.transactionDate.slice(0, 4));
    const m = line.transactionDate.slice(5, 7);
    if (!months.has(line.insiderId)) months.set(line.insiderId, new Set());
    if (!years.has(line.insiderId)) years.set(line.insiderId, new Set());
    months.get(line.insiderId)!.add(`${y}-${m}`);
    years.get(line.insiderId)!.add(y);
  }
  const patterns = new Map<string, TraderPattern | null>();
  for (const line of trades) {
    const y = Number(line.transactionDate.slice(0, 4));
    const m = line.transactionDate.slice(5, 7);
    const previous = Array.from({ length: ROUTINE_YEARS }, (_, i) => y - 1 - i);
    const tradedYears = years.get(line.insiderId)!;
    const tradedMonths = months.get(line.insiderId)!;
    if (!previous.every((py) => tradedYears.has(py))) patterns.set(line.id, null);
    else patterns.set(line.id, previous.every((py) => tradedMonths.has(`${py}-${m}`)) ? 'routine' : 'opportunistic');
  }
  return patterns;
}

/**
 * The cluster-buy episode that analysisDate is in, or null: a day is "in a cluster" when at least
 * CLUSTER_BUY_MIN_INSIDERS distinct insiders have a P line in its 30-day window; the episode is the
 * run of consecutive such days ending on analysisDate, and its key the earliest P date in the
 * window of its first day (so an ongoing cluster keeps one key whatever buys join it later).
 */
export function clusterEpisode(lines: readonly InsiderLine[], analysisDate: string): ClusterEpisode | null {
  const end = dayNumber(analysisDate);
  const buys = lines.filter((l) => isBuy(l) && l.transactionDate <= analysisDate).map((l) => ({ day: dayNumber(l.transactionDate), insider: l.insiderId }));
  const buyersOn = (day: number): number => new Set(buys.filter((b) => b.day <= day && b.day > day - INSIDER_WINDOW_DAYS).map((b) => b.insider)).size;
  if (buyersOn(end) < CLUSTER_BUY_MIN_INSIDERS) return null;
  let start = end;
  while (buyersOn(start - 1) >= CLUSTER_BUY_MIN_INSIDERS) start--;
  const first = Math.min(...buys.filter((b) => b.day <= start && b.day > start - INSIDER_WINDOW_DAYS).map((b) => b.day));
  return { startDate: dayString(start), firstBuyDate: dayString(first) };
}

/**
 * 100 x (scores of the comparison set at or below the score, plus the score itself) / (set size + 1),
 * 2 decimals; null without a score or with an empty comparison set.
 */
export function percentileAgainst(score: string | null, others: readonly string[]): string | null {
  if (score === null || !others.length) return null;
  const s = new Decimal(score);
  const atOrBelow = others.filter((o) => new Decimal(o).lte(s)).length + 1;
  return fixed2(new Decimal(atOrBelow).times(HUNDRED).div(others.length + 1));
}

/** 100 x (wB - wS) / (wB + wS), 2 decimals; null when both are 0. */
export function sentimentScoreOf(weightedBuy: Decimal, weightedSell: Decimal): string | null {
  const total = weightedBuy.plus(weightedSell);
  if (total.isZero()) return null;
  return fixed2(weightedBuy.minus(weightedSell).times(HUNDRED).div(total));
}

export function sentimentLabel(score: string | null): InsiderSentiment | null {
  if (score === null) return null;
  const s = new Decimal(score);
  if (s.gte(INSIDER_BULLISH_AT)) return 'bullish';
  if (s.lte(INSIDER_BEARISH_AT)) return 'bearish';
  return 'neutral';
}

/**
 * 0..1, 4 decimals: 0.6 x min(insiders, 5) / 5 + 0.4 x clamp(log10(value / 10,000) / 2, 0, 1), where
 * insiders are the distinct insiders with a discretionary P or S line with a value in the window and
 * value is discretionary buys + sells (USD, unweighted). $10k -> 0, $100k -> 0.5, $1M -> 1.
 */
export function confidenceOf(insiders: number, value: Decimal): string {
  const insiderPart = new Decimal(Math.min(insiders, CONFIDENCE_FULL_INSIDERS)).div(CONFIDENCE_FULL_INSIDERS);
  const decades = Decimal.log10(CONFIDENCE_FULL_VALUE / CONFIDENCE_VALUE_FLOOR);
  const valuePart = value.lte(CONFIDENCE_VALUE_FLOOR) ? ZERO : Decimal.min(1, value.div(CONFIDENCE_VALUE_FLOOR).log(10).div(decades));
  return fixed4(insiderPart.times(CONFIDENCE_INSIDER_WEIGHT).plus(valuePart.times(CONFIDENCE_VALUE_WEIGHT)));
}

/** "on 2025-03-02", "on 2025-03-02 and 2025-03-04", "from 2025-03-02 to 2025-03-09". */
function datesPhrase(dates: string[]): string {
  const days = [...new Set(dates)].sort();
  if (days.length === 1) return `on ${days[0]}`;
  if (days.length === 2) return `on ${days[0]} and ${days[1]}`;
  return `from ${days[0]} to ${days[days.length - 1]}`;
}

/** An insider's lines of a reason, summed. */
export interface InsiderTradeGroup {
  insiderId: number;
  name: string;
  role: string;
  value: Decimal;
  dates: string[];
  lines: InsiderLine[];
}

/** Lines grouped by insider, largest value first (then name), each named by its newest line's role. */
export function groupByInsider(lines: readonly InsiderLine[]): InsiderTradeGroup[] {
  const groups = new Map<number, InsiderTradeGroup>();
  for (const line of lines) {
    const group = groups.get(line.insiderId) ?? { insiderId: line.insiderId, name: line.insiderName, role: roleLabel(line), value: ZERO, dates: [], lines: [] };
    group.value = group.value.plus(money(line.value));
    group.dates.push(line.transactionDate);
    group.lines.push(line);
    group.role = roleLabel(line);
    groups.set(line.insiderId, group);
  }
  return [...groups.values()].sort((a, b) => b.value.comparedTo(a.value) || a.name.localeCompare(b.name));
}

/** "Doe John (CEO) $500k on 2025-03-02" for each group, the first five, then "and N more". */
export function namedTrades(groups: InsiderTradeGroup[], suffix: (g: InsiderTradeGroup) => string = () => ''): string {
  const named = groups.slice(0, REASON_MAX_NAMED).map((g) => `${g.name} (${g.role}) ${formatUsd(g.value)} ${datesPhrase(g.dates)}${suffix(g)}`);
  const more = groups.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** "3 insiders bought $1.2M on the open market in 30 days: A (CEO) $500k on 2025-03-02, ...". */
export function clusterReason(buys: readonly InsiderLine[]): string {
  const groups = groupByInsider(buys);
  return `${groups.length} insiders bought ${formatUsd(sum(groups.map((g) => g.value)))} on the open market in ${INSIDER_WINDOW_DAYS} days: ${namedTrades(groups)}.`;
}

/** The pattern an insider's lines show: opportunistic when any is, else routine when all are, else unknown. */
export function groupPattern(lines: readonly InsiderLine[], patterns: Map<string, TraderPattern | null>): TraderPattern | null {
  const found = lines.map((l) => patterns.get(l.id) ?? null);
  if (found.includes('opportunistic')) return 'opportunistic';
  if (found.length && found.every((p) => p === 'routine')) return 'routine';
  return null;
}

export function patternPhrase(pattern: TraderPattern | null): string {
  return pattern === 'opportunistic' ? 'opportunistic' : pattern === 'routine' ? 'routine' : 'under 3 years of history';
}

function officerReason(groups: InsiderTradeGroup[], patterns: Map<string, TraderPattern | null>): string {
  const who = groups.length === 1 ? 'An officer or director' : `${groups.length} officers and directors`;
  return `${who} bought on the open market, not as routine trades: ${namedTrades(groups, (g) => ` (${patternPhrase(groupPattern(g.lines, patterns))})`)}.`;
}

/** Computes a company's analytics of one day from its lines (and the peer and history scores for the percentiles). */
export function computeInsiderAnalytics(input: InsiderAnalyticsInput): InsiderAnalyticsResult {
  const { analysisDate } = input;
  const from = insiderWindowStart(analysisDate);
  const known = input.lines.filter((l) => l.transactionDate <= analysisDate);
  const windowLines = known
    .filter((l) => l.transactionDate >= from)
    .sort((a, b) => a.transactionDate.localeCompare(b.transactionDate) || Number(a.id) - Number(b.id));
  const buys = windowLines.filter(isBuy);
  const sells = windowLines.filter(isSell);
  const trades = [...buys, ...sells];
  const shares = (ls: InsiderLine[]) => sum(ls.map((l) => new Decimal(l.shares).abs()));
  const values = (ls: InsiderLine[]) => sum(ls.map((l) => money(l.value)));

  const priced = trades.filter((l) => l.value !== null);
  const discretionaryBuys = buys.filter(isDiscretionary);
  const discretionarySells = sells.filter(isDiscretionary);
  const weighted = (ls: InsiderLine[]) => sum(ls.map((l) => money(l.value).times(roleWeight(l.roles))));
  const score = sentimentScoreOf(weighted(discretionaryBuys), weighted(discretionarySells));
  const discretionaryBuyValue = values(discretionaryBuys);
  const discretionarySellValue = values(discretionarySells);
  const discretionaryTraders = new Set([...discretionaryBuys, ...discretionarySells].filter((l) => money(l.value).gt(0)).map((l) => l.insiderId)).size;
  const confidence = score === null ? null : confidenceOf(discretionaryTraders, discretionaryBuyValue.plus(discretionarySellValue));

  const traderPatterns = classifyTraderPatterns(known);
  const clusterInsiders = new Set(buys.map((l) => l.insiderId)).size;
  const isClusterBuy = clusterInsiders >= CLUSTER_BUY_MIN_INSIDERS;
  const cluster = isClusterBuy ? clusterEpisode(known, analysisDate) : null;
  const historyPercentile = percentileAgainst(score, input.historyScores ?? []);

  // Unusual activity: each rule that holds adds its level, sentence and lines.
  const reasons: { level: InsiderAlertLevel; sentence: string; lines: InsiderLine[] }[] = [];
  if (isClusterBuy) reasons.push({ level: 'high', sentence: clusterReason(buys), lines: buys });
  const officerGroups = groupByInsider(discretionaryBuys.filter((l) => isOfficerOrDirector(l) && traderPatterns.get(l.id) !== 'routine')).filter((g) =>
    g.value.gte(UNUSUAL_OFFICER_BUY_MIN_VALUE),
  );
  if (officerGroups.length && !isClusterBuy) {
    reasons.push({ level: 'medium', sentence: officerReason(officerGroups, traderPatterns), lines: officerGroups.flatMap((g) => g.lines) });
  }
  const historySize = input.historyScores?.length ?? 0;
  if (
    score !== null &&
    sentimentLabel(score) === 'bullish' &&
    historyPercentile !== null &&
    new Decimal(historyPercentile).gte(UNUSUAL_HISTORY_PERCENTILE) &&
    historySize >= UNUSUAL_MIN_HISTORY &&
    confidence !== null &&
    new Decimal(confidence).gte(UNUSUAL_MIN_CONFIDENCE)
  ) {
    reasons.push({
      level: 'low',
      sentence:
        `Insider sentiment ${signedScore(score)} is in the top ${100 - UNUSUAL_HISTORY_PERCENTILE}% of the company's own history ` +
        `(percentile ${historyPercentile} of ${historySize} earlier days), from ${formatUsd(discretionaryBuyValue)} bought and ` +
        `${formatUsd(discretionarySellValue)} sold at the insiders' discretion by ${discretionaryTraders} insider${discretionaryTraders === 1 ? '' : 's'}.`,
      lines: discretionaryBuys,
    });
  }
  const levels: InsiderAlertLevel[] = ['none', 'low', 'medium', 'high'];
  const alertLevel = reasons.reduce<InsiderAlertLevel>((top, r) => (levels.indexOf(r.level) > levels.indexOf(top) ? r.level : top), 'none');
  const reasonTransactionIds = [...new Set(reasons.flatMap((r) => r.lines.map((l) => l.id)))];

  const view: InsiderAnalyticsView = {
    analysisDate,
    totalTransactions30d: windowLines.length,
    buyTransactions30d: buys.length,
    sellTransactions30d: sells.length,
    netShares30d: fixed4(shares(buys).minus(shares(sells))),
    netValue30d: fixed2(values(buys).minus(values(sells))),
    totalVolume30d: fixed4(shares(trades)),
    avgTransactionSize: priced.length ? fixed2(values(priced).div(priced.length)) : null,
    discretionaryBuyValue: fixed2(discretionaryBuyValue),
    discretionarySellValue: fixed2(discretionarySellValue),
    distinctInsiders: new Set(trades.map((l) => l.insiderId)).size,
    insiderSentiment: sentimentLabel(score),
    sentimentScore: score,
    confidenceLevel: confidence,
    percentileRank: percentileAgainst(score, input.peerScores ?? []),
    historyPercentile,
    isClusterBuy,
    clusterInsiders,
    isUnusualActivity: alertLevel !== 'none',
    alertLevel,
    alertReason: reasons.length ? reasons.map((r) => r.sentence).join(' ') : null,
    reasonTransactionIds,
  };
  return { view, traderPatterns, cluster, windowLines };
}

// ---------------------------------------------------------------------------------------------
// Alert events: what a recompute notifies, compared with what was stored before.

/** The company's analytics row stored before a recompute (its latest up to the analysis date). */
export interface PreviousInsiderAnalytics {
  analysisDate: string;
  isClusterBuy: boolean;
  isUnusualActivity: boolean;
  reasonTransactionIds: readonly string[];
}

export interface InsiderAlertEvent {
  kind: InsiderAlertKind;
  key: string;
  /** The lines the event is about. */
  transactionIds: string[];
}

/**
 * Whether a line's filing is news at `now`: accepted by EDGAR at most INSIDER_ALERT_MAX_AGE_HOURS
 * earlier (a filing known only by its date: that date at most 3 days before now's UTC date). A
 * backfilled or caught-up older filing is not, so it never notifies.
 */
export function isFreshFiling(line: Pick<InsiderLine, 'filedAt' | 'filingDate'>, now: Date): boolean {
  if (line.filedAt) return now.getTime() - Date.parse(line.filedAt) <= INSIDER_ALERT_MAX_AGE_HOURS * 3600_000;
  if (line.filingDate) return dayNumber(now.toISOString().slice(0, 10)) - dayNumber(line.filingDate) <= INSIDER_ALERT_MAX_AGE_HOURS / 24;
  return false;
}

/** The officer and director purchases (P lines) of one filing within the window, by accession. */
export function officerBuysByFiling(windowLines: readonly InsiderLine[]): Map<string, InsiderLine[]> {
  const byFiling = new Map<string, InsiderLine[]>();
  for (const line of windowLines) {
    if (!isBuy(line) || !isOfficerOrDirector(line)) continue;
    byFiling.set(line.accessionNumber, [...(byFiling.get(line.accessionNumber) ?? []), line]);
  }
  return byFiling;
}

/**
 * The alert events of a recompute:
 * - cluster_buy: the company is in a cluster episode not already stored as one (the previous row is
 *   not a cluster, or predates the episode), and one of the window's purchases is fresh; key = the
 *   episode's first buy date.
 * - officer_buy: per filing with officer or director purchases in the window, when fresh; key = the
 *   accession (the recompute queues each once; whether a follower is notified depends on its minimum).
 * - unusual_activity: newly unusual (the previous row was not unusual, or none of its reason lines is
 *   a reason now: another activity), with a fresh reason line; key = analysisDate.
 */
export function insiderAlertEvents(result: InsiderAnalyticsResult, previous: PreviousInsiderAnalytics | null, now: Date): InsiderAlertEvent[] {
  const events: InsiderAlertEvent[] = [];
  const { view, cluster, windowLines } = result;
  const byId = new Map(windowLines.map((l) => [l.id, l]));
  const buys = windowLines.filter(isBuy);
  if (cluster && buys.some((l) => isFreshFiling(l, now))) {
    const seen = previous !== null && previous.isClusterBuy && previous.analysisDate >= cluster.startDate;
    if (!seen) events.push({ kind: 'cluster_buy', key: cluster.firstBuyDate, transactionIds: buys.map((l) => l.id) });
  }
  for (const [accession, lines] of officerBuysByFiling(windowLines)) {
    if (lines.some((l) => isFreshFiling(l, now))) events.push({ kind: 'officer_buy', key: accession, transactionIds: lines.map((l) => l.id) });
  }
  if (view.isUnusualActivity) {
    const before = new Set(previous?.isUnusualActivity ? previous.reasonTransactionIds : []);
    const ongoing = view.reasonTransactionIds.some((id) => before.has(id));
    if (!ongoing && view.reasonTransactionIds.some((id) => byId.has(id) && isFreshFiling(byId.get(id)!, now))) {
      events.push({ kind: 'unusual_activity', key: view.analysisDate, transactionIds: view.reasonTransactionIds });
    }
  }
  return events;
}
