import Decimal from 'decimal.js';
import { z } from 'zod';
import { readRecording } from './binance.client';
import { DEFAULT_PRICES_USER_AGENT, PriceHttpClient } from './price-http';
import { chunk, PriceSourceError, type Candle, type PriceSource, type Quote } from './price-source';

/**
 * CoinGecko, the second crypto source. Public API without a key: a few calls per minute (CoinGecko
 * says 5-15, varying); a free Demo key (header x-cg-demo-api-key) allows 30 per minute; Pro keys use
 * pro-api.coingecko.com (header x-cg-pro-api-key) and their plan's budget. Prices refresh about
 * every 60 s. Quotes are in USD (we price USDT pairs with them). Candles are not offered here.
 */
export const COINGECKO_API_URL = 'https://api.coingecko.com/api/v3';
export const COINGECKO_PRO_API_URL = 'https://pro-api.coingecko.com/api/v3';
export const COINGECKO_SOURCE = 'coingecko';

/** Our crypto symbols -> CoinGecko coin ids (the seeded markets). */
export const DEFAULT_COINGECKO_IDS: Record<string, string> = {
  BTCUSDT: 'bitcoin',
  ETHUSDT: 'ethereum',
  SOLUSDT: 'solana',
  BNBUSDT: 'binancecoin',
  XRPUSDT: 'ripple',
  ADAUSDT: 'cardano',
  DOGEUSDT: 'dogecoin',
};

// CoinGecko answers numbers; they become decimal strings at once (shortest round-trip form).
const num = z.number().finite();
const toDecimal = (n: number) => new Decimal(n).toFixed();

const simplePriceSchema = z.record(
  z.string(),
  z.object({ usd: num, usd_24h_change: num.nullish(), usd_24h_vol: num.nullish(), last_updated_at: z.number().int().nullish() }),
);
const coinsMarketsSchema = z.array(
  z.object({
    id: z.string(),
    current_price: num,
    total_volume: num.nullish(),
    price_change_percentage_24h: num.nullish(),
    last_updated: z.string().datetime({ offset: true }),
  }),
);

