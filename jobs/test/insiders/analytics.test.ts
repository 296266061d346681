import Decimal from 'decimal.js';
import {
  classifyTraderPatterns,
  clusterEpisode,
  computeInsiderAnalytics,
  confidenceOf,
  formatUsd,
  insiderAlertEvents,
  insiderWindowStart,
  isFreshFiling,
  percentileAgainst,
  roleWeight,
  type InsiderLine,
  type PreviousInsiderAnalytics,
} from '../../src/insiders/insiders-analytics';

// Crafted histories (the recorded filings hold one purchase): every value below is computed by hand
// in the comments, from the definitions in docs/insiders.md "Analytics".

let nextId = 1;
const CEO = { insiderId: 1, insiderName: 'Doe John', roles: ['officer'], officerTitle: 'CEO' } as const;
const DIRECTOR = { insiderId: 2, insiderName: 'Roe Jane', roles: ['director'], officerTitle: null } as const;
const FUND = { insiderId: 3, insiderName: 'Big Fund LP', roles: ['tenPercentOwner'], officerTitle: null } as const;
const OTHER = { insiderId: 4, insiderName: 'Poe Ann', roles: ['other'], officerTitle: null } as const;

function line(who: { insiderId: number; insiderName: string; roles: readonly InsiderLine['roles'][number][]; officerTitle: string | null }, over: Partial<InsiderLine>): InsiderLine {
  const id = String(nextId++);
  return {
    id,
    insiderId: who.insiderId,
    insiderName: who.insiderName,
    roles: [...who.roles],
    officerTitle: who.officerTitle,
    code: 'P',
    table: 'non-derivative',
    transactionDate: '2025-03-10',
    shares: '1000',
    value: '10000.00',
    rule10b5One: false,
    acquiredDisposed: over.code === 'S' || over.code === 'F' || over.code === 'G' ? 'D' : 'A',
    accessionNumber: `0000000000-25-${id.padStart(6, '0')}`,
    filedAt: null,
    filingDate: null,
    secUrl: null,
    ...over,
  };
}

