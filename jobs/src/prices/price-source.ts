/**
 * Where prices come from. Every provider has a live client and a replay twin (recorded real
 * payloads) behind this one interface, and both pass one contract suite
 * (jobs/test/prices/price-source-contract.test.ts). docs/prices.md lists providers and limits.
 */

import { CANDLE_INTERVAL_MS, type CandleInterval } from './prices.shapes';

export { CANDLE_INTERVALS, type CandleInterval } from './prices.shapes';

export const INTERVAL_MS: Readonly<Record<CandleInterval, number>> = CANDLE_INTERVAL_MS;

/** The latest price of one symbol. Prices and amounts are decimal strings, never floats. */
export interface Quote {
  /** Our market symbol (markets.symbol), e.g. BTCUSDT, AAPL. */
  symbol: string;
  price: string;
  /** When the provider says the price was current (the fetch time when it does not say). */
  at: Date;
  change24hPercent: string | null;
  volume24h: string | null;
  /** The provider (binance, coingecko, alpaca, simulated). */
  source: string;
  /** True for the simulated feed: the UI must say the data is simulated. */
  simulated: boolean;
}

export interface Candle {
  openTime: Date;
  closeTime: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

export interface PriceSource {
  /** The provider, as in source_health. */
  readonly name: string;
  readonly kind: 'live' | 'replay' | 'simulated';
  /** Latest prices of many symbols, fetched in as few requests as the provider allows. Unknown symbols are left out. */
  quotes(symbols: readonly string[]): Promise<Quote[]>;
  /** The last `limit` bars of one symbol, oldest first. */
  candles(symbol: string, interval: CandleInterval, limit: number): Promise<Candle[]>;
}

/** A transient failure (network, timeout, 5xx, rate limited): worth a retry. */
export class PriceFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** When the provider asked us to wait (429/418 Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PriceFetchError';
  }
}

/** A permanent failure: an answer we cannot read, a rejected request (4xx), or an unsupported call. */
export class PriceSourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PriceSourceError';
  }
}

/** Splits a list into chunks of at most `size` (one request each). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
