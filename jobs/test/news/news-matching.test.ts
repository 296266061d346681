import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MARKET_SEED } from '../../src/seeds/markets.seed';
import { buildNewsIndex, marketHeadlineName, marketTickers, matchNewsItem, type MatchableMarket } from '../../src/news/news-matching';
import { parseNewsFeed } from '../../src/news/news-feed.parse';

// The seeded markets, with the CIKs the SEC's ticker list gives the US stocks and ETFs.
const CIKS: Record<string, string> = { AAPL: '0000320193', MSFT: '0000789019', TSLA: '0001318605' };
const MARKETS: MatchableMarket[] = MARKET_SEED.map((m, i) => ({ id: i + 1, symbol: m.symbol, name: m.name, type: m.type, cik: CIKS[m.symbol] ?? null }));
const id = (symbol: string) => MARKETS.find((m) => m.symbol === symbol)!.id;
const index = buildNewsIndex(MARKETS);
const match = (title: string, summary: string | null = null, cik: string | null = null) =>
  matchNewsItem(index, { title, summary, cik }).sort((a, b) => a.marketId - b.marketId);

describe('what a market is written as', () => {
  it('a crypto pair is its symbol and its base asset; a stock its symbol', () => {
    expect(marketTickers({ symbol: 'BTCUSDT', type: 'crypto' })).toEqual(['BTCUSDT', 'BTC']);
    expect(marketTickers({ symbol: 'AAPL', type: 'stock' })).toEqual(['AAPL']);
    expect(marketTickers({ symbol: '^GSPC', type: 'index' })).toEqual([]);
  });

  it('a headline names a coin without its quote and a company without "Inc."', () => {
    expect(marketHeadlineName({ name: 'Bitcoin / Tether', type: 'crypto' })).toBe('Bitcoin');
    expect(marketHeadlineName({ name: 'Apple Inc.', type: 'stock' })).toBe('Apple');
    expect(marketHeadlineName({ name: 'Amazon.com, Inc.', type: 'stock' })).toBe('Amazon.com');
    expect(marketHeadlineName({ name: 'JPMorgan Chase & Co.', type: 'stock' })).toBe('JPMorgan Chase');
    expect(marketHeadlineName({ name: 'Euro / US Dollar', type: 'forex' })).toBeNull();
  });
});

describe('matchNewsItem', () => {
  it('matches a ticker written as a whole word in capitals', () => {
    expect(match('BTC slides below 90,000 as ETH holds')).toEqual([
      { marketId: id('BTCUSDT'), matchedBy: 'ticker' },
      { marketId: id('ETHUSDT'), matchedBy: 'ticker' },
    ]);
    expect(match('Options flow heavy in NVDA ahead of earnings')).toEqual([{ marketId: id('NVDA'), matchedBy: 'ticker' }]);
  });

  it('matches a cashtag in any case and an exchange-qualified ticker', () => {
    expect(match('Traders pile into $sol and $DOGE')).toEqual([
      { marketId: id('SOLUSDT'), matchedBy: 'cashtag' },
      { marketId: id('DOGEUSDT'), matchedBy: 'cashtag' },
    ]);
    expect(match('Chart of the day: NASDAQ:AAPL')).toEqual([{ marketId: id('AAPL'), matchedBy: 'ticker' }]);
    // Two-letter futures tickers only with a $ or an exchange prefix.
    expect(match('ES futures and CL slip')).toEqual([]);
    expect(match('$ES and CME:NQ slip')).toEqual([
      { marketId: id('ES'), matchedBy: 'cashtag' },
      { marketId: id('NQ'), matchedBy: 'ticker' },
    ]);
  });

  it('matches a coin name in any case and a company name as written', () => {
    expect(match('Why bitcoin miners are selling', 'Cardano and Solana lag.')).toEqual([
      { marketId: id('BTCUSDT'), matchedBy: 'name' },
      { marketId: id('SOLUSDT'), matchedBy: 'name' },
      { marketId: id('ADAUSDT'), matchedBy: 'name' },
    ]);
    expect(match('Apple and JPMorgan Chase report')).toEqual([
      { marketId: id('AAPL'), matchedBy: 'name' },
      { marketId: id('JPM'), matchedBy: 'name' },
    ]);
    // "apple" the fruit is not the company; "JPMorgan" alone is not "JPMorgan Chase".
    expect(match('An apple a day', 'JPMorgan analysts said')).toEqual([]);
  });

  it('keeps the strongest kind when a market matches several ways', () => {
    expect(match('Bitcoin: $BTC and BTC')).toEqual([{ marketId: id('BTCUSDT'), matchedBy: 'cashtag' }]);
  });

  it('never matches a substring of a longer word', () => {
    expect(match('BTCS and ETHE shares jump; Bitcoiners cheer AAPLX', 'Teslas, Solanas, XRPL, Ethena, NVDAQ, $BTCX')).toEqual([]);
    expect(match('ADAPT', 'SPYGLASS')).toEqual([]);
  });

  it('matches a filing by the CIK of its filer only', () => {
    expect(match('8-K - Tesla, Inc. (0001318605) (Filer)', null, '0001318605')).toEqual([{ marketId: id('TSLA'), matchedBy: 'cik' }]);
    // A filing that names a ticker in its text but is filed by another company is not about it.
    expect(match('4 - Someone (0000000001) (Reporting) AAPL', null, '0000000001')).toEqual([]);
  });

  it('on the recorded feeds, finds the coins the headlines name', () => {
    const feed = parseNewsFeed(readFileSync(join(__dirname, '../../src/news/data/decrypt-feed-2025-12-12.xml'), 'utf8'));
    const first = feed.items[0]; // "Vanguard Exec Calls Bitcoin a 'Digital Labubu', ..."
    expect(matchNewsItem(index, first)).toContainEqual({ marketId: id('BTCUSDT'), matchedBy: 'name' });
    const matched = feed.items.filter((item) => matchNewsItem(index, item).length > 0).length;
    expect(matched).toBeGreaterThan(20);
  });
});
