import type { CotCategory } from './cot.shapes';

/** The categories the screener filters on (the HTTP shapes'). */
export { COT_CATEGORIES, type CotCategory } from './cot.shapes';

export interface KnownCotContract {
  symbol: string;
  category: CotCategory;
  /** Units of the underlying per contract, where the contract specification is well known. */
  contractSize?: string;
}

/**
 * Well-known TFF contracts by CFTC contract market code: the exchange symbol traders know them by
 * and their category. Other contracts are stored too, with symbol and category left empty.
 */
export const KNOWN_COT_CONTRACTS: Record<string, KnownCotContract> = {
  // Equity indices.
  '13874A': { symbol: 'ES', category: 'equity-index', contractSize: '50' }, // E-mini S&P 500, $50 x index
  '209742': { symbol: 'NQ', category: 'equity-index', contractSize: '20' }, // E-mini Nasdaq-100, $20 x index
  '124603': { symbol: 'YM', category: 'equity-index', contractSize: '5' }, // E-mini Dow, $5 x index
  '239742': { symbol: 'RTY', category: 'equity-index', contractSize: '50' }, // E-mini Russell 2000, $50 x index
  '1170E1': { symbol: 'VX', category: 'volatility', contractSize: '1000' }, // Cboe VIX futures, $1000 x index
  // Currencies (CME), contract size in units of the foreign currency.
  '099741': { symbol: '6E', category: 'currency', contractSize: '125000' }, // Euro FX
  '096742': { symbol: '6B', category: 'currency', contractSize: '62500' }, // British pound
  '097741': { symbol: '6J', category: 'currency', contractSize: '12500000' }, // Japanese yen
  '092741': { symbol: '6S', category: 'currency', contractSize: '125000' }, // Swiss franc
  '090741': { symbol: '6C', category: 'currency', contractSize: '100000' }, // Canadian dollar
  '232741': { symbol: '6A', category: 'currency', contractSize: '100000' }, // Australian dollar
  '112741': { symbol: '6N', category: 'currency', contractSize: '100000' }, // New Zealand dollar
  '095741': { symbol: '6M', category: 'currency', contractSize: '500000' }, // Mexican peso
  '098662': { symbol: 'DX', category: 'currency', contractSize: '1000' }, // ICE US Dollar Index, $1000 x index
  // Interest rates (CBOT), face value per contract.
  '042601': { symbol: 'ZT', category: 'rates', contractSize: '200000' }, // 2-year T-note
  '044601': { symbol: 'ZF', category: 'rates', contractSize: '100000' }, // 5-year T-note
  '043602': { symbol: 'ZN', category: 'rates', contractSize: '100000' }, // 10-year T-note
  '043607': { symbol: 'TN', category: 'rates', contractSize: '100000' }, // Ultra 10-year T-note
  '020601': { symbol: 'ZB', category: 'rates', contractSize: '100000' }, // US Treasury bond
  '020604': { symbol: 'UB', category: 'rates', contractSize: '100000' }, // Ultra T-bond
  '045601': { symbol: 'ZQ', category: 'rates', contractSize: '5000000' }, // 30-day Fed funds
  '134741': { symbol: 'SR3', category: 'rates' }, // 3-month SOFR
  // Crypto (CME).
  '133741': { symbol: 'BTC', category: 'crypto', contractSize: '5' }, // Bitcoin, 5 BTC
  '146021': { symbol: 'ETH', category: 'crypto', contractSize: '50' }, // Ether, 50 ETH
};

/** The exchange part of a CFTC market name: 'EURO FX - CHICAGO MERCANTILE EXCHANGE' -> 'CHICAGO MERCANTILE EXCHANGE'. */
export function exchangeOf(marketAndExchangeName: string): string | null {
  const at = marketAndExchangeName.lastIndexOf(' - ');
  if (at < 0) return null;
  const exchange = marketAndExchangeName.slice(at + 3).trim();
  return exchange ? exchange.slice(0, 100) : null;
}
