// The mispricing rules (pure, no I/O): the track-record-weighted consensus of users' forecasts, the
// consistency of a negative-risk event's prices, the executable price a gap is measured against,
// when an alert opens, stays and closes, its confidence and its sentence. Numbers and examples in
// docs/predictions.md, "Mispricing alerts".

/** What the rules are tuned with (PREDICTIONS_MISPRICING_THRESHOLD, PREDICTIONS_FEE_RATE, PREDICTIONS_CONSENSUS_MIN_FORECASTERS). */
export interface MispricingSettings {
  /** A gap of at least this (probability points, 0.05 = 5 points) opens an alert. */
  threshold: number;
  /** Trading fee as a fraction of the amount traded (0: Polymarket charges none on most markets). */
  feeRate: number;
  /** Users with a recent forecast needed for a consensus. */
  minForecasters: number;
}

export const DEFAULT_MISPRICING_SETTINGS: MispricingSettings = { threshold: 0.05, feeRate: 0, minForecasters: 3 };

/** An open alert closes when its gap falls below threshold x this (hysteresis: no open/close flapping around the threshold). */
export const MISPRICING_CLOSE_RATIO = 0.6;

/** Resolved questions at which a track record counts half (credibility n / (n + 10)). */
export const CONSENSUS_CREDIBILITY_N = 10;
/** The weight of a forecaster without a track record: half a coin-flip forecaster's (quality 0.5). */
export const CONSENSUS_BASE_WEIGHT = 0.25;
export const CONSENSUS_QUALITY_MIN = 0.1;
export const CONSENSUS_QUALITY_MAX = 1.5;

/** An event whose mids sum outside this band is taken as incomplete (markets missing from our copy), not as mispriced. */
export const EVENT_SUM_OF_MIDS_BAND = [0.5, 1.5] as const;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
/** Rounds to 4 decimals, the stored precision (numeric(5,4)); every comparison with the threshold is made on rounded values. */
export const round4 = (x: number) => Math.round((x + Number.EPSILON * Math.sign(x)) * 10_000) / 10_000;

// ---------------------------------------------------------------------------------------------
// Rule 1: the consensus of users' forecasts, weighted by their track record.

/** A forecaster's record from prediction_performance: resolved questions scored and their mean Brier score. */
export interface TrackRecord {
  resolved: number;
  brier: number | null;
}

/**
 * How good a record's Brier score is: 0.5 for a coin flip (Brier 0.25), +1 per 0.25 better, within
 * [0.1, 1.5] (Brier 0 -> 1.5; 0.125 -> 1.0; 0.35 or worse -> 0.1).
 */
export function forecasterQuality(brier: number): number {
  return clamp((0.25 - brier) / 0.25 + 0.5, CONSENSUS_QUALITY_MIN, CONSENSUS_QUALITY_MAX);
}

/**
 * A forecaster's weight: their quality, trusted in proportion to how much of it there is (credibility
 * c = n / (n + 10), n = resolved questions), the rest the base weight 0.25 of someone unknown:
 * weight = c x quality + (1 - c) x 0.25. No record (or nothing resolved): 0.25.
 */
export function forecasterWeight(record: TrackRecord | null): number {
  if (!record || record.resolved <= 0 || record.brier === null || !Number.isFinite(record.brier)) return CONSENSUS_BASE_WEIGHT;
  const c = record.resolved / (record.resolved + CONSENSUS_CREDIBILITY_N);
  return c * forecasterQuality(record.brier) + (1 - c) * CONSENSUS_BASE_WEIGHT;
}

/** One user's current forecast on the market (made within the consensus window), with their record. */
export interface ConsensusForecast {
  p: number;
  record: TrackRecord | null;
}

export interface Consensus {
  /** The weighted mean of the forecasts, 4 decimals. */
  fairValue: number;
  forecasters: number;
  /** Sum of the weights. */
  totalWeight: number;
  /** Forecasters with a scored record. */
  withRecord: number;
  /** Mean quality of the records of those who have one; null when nobody has one. */
  recordQuality: number | null;
  /** Each forecast with its weight, heaviest first (no user ids: the alert is shown to everyone). */
  weights: { p: number; weight: number; resolved: number }[];
}

