import { join } from 'node:path';
import { z } from 'zod';
import { parseEnv } from '../config/env';
import { systemClock, type Clock } from '../runtime/clock';
import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import { ALPACA_DATA_URL, ALPACA_FEEDS, AlpacaLiveSource, AlpacaReplaySource } from './alpaca.client';
import { BINANCE_API_URL, BinanceLiveSource, BinanceReplaySource } from './binance.client';
import { COINGECKO_API_URL, CoinGeckoLiveSource, CoinGeckoReplaySource } from './coingecko.client';
import { DEFAULT_PRICES_USER_AGENT } from './price-http';
import type { PriceSource } from './price-source';
import { ILLUSTRATIVE_ANCHORS, RECORDED_ANCHORS, SimulatedPriceSource } from './simulated-prices';

/** The recorded real payloads bundled for replay mode (copies of ../shared/fixtures/prices). */
export const BUNDLED_PRICE_RECORDINGS_DIR = join(__dirname, 'data');

const httpUrl = z.string().url().refine((v) => /^https?:/.test(v), 'must be an http(s) URL');

/** The price variables (docs/prices.md describes each). */
export const pricesEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** live: the providers; replay: recorded answers; simulated: a seeded random walk. Default: live in production, simulated otherwise. */
    PRICES_SOURCE: z.enum(['live', 'replay', 'simulated']).optional(),
    PRICES_REPLAY_DIR: z.string().default(BUNDLED_PRICE_RECORDINGS_DIR),
    PRICES_USER_AGENT: z.string().min(3).default(DEFAULT_PRICES_USER_AGENT),
    PRICES_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(5000),
    PRICES_SIMULATED_SEED: z.coerce.number().int().default(1),
    BINANCE_API_URL: httpUrl.default(BINANCE_API_URL),
    COINGECKO_API_URL: httpUrl.optional(),
    COINGECKO_API_KEY: z.string().min(8).optional(),
    COINGECKO_API_PLAN: z.enum(['public', 'demo', 'pro']).optional(),
    ALPACA_DATA_URL: httpUrl.default(ALPACA_DATA_URL),
    ALPACA_API_KEY_ID: z.string().min(8).optional(),
    ALPACA_API_SECRET_KEY: z.string().min(8).optional(),
    ALPACA_FEED: z.enum(ALPACA_FEEDS).default('iex'),
  })
  .superRefine((env, ctx) => {
    if (!!env.ALPACA_API_KEY_ID !== !!env.ALPACA_API_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: [env.ALPACA_API_KEY_ID ? 'ALPACA_API_SECRET_KEY' : 'ALPACA_API_KEY_ID'], message: 'set both Alpaca keys, or neither' });
    }
    if ((env.COINGECKO_API_PLAN === 'demo' || env.COINGECKO_API_PLAN === 'pro') && !env.COINGECKO_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['COINGECKO_API_KEY'], message: `required for the ${env.COINGECKO_API_PLAN} plan` });
    }
  })
  .transform((env) => ({ ...env, PRICES_SOURCE: env.PRICES_SOURCE ?? (env.NODE_ENV === 'production' ? 'live' : 'simulated') }));

export type PricesConfig = z.infer<typeof pricesEnvSchema>;

export function loadPricesConfig(env: Record<string, string | undefined>): PricesConfig {
  return parseEnv(pricesEnvSchema, env, 'prices');
}

export interface PriceSources {
  /** Crypto pairs: Binance. */
  crypto: PriceSource;
  /** The second crypto source, used when the first fails: CoinGecko. */
  cryptoFallback: PriceSource;
  /** US stocks and ETFs: Alpaca (null in live mode without keys). */
  stocks: PriceSource | null;
}

/** The sources for a configuration. Simulated mode anchors each walk at the last real prices known. */
export function priceSourcesFromConfig(
  config: PricesConfig,
  options: { clock?: Clock; lastPrices?: Record<string, string>; marketTypes?: Record<string, string> } = {},
): PriceSources {
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const http = { userAgent: config.PRICES_USER_AGENT, timeoutMs: config.PRICES_TIMEOUT_MS, now };
  if (config.PRICES_SOURCE === 'simulated') {
    const simulated = new SimulatedPriceSource({
      seed: config.PRICES_SIMULATED_SEED,
      anchors: { ...ILLUSTRATIVE_ANCHORS, ...RECORDED_ANCHORS, ...options.lastPrices },
      // Markets added after the seed (the lockups domain's newly listed tickers) are quoted too.
      anchorUnknownSymbols: true,
      anchorAt: clock.now(),
      clock,
      marketTypes: options.marketTypes,
    });
    return { crypto: simulated, cryptoFallback: simulated, stocks: simulated };
  }
  if (config.PRICES_SOURCE === 'replay') {
    const dir = config.PRICES_REPLAY_DIR;
    return {
      crypto: new BinanceReplaySource(dir, { now }),
      cryptoFallback: new CoinGeckoReplaySource(
        { simplePrice: join(dir, 'coingecko_simple_price_example.json'), coinsMarkets: join(dir, 'coingecko_coins_markets_example.json') },
        { now },
      ),
      stocks: new AlpacaReplaySource(dir),
    };
  }
  return {
    crypto: new BinanceLiveSource({ ...http, baseUrl: config.BINANCE_API_URL }),
    cryptoFallback: new CoinGeckoLiveSource({
      ...http,
      baseUrl: config.COINGECKO_API_URL ?? (config.COINGECKO_API_PLAN === 'pro' ? undefined : COINGECKO_API_URL),
      apiKey: config.COINGECKO_API_KEY,
      plan: config.COINGECKO_API_PLAN,
    }),
    stocks:
      config.ALPACA_API_KEY_ID && config.ALPACA_API_SECRET_KEY
        ? new AlpacaLiveSource({
            ...http,
            baseUrl: config.ALPACA_DATA_URL,
            keyId: config.ALPACA_API_KEY_ID,
            secretKey: config.ALPACA_API_SECRET_KEY,
            feed: config.ALPACA_FEED,
          })
        : null,
  };
}

/** Wraps a source so every call records its outcome in source_health under the provider's name. */
export function withPriceSourceHealth(source: PriceSource, deps: SourceHealthDeps): PriceSource {
  async function tracked<T>(run: () => Promise<T>, dataAt: (value: T) => Date | null, details: (value: T) => Record<string, unknown>): Promise<T> {
    let value: T;
    try {
      value = await run();
    } catch (error) {
      await recordSourceHealth(deps, source.name, { ok: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await recordSourceHealth(deps, source.name, { ok: true, dataAt: dataAt(value), details: { kind: source.kind, ...details(value) } });
    return value;
  }
  const newest = (dates: Date[]) => (dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null);
  return {
    name: source.name,
    kind: source.kind,
    quotes: (symbols) =>
      tracked(
        () => source.quotes(symbols),
        (quotes) => newest(quotes.map((q) => q.at)),
        (quotes) => ({ asked: symbols.length, quotes: quotes.length }),
      ),
    candles: (symbol, interval, limit) =>
      tracked(
        () => source.candles(symbol, interval, limit),
        (bars) => bars.at(-1)?.closeTime ?? null,
        (bars) => ({ lastCandles: `${symbol} ${interval}`, bars: bars.length }),
      ),
  };
}
