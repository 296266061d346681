import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkEvent,
  computeConsensus,
  consensusConfidence,
  consensusReasoning,
  decideAlert,
  eventConfidence,
  eventReasoning,
  executablePrices,
  forecasterQuality,
  forecasterWeight,
  formatPoints,
  formatProbability,
  priceGap,
  spreadFactor,
  type AlertSituation,
  type EventMarket,
  type ExecutablePrices,
} from '../../src/predictions/predictions-mispricing';

/**
 * The mispricing rules (pure), each on hand-computed cases. Numbers as docs/predictions.md
 * ("Mispricing alerts") gives them: threshold 0.05, closes below 0.03, fee 0 unless said.
 */
const SETTINGS = { threshold: 0.05, feeRate: 0, minForecasters: 3 };
const book = (bid: number, ask: number): ExecutablePrices => executablePrices({ bid, ask, mid: null, spread: null })!;

describe('mispricing: the consensus of forecasters weighted by their track record', () => {
  it('weighs a record by its Brier quality, trusted in proportion to its resolved questions (n / (n + 10)); no record weighs 0.25', () => {
    // quality = clamp((0.25 - brier) / 0.25 + 0.5, 0.1, 1.5)
    expect(forecasterQuality(0.25)).toBeCloseTo(0.5, 12); // a coin flip
    expect(forecasterQuality(0.125)).toBeCloseTo(1.0, 12);
    expect(forecasterQuality(0)).toBeCloseTo(1.5, 12);
    expect(forecasterQuality(0.4)).toBe(0.1); // -0.1, clamped
    expect(forecasterWeight(null)).toBe(0.25);
    expect(forecasterWeight({ resolved: 0, brier: null })).toBe(0.25);
    // n 10, Brier 0.125: c 0.5 -> 0.5 x 1.0 + 0.5 x 0.25 = 0.625
    expect(forecasterWeight({ resolved: 10, brier: 0.125 })).toBeCloseTo(0.625, 12);
    // n 30, Brier 0.05: quality 1.3, c 0.75 -> 0.975 + 0.0625 = 1.0375
    expect(forecasterWeight({ resolved: 30, brier: 0.05 })).toBeCloseTo(1.0375, 12);
    // n 90, Brier 0.4 (worse than a coin flip): quality 0.1, c 0.9 -> 0.09 + 0.025 = 0.115, below no record at all
    expect(forecasterWeight({ resolved: 90, brier: 0.4 })).toBeCloseTo(0.115, 12);
  });

  it('is the weighted mean of the forecasts, and none below the minimum number of forecasters', () => {
    const forecasts = [
      { p: 0.8, record: { resolved: 30, brier: 0.05 } }, // 1.0375
      { p: 0.7, record: { resolved: 10, brier: 0.125 } }, // 0.625
      { p: 0.5, record: null }, // 0.25
    ];
    const consensus = computeConsensus(forecasts, 3)!;
    // (0.8 x 1.0375 + 0.7 x 0.625 + 0.5 x 0.25) / 1.9125 = 1.3925 / 1.9125 = 0.728105 -> 4 decimals
    expect(consensus.fairValue).toBe(0.7281);
    expect(consensus.totalWeight).toBeCloseTo(1.9125, 12);
    expect(consensus).toMatchObject({ forecasters: 3, withRecord: 2 });
    // Mean quality of the two records: (1.3 + 1.0) / 2
    expect(consensus.recordQuality).toBeCloseTo(1.15, 12);
    expect(consensus.weights).toEqual([
      { p: 0.8, weight: 1.0375, resolved: 30 },
      { p: 0.7, weight: 0.625, resolved: 10 },
      { p: 0.5, weight: 0.25, resolved: 0 },
    ]);
    expect(computeConsensus(forecasts.slice(0, 2), 3)).toBeNull();
  });
});