/** The consensus of the forecasts (one per user), or null with fewer than `minForecasters`. */
export function computeConsensus(forecasts: readonly ConsensusForecast[], minForecasters: number): Consensus | null {
  if (forecasts.length < Math.max(1, minForecasters)) return null;
  const weighted = forecasts.map((f) => ({ p: f.p, weight: forecasterWeight(f.record), resolved: f.record?.resolved ?? 0, record: f.record }));
  const totalWeight = weighted.reduce((a, w) => a + w.weight, 0);
  // Rounded to the stored 4 decimals before any gap is measured, so the stored fair value - price = the stored deviation.
  const fairValue = round4(weighted.reduce((a, w) => a + w.weight * w.p, 0) / totalWeight);
  const recorded = weighted.filter((w) => w.record && w.record.resolved > 0 && w.record.brier !== null);
  const recordQuality = recorded.length ? recorded.reduce((a, w) => a + forecasterQuality(w.record!.brier!), 0) / recorded.length : null;
  return {
    fairValue,
    forecasters: forecasts.length,
    totalWeight,
    withRecord: recorded.length,
    recordQuality,
    weights: weighted
      .map((w) => ({ p: round4(w.p), weight: round4(w.weight), resolved: w.resolved }))
      .sort((a, b) => b.weight - a.weight || a.p - b.p),
  };
}

// ---------------------------------------------------------------------------------------------
// Rule 3: the executable price.

/** What we know of a market's YES price: the best bid and ask (CLOB book or Gamma), the mid, Gamma's spread. */
export interface MarketQuote {
  bid: number | null;
  ask: number | null;
  mid: number | null;
  spread: number | null;
}

/** book: a best bid and ask are known; gamma_spread: mid +- half Gamma's spread; mid: the mid alone. */
export type PriceBasis = 'book' | 'gamma_spread' | 'mid';

export interface ExecutablePrices {
  /** What selling YES (buying NO) gets. */
  bid: number;
  /** What buying YES costs. */
  ask: number;
  mid: number;
  basis: PriceBasis;
  /** ask - bid; null on the mid basis (nothing known of the spread). */
  spread: number | null;
}

const isPrice = (x: number | null): x is number => x !== null && Number.isFinite(x) && x >= 0 && x <= 1;

/**
 * The prices a trader can trade at: the best bid and ask when both are known and not crossed (their
 * mean is the mid); else the mid +- half Gamma's spread; else the mid alone. Null with no price at all.
 */
export function executablePrices(quote: MarketQuote): ExecutablePrices | null {
  const { bid, ask, mid, spread } = quote;
  if (isPrice(bid) && isPrice(ask) && bid <= ask && ask > 0) {
    return { bid, ask, mid: round4((bid + ask) / 2), basis: 'book', spread: round4(ask - bid) };
  }
  if (!isPrice(mid)) return null;
  if (spread !== null && Number.isFinite(spread) && spread > 0 && spread < 1) {
    const b = round4(Math.max(0, mid - spread / 2));
    const a = round4(Math.min(1, mid + spread / 2));
    return { bid: b, ask: a, mid, basis: 'gamma_spread', spread: round4(a - b) };
  }
  return { bid: mid, ask: mid, mid, basis: 'mid', spread: null };
}

/** The gap between a fair value and what can be traded, after fees. */
export interface PriceGap {
  /**
   * Signed, 4 decimals: fair - ask x (1 + fee) when that is positive (YES is cheap: buy it), fair -
   * bid x (1 - fee) when that is negative (YES is rich: sell it, i.e. buy NO), else 0.
   */
  deviation: number;
  side: 'buy_yes' | 'sell_yes' | null;
  /** The price the gap is measured against: the ask to buy, the bid to sell (the mid when there is no gap). */
  price: number;
  /** The fee of that trade, in probability points. */
  fee: number;
}

