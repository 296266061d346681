// HTTP shapes of the prices domain, as /api/markets answers them (search, latest quotes, bars).
// Plain types and constants, and the pure price-precision rule (decimal.js only): the web client
// imports this file as `@tickerbell/jobs/prices/shapes`, and the server's schemas and views are
// built from it.

/** Each market's tick (by type and symbol): one rule for the feeds and the screens. */
export { priceDecimals, priceTick, roundToTick, type PricedMarket } from './price-precision.shapes';

/** Bar intervals the prices jobs store, charts show and technical alerts evaluate on. */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];
/** The length of one bar of each interval. */
export const CANDLE_INTERVAL_MS: Readonly<Record<CandleInterval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

/** One market of GET /api/markets?q= (`{ markets: MarketView[] }`). */
export interface MarketView {
  id: number;
  symbol: string;
  name: string;
  type: string;
  description: string | null;
}

/** One latest quote of GET /api/markets/quotes?symbols= (`{ quotes: LatestPrice[] }`). */
export interface LatestPrice {
  symbol: string;
  /** Decimal string. */
  price: string;
  /** ISO instant the price was current. */
  at: string;
  /** Percent change against the price 24 h before, 2 decimals (null while no price that old is known). */
  change24hPercent: string | null;
  source: string;
  simulated: boolean;
}

/** A stored bar as the api answers it: open time as an ISO instant, prices as decimal strings. */
export interface BarView {
  time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** GET /api/markets/:symbol/bars?interval=&limit= */
export interface MarketBars {
  symbol: string;
  interval: CandleInterval;
  simulated: boolean;
  bars: BarView[];
  /** `pending`: fewer bars are stored than asked for and a backfill is queued or running; ask again for the rest. */
  backfill: { pending: boolean };
}