describe('mispricing: the executable price and the gap after fees', () => {
  it('trades at the best bid and ask when known; else the mid +- half the spread Gamma gave; else the mid alone', () => {
    // The recorded Gamma market (btc-updown-5m): bestBid 0.5, bestAsk 0.51, spread 0.009, outcomePrices 0.505.
    expect(executablePrices({ bid: 0.5, ask: 0.51, mid: 0.505, spread: 0.009 })).toEqual({ bid: 0.5, ask: 0.51, mid: 0.505, basis: 'book', spread: 0.01 });
    expect(executablePrices({ bid: null, ask: null, mid: 0.505, spread: 0.009 })).toEqual({ bid: 0.5005, ask: 0.5095, mid: 0.505, basis: 'gamma_spread', spread: 0.009 });
    expect(executablePrices({ bid: null, ask: null, mid: 0.62, spread: null })).toEqual({ bid: 0.62, ask: 0.62, mid: 0.62, basis: 'mid', spread: null });
    // A crossed book is not a book.
    expect(executablePrices({ bid: 0.63, ask: 0.62, mid: 0.62, spread: null })?.basis).toBe('mid');
    expect(executablePrices({ bid: null, ask: null, mid: null, spread: 0.01 })).toBeNull();
  });

  it('measures fair - ask to buy YES and fair - bid to sell it, net of fees, and no gap inside the spread', () => {
    const quote = book(0.6, 0.62);
    expect(priceGap(0.71, quote, 0)).toEqual({ deviation: 0.09, side: 'buy_yes', price: 0.62, fee: 0 });
    expect(priceGap(0.5, quote, 0)).toEqual({ deviation: -0.1, side: 'sell_yes', price: 0.6, fee: 0 });
    expect(priceGap(0.61, quote, 0)).toEqual({ deviation: 0, side: null, price: 0.61, fee: 0 });
    // Fee 2 % of the amount traded: buying costs 0.62 x 1.02 = 0.6324 -> 0.71 - 0.6324 = 0.0776.
    expect(priceGap(0.71, quote, 0.02)).toEqual({ deviation: 0.0776, side: 'buy_yes', price: 0.62, fee: 0.0124 });
    // Selling gets 0.60 x 0.98 = 0.588 -> 0.50 - 0.588 = -0.088.
    expect(priceGap(0.5, quote, 0.02)).toEqual({ deviation: -0.088, side: 'sell_yes', price: 0.6, fee: 0.012 });
    // 0.63 clears the ask before fees but not after (0.6324): no gap.
    expect(priceGap(0.63, quote, 0.02).side).toBeNull();
  });
});