export function priceGap(fair: number, exec: ExecutablePrices, feeRate: number): PriceGap {
  const buyFee = exec.ask * feeRate;
  const sellFee = exec.bid * feeRate;
  const buy = round4(fair - exec.ask - buyFee);
  if (buy > 0) return { deviation: buy, side: 'buy_yes', price: exec.ask, fee: round4(buyFee) };
  const sell = round4(fair - exec.bid + sellFee);
  if (sell < 0) return { deviation: sell, side: 'sell_yes', price: exec.bid, fee: round4(sellFee) };
  return { deviation: 0, side: null, price: exec.mid, fee: 0 };
}

// ---------------------------------------------------------------------------------------------
// Rule 2: the consistency of a negative-risk event.

/** One active market of an event as the event rule sees it. */
export interface EventMarket {
  marketId: number;
  negRisk: boolean;
  negRiskAugmented: boolean;
  /** Null: no price known. */
  exec: ExecutablePrices | null;
}

export type EventSkipReason = 'not_neg_risk' | 'augmented' | 'too_few_markets' | 'unpriced' | 'incomplete';

export interface EventCheck {
  eligible: boolean;
  /** Why the event is not checked (eligible false). */
  skipped: EventSkipReason | null;
  markets: number;
  sumAsks: number;
  sumBids: number;
  sumMids: number;
  /** 1 - sum of asks x (1 + fee): what buying every outcome earns (one of them pays 1). */
  buyAllEdge: number;
  /** sum of bids x (1 - fee) - 1: what selling every outcome earns. */
  sellAllEdge: number;
  /** The larger edge and its direction, when it reaches threshold x 0.6 (fair values given); else null. */
  direction: 'buy_all' | 'sell_all' | null;
  edge: number;
  /** The edge reaches the threshold: new alerts may open (between 0.6 x and 1 x only open ones are kept). */
  triggered: boolean;
  /** Each market's fair value, its mid / sum of mids (4 decimals), when direction is set. */
  fairValues: Map<number, number>;
}

/**
 * Rule 2. Only events Polymarket runs as negative risk (exactly one outcome wins) and not augmented
 * (augmented events hold placeholder outcomes: their prices do not sum to 1 by design), with at least
 * 2 active markets, all priced, whose mids sum within [0.5, 1.5] (outside it, our copy is missing
 * markets). When buying every outcome at the asks costs less than 1 by the threshold (after fees), or
 * selling every one at the bids gets more than 1 by it, each market's fair value is its mid / sum of mids.
 */
export function checkEvent(markets: readonly EventMarket[], settings: Pick<MispricingSettings, 'threshold' | 'feeRate'>): EventCheck {
  const priced = markets.filter((m) => m.exec !== null);
  const sumAsks = round4(priced.reduce((a, m) => a + m.exec!.ask, 0));
  const sumBids = round4(priced.reduce((a, m) => a + m.exec!.bid, 0));
  const sumMids = round4(priced.reduce((a, m) => a + m.exec!.mid, 0));
  const buyAllEdge = round4(1 - sumAsks * (1 + settings.feeRate));
  const sellAllEdge = round4(sumBids * (1 - settings.feeRate) - 1);
  const base = { markets: markets.length, sumAsks, sumBids, sumMids, buyAllEdge, sellAllEdge };
  const skip = (skipped: EventSkipReason): EventCheck => ({
    ...base,
    eligible: false,
    skipped,
    direction: null,
    edge: 0,
    triggered: false,
    fairValues: new Map(),
  });
  if (!markets.length || !markets.every((m) => m.negRisk)) return skip('not_neg_risk');
  if (markets.some((m) => m.negRiskAugmented)) return skip('augmented');
  if (markets.length < 2) return skip('too_few_markets');
  if (priced.length < markets.length) return skip('unpriced');
  if (sumMids < EVENT_SUM_OF_MIDS_BAND[0] || sumMids > EVENT_SUM_OF_MIDS_BAND[1]) return skip('incomplete');
  const direction = buyAllEdge >= sellAllEdge ? 'buy_all' : 'sell_all';
  const edge = Math.max(buyAllEdge, sellAllEdge);
  const keeps = edge >= round4(settings.threshold * MISPRICING_CLOSE_RATIO);
  return {
    ...base,
    eligible: true,
    skipped: null,
    direction: keeps ? direction : null,
    edge,
    triggered: edge >= settings.threshold,
    fairValues: keeps ? new Map(markets.map((m) => [m.marketId, round4(m.exec!.mid / sumMids)])) : new Map(),
  };
}

