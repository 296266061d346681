import Decimal from 'decimal.js';
import type { Clock } from '../runtime/clock';
import { roundToTick } from './price-precision.shapes';
import { INTERVAL_MS, type Candle, type CandleInterval, type PriceSource, type Quote } from './price-source';

export const SIMULATED_SOURCE = 'simulated';

/** The last real prices we hold a recording of: where the walk starts when nothing fresher is known. */
export const RECORDED_ANCHORS: Record<string, string> = {
  // binance_spot_api_v3_ticker_price_BTCUSDT.json (2021-10-22).
  BTCUSDT: '60740.00',
};

/**
 * Starting levels for the seeded markets that no recording covers, so the offline demo quotes
 * every seeded market. These are round ILLUSTRATIVE levels, not market data: quotes from them
 * are flagged simulated like every simulated quote, and a real price (recorded above, or the
 * last one a live poll stored) always takes precedence.
 */
export const ILLUSTRATIVE_ANCHORS: Record<string, string> = {
  ETHUSDT: '3000',
  SOLUSDT: '150',
  BNBUSDT: '600',
  XRPUSDT: '0.6000',
  ADAUSDT: '0.5000',
  DOGEUSDT: '0.15000',
  AAPL: '230',
  MSFT: '420',
  NVDA: '140',
  AMZN: '200',
  TSLA: '250',
  JPM: '230',
  SPY: '580',
  QQQ: '500',
  GLD: '250',
  '^GSPC': '5800',
  '^NDX': '20500',
  '^DJI': '43000',
  EURUSD: '1.0800',
  GBPUSD: '1.2700',
  USDJPY: '150',
  ES: '5800',
  NQ: '20500',
  CL: '70',
  GC: '2650',
};

/**
 * The starting level of a symbol no anchor covers (a ticker added after the seed, e.g. a newly
 * listed company the lockups domain follows): an ILLUSTRATIVE level from 10 to 200 derived from the
 * symbol, so the offline demo quotes and charts it too. Not market data, flagged simulated like
 * every simulated quote.
 */
export function illustrativeAnchorOf(symbol: string): string {
  return (10 + uniform(`anchor:${symbol}`) * 190).toFixed(2);
}

export interface SimulatedOptions {
  seed: number;
  /** The last real price per symbol (decimal strings); symbols without one are left out. */
  anchors: Record<string, string>;
  /** Quote symbols without an anchor from illustrativeAnchorOf (default: no quote for them). */
  anchorUnknownSymbols?: boolean;
  /** When the anchors were real: step 0 of every walk. */
  anchorAt: Date;
  clock: Clock;
  /** One step of the walk (default 10 s, the crypto poll). */
  stepMs?: number;
  /** Standard deviation of one step's relative move (default 0.05 %). */
  volatility?: number;
  /**
   * The market type of each symbol (markets.type): prices are quoted on the market's tick
   * (price-precision.shapes.ts). A symbol left out keeps the decimals of its anchor.
   */
  marketTypes?: Record<string, string>;
}

const DAY_MS = 24 * 3600_000;