describe('mispricing: the consistency of a negative-risk event', () => {
  const market = (marketId: number, bid: number, ask: number, flags: Partial<EventMarket> = {}): EventMarket => ({
    marketId,
    negRisk: true,
    negRiskAugmented: false,
    exec: book(bid, ask),
    ...flags,
  });

  it('when buying every outcome costs less than 1 by the threshold, each market is worth its mid / the sum of mids', () => {
    // Asks 0.31 + 0.21 + 0.31 = 0.83: buying all pays 1 for 0.83, edge 0.17. Mids 0.30 + 0.20 + 0.30 = 0.80.
    const check = checkEvent([market(1, 0.29, 0.31), market(2, 0.19, 0.21), market(3, 0.29, 0.31)], SETTINGS);
    expect(check).toMatchObject({ eligible: true, direction: 'buy_all', sumAsks: 0.83, sumBids: 0.77, sumMids: 0.8, buyAllEdge: 0.17, sellAllEdge: -0.23, edge: 0.17, triggered: true });
    expect([...check.fairValues]).toEqual([
      [1, 0.375],
      [2, 0.25],
      [3, 0.375],
    ]);
    // Against each market's ask: 0.375 - 0.31 = 0.065 (an alert), 0.25 - 0.21 = 0.04 (below the threshold).
    expect(priceGap(0.375, book(0.29, 0.31), 0).deviation).toBe(0.065);
    expect(priceGap(0.25, book(0.19, 0.21), 0).deviation).toBe(0.04);
    // Confidence: min(1, 0.17 / 0.15) x spread factor (1 - 5 x 0.02 = 0.9).
    expect(eventConfidence(check, book(0.29, 0.31), 0.05)).toBe(0.9);
    const gap = priceGap(0.375, book(0.29, 0.31), 0);
    expect(eventReasoning(check, 'Who wins?', 0.375, gap, book(0.29, 0.31))).toBe(
      'The 3 outcomes of "Who wins?" cost 0.83 together at the asks though one of them pays 1: YES here is worth 0.375 (its share of the mids); the ask is 0.31: YES is 6.5 points cheap after fees.',
    );
  });

  it('when selling every outcome gets more than 1 by the threshold, the markets priced above their share look rich', () => {
    // Bids 0.49 + 0.39 + 0.29 = 1.17: edge 0.17. Mids 1.20 -> fair 0.4167, 0.3333, 0.25.
    const check = checkEvent([market(1, 0.49, 0.51), market(2, 0.39, 0.41), market(3, 0.29, 0.31)], SETTINGS);
    expect(check).toMatchObject({ direction: 'sell_all', sellAllEdge: 0.17, triggered: true });
    const gaps = [...check.fairValues].map(([id, fair]) => priceGap(fair, book(...(({ 1: [0.49, 0.51], 2: [0.39, 0.41], 3: [0.29, 0.31] }) as Record<number, [number, number]>)[id]), 0).deviation);
    // 0.4167 - 0.49, 0.3333 - 0.39, 0.25 - 0.29
    expect(gaps).toEqual([-0.0733, -0.0567, -0.04]);
    const gap = priceGap(check.fairValues.get(1)!, book(0.49, 0.51), 0);
    expect(eventReasoning(check, null, check.fairValues.get(1)!, gap, book(0.49, 0.51))).toBe(
      'The 3 outcomes of this event sell for 1.17 together at the bids though only one of them pays 1: YES here is worth 0.4167 (its share of the mids); the bid is 0.49: YES is 7.3 points rich after fees.',
    );
  });

  it('takes fees off the edge, and between 0.6 x and 1 x the threshold keeps fair values for open alerts without opening new ones', () => {
    // Asks 0.47 + 0.46 = 0.93: edge 0.07; fee 2 %: 1 - 0.93 x 1.02 = 0.0514 (opens); fee 3 %: 0.0421 (keeps only).
    const pair = [market(1, 0.45, 0.47), market(2, 0.44, 0.46)];
    expect(checkEvent(pair, { ...SETTINGS, feeRate: 0.02 })).toMatchObject({ edge: 0.0514, triggered: true, direction: 'buy_all' });
    const kept = checkEvent(pair, { ...SETTINGS, feeRate: 0.03 });
    expect(kept).toMatchObject({ edge: 0.0421, triggered: false, direction: 'buy_all' });
    expect(kept.fairValues.size).toBe(2);
    // Asks 1.01, bids 0.99: consistent, no fair value at all.
    const fair = checkEvent([market(1, 0.49, 0.5), market(2, 0.5, 0.51)], SETTINGS);
    expect(fair).toMatchObject({ eligible: true, direction: null, triggered: false, edge: -0.01 });
    expect(fair.fairValues.size).toBe(0);
  });

  it("never checks augmented negative-risk events (the recorded one's 2 markets sum to 0.025), non-negative-risk ones, lone, unpriced or incomplete ones", () => {
    // The recorded Gamma event (Democratic nominee 2028): negRisk and negRiskAugmented, 2 of its many markets kept.
    const [event] = JSON.parse(readFileSync(join(__dirname, '../../src/predictions/data/polymarket_gamma_events_democratic-nominee-2028_negRisk_2markets.json'), 'utf8')) as {
      negRisk: boolean;
      negRiskAugmented: boolean;
      markets: { id: string; bestBid: number; bestAsk: number }[];
    }[];
    expect([event.negRisk, event.negRiskAugmented]).toEqual([true, true]);
    const recorded = event.markets.map((m) => market(Number(m.id), m.bestBid, m.bestAsk, { negRisk: event.negRisk, negRiskAugmented: event.negRiskAugmented }));
    const augmented = checkEvent(recorded, SETTINGS);
    // Asks 0.011 + 0.015 = 0.026: "buying every outcome" would look like 0.97 of free money; it is not (placeholders, many markets).
    expect(augmented).toMatchObject({ eligible: false, skipped: 'augmented', sumAsks: 0.026, direction: null, triggered: false });
    expect(augmented.fairValues.size).toBe(0);
    // The same prices in a plain negative-risk event: the mids (0.0105 + 0.0145) are far from 1, so markets are missing from our copy.
    expect(checkEvent(recorded.map((m) => ({ ...m, negRiskAugmented: false })), SETTINGS).skipped).toBe('incomplete');
    // Outcomes of an event that is not negative risk are never assumed exclusive.
    expect(checkEvent([market(1, 0.29, 0.31, { negRisk: false }), market(2, 0.19, 0.21, { negRisk: false })], SETTINGS).skipped).toBe('not_neg_risk');
    expect(checkEvent([market(1, 0.29, 0.31)], SETTINGS).skipped).toBe('too_few_markets');
    expect(checkEvent([market(1, 0.29, 0.31), market(2, 0, 0, { exec: null })], SETTINGS).skipped).toBe('unpriced');
  });
});