// ---------------------------------------------------------------------------------------------
// Opening, keeping and closing an alert.

export type AlertCloseReason = 'gap_closed' | 'side_flipped' | 'no_fair_value' | 'market_closed' | 'market_resolved';

export type AlertDecision =
  | { action: 'none' }
  | { action: 'open' }
  | { action: 'keep' }
  | { action: 'close'; reason: AlertCloseReason }
  /** Close the open alert (its side flipped) and open a new one on the other side. */
  | { action: 'replace' };

export interface AlertSituation {
  /** The open alert of this market and source, if any. */
  open: { deviation: number } | null;
  market: 'open' | 'closed' | 'resolved';
  /** The gap now; 'no_fair_value': the rule gives none (too few forecasters, event consistent); 'no_price': no price known. */
  gap: PriceGap | 'no_fair_value' | 'no_price';
  /** Whether a new alert may open (the event rule's edge reaches the threshold; always for the consensus). */
  canOpen: boolean;
}

/**
 * Opens at |deviation| >= threshold; an open alert is kept (and refreshed) while |deviation| >=
 * threshold x 0.6 on the same side, and closes below that, when its side flips (a new one opens when
 * the other side reaches the threshold), when the rule gives no fair value any more, or when the
 * market closes or resolves. With no price known, nothing changes.
 */
export function decideAlert(situation: AlertSituation, threshold: number): AlertDecision {
  const { open, gap } = situation;
  if (situation.market !== 'open') return open ? { action: 'close', reason: situation.market === 'resolved' ? 'market_resolved' : 'market_closed' } : { action: 'none' };
  if (gap === 'no_price') return { action: 'none' };
  if (gap === 'no_fair_value') return open ? { action: 'close', reason: 'no_fair_value' } : { action: 'none' };
  const size = Math.abs(gap.deviation);
  const opens = situation.canOpen && gap.side !== null && size >= round4(threshold);
  if (!open) return opens ? { action: 'open' } : { action: 'none' };
  const sameSide = gap.side !== null && Math.sign(gap.deviation) === Math.sign(open.deviation);
  if (sameSide && size >= round4(threshold * MISPRICING_CLOSE_RATIO)) return { action: 'keep' };
  if (!sameSide && gap.side !== null) return opens ? { action: 'replace' } : { action: 'close', reason: 'side_flipped' };
  return { action: 'close', reason: 'gap_closed' };
}

// ---------------------------------------------------------------------------------------------
// Confidence and the sentence.

/**
 * How far the price can be trusted, from the width of the spread: 1 - 5 x spread within [0.25, 1]
 * (1 point wide: 0.95; 5 points: 0.75; 15 points or more: 0.25); 0.5 when no spread is known (mid only).
 */
export function spreadFactor(exec: ExecutablePrices): number {
  if (exec.basis === 'mid' || exec.spread === null) return 0.5;
  return clamp(1 - 5 * exec.spread, 0.25, 1);
}

/**
 * Consensus confidence: support x spread factor, support = W / (W + 2) with W the sum of the
 * forecasters' weights (3 unknown forecasters, W 0.75: 0.27; 3 good ones, W ~3: 0.6; 10: 0.83).
 */
export function consensusConfidence(consensus: Pick<Consensus, 'totalWeight'>, exec: ExecutablePrices): number {
  return round4((consensus.totalWeight / (consensus.totalWeight + 2)) * spreadFactor(exec));
}

