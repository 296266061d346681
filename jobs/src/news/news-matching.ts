import type { NewsMatchKind } from './news.shapes';

/** What matching needs of a market (a row of `markets`). */
export interface MatchableMarket {
  id: number;
  symbol: string;
  name: string;
  type: string;
  cik: string | null;
}

/** What matching reads of an item. */
export interface MatchableItem {
  title: string;
  summary: string | null;
  /** Set on filings: they are matched by the filer's CIK only. */
  cik: string | null;
}

export interface NewsMatch {
  marketId: number;
  matchedBy: NewsMatchKind;
}

// The quote currencies of crypto pairs, longest first: BTCUSDT is about BTC.
const CRYPTO_QUOTES = ['FDUSD', 'USDT', 'USDC', 'BUSD', 'TUSD', 'USD', 'EUR', 'GBP', 'BTC', 'ETH'];

// Exchange prefixes of qualified tickers (NASDAQ:AAPL, BINANCE:BTCUSDT).
const EXCHANGE_PREFIXES = new Set(['NASDAQ', 'NYSE', 'AMEX', 'ARCA', 'NYSEARCA', 'BATS', 'CBOE', 'OTC', 'TSX', 'LSE', 'CME', 'COMEX', 'NYMEX', 'BINANCE', 'COINBASE', 'KRAKEN']);

// Upper-case words that headlines use for other things: a bare word never matches these tickers
// (a cashtag or an exchange prefix still does).
const BARE_STOPWORDS = new Set([
  'CEO', 'CFO', 'CTO', 'COO', 'ETF', 'ETFS', 'ETP', 'SEC', 'CFTC', 'FED', 'FOMC', 'IPO', 'USD', 'EUR', 'GBP', 'JPY', 'GDP', 'CPI', 'PPI',
  'API', 'NFT', 'NFTS', 'DAO', 'DEFI', 'CEX', 'DEX', 'AI', 'IT', 'US', 'USA', 'UK', 'EU', 'UN', 'IMF', 'ALL', 'ARE', 'NEW', 'NOW', 'ONE',
  'FOR', 'AND', 'THE', 'BIG', 'OUT', 'CAN', 'HAS', 'TOP', 'NYSE', 'NASDAQ', 'LLC', 'INC', 'LTD', 'PLC', 'CORP', 'ATH', 'YTD', 'Q1', 'Q2', 'Q3', 'Q4',
]);

// Company-name endings that headlines leave out ("Apple Inc." is "Apple").
const NAME_SUFFIXES = /(?:,?\s+(?:Inc\.?|Incorporated|Corporation|Corp\.?|Company|Co\.|& Co\.?|Ltd\.?|Limited|plc|PLC|N\.V\.|S\.A\.|AG|SE|Holdings?|Group))+$/;

interface NamePattern {
  /** The name's words after the first, compared in order. */
  rest: string[];
  /** Coin names match in any case ("bitcoin"); company names only as written ("Apple", not "apple"). */
  caseSensitive: boolean;
  first: string;
  marketId: number;
}

/** The lookup tables of one poll: tickers, names by first word, CIKs. Built once, read per item. */
export interface NewsIndex {
  /** Upper-case ticker → markets, with whether a bare word may match it. */
  tickers: Map<string, { marketId: number; bare: boolean }[]>;
  /** Lower-case first word of a name → the names starting with it. */
  names: Map<string, NamePattern[]>;
  ciks: Map<string, number[]>;
  size: number;
}

/** The tickers a market is written as: its symbol, and for a crypto pair its base asset (BTCUSDT → BTC). */
export function marketTickers(market: Pick<MatchableMarket, 'symbol' | 'type'>): string[] {
  const symbol = market.symbol.toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9.-]*$/.test(symbol)) return [];
  const tickers = [symbol];
  if (market.type === 'crypto') {
    const quote = CRYPTO_QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length + 1);
    if (quote) tickers.push(symbol.slice(0, -quote.length));
  }
  return tickers;
}

