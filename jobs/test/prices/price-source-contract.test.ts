import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BinanceLiveSource, BinanceReplaySource, parseBinanceKlines, parseBinanceTicker24hr, parseBinanceTickerPrice } from '../../src/prices/binance.client';
import { CoinGeckoLiveSource, CoinGeckoReplaySource, parseCoinGeckoMarkets, parseCoinGeckoSimplePrice } from '../../src/prices/coingecko.client';
import { PriceFetchError, PriceSourceError, type PriceSource, type Quote } from '../../src/prices/price-source';
import { PriceHttpClient } from '../../src/prices/price-http';
import { FIXTURES, fixture, startPriceStandIn, type StandIn } from './price-stand-ins';

const NOW = new Date('2026-11-21T10:00:00Z');
const now = () => NOW;
let http: StandIn;

beforeAll(async () => {
  http = await startPriceStandIn();
});
afterAll(() => http.close());
beforeEach(() => {
  http.mode = 'ok';
  http.requests.length = 0;
});

const coingeckoFiles = {
  simplePrice: join(FIXTURES, 'coingecko_simple_price_example.json'),
  coinsMarkets: join(FIXTURES, 'coingecko_coins_markets_example.json'),
};

interface ContractCase {
  name: string;
  make: () => PriceSource;
  /** The quote of BTCUSDT the recording holds. */
  quote: Omit<Quote, 'symbol' | 'simulated'>;
  /** Whether the source serves candles (BTCUSDT 1m recorded). */
  candles: boolean;
}

const binancePrice = { price: '60740.00000000', at: NOW, change24hPercent: null, volume24h: null, source: 'binance' };
const binance24hr = {
  price: '60755.18000000',
  at: new Date(1634944401452),
  change24hPercent: '-3.003',
  volume24h: '53076.84650000',
  source: 'binance',
};
const geckoSimple = {
  price: '67187.3358936566',
  at: new Date(1711356300 * 1000),
  change24hPercent: '3.63727894677354',
  volume24h: '31260929299.5248',
  source: 'coingecko',
};
const geckoMarkets = {
  price: '70187',
  at: new Date('2024-04-07T16:49:31.736Z'),
  change24hPercent: '3.12502',
  volume24h: '20154184933',
  source: 'coingecko',
};

const CASES: ContractCase[] = [
  { name: 'binance live, ticker/price', make: () => new BinanceLiveSource({ baseUrl: http.base, now }), quote: binancePrice, candles: true },
  { name: 'binance replay, ticker/price', make: () => new BinanceReplaySource(FIXTURES, { now }), quote: binancePrice, candles: true },
  {
    name: 'binance live, ticker/24hr',
    make: () => new BinanceLiveSource({ baseUrl: http.base, now, quoteEndpoint: 'ticker/24hr' }),
    quote: binance24hr,
    candles: true,
  },
  { name: 'binance replay, ticker/24hr', make: () => new BinanceReplaySource(FIXTURES, { now, quoteEndpoint: 'ticker/24hr' }), quote: binance24hr, candles: true },
  { name: 'coingecko live, simple/price', make: () => new CoinGeckoLiveSource({ baseUrl: `${http.base}/api/v3`, now }), quote: geckoSimple, candles: false },
  { name: 'coingecko replay, simple/price', make: () => new CoinGeckoReplaySource(coingeckoFiles, { now }), quote: geckoSimple, candles: false },
  {
    name: 'coingecko live, coins/markets',
    make: () => new CoinGeckoLiveSource({ baseUrl: `${http.base}/api/v3`, now, quoteEndpoint: 'coins/markets' }),
    quote: geckoMarkets,
    candles: false,
  },
  {
    name: 'coingecko replay, coins/markets',
    make: () => new CoinGeckoReplaySource(coingeckoFiles, { now, quoteEndpoint: 'coins/markets' }),
    quote: geckoMarkets,
    candles: false,
  },
];