describe('insider analytics (pure, crafted histories)', () => {
  it('windows 30 days inclusive of both ends', () => {
    expect(insiderWindowStart('2025-03-31')).toBe('2025-03-02');
    expect(insiderWindowStart('2024-03-01')).toBe('2024-02-01'); // leap year: 29 days of February + March 1st
  });

  it('weights roles (officer 1.0, director 0.8, 10% owner 0.5, other 0.3; the highest of several) in an MSPR-style score', () => {
    expect([roleWeight(['officer']), roleWeight(['director', 'tenPercentOwner']), roleWeight(['tenPercentOwner']), roleWeight(['other']), roleWeight([])]).toEqual([
      1, 0.8, 0.5, 0.3, 0.3,
    ]);
    const lines = [
      line(CEO, { code: 'P', transactionDate: '2025-03-10', shares: '1000', value: '100000.00' }),
      line(DIRECTOR, { code: 'S', transactionDate: '2025-03-12', shares: '2000', value: '200000.00' }),
      line(FUND, { code: 'S', transactionDate: '2025-03-20', shares: '1000', value: '100000.00' }),
    ];
    const { view } = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines });
    // wB = 1.0 x 100,000 = 100,000; wS = 0.8 x 200,000 + 0.5 x 100,000 = 210,000.
    // score = 100 x (100,000 - 210,000) / 310,000 = -35.4838... -> -35.48 (bearish, <= -20).
    // confidence = 0.6 x 3/5 + 0.4 x log10(400,000 / 10,000) / 2 = 0.36 + 0.4 x 0.80103 = 0.680412 -> 0.6804.
    expect(view).toMatchObject({
      totalTransactions30d: 3,
      buyTransactions30d: 1,
      sellTransactions30d: 2,
      netShares30d: '-2000.0000',
      netValue30d: '-200000.00',
      totalVolume30d: '4000.0000',
      avgTransactionSize: '133333.33',
      discretionaryBuyValue: '100000.00',
      discretionarySellValue: '300000.00',
      distinctInsiders: 3,
      sentimentScore: '-35.48',
      insiderSentiment: 'bearish',
      confidenceLevel: '0.6804',
      isClusterBuy: false,
      clusterInsiders: 1,
      // The CEO's $100k purchase, not known to be routine, is unusual by itself (medium).
      isUnusualActivity: true,
      alertLevel: 'medium',
      alertReason: 'An officer or director bought on the open market, not as routine trades: Doe John (CEO) $100k on 2025-03-10 (under 3 years of history).',
      reasonTransactionIds: [lines[0].id],
    });
    // Unweighted it would be 100 x (100k - 300k) / 400k = -50: the weights matter.
  });

  it('counts only P and S as buying and selling, and leaves 10b5-1 lines out of the discretionary sentiment', () => {
    const lines = [
      line(CEO, { code: 'P', shares: '500', value: '50000.00' }),
      // Under a 10b5-1 plan: a sale, but not discretionary.
      line(CEO, { code: 'S', shares: '800', value: '80000.00', rule10b5One: true }),
      // Unknown plan status (null) counts as discretionary: other role, weight 0.3 -> 3,000.
      line(OTHER, { code: 'S', shares: '100', value: '10000.00', rule10b5One: null }),
      // Shown, never buying or selling: gift, grant, exercise, tax withholding, disposition to the issuer.
      line(DIRECTOR, { code: 'G', shares: '1000', value: null }),
      line(DIRECTOR, { code: 'A', shares: '5000', value: '0.00' }),
      line(CEO, { code: 'M', shares: '2000', value: '20000.00', table: 'derivative' }),
      line(CEO, { code: 'F', shares: '700', value: '30000.00' }),
      line(FUND, { code: 'D', shares: '900', value: '90000.00' }),
    ];
    const { view } = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines });
    // wB = 50,000; wS = 0.3 x 10,000 = 3,000 -> 100 x 47,000 / 53,000 = 88.679... -> 88.68.
    expect(view).toMatchObject({
      totalTransactions30d: 8,
      buyTransactions30d: 1,
      sellTransactions30d: 2,
      netShares30d: '-400.0000', // 500 - (800 + 100)
      netValue30d: '-40000.00', // 50,000 - (80,000 + 10,000)
      totalVolume30d: '1400.0000',
      avgTransactionSize: '46666.67', // 140,000 / 3
      discretionaryBuyValue: '50000.00',
      discretionarySellValue: '10000.00',
      distinctInsiders: 2,
      sentimentScore: '88.68',
      insiderSentiment: 'bullish',
    });
    // Only plan sales and non-trading codes: no discretionary trade, no score, label or confidence.
    const quiet = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: lines.filter((l) => l.code !== 'P' && !(l.code === 'S' && l.rule10b5One !== true)) });
    expect(quiet.view).toMatchObject({ totalTransactions30d: 6, sellTransactions30d: 1, discretionarySellValue: '0.00', sentimentScore: null, insiderSentiment: null, confidenceLevel: null });
    const withoutExclusion = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: lines.map((l) => ({ ...l, rule10b5One: false })) });
    // With the plan sale counted: wS = 80,000 + 3,000 -> 100 x (50,000 - 83,000) / 133,000 = -24.81.
    expect(withoutExclusion.view.sentimentScore).toBe('-24.81');
  });

  it('labels at +20 / -20 and defines confidence from distinct insiders and value', () => {
    const score = (buy: string, sell: string) =>
      computeInsiderAnalytics({
        analysisDate: '2025-03-31',
        lines: [line(CEO, { code: 'P', value: buy }), line(CEO, { code: 'S', value: sell })],
      }).view;
    // 100 x (60 - 40) / 100 = +20 exactly: bullish; +19.99 would be neutral.
    expect(score('60000.00', '40000.00')).toMatchObject({ sentimentScore: '20.00', insiderSentiment: 'bullish' });
    expect(score('40000.00', '60000.00')).toMatchObject({ sentimentScore: '-20.00', insiderSentiment: 'bearish' });
    expect(score('59990.00', '40010.00')).toMatchObject({ sentimentScore: '19.98', insiderSentiment: 'neutral' });
    expect(confidenceOf(1, new Decimal(10_000))).toBe('0.1200'); // 0.6 x 1/5 + 0 (value at the floor)
    expect(confidenceOf(1, new Decimal(100_000))).toBe('0.3200'); // 0.12 + 0.4 x 0.5
    expect(confidenceOf(5, new Decimal(1_000_000))).toBe('1.0000');
    expect(confidenceOf(9, new Decimal(50_000_000))).toBe('1.0000'); // both parts capped
  });

  it('is a cluster buy with exactly 3 distinct insiders buying in the window, not 2; the reason names each buy', () => {
    const outside = line(FUND, { code: 'P', transactionDate: '2025-03-01', value: '70000.00' }); // one day before the window
    const two = [
      line(CEO, { code: 'P', transactionDate: '2025-03-02', value: '200000.00' }), // the window's first day
      line(DIRECTOR, { code: 'P', transactionDate: '2025-03-15', value: '60000.00' }),
      line(DIRECTOR, { code: 'P', transactionDate: '2025-03-20', value: '40000.00' }), // the same insider again
      outside,
    ];
    const notYet = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: two });
    expect(notYet.view).toMatchObject({ isClusterBuy: false, clusterInsiders: 2, buyTransactions30d: 3 });
    const third = line(FUND, { code: 'P', transactionDate: '2025-03-31', value: '50000.00' });
    const { view, cluster } = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: [...two, third] });
    expect(view).toMatchObject({ isClusterBuy: true, clusterInsiders: 3, isUnusualActivity: true, alertLevel: 'high', sentimentScore: '100.00' });
    expect(view.alertReason).toBe(
      '3 insiders bought $350k on the open market in 30 days: Doe John (CEO) $200k on 2025-03-02, ' +
        'Roe Jane (Director) $100k on 2025-03-15 and 2025-03-20, Big Fund LP (10% owner) $50k on 2025-03-31.',
    );
    expect(view.reasonTransactionIds).toEqual([two[0].id, two[1].id, two[2].id, third.id]);
    // The episode: on 2025-03-15 the window (02-14..03-15) already held the fund's 03-01 buy, the CEO
    // and the director; on 03-14 only two buyers. Its key: the first buy of that first window, 03-01.
    expect(cluster).toEqual({ startDate: '2025-03-15', firstBuyDate: '2025-03-01' });
  });

  it("keeps a cluster episode's key while buyers join, and a new episode gets a new key", () => {
    const buys = [
      line(CEO, { transactionDate: '2025-01-10' }),
      line(DIRECTOR, { transactionDate: '2025-01-20' }),
      line(FUND, { transactionDate: '2025-01-25' }),
      line(OTHER, { transactionDate: '2025-02-05' }),
    ];
    expect(clusterEpisode(buys, '2025-01-24')).toBeNull();
    expect(clusterEpisode(buys, '2025-01-25')).toEqual({ startDate: '2025-01-25', firstBuyDate: '2025-01-10' });
    // The CEO's buy leaves the window on 02-09; the other three carry it on: same episode, same key.
    expect(clusterEpisode(buys, '2025-02-12')).toEqual({ startDate: '2025-01-25', firstBuyDate: '2025-01-10' });
    expect(clusterEpisode(buys, '2025-02-18')).toEqual({ startDate: '2025-01-25', firstBuyDate: '2025-01-10' });
    // 02-19: the director's 01-20 buy is out, two buyers left.
    expect(clusterEpisode(buys, '2025-02-19')).toBeNull();
    const later = [...buys, line({ ...CEO, insiderId: 5, insiderName: 'Five' }, { transactionDate: '2025-02-25' }), line({ ...CEO, insiderId: 6, insiderName: 'Six' }, { transactionDate: '2025-02-26' })];
    expect(clusterEpisode(later, '2025-02-26')).toEqual({ startDate: '2025-02-26', firstBuyDate: '2025-02-05' });
  });

  it('classifies routine and opportunistic traders (Cohen-Malloy-Pomorski) across year boundaries', () => {
    const jan = [
      line(CEO, { code: 'S', transactionDate: '2022-01-15' }),
      line(CEO, { code: 'S', transactionDate: '2023-01-20' }),
      line(CEO, { code: 'S', transactionDate: '2024-01-05' }),
      line(CEO, { code: 'S', transactionDate: '2025-01-10' }),
    ];
    const dec = [
      line(DIRECTOR, { code: 'S', transactionDate: '2021-12-20' }),
      line(DIRECTOR, { code: 'P', transactionDate: '2022-12-15' }),
      line(DIRECTOR, { code: 'S', transactionDate: '2023-12-28' }),
      line(DIRECTOR, { code: 'S', transactionDate: '2024-12-30' }),
      // Three days later, in January: traded in each of 2024, 2023, 2022, never in a January.
      line(DIRECTOR, { code: 'P', transactionDate: '2025-01-02' }),
    ];
    const twoYears = [line(FUND, { code: 'S', transactionDate: '2023-05-01' }), line(FUND, { code: 'S', transactionDate: '2024-06-01' }), line(FUND, { code: 'P', transactionDate: '2025-03-03' })];
    const gap = [
      line(OTHER, { code: 'S', transactionDate: '2021-03-01' }),
      line(OTHER, { code: 'S', transactionDate: '2022-03-01' }),
      line(OTHER, { code: 'S', transactionDate: '2024-03-01' }), // nothing in 2023
      line(OTHER, { code: 'P', transactionDate: '2025-03-01' }),
    ];
    const grant = line(CEO, { code: 'A', transactionDate: '2025-01-10' });
    const patterns = classifyTraderPatterns([...jan, ...dec, ...twoYears, ...gap, grant]);
    expect(jan.map((l) => patterns.get(l.id))).toEqual([null, null, null, 'routine']);
    expect(dec.map((l) => patterns.get(l.id))).toEqual([null, null, null, 'routine', 'opportunistic']);
    expect(twoYears.map((l) => patterns.get(l.id))).toEqual([null, null, null]);
    expect(gap.map((l) => patterns.get(l.id))).toEqual([null, null, null, null]);
    // A purchase and a sale both count as trading in a month.
    const mixed = [
      line(FUND, { code: 'P', transactionDate: '2022-06-01' }),
      line(FUND, { code: 'S', transactionDate: '2023-06-30' }),
      line(FUND, { code: 'P', transactionDate: '2024-06-15' }),
      line(FUND, { code: 'S', transactionDate: '2025-06-02' }),
    ];
    expect(classifyTraderPatterns(mixed).get(mixed[3].id)).toBe('routine');
    // Only P and S lines are classified.
    expect(patterns.has(grant.id)).toBe(false);
  });

  it('ranks the score against every company that day and against its own history', () => {
    // 3 of 4 others at or below 10, plus itself: 100 x 4 / 5 = 80.
    expect(percentileAgainst('10', ['-50', '0', '10', '100'])).toBe('80.00');
    expect(percentileAgainst('-100', ['-50', '0'])).toBe('33.33'); // only itself: 100 x 1 / 3
    expect(percentileAgainst('10', [])).toBeNull();
    expect(percentileAgainst(null, ['1'])).toBeNull();
    const { view } = computeInsiderAnalytics({
      analysisDate: '2025-03-31',
      lines: [line(CEO, { code: 'P', value: '30000.00' }), line(DIRECTOR, { code: 'S', value: '12500.00' })],
      peerScores: ['-100.0000', '50.0000', '75.0000'],
      historyScores: ['80.00', '10.00'],
    });
    // wB = 30,000, wS = 0.8 x 12,500 = 10,000 -> score 50.00; peers at or below: -100, 50 -> 100 x 3 / 4 = 75.
    expect(view).toMatchObject({ sentimentScore: '50.00', percentileRank: '75.00', historyPercentile: '66.67' });
  });

  it('flags non-routine officer and director purchases of $100k and more (medium), naming each with its pattern', () => {
    const history = [line(CEO, { code: 'S', transactionDate: '2022-05-01' }), line(CEO, { code: 'S', transactionDate: '2023-06-01' }), line(CEO, { code: 'S', transactionDate: '2024-07-01' })];
    const buy = line(CEO, { code: 'P', transactionDate: '2025-03-10', value: '150000.00' });
    const small = line(DIRECTOR, { code: 'P', transactionDate: '2025-03-11', value: '40000.00' });
    const { view, traderPatterns } = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: [...history, buy, small] });
    expect(traderPatterns.get(buy.id)).toBe('opportunistic');
    expect(traderPatterns.get(small.id)).toBeNull(); // no history: not routine, but $40k is under the $100k
    expect(view).toMatchObject({ isClusterBuy: false, isUnusualActivity: true, alertLevel: 'medium', reasonTransactionIds: [buy.id] });
    expect(view.alertReason).toBe('An officer or director bought on the open market, not as routine trades: Doe John (CEO) $150k on 2025-03-10 (opportunistic).');
    // A $300k director purchase under a 10b5-1 plan is not discretionary: not unusual.
    const planned = line({ ...DIRECTOR, insiderId: 7, insiderName: 'Plan Pat' }, { code: 'P', transactionDate: '2025-03-12', value: '300000.00', rule10b5One: true });
    expect(computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: [planned] }).view).toMatchObject({ isUnusualActivity: false, alertLevel: 'none', buyTransactions30d: 1 });
    // The same purchase by a routine March trader is not unusual.
    const routine = [line(CEO, { code: 'S', transactionDate: '2022-03-01' }), line(CEO, { code: 'S', transactionDate: '2023-03-01' }), line(CEO, { code: 'S', transactionDate: '2024-03-20' })];
    expect(computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: [...routine, buy, small] }).view.isUnusualActivity).toBe(false);
  });

  it('flags a bullish score in the top 5% of 20+ earlier days with confidence >= 0.5 (low)', () => {
    const lines = [line(FUND, { code: 'P', value: '300000.00' }), line(OTHER, { code: 'P', value: '300000.00' })];
    const history = Array.from({ length: 20 }, () => '0.0000');
    const { view } = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines, historyScores: history });
    // confidence = 0.6 x 2/5 + 0.4 x log10(60) / 2 = 0.24 + 0.35563 = 0.5956; history percentile 100 x 21 / 21.
    expect(view).toMatchObject({ sentimentScore: '100.00', confidenceLevel: '0.5956', historyPercentile: '100.00', alertLevel: 'low', isUnusualActivity: true });
    expect(view.alertReason).toBe(
      "Insider sentiment +100.00 is in the top 5% of the company's own history (percentile 100.00 of 20 earlier days), " +
        "from $600k bought and $0 sold at the insiders' discretion by 2 insiders.",
    );
    expect(view.reasonTransactionIds).toEqual(lines.map((l) => l.id));
    // 19 earlier days are not enough history.
    expect(computeInsiderAnalytics({ analysisDate: '2025-03-31', lines, historyScores: history.slice(1) }).view.isUnusualActivity).toBe(false);
  });

  it('formats money for sentences', () => {
    expect(['950', '999.5', '12500', '500000', '1234567', '999950', '3000000000'].map(formatUsd)).toEqual(['$950', '$1k', '$12.5k', '$500k', '$1.2M', '$1M', '$3B']);
  });

  describe('alert events', () => {
    const NOW = new Date('2025-03-31T18:00:00Z');
    const fresh = { filedAt: '2025-03-31T14:00:00.000Z' };
    const stale = { filedAt: '2025-03-20T14:00:00.000Z' };

    it('a filing is news for 72 hours after acceptance (or 3 days after its filing date)', () => {
      expect(isFreshFiling({ filedAt: '2025-03-28T18:00:00Z', filingDate: null }, NOW)).toBe(true);
      expect(isFreshFiling({ filedAt: '2025-03-28T17:59:59Z', filingDate: null }, NOW)).toBe(false);
      expect(isFreshFiling({ filedAt: null, filingDate: '2025-03-28' }, NOW)).toBe(true);
      expect(isFreshFiling({ filedAt: null, filingDate: '2025-03-27' }, NOW)).toBe(false);
      expect(isFreshFiling({ filedAt: null, filingDate: null }, NOW)).toBe(false);
    });

    const clusterLines = () => [
      line(CEO, { transactionDate: '2025-03-10', value: '120000.00', ...stale }),
      line(DIRECTOR, { transactionDate: '2025-03-20', value: '30000.00', ...stale }),
      line(FUND, { transactionDate: '2025-03-28', value: '50000.00', ...fresh }),
    ];

    it('a new cluster, a fresh officer or director purchase, newly unusual activity', () => {
      const lines = clusterLines();
      const result = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines });
      const events = insiderAlertEvents(result, null, NOW);
      // The fund is no officer or director; the CEO's and director's filings are 11 days old.
      expect(events).toEqual([
        { kind: 'cluster_buy', key: '2025-03-10', transactionIds: lines.map((l) => l.id) },
        { kind: 'unusual_activity', key: '2025-03-31', transactionIds: lines.map((l) => l.id) },
      ]);
      const ceoFresh = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: [{ ...lines[0], ...fresh }, lines[1], lines[2]] });
      expect(insiderAlertEvents(ceoFresh, null, NOW).map((e) => [e.kind, e.key])).toEqual([
        ['cluster_buy', '2025-03-10'],
        ['officer_buy', lines[0].accessionNumber],
        ['unusual_activity', '2025-03-31'],
      ]);
    });

    it('an ongoing cluster and ongoing unusual activity raise nothing again; stale filings raise nothing', () => {
      const lines = clusterLines();
      const result = computeInsiderAnalytics({ analysisDate: '2025-03-31', lines });
      const stored: PreviousInsiderAnalytics = { analysisDate: '2025-03-29', isClusterBuy: true, isUnusualActivity: true, reasonTransactionIds: [lines[0].id] };
      // Cluster since 2025-03-28 (the fund's buy), stored on 03-29 as a cluster: the same episode.
      expect(result.cluster).toEqual({ startDate: '2025-03-28', firstBuyDate: '2025-03-10' });
      expect(insiderAlertEvents(result, stored, NOW)).toEqual([]);
      // A row stored before the episode began does not count.
      expect(insiderAlertEvents(result, { ...stored, analysisDate: '2025-03-27', isUnusualActivity: false }, NOW).map((e) => e.kind)).toEqual(['cluster_buy', 'unusual_activity']);
      const backfilled = lines.map((l) => ({ ...l, ...stale }));
      expect(insiderAlertEvents(computeInsiderAnalytics({ analysisDate: '2025-03-31', lines: backfilled }), null, NOW)).toEqual([]);
    });
  });
});
