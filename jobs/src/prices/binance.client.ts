import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_PRICES_USER_AGENT, PriceHttpClient } from './price-http';
import { chunk, PriceSourceError, type Candle, type CandleInterval, type PriceSource, type Quote } from './price-source';

/**
 * Binance spot market data (public, no key). Limits: 6,000 request weight per minute per IP
 * (X-MBX-USED-WEIGHT-1M); 429 with Retry-After when exceeded, 418 (IP ban) when ignored.
 * Weights: /ticker/price with `symbols` 4; /ticker/24hr 2 for 1-20 symbols, 40 for 21-100;
 * /klines 2 (at most 1,000 bars).
 */
export const BINANCE_API_URL = 'https://api.binance.com';
export const BINANCE_SOURCE = 'binance';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string');

const tickerPriceSchema = z.object({ symbol: z.string(), price: decimal });
const ticker24hrSchema = z.object({
  symbol: z.string(),
  lastPrice: decimal,
  priceChangePercent: decimal,
  volume: decimal,
  closeTime: z.number().int(),
});
// [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBase, takerQuote, ignore]
const klineSchema = z.tuple([z.number().int(), decimal, decimal, decimal, decimal, decimal, z.number().int()]).rest(z.unknown());

function parse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new PriceSourceError(`binance: unexpected ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

/** /api/v3/ticker/price (one object, or an array for `symbols`): quotes timed `at` (the answer carries no time). */
export function parseBinanceTickerPrice(body: unknown, at: Date): Quote[] {
  const rows = parse(z.union([tickerPriceSchema, z.array(tickerPriceSchema)]), body, 'ticker/price answer');
  return (Array.isArray(rows) ? rows : [rows]).map((r) => ({
    symbol: r.symbol,
    price: r.price,
    at,
    change24hPercent: null,
    volume24h: null,
    source: BINANCE_SOURCE,
    simulated: false,
  }));
}

/** /api/v3/ticker/24hr (one object, or an array for `symbols`). */
export function parseBinanceTicker24hr(body: unknown): Quote[] {
  const rows = parse(z.union([ticker24hrSchema, z.array(ticker24hrSchema)]), body, 'ticker/24hr answer');
  return (Array.isArray(rows) ? rows : [rows]).map((r) => ({
    symbol: r.symbol,
    price: r.lastPrice,
    at: new Date(r.closeTime),
    change24hPercent: r.priceChangePercent,
    volume24h: r.volume,
    source: BINANCE_SOURCE,
    simulated: false,
  }));
}

/** /api/v3/klines: 12-element arrays, prices as decimal strings, times in ms. */
export function parseBinanceKlines(body: unknown): Candle[] {
  return parse(z.array(klineSchema), body, 'klines answer').map((k) => ({
    openTime: new Date(k[0]),
    open: k[1],
    high: k[2],
    low: k[3],
    close: k[4],
    volume: k[5],
    closeTime: new Date(k[6]),
  }));
}

export type BinanceQuoteEndpoint = 'ticker/price' | 'ticker/24hr';

export interface BinanceOptions {
  baseUrl?: string;
  userAgent?: string;
  timeoutMs?: number;
  /** ticker/price is the lightest (weight 4 per call); ticker/24hr adds change and volume. */
  quoteEndpoint?: BinanceQuoteEndpoint;
  /** Our share of the IP's 6,000 weight per minute (default half, leaving room for other tools). */
  weightPerMinute?: number;
  now?: () => Date;
  fetch?: typeof fetch;
}

export class BinanceLiveSource implements PriceSource {
  readonly name = BINANCE_SOURCE;
  readonly kind = 'live';
  private readonly http: PriceHttpClient;
  private readonly baseUrl: string;
  private readonly endpoint: BinanceQuoteEndpoint;
  private readonly now: () => Date;

  constructor(options: BinanceOptions = {}) {
    this.baseUrl = options.baseUrl ?? BINANCE_API_URL;
    this.endpoint = options.quoteEndpoint ?? 'ticker/price';
    this.now = options.now ?? (() => new Date());
    this.http = new PriceHttpClient({
      provider: BINANCE_SOURCE,
      userAgent: options.userAgent ?? DEFAULT_PRICES_USER_AGENT,
      timeoutMs: options.timeoutMs,
      rateLimit: { points: options.weightPerMinute ?? 3000, durationSeconds: 60 },
      fetch: options.fetch,
    });
  }

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    // ticker/24hr costs 2 up to 20 symbols and 40 above: batches of 20 are the cheapest.
    const size = this.endpoint === 'ticker/24hr' ? 20 : 100;
    const out: Quote[] = [];
    for (const batch of chunk(symbols, size)) out.push(...(await this.batch(batch)));
    return out;
  }

  private async batch(symbols: string[]): Promise<Quote[]> {
    const url = new URL(`/api/v3/${this.endpoint}`, this.baseUrl);
    url.searchParams.set('symbols', JSON.stringify(symbols));
    const at = this.now();
    try {
      const body = await this.http.getJson(url, this.endpoint === 'ticker/24hr' ? 2 : 4);
      return this.endpoint === 'ticker/24hr' ? parseBinanceTicker24hr(body) : parseBinanceTickerPrice(body, at);
    } catch (error) {
      if (!(error instanceof PriceSourceError && error.status === 400)) throw error;
      // One unknown symbol fails the whole batch (-1121 Invalid symbol): ask one by one and leave out the refused ones.
      if (symbols.length === 1) return [];
      const out: Quote[] = [];
      for (const symbol of symbols) out.push(...(await this.batch([symbol])));
      return out;
    }
  }

  async candles(symbol: string, interval: CandleInterval, limit: number): Promise<Candle[]> {
    const url = new URL('/api/v3/klines', this.baseUrl);
    url.searchParams.set('symbol', symbol);
    url.searchParams.set('interval', interval);
    url.searchParams.set('limit', String(Math.min(Math.max(limit, 1), 1000)));
    return parseBinanceKlines(await this.http.getJson(url, 2));
  }
}

/**
 * Replays recorded Binance answers from a directory, named as in the recordings:
 * binance_spot_api_v3_ticker_price_<SYMBOL>.json, binance_spot_api_v3_ticker_24hr_<SYMBOL>.json,
 * binance_spot_api_v3_klines_<SYMBOL>_<interval>.json. Symbols without a recording are left out.
 */
export class BinanceReplaySource implements PriceSource {
  readonly name = BINANCE_SOURCE;
  readonly kind = 'replay';
  private readonly endpoint: BinanceQuoteEndpoint;
  private readonly now: () => Date;

  constructor(
    private readonly dir: string,
    options: { quoteEndpoint?: BinanceQuoteEndpoint; now?: () => Date } = {},
  ) {
    this.endpoint = options.quoteEndpoint ?? 'ticker/price';
    this.now = options.now ?? (() => new Date());
  }

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    const out: Quote[] = [];
    const kind = this.endpoint === 'ticker/24hr' ? 'ticker_24hr' : 'ticker_price';
    for (const symbol of symbols) {
      const body = await readRecording(join(this.dir, `binance_spot_api_v3_${kind}_${symbol}.json`));
      if (body === undefined) continue;
      out.push(...(this.endpoint === 'ticker/24hr' ? parseBinanceTicker24hr(body) : parseBinanceTickerPrice(body, this.now())));
    }
    return out;
  }

  async candles(symbol: string, interval: CandleInterval, limit: number): Promise<Candle[]> {
    const body = await readRecording(join(this.dir, `binance_spot_api_v3_klines_${symbol}_${interval}.json`));
    if (body === undefined) throw new PriceSourceError(`binance replay: no recorded ${interval} klines for ${symbol}`);
    return parseBinanceKlines(body).slice(-limit);
  }
}

/** A recorded JSON answer, or undefined when there is no such file. */
export async function readRecording(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PriceSourceError(`${file} is not JSON`);
  }
}