describe('mispricing: opening, keeping and closing an alert (threshold 0.05, closes below 0.03)', () => {
  const gap = (deviation: number) => ({ deviation, side: deviation > 0 ? ('buy_yes' as const) : deviation < 0 ? ('sell_yes' as const) : null, price: 0.5, fee: 0 });
  const decide = (situation: Partial<AlertSituation>) => decideAlert({ open: null, market: 'open', gap: gap(0), canOpen: true, ...situation }, 0.05);

  it('opens at the threshold, keeps an open alert down to 0.6 x it on the same side, and closes below', () => {
    expect(decide({ gap: gap(0.05) })).toEqual({ action: 'open' });
    expect(decide({ gap: gap(-0.09) })).toEqual({ action: 'open' });
    expect(decide({ gap: gap(0.0499) })).toEqual({ action: 'none' });
    expect(decide({ open: { deviation: 0.09 }, gap: gap(0.04) })).toEqual({ action: 'keep' });
    expect(decide({ open: { deviation: 0.09 }, gap: gap(0.03) })).toEqual({ action: 'keep' });
    expect(decide({ open: { deviation: 0.09 }, gap: gap(0.0299) })).toEqual({ action: 'close', reason: 'gap_closed' });
    expect(decide({ open: { deviation: 0.09 }, gap: gap(0) })).toEqual({ action: 'close', reason: 'gap_closed' });
    // The side flips: closed, and a new alert opens when the other side reaches the threshold.
    expect(decide({ open: { deviation: 0.09 }, gap: gap(-0.06) })).toEqual({ action: 'replace' });
    expect(decide({ open: { deviation: 0.09 }, gap: gap(-0.04) })).toEqual({ action: 'close', reason: 'side_flipped' });
  });

  it('closes when the market closes or resolves or the rule gives no fair value; leaves things as they are with no price', () => {
    expect(decide({ open: { deviation: 0.09 }, market: 'closed', gap: gap(0.09) })).toEqual({ action: 'close', reason: 'market_closed' });
    expect(decide({ open: { deviation: 0.09 }, market: 'resolved' })).toEqual({ action: 'close', reason: 'market_resolved' });
    expect(decide({ market: 'resolved', gap: gap(0.09) })).toEqual({ action: 'none' });
    expect(decide({ open: { deviation: 0.09 }, gap: 'no_fair_value' })).toEqual({ action: 'close', reason: 'no_fair_value' });
    expect(decide({ open: { deviation: 0.09 }, gap: 'no_price' })).toEqual({ action: 'none' });
    // An event between 0.6 x and 1 x the threshold: open alerts are kept, none opens.
    expect(decide({ canOpen: false, gap: gap(0.06) })).toEqual({ action: 'none' });
    expect(decide({ canOpen: false, open: { deviation: 0.07 }, gap: gap(0.06) })).toEqual({ action: 'keep' });
  });
});

