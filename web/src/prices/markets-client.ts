// The markets api: search (GET /api/markets?q=), latest quotes (GET /api/markets/quotes?symbols=)
// and bars for charts (GET /api/markets/:symbol/bars), shaped as @tickerbell/jobs/prices/shapes; prices
// arrive as decimal strings and stay strings until they are drawn or compared for display.
import { apiRequest, isRecord } from '../api/client';
import { CANDLE_INTERVALS, roundToTick, type CandleInterval, type MarketView, type PricedMarket } from '@tickerbell/jobs/prices/shapes';
import { parseLivePrice, type LivePrice } from './live-prices';

export function isCandleInterval(value: unknown): value is CandleInterval {
  return typeof value === 'string' && (CANDLE_INTERVALS as readonly string[]).includes(value);
}

/** One bar with numbers for drawing; `time` is the bar's open in UTC seconds (the chart's unit). */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface Bars {
  symbol: string;
  interval: CandleInterval;
  simulated: boolean;
  bars: Bar[];
  /** Fewer bars are stored than asked for and their backfill is still to write them: ask again. */
  backfillPending: boolean;
}

function fail(where: string, expected: string): never {
  throw new TypeError(`${where}: expected ${expected}`);
}

function finite(value: unknown, where: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) fail(where, 'a number');
  return number;
}

/** ISO text, epoch milliseconds or epoch seconds -> epoch seconds. */
function epochSeconds(value: unknown, where: string): number {
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  const number = finite(value, where);
  return number > 1e11 ? Math.floor(number / 1000) : Math.floor(number);
}

export function parseMarkets(body: unknown): MarketView[] {
  if (!isRecord(body) || !Array.isArray(body.markets)) fail('markets', '{ markets: [...] }');
  return body.markets.map((value: unknown, index) => {
    const where = `markets[${index}]`;
    if (!isRecord(value)) fail(where, 'an object');
    const { id, symbol, name, type, description } = value;
    if (typeof symbol !== 'string' || typeof name !== 'string') fail(where, 'symbol and name');
    return {
      id: finite(id, `${where}.id`),
      symbol,
      name,
      type: typeof type === 'string' ? type : 'unknown',
      description: typeof description === 'string' ? description : null,
    };
  });
}

export function parseQuotes(body: unknown): LivePrice[] {
  if (!isRecord(body) || !Array.isArray(body.quotes)) fail('quotes', '{ quotes: [...] }');
  return body.quotes.flatMap((value: unknown) => {
    const quote = parseLivePrice(value);
    return quote ? [quote] : [];
  });
}

export function parseBars(body: unknown): Bars {
  if (!isRecord(body) || !Array.isArray(body.bars)) fail('bars', '{ bars: [...] }');
  if (typeof body.symbol !== 'string') fail('bars.symbol', 'text');
  if (!isCandleInterval(body.interval)) fail('bars.interval', 'a bar interval');
  const bars = body.bars.map((value: unknown, index): Bar => {
    const where = `bars[${index}]`;
    if (!isRecord(value)) fail(where, 'an object');
    return {
      time: epochSeconds(value.time ?? value.openTime, `${where}.time`),
      open: finite(value.open, `${where}.open`),
      high: finite(value.high, `${where}.high`),
      low: finite(value.low, `${where}.low`),
      close: finite(value.close, `${where}.close`),
      volume: value.volume === null || value.volume === undefined ? 0 : finite(value.volume, `${where}.volume`),
    };
  });
  // The chart needs strictly ascending times: sort, and keep the last of any duplicate.
  bars.sort((a, b) => a.time - b.time);
  const unique = bars.filter((bar, index) => index === bars.length - 1 || bars[index + 1]?.time !== bar.time);
  const backfillPending = isRecord(body.backfill) && body.backfill.pending === true;
  return { symbol: body.symbol, interval: body.interval, simulated: body.simulated === true, bars: unique, backfillPending };
}

/** Matches one search shows (the api allows 50). */
export const MARKET_SEARCH_LIMIT = 10;

export function searchMarkets(q: string, signal?: AbortSignal): Promise<MarketView[]> {
  const params = new URLSearchParams({ q: q.trim(), limit: String(MARKET_SEARCH_LIMIT) });
  return apiRequest(`/api/markets?${params.toString()}`, { signal, parse: parseMarkets });
}

export function getQuotes(symbols: readonly string[], signal?: AbortSignal): Promise<LivePrice[]> {
  if (!symbols.length) return Promise.resolve([]);
  return apiRequest(`/api/markets/quotes?symbols=${symbols.map(encodeURIComponent).join(',')}`, { signal, parse: parseQuotes });
}

export const DEFAULT_BAR_LIMIT = 300;

export function barsPath(symbol: string, interval: CandleInterval, limit = DEFAULT_BAR_LIMIT): string {
  return `/api/markets/${encodeURIComponent(symbol)}/bars?interval=${interval}&limit=${limit}`;
}

export function getBars(symbol: string, interval: CandleInterval, signal?: AbortSignal): Promise<Bars> {
  return apiRequest(barsPath(symbol, interval), { signal, parse: parseBars });
}

// ---- Formatting ----

const MINUS = '−';

/** "1234567.5" -> "1,234,567.5": grouping on the decimal string itself, no float rounding. */
function groupThousands(decimal: string): string {
  const [whole, fraction] = decimal.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/**
 * A decimal price string for display, grouped. With the market (its type and symbol) the price is
 * shown on the market's tick (the shared rule of @tickerbell/jobs/prices/shapes: EURUSD 1.0843,
 * USDJPY 150.23, ES 5,800.25); without it, 2 decimals at 1 and above, up to 8 below.
 */
export function formatPrice(price: string | number, market?: PricedMarket): string {
  const text = typeof price === 'number' ? String(price) : price.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const rounded = market ? roundToTick(text.replace(/^-/, ''), market) : abs.toFixed(abs >= 1 ? 2 : abs >= 0.01 ? 4 : 8);
  if (rounded === null) return '—';
  const shown = groupThousands(rounded);
  return value < 0 ? `${MINUS}${shown}` : shown;
}

/** "+1.23%", "−0.50%", "—". */
export function formatChangePercent(change: string | null): string {
  if (change === null) return '—';
  const value = Number(change);
  if (!Number.isFinite(value)) return '—';
  const text = `${Math.abs(value).toFixed(2)}%`;
  return value > 0 ? `+${text}` : value < 0 ? `${MINUS}${text}` : text;
}

/** -1, 0 or 1: the sign of a decimal change, for colouring. */
export function changeDirection(change: string | null): -1 | 0 | 1 {
  if (change === null) return 0;
  const value = Number(change);
  return !Number.isFinite(value) || value === 0 ? 0 : value > 0 ? 1 : -1;
}