/**
 * Event confidence: strength x spread factor, strength = min(1, edge / (3 x threshold)) (an edge at the
 * threshold: 1/3; at three times it: 1).
 */
export function eventConfidence(check: Pick<EventCheck, 'edge'>, exec: ExecutablePrices, threshold: number): number {
  return round4(Math.min(1, Math.max(0, check.edge) / (3 * threshold)) * spreadFactor(exec));
}

/** A probability as people read it: at least 2 decimals, at most 4 (0.71, 0.625, 0.0105). */
export function formatProbability(x: number): string {
  const s = round4(x).toFixed(4).replace(/0{1,2}$/, '');
  return s;
}

/** Probability points of a deviation: 0.09 -> "9", 0.095 -> "9.5". */
export function formatPoints(deviation: number): string {
  return String(Math.round(Math.abs(deviation) * 1000) / 10);
}

/** "the ask is 0.62" / "the bid is about 0.41 (mid 0.42 less half Gamma's spread)" / "the mid is 0.62 (no bid or ask known)". */
function pricePhrase(gap: PriceGap, exec: ExecutablePrices): string {
  const side = gap.side === 'sell_yes' ? 'bid' : 'ask';
  if (exec.basis === 'book') return `the ${side} is ${formatProbability(gap.price)}`;
  if (exec.basis === 'gamma_spread') {
    return `the ${side} is about ${formatProbability(gap.price)} (mid ${formatProbability(exec.mid)} ${side === 'ask' ? 'plus' : 'less'} half the spread Polymarket reports)`;
  }
  return `the mid is ${formatProbability(gap.price)} (no bid or ask known)`;
}

function gapPhrase(gap: PriceGap): string {
  return `YES is ${formatPoints(gap.deviation)} points ${gap.deviation > 0 ? 'cheap' : 'rich'} after fees`;
}

/** good (quality >= 1, Brier <= 0.125), fair (>= 0.5, no worse than a coin flip), weak. */
export function recordPhrase(quality: number): string {
  return quality >= 1 ? 'good records' : quality >= 0.5 ? 'fair records' : 'weak records';
}

/** "3 forecasters with good records put YES at 0.71; the ask is 0.62: YES is 9 points cheap after fees." */
export function consensusReasoning(consensus: Consensus, gap: PriceGap, exec: ExecutablePrices): string {
  const n = consensus.forecasters;
  const who = `${n} forecaster${n === 1 ? '' : 's'}`;
  const records =
    consensus.recordQuality === null
      ? `${who} with no resolved forecasts yet`
      : consensus.withRecord === n
        ? `${who} with ${recordPhrase(consensus.recordQuality)}`
        : `${who} (${consensus.withRecord} with ${recordPhrase(consensus.recordQuality)})`;
  return `${records} put YES at ${formatProbability(consensus.fairValue)}; ${pricePhrase(gap, exec)}: ${gapPhrase(gap)}.`;
}

/**
 * "The 3 outcomes of "Who wins?" cost 0.88 together at the asks though one of them pays 1: YES here is
 * worth 0.45 (its share of the mids); the ask is 0.38: YES is 7 points cheap after fees."
 */
export function eventReasoning(check: EventCheck, eventTitle: string | null, fair: number, gap: PriceGap, exec: ExecutablePrices): string {
  const event = eventTitle ? `"${eventTitle}"` : 'this event';
  const together =
    check.direction === 'sell_all'
      ? `sell for ${formatProbability(check.sumBids)} together at the bids though only one of them pays 1`
      : `cost ${formatProbability(check.sumAsks)} together at the asks though one of them pays 1`;
  return `The ${check.markets} outcomes of ${event} ${together}: YES here is worth ${formatProbability(fair)} (its share of the mids); ${pricePhrase(gap, exec)}: ${gapPhrase(gap)}.`;
}

/** A number as the stored numeric(5,4) string. */
export function toFixed4(x: number): string {
  return round4(x).toFixed(4);
}
