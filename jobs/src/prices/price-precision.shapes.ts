import Decimal from 'decimal.js';

/**
 * How finely each market is quoted: its tick (the smallest price step), by market type and
 * symbol. One rule for the feeds (the simulated walk quotes on it) and the screens (the web client
 * formats with it, through the prices shapes).
 */

/** The market's identity the rule needs: markets.type and markets.symbol. */
export interface PricedMarket {
  type: string;
  symbol: string;
}

/**
 * Exchange ticks of the seeded crypto pairs (Binance spot PRICE_FILTER tickSize) and futures
 * (CME Group contract specifications: E-mini S&P 500 and Nasdaq-100 0.25 index points, WTI crude
 * $0.01 a barrel, gold $0.10 an ounce, E-mini Dow 1 point).
 */
const SYMBOL_TICKS: Readonly<Record<string, string>> = {
  BTCUSDT: '0.01',
  ETHUSDT: '0.01',
  SOLUSDT: '0.01',
  BNBUSDT: '0.01',
  XRPUSDT: '0.0001',
  ADAUSDT: '0.0001',
  DOGEUSDT: '0.00001',
  ES: '0.25',
  NQ: '0.25',
  YM: '1',
  CL: '0.01',
  GC: '0.1',
};

/** A crypto pair without a known tick: finer as the price gets smaller (about 5 significant digits). */
function cryptoTickByMagnitude(price: Decimal | null): string {
  if (price === null || price.abs().gte(100)) return '0.01';
  if (price.abs().gte(1)) return '0.0001';
  if (price.abs().gte(0.01)) return '0.00001';
  return '0.00000001';
}

/**
 * The tick of a market. Forex: a pip (0.0001; 0.01 for yen pairs). Crypto: the exchange tick, or
 * the price magnitude's when finer (or the pair is unknown). Futures: the contract tick (0.01 when unknown). Stocks, ETFs, indices and
 * the rest: cents.
 */
export function priceTick(market: PricedMarket, price?: string | null): string {
  const symbol = market.symbol.toUpperCase();
  const known = SYMBOL_TICKS[symbol];
  switch (market.type) {
    case 'forex':
      return symbol.includes('JPY') ? '0.01' : '0.0001';
    case 'crypto': {
      // Exchanges refine a pair's tick as its price falls: the finer of the two.
      const value = price != null && price !== '' && Number.isFinite(Number(price)) ? new Decimal(price) : null;
      const byMagnitude = cryptoTickByMagnitude(value);
      return known && (value === null || new Decimal(known).lte(byMagnitude)) ? known : byMagnitude;
    }
    default:
      return known ?? '0.01';
  }
}

/** The decimals a market's prices are shown with (those of its tick). */
export function priceDecimals(market: PricedMarket, price?: string | null): number {
  return new Decimal(priceTick(market, price)).decimalPlaces();
}

/**
 * A price on the market's tick, as a decimal string with the tick's decimals (1.084321 EURUSD ->
 * "1.0843", 5800.3 ES -> "5800.25"): decimal arithmetic, rounded half up to the nearest tick.
 * Null when the price is not a number.
 */
export function roundToTick(price: string | number, market: PricedMarket): string | null {
  const text = typeof price === 'number' ? String(price) : price.trim();
  if (text === '' || !Number.isFinite(Number(text))) return null;
  const value = new Decimal(text);
  const tick = new Decimal(priceTick(market, text));
  return value.div(tick).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times(tick).toFixed(tick.decimalPlaces());
}