/** A deterministic uniform in [0, 1) from a string key (FNV-1a, then a mulberry32 round). */
function uniform(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  let t = (h + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A standard normal from a key (Box-Muller on two keyed uniforms). */
function normal(key: string): number {
  const u = Math.max(uniform(`${key}:u`), 1e-12);
  const v = uniform(`${key}:v`);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function decimalsOf(price: string): number {
  return Math.max(2, price.split('.')[1]?.length ?? 0);
}

/**
 * A clearly labelled simulated feed for when no network is reachable: a seeded random walk
 * around the last real price of each symbol. The same seed, anchors and time always give the same
 * prices (each step's move is derived from (seed, symbol, step), never from call order). Every quote
 * carries `simulated: true` so the UI says so.
 */
export class SimulatedPriceSource implements PriceSource {
  readonly name = SIMULATED_SOURCE;
  readonly kind = 'simulated';
  private readonly stepMs: number;
  private readonly volatility: number;
  private readonly anchorStep: number;
  // Per symbol and cursor (the current price, the price 24 h before): the step reached and the
  // log-return summed from the anchor to it (negative steps undone before the anchor).
  private readonly walked = new Map<string, { step: number; logReturn: number }>();

  constructor(private readonly options: SimulatedOptions) {
    this.stepMs = options.stepMs ?? 10_000;
    this.volatility = options.volatility ?? 0.0005;
    this.anchorStep = Math.floor(options.anchorAt.getTime() / this.stepMs);
  }

  private increment(symbol: string, step: number): number {
    return this.volatility * normal(`${this.options.seed}:${symbol}:${step}`) - (this.volatility * this.volatility) / 2;
  }

  /**
   * The log-return from the anchor to a step. The walk extends before the anchor too (the same
   * increments, undone), so a price 24 h before the first quote exists and the first quote already
   * has its 24 h change. Each cursor walks on from where it last was, forwards or backwards.
   */
  private logReturnAt(symbol: string, step: number, cursor: 'now' | 'day-ago' = 'now'): number {
    const key = `${symbol}:${cursor}`;
    const state = this.walked.get(key) ?? { step: this.anchorStep, logReturn: 0 };
    let { logReturn } = state;
    for (let s = state.step + 1; s <= step; s++) logReturn += this.increment(symbol, s);
    for (let s = state.step; s > step; s--) logReturn -= this.increment(symbol, s);
    this.walked.set(key, { step, logReturn });
    return logReturn;
  }

  /** Where a symbol's walk starts: its anchor, else the illustrative level when unknown symbols are quoted, else none. */
  private anchorOf(symbol: string): string | undefined {
    return this.options.anchors[symbol] ?? (this.options.anchorUnknownSymbols ? illustrativeAnchorOf(symbol) : undefined);
  }

  /** A raw walk value on the symbol's tick (its market type known), else with its anchor's decimals. */
  private quoted(symbol: string, value: Decimal | number): string {
    const type = this.options.marketTypes?.[symbol];
    const raw = new Decimal(value);
    const decimals = decimalsOf(this.anchorOf(symbol) ?? '0');
    if (type) return roundToTick(raw.toFixed(12), { type, symbol }) ?? raw.toFixed(decimals);
    return raw.toFixed(decimals);
  }

  /** The simulated price of a symbol at an instant (null without an anchor). */
  priceAt(symbol: string, at: Date, cursor: 'now' | 'day-ago' = 'now'): string | null {
    const anchor = this.anchorOf(symbol);
    if (anchor === undefined) return null;
    const step = Math.floor(at.getTime() / this.stepMs);
    return this.quoted(symbol, new Decimal(anchor).times(Math.exp(this.logReturnAt(symbol, step, cursor))));
  }

  /** Percent change of the simulated price over the 24 h to `at`, 2 decimals (null without an anchor). */
  change24hAt(symbol: string, at: Date): string | null {
    const now = this.priceAt(symbol, at);
    const before = this.priceAt(symbol, new Date(at.getTime() - DAY_MS), 'day-ago');
    if (now === null || before === null || new Decimal(before).isZero()) return null;
    return new Decimal(now).minus(before).div(before).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
  }

  async quotes(symbols: readonly string[]): Promise<Quote[]> {
    const now = this.options.clock.now();
    const at = new Date(Math.floor(now.getTime() / this.stepMs) * this.stepMs);
    return symbols.flatMap((symbol): Quote[] => {
      const price = this.priceAt(symbol, now);
      return price === null
        ? []
        : [{ symbol, price, at, change24hPercent: this.change24hAt(symbol, now), volume24h: null, source: SIMULATED_SOURCE, simulated: true }];
    });
  }

  /**
   * Bars ending with the current one, walking back from the current simulated price (a coarser walk
   * of its own, one step per bar, seeded by the bar's open time), so charts join the live quotes.
   */
  async candles(symbol: string, interval: CandleInterval, limit: number): Promise<Candle[]> {
    const now = this.options.clock.now();
    const current = this.priceAt(symbol, now);
    if (current === null) return [];
    const size = INTERVAL_MS[interval];
    const barVolatility = this.volatility * Math.sqrt(size / this.stepMs);
    const lastOpen = Math.floor(now.getTime() / size) * size;
    const bars: Candle[] = [];
    let close = Number(current);
    for (let i = 0; i < limit; i++) {
      const openTime = lastOpen - i * size;
      const key = `${this.options.seed}:${symbol}:${interval}:${openTime}`;
      const open = close / Math.exp(barVolatility * normal(key));
      const wick = Math.abs(normal(`${key}:w`)) * barVolatility * 0.5;
      bars.push({
        openTime: new Date(openTime),
        closeTime: new Date(openTime + size - 1),
        open: this.quoted(symbol, open),
        high: this.quoted(symbol, Math.max(open, close) * (1 + wick)),
        low: this.quoted(symbol, Math.min(open, close) * (1 - wick)),
        close: i === 0 ? current : this.quoted(symbol, close),
        volume: (uniform(`${key}:vol`) * 1000).toFixed(3),
      });
      close = open;
    }
    return bars.reverse();
  }
}
