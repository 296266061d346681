import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MARKET_SEED } from '@tickerbell/jobs/seeds';
import { buildNewsIndex, matchNewsItem, parseNewsFeed, type MatchableMarket, type ParsedNewsItem } from '@tickerbell/jobs/news';
import type { Benchmark, BenchRow } from './bench';

const FIXTURES = join(__dirname, '../jobs/src/news/data');
const MARKETS = 10_000;
const ITEMS = 1_000;
const RUNS = 9;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A deterministic generator (mulberry32), so every run matches the same markets. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 10,000 markets: the seeded ones, every filer of the recorded EDGAR pages as a stock with its
 * CIK, then made-up stocks (3-5 letter tickers, two-word names) and coins. 1,000 items: the 313
 * recorded feed items and filings, repeated.
 */
function benchData(): { markets: MatchableMarket[]; items: ParsedNewsItem[] } {
  const read = (file: string) => parseNewsFeed(readFileSync(join(FIXTURES, file), file.includes('edgar') ? 'latin1' : 'utf8')).items;
  const recorded = [
    ...read('coindesk-rss-2025-12-13.xml'),
    ...read('cointelegraph-rss-2025-12-12.xml'),
    ...read('decrypt-feed-2025-12-12.xml'),
    ...read('edgar-getcurrent-all-forms-start0-2026-01-12.atom.xml'),
    ...read('edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml'),
  ];
  const markets: MatchableMarket[] = MARKET_SEED.map((m, i) => ({ id: i + 1, symbol: m.symbol, name: m.name, type: m.type, cik: null }));
  const symbols = new Set(markets.map((m) => m.symbol));
  const filers = new Map(recorded.filter((i) => i.cik).map((i) => [i.cik as string, i.company as string]));
  const random = seeded(7);
  const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join('');
  const word = () => letters(1) + letters(4 + Math.floor(random() * 5)).toLowerCase();
  for (const [cik, company] of filers) {
    let symbol = letters(4);
    while (symbols.has(symbol)) symbol = letters(4);
    symbols.add(symbol);
    markets.push({ id: markets.length + 1, symbol, name: company, type: 'stock', cik });
  }
  while (markets.length < MARKETS) {
    const crypto = random() < 0.2;
    let ticker = letters(3 + Math.floor(random() * 3));
    while (symbols.has(crypto ? `${ticker}USDT` : ticker)) ticker = letters(3 + Math.floor(random() * 3));
    const symbol = crypto ? `${ticker}USDT` : ticker;
    symbols.add(symbol);
    markets.push({ id: markets.length + 1, symbol, name: crypto ? `${word()} / Tether` : `${word()} ${word()} Inc.`, type: crypto ? 'crypto' : 'stock', cik: null });
  }
  const items = Array.from({ length: ITEMS }, (_, i) => recorded[i % recorded.length]);
  return { markets, items };
}

/** Matching 1,000 new items against 10,000 markets (the target: under 100 ms). Pure CPU. */
export const newsBench: Benchmark = {
  name: 'news',
  description: `matching ${ITEMS.toLocaleString('en-US')} new items against ${MARKETS.toLocaleString('en-US')} markets (one index per poll)`,
  async run() {
    const { markets, items } = benchData();
    const builds: number[] = [];
    const matches: number[] = [];
    const totals: number[] = [];
    let links = 0;
    let itemsMatched = 0;
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const index = buildNewsIndex(markets);
      const built = performance.now();
      links = 0;
      itemsMatched = 0;
      for (const item of items) {
        const found = matchNewsItem(index, item);
        links += found.length;
        if (found.length) itemsMatched += 1;
      }
      const done = performance.now();
      builds.push(built - started);
      matches.push(done - built);
      totals.push(done - started);
    }
    const rows: BenchRow[] = [
      {
        scenario: `${ITEMS} items x ${markets.length} markets`,
        'index build ms (median)': median(builds),
        'match ms (median)': median(matches),
        'total ms (median)': median(totals),
        'total ms (first run)': totals[0],
        'target ms': 100,
        'items matched': itemsMatched,
        links,
      },
    ];
    return rows;
  },
};