/** The name a headline uses: a coin's name without its quote ("Bitcoin / Tether" → Bitcoin), a company's without "Inc." and the like. */
export function marketHeadlineName(market: Pick<MatchableMarket, 'name' | 'type'>): string | null {
  let name = market.name.trim();
  if (market.type === 'crypto' || market.type === 'forex') {
    if (market.type === 'forex') return null; // "Euro / US Dollar": currency words are everywhere.
    name = name.split(' / ')[0].trim();
  } else {
    name = name.replace(NAME_SUFFIXES, '').trim();
  }
  return name.length >= 3 ? name : null;
}

const WORD = /[A-Za-z0-9]+/g;

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function buildNewsIndex(markets: readonly MatchableMarket[]): NewsIndex {
  const tickers: NewsIndex['tickers'] = new Map();
  const names: NewsIndex['names'] = new Map();
  const ciks: NewsIndex['ciks'] = new Map();
  for (const market of markets) {
    for (const ticker of marketTickers(market)) {
      // Short tickers (ES, GC) and common words match only as $ES or CME:ES.
      push(tickers, ticker, { marketId: market.id, bare: ticker.length >= 3 && !BARE_STOPWORDS.has(ticker) && !/^\d+$/.test(ticker) });
    }
    const name = marketHeadlineName(market);
    const nameWords = name ? words(name) : [];
    if (nameWords.length) {
      const caseSensitive = market.type !== 'crypto';
      const [first, ...rest] = nameWords;
      push(names, first.toLowerCase(), { first, rest, caseSensitive, marketId: market.id });
    }
    if (market.cik) push(ciks, market.cik.padStart(10, '0'), market.id);
  }
  return { tickers, names, ciks, size: markets.length };
}

const STRENGTH: Record<NewsMatchKind, number> = { cik: 4, cashtag: 3, ticker: 2, name: 1 };

/**
 * The markets an item is about. A ticker matches as a whole word written in capitals (BTC, not
 * "BTCs" or "Btc"), as a cashtag ($BTC, any case) or after an exchange prefix (NASDAQ:AAPL); a
 * name matches as whole words; a filing matches the market with its CIK. One match per market,
 * the strongest kind kept (cik, cashtag, ticker, name).
 */
export function matchNewsItem(index: NewsIndex, item: MatchableItem): NewsMatch[] {
  const found = new Map<number, NewsMatchKind>();
  const add = (marketId: number, kind: NewsMatchKind) => {
    const had = found.get(marketId);
    if (!had || STRENGTH[kind] > STRENGTH[had]) found.set(marketId, kind);
  };
  if (item.cik) {
    for (const marketId of index.ciks.get(item.cik.padStart(10, '0')) ?? []) add(marketId, 'cik');
    return [...found].map(([marketId, matchedBy]) => ({ marketId, matchedBy }));
  }
  for (const text of [item.title, item.summary]) {
    if (!text) continue;
    const tokens: { word: string; start: number; end: number }[] = [];
    for (const m of text.matchAll(WORD)) tokens.push({ word: m[0], start: m.index, end: m.index + m[0].length });
    for (let i = 0; i < tokens.length; i++) {
      const { word, start } = tokens[i];
      const upper = word.toUpperCase();
      const tickerHits = index.tickers.get(upper);
      if (tickerHits) {
        const before = text[start - 1];
        const cashtag = before === '$';
        const prefix = before === ':' && i > 0 && tokens[i - 1].end === start - 1 && EXCHANGE_PREFIXES.has(tokens[i - 1].word.toUpperCase());
        for (const hit of tickerHits) {
          if (cashtag) add(hit.marketId, 'cashtag');
          else if (prefix && word === upper) add(hit.marketId, 'ticker');
          else if (hit.bare && word === upper) add(hit.marketId, 'ticker');
        }
      }
      const candidates = index.names.get(word.toLowerCase());
      if (candidates) {
        for (const name of candidates) {
          if (name.caseSensitive && word !== name.first) continue;
          if (i + name.rest.length >= tokens.length && name.rest.length) continue;
          let ok = true;
          for (let k = 0; k < name.rest.length && ok; k++) {
            const next = tokens[i + 1 + k].word;
            ok = name.caseSensitive ? next === name.rest[k] : next.toLowerCase() === name.rest[k].toLowerCase();
          }
          if (ok) add(name.marketId, 'name');
        }
      }
    }
  }
  return [...found].map(([marketId, matchedBy]) => ({ marketId, matchedBy }));
}
