import type { DataSource, EntityManager } from 'typeorm';
import { loadExchangeCalendars, marketStatusAt } from '../market-hours';
import type { PricePollKind } from './prices.jobs';
import { marketsOfSymbols, watchedOrAlertedMarkets, type PolledMarket } from './prices.store';

/** Market types each poll covers. */
export const CRYPTO_MARKET_TYPES = ['crypto'] as const;
/** Stocks and ETFs: polled while their exchange is open. */
export const STOCK_MARKET_TYPES = ['stock', 'etf'] as const;
/**
 * No live or replay source covers these (Alpaca serves US equities only). The simulated feed does,
 * so in simulated mode the stocks poll includes them, every 60 s whatever the hour: their sessions
 * (FX 24/5, CME futures nearly 24/5, index calculation hours) are not in the exchange calendars.
 */
export const UNSOURCED_MARKET_TYPES = ['index', 'forex', 'futures', 'commodity'] as const;
/** Alpaca serves US equities only: a stock or ETF without an exchange follows the NYSE session. */
export const DEFAULT_STOCK_EXCHANGE = 'XNYS';

/** The markets whose exchange is open at the instant (lunch breaks, holidays and weekends are not). */
export async function marketsWithOpenExchange(db: DataSource | EntityManager, markets: readonly PolledMarket[], now: Date): Promise<PolledMarket[]> {
  if (!markets.length) return [];
  const exchangeOf = (m: PolledMarket) => m.exchangeId ?? DEFAULT_STOCK_EXCHANGE;
  const calendars = await loadExchangeCalendars(db, [...new Set(markets.map(exchangeOf))]);
  const open = new Set(calendars.filter((c) => marketStatusAt(c, now).status === 'open').map((c) => c.exchange.id));
  return markets.filter((m) => open.has(exchangeOf(m)));
}

/**
 * The markets a poll fetches now. Crypto: every watched or alerted crypto pair. Stocks: watched or
 * alerted stocks and ETFs whose exchange is open, and those of a closed exchange that have no
 * quote yet (once: their last price, so a market followed outside its session is never shown
 * without one), plus (with the simulated feed only) indices, FX, futures and commodities.
 */
export async function marketsToPoll(
  db: DataSource | EntityManager,
  kind: PricePollKind,
  now: Date,
  options: { simulated: boolean; quoted: ReadonlySet<string>; /** Symbols a consumer needs whether or not anyone follows them. */ alwaysPolled?: readonly string[] },
): Promise<PolledMarket[]> {
  const followedOrNeeded = async (types: readonly string[]) =>
    unionBySymbol(await watchedOrAlertedMarkets(db, types, now), await marketsOfSymbols(db, types, options.alwaysPolled ?? []));
  if (kind === 'crypto') return followedOrNeeded(CRYPTO_MARKET_TYPES);
  const followed = await followedOrNeeded(STOCK_MARKET_TYPES);
  const open = new Set((await marketsWithOpenExchange(db, followed, now)).map((m) => m.id));
  const stocks = followed.filter((m) => open.has(m.id) || !options.quoted.has(m.symbol));
  const unsourced = options.simulated ? await watchedOrAlertedMarkets(db, UNSOURCED_MARKET_TYPES, now) : [];
  return [...stocks, ...unsourced];
}

/** Both lists, each symbol once, by symbol. */
function unionBySymbol(a: readonly PolledMarket[], b: readonly PolledMarket[]): PolledMarket[] {
  const bySymbol = new Map([...a, ...b].map((m) => [m.symbol, m]));
  return [...bySymbol.values()].sort((x, y) => x.symbol.localeCompare(y.symbol));
}