describe('mispricing: confidence and the sentence', () => {
  it('3 forecasters with good records at 0.71 against an ask of 0.62: 9 points, confidence from their weight and the spread', () => {
    const good = { resolved: 10, brier: 0.125 }; // weight 0.625 each
    const consensus = computeConsensus([0.7, 0.71, 0.72].map((p) => ({ p, record: good })), 3)!;
    expect(consensus.fairValue).toBe(0.71);
    const quote = book(0.6, 0.62);
    const gap = priceGap(consensus.fairValue, quote, 0);
    expect(consensusReasoning(consensus, gap, quote)).toBe('3 forecasters with good records put YES at 0.71; the ask is 0.62: YES is 9 points cheap after fees.');
    // Support W / (W + 2) = 1.875 / 3.875 = 0.48387; spread factor 1 - 5 x 0.02 = 0.9 -> 0.43548.
    expect(consensusConfidence(consensus, quote)).toBe(0.4355);
    // Without records, against a mid only: said so, and the spread factor is 0.5 (0.75 / 2.75 x 0.5 = 0.13636).
    const unknown = computeConsensus([0.7, 0.71, 0.72].map((p) => ({ p, record: null })), 3)!;
    const mid = executablePrices({ bid: null, ask: null, mid: 0.62, spread: null })!;
    expect(consensusReasoning(unknown, priceGap(0.71, mid, 0), mid)).toBe(
      '3 forecasters with no resolved forecasts yet put YES at 0.71; the mid is 0.62 (no bid or ask known): YES is 9 points cheap after fees.',
    );
    expect(consensusConfidence(unknown, mid)).toBe(0.1364);
    // Some with a record: "(1 with fair records)"; Gamma's spread: "about".
    const mixed = computeConsensus([{ p: 0.3, record: { resolved: 20, brier: 0.2 } }, { p: 0.3, record: null }, { p: 0.3, record: null }], 3)!;
    const gamma = executablePrices({ bid: null, ask: null, mid: 0.4, spread: 0.02 })!;
    expect(consensusReasoning(mixed, priceGap(0.3, gamma, 0), gamma)).toBe(
      '3 forecasters (1 with fair records) put YES at 0.30; the bid is about 0.39 (mid 0.40 less half the spread Polymarket reports): YES is 9 points rich after fees.',
    );
  });

  it('spread factor 1 - 5 x spread within [0.25, 1], 0.5 with no spread known; numbers as people read them', () => {
    expect(spreadFactor(book(0.5, 0.51))).toBe(0.95);
    expect(spreadFactor(book(0.5, 0.55))).toBeCloseTo(0.75, 12);
    expect(spreadFactor(book(0.4, 0.6))).toBe(0.25);
    expect(spreadFactor(executablePrices({ bid: null, ask: null, mid: 0.5, spread: null })!)).toBe(0.5);
    expect([0.71, 0.625, 0.0105, 0.5, 1].map(formatProbability)).toEqual(['0.71', '0.625', '0.0105', '0.50', '1.00']);
    expect([0.09, 0.065, -0.0733, 0.0776].map(formatPoints)).toEqual(['9', '6.5', '7.3', '7.8']);
  });
});