function parse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new PriceSourceError(`coingecko: unexpected ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

/** /simple/price?ids=...&vs_currencies=usd(&include_24hr_change&include_24hr_vol&include_last_updated_at). */
export function parseCoinGeckoSimplePrice(body: unknown, symbolOf: ReadonlyMap<string, string>, fetchedAt: Date): Quote[] {
  const out: Quote[] = [];
  for (const [id, row] of Object.entries(parse(simplePriceSchema, body, 'simple/price answer'))) {
    const symbol = symbolOf.get(id);
    if (!symbol) continue;
    out.push({
      symbol,
      price: toDecimal(row.usd),
      at: row.last_updated_at ? new Date(row.last_updated_at * 1000) : fetchedAt,
      change24hPercent: row.usd_24h_change == null ? null : toDecimal(row.usd_24h_change),
      volume24h: row.usd_24h_vol == null ? null : toDecimal(row.usd_24h_vol),
      source: COINGECKO_SOURCE,
      simulated: false,
    });
  }
  return out;
}

/** /coins/markets?vs_currency=usd&ids=... */
export function parseCoinGeckoMarkets(body: unknown, symbolOf: ReadonlyMap<string, string>): Quote[] {
  const out: Quote[] = [];
  for (const row of parse(coinsMarketsSchema, body, 'coins/markets answer')) {
    const symbol = symbolOf.get(row.id);
    if (!symbol) continue;
    out.push({
      symbol,
      price: toDecimal(row.current_price),
      at: new Date(row.last_updated),
      change24hPercent: row.price_change_percentage_24h == null ? null : toDecimal(row.price_change_percentage_24h),
      volume24h: row.total_volume == null ? null : toDecimal(row.total_volume),
      source: COINGECKO_SOURCE,
      simulated: false,
    });
  }
  return out;
}

export type CoinGeckoQuoteEndpoint = 'simple/price' | 'coins/markets';

interface CoinGeckoCommon {
  /** Our symbol -> CoinGecko id (default: the seeded crypto markets). */
  ids?: Record<string, string>;
  quoteEndpoint?: CoinGeckoQuoteEndpoint;
  now?: () => Date;
}

export interface CoinGeckoOptions extends CoinGeckoCommon {
  baseUrl?: string;
  apiKey?: string;
  plan?: 'public' | 'demo' | 'pro';
  userAgent?: string;
  timeoutMs?: number;
  callsPerMinute?: number;
  fetch?: typeof fetch;
}

const CALLS_PER_MINUTE = { public: 5, demo: 30, pro: 500 } as const;

abstract class CoinGeckoBase {
  readonly name = COINGECKO_SOURCE;
  protected readonly idOf: Map<string, string>;
  protected readonly symbolOf: Map<string, string>;
  protected readonly endpoint: CoinGeckoQuoteEndpoint;
  protected readonly now: () => Date;

  constructor(options: CoinGeckoCommon) {
    this.idOf = new Map(Object.entries(options.ids ?? DEFAULT_COINGECKO_IDS));
    this.symbolOf = new Map([...this.idOf].map(([symbol, id]) => [id, symbol]));
    this.endpoint = options.quoteEndpoint ?? 'simple/price';
    this.now = options.now ?? (() => new Date());
  }

  protected known(symbols: readonly string[]): string[] {
    return symbols.flatMap((s) => {
      const id = this.idOf.get(s);
      return id ? [id] : [];
    });
  }

  async candles(symbol: string): Promise<Candle[]> {
    throw new PriceSourceError(`coingecko: candles are not offered by this source (asked for ${symbol}); use binance`);
  }
}

export class CoinGeckoLiveSource extends CoinGeckoBase implements PriceSource {
  readonly kind = 'live';
  private readonly http: PriceHttpClient;
  private readonly baseUrl: string;

  constructor(options: CoinGeckoOptions = {}) {
    super(options);
    const plan = options.plan ?? (options.apiKey ? 'demo' : 'public');
    if (plan !== 'public' && !options.apiKey) throw new PriceSourceError(`coingecko: the ${plan} plan needs an API key`);
    this.baseUrl = (options.baseUrl ?? (plan === 'pro' ? COINGECKO_PRO_API_URL : COINGECKO_API_URL)).replace(/\/$/, '');
    const headers: Record<string, string> = {};
    if (options.apiKey) headers[plan === 'pro' ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key'] = options.apiKey;
    this.http = new PriceHttpClient({
      provider: COINGECKO_SOURCE,
      userAgent: options.userAgent ?? DEFAULT_PRICES_USER_AGENT,
      timeoutMs: options.timeoutMs,
      rateLimit: { points: options.callsPerMinute ?? CALLS_PER_MINUTE[plan], durationSeconds: 60 },
      headers,
      fetch: options.fetch,
    });
  }

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    const out: Quote[] = [];
    // 250 ids per call: the page size of /coins/markets, and a safe URL length for both.
    for (const ids of chunk(this.known(symbols), 250)) {
      const fetchedAt = this.now();
      if (this.endpoint === 'coins/markets') {
        const url = new URL(`${this.baseUrl}/coins/markets`);
        url.search = new URLSearchParams({ vs_currency: 'usd', ids: ids.join(','), per_page: '250', page: '1' }).toString();
        out.push(...parseCoinGeckoMarkets(await this.http.getJson(url), this.symbolOf));
      } else {
        const url = new URL(`${this.baseUrl}/simple/price`);
        url.search = new URLSearchParams({
          ids: ids.join(','),
          vs_currencies: 'usd',
          include_24hr_change: 'true',
          include_24hr_vol: 'true',
          include_last_updated_at: 'true',
          precision: 'full',
        }).toString();
        out.push(...parseCoinGeckoSimplePrice(await this.http.getJson(url), this.symbolOf, fetchedAt));
      }
    }
    return out;
  }
}

/** Replays recorded CoinGecko answers (one file per endpoint), answering only the ids asked for. */
export class CoinGeckoReplaySource extends CoinGeckoBase implements PriceSource {
  readonly kind = 'replay';

  constructor(
    private readonly files: { simplePrice?: string; coinsMarkets?: string },
    options: CoinGeckoCommon = {},
  ) {
    super(options);
  }

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    const wanted = new Set(this.known(symbols));
    const file = this.endpoint === 'coins/markets' ? this.files.coinsMarkets : this.files.simplePrice;
    const body = file ? await readRecording(file) : undefined;
    if (body === undefined) throw new PriceSourceError(`coingecko replay: no recording of ${this.endpoint}`);
    const quotes =
      this.endpoint === 'coins/markets' ? parseCoinGeckoMarkets(body, this.symbolOf) : parseCoinGeckoSimplePrice(body, this.symbolOf, this.now());
    return quotes.filter((q) => wanted.has(this.idOf.get(q.symbol)!));
  }
}