// Every live client (against a local server answering the recorded payloads) and its replay twin
// pass the same suite.
describe.each(CASES)('price source contract: $name', ({ make, quote, candles }) => {
  it('quotes a recorded symbol as decimal strings, leaving unknown symbols out', async () => {
    const quotes = await make().quotes(['BTCUSDT', 'NOPEUSDT']);
    expect(quotes).toEqual([{ symbol: 'BTCUSDT', simulated: false, ...quote }]);
  });

  it('answers no quotes for no symbols', async () => {
    expect(await make().quotes([])).toEqual([]);
  });

  if (candles) {
    it('serves the last bars oldest first, prices as recorded', async () => {
      const bars = await make().candles('BTCUSDT', '1m', 4);
      expect(bars.map((b) => b.close)).toEqual(['60776.64000000', '60738.58000000', '60739.85000000', '60739.85000000']);
      expect(bars[3]).toEqual({
        openTime: new Date(1634944320000),
        closeTime: new Date(1634944379999),
        open: '60739.85000000',
        high: '60739.85000000',
        low: '60739.85000000',
        close: '60739.85000000',
        volume: '0.04734000',
      });
    });
  } else {
    it('refuses candles with a permanent error', async () => {
      await expect(make().candles('BTCUSDT', '1m', 4)).rejects.toBeInstanceOf(PriceSourceError);
    });
  }
});

describe('recorded price payloads', () => {
  // Each recorded file and the parser that reads it; a new recording without one fails here.
  const PARSERS: Record<string, (body: unknown) => unknown[]> = {
    'binance_spot_api_v3_klines_BTCUSDT_1m.json': (b) => parseBinanceKlines(b),
    'binance_spot_api_v3_ticker_24hr_BTCUSDT.json': (b) => parseBinanceTicker24hr(b),
    'binance_spot_api_v3_ticker_price_BTCUSDT.json': (b) => parseBinanceTickerPrice(b, NOW),
    'coingecko_coins_markets_example.json': (b) => parseCoinGeckoMarkets(b, new Map([['bitcoin', 'BTCUSDT']])),
    'coingecko_simple_price_example.json': (b) => parseCoinGeckoSimplePrice(b, new Map([['bitcoin', 'BTCUSDT']]), NOW),
  };

  it.each(readdirSync(FIXTURES).filter((f) => f.endsWith('.json')))('parses %s', (file) => {
    const parser = PARSERS[file];
    expect(parser).toBeDefined();
    const rows = parser(fixture(file));
    expect(rows.length).toBeGreaterThan(0);
  });

  it('parses all ten recorded klines with ascending, contiguous minutes', () => {
    const bars = parseBinanceKlines(fixture('binance_spot_api_v3_klines_BTCUSDT_1m.json'));
    expect(bars).toHaveLength(10);
    bars.slice(1).forEach((bar, i) => expect(bar.openTime.getTime() - bars[i].openTime.getTime()).toBe(60_000));
  });

  it('rejects an answer of the wrong shape as a permanent error', () => {
    expect(() => parseBinanceKlines([[1634943780000, 60685.22]])).toThrow(PriceSourceError);
    expect(() => parseBinanceTickerPrice({ symbol: 'BTCUSDT', price: 60740 }, NOW)).toThrow(PriceSourceError);
    expect(() => parseCoinGeckoSimplePrice({ bitcoin: { usd: '67187' } }, new Map(), NOW)).toThrow(PriceSourceError);
  });
});

