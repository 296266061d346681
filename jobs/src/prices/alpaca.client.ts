import Decimal from 'decimal.js';
import { join } from 'node:path';
import { z } from 'zod';
import { readRecording } from './binance.client';
import { DEFAULT_PRICES_USER_AGENT, PriceHttpClient } from './price-http';
import { chunk, INTERVAL_MS, PriceSourceError, type Candle, type CandleInterval, type PriceSource, type Quote } from './price-source';

/**
 * Alpaca Market Data API v2 for US stocks and ETFs. Needs a key pair (free account): headers
 * APCA-API-KEY-ID and APCA-API-SECRET-KEY. Free (Basic) plan: 200 requests per minute and the IEX
 * feed (`feed=iex`, a part of US volume); the paid SIP feed covers every exchange.
 * Quotes: GET /v2/stocks/trades/latest?symbols=A,B (the latest trade per symbol, many per call).
 * Candles: GET /v2/stocks/{symbol}/bars?timeframe=1Min&limit=N&sort=desc.
 *
 * No recorded Alpaca answer exists in the shared fixtures, so the tests cover request building
 * and error handling only; the replay twin serves answers an operator recorded.
 */
export const ALPACA_DATA_URL = 'https://data.alpaca.markets';
export const ALPACA_SOURCE = 'alpaca';
export const ALPACA_FEEDS = ['iex', 'sip', 'delayed_sip'] as const;
export type AlpacaFeed = (typeof ALPACA_FEEDS)[number];

const TIMEFRAME: Record<CandleInterval, string> = { '1m': '1Min', '5m': '5Min', '15m': '15Min', '1h': '1Hour', '4h': '4Hour', '1d': '1Day' };

const num = z.number().finite();
const toDecimal = (n: number) => new Decimal(n).toFixed();
const latestTradesSchema = z.object({ trades: z.record(z.string(), z.object({ t: z.string(), p: num })) });
const barsSchema = z.object({
  bars: z.array(z.object({ t: z.string(), o: num, h: num, l: num, c: num, v: num })).nullable(),
});

function parse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new PriceSourceError(`alpaca: unexpected ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

export function parseAlpacaLatestTrades(body: unknown): Quote[] {
  return Object.entries(parse(latestTradesSchema, body, 'trades/latest answer').trades).map(([symbol, trade]) => ({
    symbol,
    price: toDecimal(trade.p),
    at: new Date(trade.t),
    change24hPercent: null,
    volume24h: null,
    source: ALPACA_SOURCE,
    simulated: false,
  }));
}

/** Bars of one symbol (newest first when asked with sort=desc); returned oldest first. */
export function parseAlpacaBars(body: unknown, interval: CandleInterval): Candle[] {
  const bars = parse(barsSchema, body, 'bars answer').bars ?? [];
  return bars
    .map((b) => {
      const openTime = new Date(b.t);
      return {
        openTime,
        closeTime: new Date(openTime.getTime() + INTERVAL_MS[interval] - 1),
        open: toDecimal(b.o),
        high: toDecimal(b.h),
        low: toDecimal(b.l),
        close: toDecimal(b.c),
        volume: toDecimal(b.v),
      };
    })
    .sort((a, b) => a.openTime.getTime() - b.openTime.getTime());
}

export interface AlpacaOptions {
  keyId: string;
  secretKey: string;
  baseUrl?: string;
  feed?: AlpacaFeed;
  userAgent?: string;
  timeoutMs?: number;
  requestsPerMinute?: number;
  now?: () => Date;
  fetch?: typeof fetch;
}

export class AlpacaLiveSource implements PriceSource {
  readonly name = ALPACA_SOURCE;
  readonly kind = 'live';
  private readonly http: PriceHttpClient;
  private readonly baseUrl: string;
  private readonly feed: AlpacaFeed;
  private readonly now: () => Date;

  constructor(options: AlpacaOptions) {
    if (!options.keyId || !options.secretKey) throw new PriceSourceError('alpaca: a key id and a secret key are needed');
    this.baseUrl = (options.baseUrl ?? ALPACA_DATA_URL).replace(/\/$/, '');
    this.feed = options.feed ?? 'iex';
    this.now = options.now ?? (() => new Date());
    this.http = new PriceHttpClient({
      provider: ALPACA_SOURCE,
      userAgent: options.userAgent ?? DEFAULT_PRICES_USER_AGENT,
      timeoutMs: options.timeoutMs,
      rateLimit: { points: options.requestsPerMinute ?? 200, durationSeconds: 60 },
      headers: { 'APCA-API-KEY-ID': options.keyId, 'APCA-API-SECRET-KEY': options.secretKey },
      fetch: options.fetch,
    });
  }

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    const out: Quote[] = [];
    for (const batch of chunk(symbols, 100)) {
      const url = new URL(`${this.baseUrl}/v2/stocks/trades/latest`);
      url.search = new URLSearchParams({ symbols: batch.join(','), feed: this.feed }).toString();
      out.push(...parseAlpacaLatestTrades(await this.http.getJson(url)));
    }
    return out;
  }

  async candles(symbol: string, interval: CandleInterval, limit: number): Promise<Candle[]> {
    const bars = Math.min(Math.max(limit, 1), 10_000);
    const url = new URL(`${this.baseUrl}/v2/stocks/${encodeURIComponent(symbol)}/bars`);
    // Without `start` Alpaca begins at today's open; go back far enough to cover nights and weekends.
    const start = new Date(this.now().getTime() - bars * INTERVAL_MS[interval] * 4 - 4 * 86_400_000);
    url.search = new URLSearchParams({
      timeframe: TIMEFRAME[interval],
      limit: String(bars),
      sort: 'desc',
      start: start.toISOString(),
      feed: this.feed,
    }).toString();
    return parseAlpacaBars(await this.http.getJson(url), interval);
  }
}

/**
 * Replays Alpaca answers recorded by an operator into `dir`: alpaca_v2_stocks_trades_latest.json
 * and alpaca_v2_stocks_bars_<SYMBOL>_<interval>.json. None is bundled (no recording with a clear
 * origin exists), so without recordings every call fails with a clear error.
 */
export class AlpacaReplaySource implements PriceSource {
  readonly name = ALPACA_SOURCE;
  readonly kind = 'replay';

  constructor(private readonly dir: string) {}

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    const body = await readRecording(join(this.dir, 'alpaca_v2_stocks_trades_latest.json'));
    if (body === undefined) throw new PriceSourceError(`alpaca replay: no recorded trades/latest answer in ${this.dir}`);
    const wanted = new Set(symbols);
    return parseAlpacaLatestTrades(body).filter((q) => wanted.has(q.symbol));
  }

  async candles(symbol: string, interval: CandleInterval, limit: number): Promise<Candle[]> {
    const body = await readRecording(join(this.dir, `alpaca_v2_stocks_bars_${symbol}_${interval}.json`));
    if (body === undefined) throw new PriceSourceError(`alpaca replay: no recorded ${interval} bars for ${symbol} in ${this.dir}`);
    return parseAlpacaBars(body, interval).slice(-limit);
  }
}