describe('Binance live client', () => {
  it('asks for many symbols in one request, with its User-Agent', async () => {
    const source = new BinanceLiveSource({ baseUrl: http.base, now, userAgent: 'Tickerbell-test/1.0 (ops@example.com)' });
    await source.quotes(['BTCUSDT']);
    expect(http.requests).toHaveLength(1);
    const url = new URL(http.requests[0].url!, http.base);
    expect(url.pathname).toBe('/api/v3/ticker/price');
    expect(JSON.parse(url.searchParams.get('symbols')!)).toEqual(['BTCUSDT']);
    expect(http.requests[0].headers['user-agent']).toBe('Tickerbell-test/1.0 (ops@example.com)');
  });

  it('batches ticker/24hr by 20 symbols, the cheapest weight', async () => {
    const symbols = Array.from({ length: 45 }, (_, i) => `S${i}USDT`);
    await new BinanceLiveSource({ baseUrl: http.base, now, quoteEndpoint: 'ticker/24hr' }).quotes(symbols);
    const batches = http.requests
      .map((r) => new URL(r.url!, http.base).searchParams.get('symbols'))
      .filter((s): s is string => s !== null)
      .map((s) => JSON.parse(s).length)
      .slice(0, 3);
    // Each refused batch (unknown symbols) is then asked one by one, after the three batches.
    expect(batches).toEqual([20, 1, 1]);
    expect(http.requests.filter((r) => JSON.parse(new URL(r.url!, http.base).searchParams.get('symbols')!).length > 1)).toHaveLength(3);
  });

  it('asks for klines with symbol, interval and a limit of at most 1000', async () => {
    await new BinanceLiveSource({ baseUrl: http.base, now }).candles('BTCUSDT', '1m', 5000);
    const params = Object.fromEntries(new URL(http.requests[0].url!, http.base).searchParams);
    expect(params).toEqual({ symbol: 'BTCUSDT', interval: '1m', limit: '1000' });
  });

  it('fails with a retryable error on a 5xx or a timeout', async () => {
    http.mode = 'busy';
    await expect(new BinanceLiveSource({ baseUrl: http.base, now }).quotes(['BTCUSDT'])).rejects.toThrow(
      new PriceFetchError(`GET ${http.base}/api/v3/ticker/price: HTTP 503`),
    );
    http.mode = 'slow';
    await expect(new BinanceLiveSource({ baseUrl: http.base, now, timeoutMs: 200 }).candles('BTCUSDT', '1m', 2)).rejects.toThrow(
      /no answer within 200 ms/,
    );
  });

  it('honours Retry-After on 429 and sends nothing more until it has passed', async () => {
    const source = new BinanceLiveSource({ baseUrl: http.base, now });
    http.mode = 'limited';
    const error = await source.quotes(['BTCUSDT']).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PriceFetchError', status: 429, retryAfterMs: 3000 });
    http.mode = 'ok';
    await expect(source.quotes(['BTCUSDT'])).rejects.toMatchObject({ status: 429 });
    expect(http.requests).toHaveLength(1);
  });

  it('waits for its weight budget instead of exceeding it', async () => {
    // 8 points a second: two calls of weight 4 pass at once, the third waits for the next window.
    const client = new PriceHttpClient({ provider: 'test', rateLimit: { points: 8, durationSeconds: 1 } });
    const url = new URL('/api/v3/ticker/price?symbol=BTCUSDT', http.base);
    const started = Date.now();
    await Promise.all([client.getJson(url, 4), client.getJson(url, 4)]);
    const firstTwo = Date.now() - started;
    await client.getJson(url, 4);
    expect(firstTwo).toBeLessThan(500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(http.requests).toHaveLength(3);
  });
});

describe('CoinGecko live client', () => {
  it('maps our symbols to coin ids in one request and sends a demo key in its header', async () => {
    await new CoinGeckoLiveSource({ baseUrl: `${http.base}/api/v3`, now, apiKey: 'CG-demo-key-123' }).quotes(['BTCUSDT', 'ETHUSDT', 'AAPL']);
    expect(http.requests).toHaveLength(1);
    const url = new URL(http.requests[0].url!, http.base);
    expect(url.searchParams.get('ids')).toBe('bitcoin,ethereum');
    expect(url.searchParams.get('vs_currencies')).toBe('usd');
    expect(http.requests[0].headers['x-cg-demo-api-key']).toBe('CG-demo-key-123');
  });

  it('refuses a paid plan without a key', () => {
    expect(() => new CoinGeckoLiveSource({ plan: 'pro' })).toThrow(PriceSourceError);
  });

  it('fails with a permanent error on a refused key', async () => {
    http.mode = 'forbidden';
    await expect(new CoinGeckoLiveSource({ baseUrl: `${http.base}/api/v3`, now }).quotes(['BTCUSDT'])).rejects.toMatchObject({
      name: 'PriceSourceError',
      status: 403,
    });
  });
});
