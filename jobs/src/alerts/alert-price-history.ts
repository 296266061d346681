import type Redis from 'ioredis';
import { parsePriceHistoryMember, readPriceHistoryMembers } from '../prices/latest-prices.store';
import type { PricePoint } from './alert-conditions';
import { decimalToDouble } from './decimal-to-double';

/**
 * A symbol's recent prices parsed once, for callers that keep history in the process and hand the
 * index numbers instead of Date objects and decimal strings on every tick: entries [start, end) of
 * parallel arrays, in any order. `price[i]` must be `Number(decimal[i])` (decimalToDouble): the
 * index's bands assume it, and `decimal` keeps the exact value for the thresholds that tie.
 */
export interface ParsedHistory {
  atMs: ArrayLike<number>;
  price: ArrayLike<number>;
  decimal: ArrayLike<string>;
  start: number;
  end: number;
}

/** The parsed form of a history. */
export function parseHistory(points: readonly PricePoint[]): ParsedHistory {
  const atMs = new Float64Array(points.length);
  const price = new Float64Array(points.length);
  const decimal = new Array<string>(points.length);
  points.forEach((point, i) => {
    atMs[i] = point.at.getTime();
    price[i] = decimalToDouble(point.price);
    decimal[i] = point.price;
  });
  return { atMs, price, decimal, start: 0, end: points.length };
}

/** A parsed history as points again (the exact evaluator and alert messages read those). */
export function historyPoints(history: ParsedHistory): PricePoint[] {
  const points: PricePoint[] = [];
  for (let i = history.start; i < history.end; i++) points.push({ at: new Date(history.atMs[i]), price: history.decimal[i] });
  return points;
}

/**
 * One symbol's recent prices as the alert index reads them, parsed once (ms, double and the exact
 * decimal side by side): entries [start, end), oldest first, appended as Redis gains points and
 * trimmed from the front.
 */
export class SymbolPriceHistory implements ParsedHistory {
  atMs = new Float64Array(16);
  price = new Float64Array(16);
  decimal: string[] = [];
  start = 0;
  end = 0;
  /** The next read's lower bound (ZRANGEBYSCORE syntax): exclusive of the newest score held, once one is. */
  readFrom: string;

  /** Every stored point at or after this ms is held (from the read that created this history). */
  constructor(public coveredFromMs: number) {
    this.readFrom = String(coveredFromMs);
  }

  get newestMs(): number {
    return this.end > this.start ? this.atMs[this.end - 1] : Number.NEGATIVE_INFINITY;
  }

  /** Appends `<ms>:<price>` members read after the newest one held (older or repeated ones are skipped). */
  append(members: readonly string[]): void {
    for (const member of members) {
      const { ms, price: decimal } = parsePriceHistoryMember(member);
      if (!(ms > this.newestMs)) continue;
      if (this.end === this.atMs.length) this.grow();
      this.atMs[this.end] = ms;
      this.price[this.end] = decimalToDouble(decimal);
      this.decimal[this.end] = decimal;
      this.end++;
      this.readFrom = `(${ms}`;
    }
  }

  /** Forgets the points before `sinceMs`, which no alert of the symbol needs any more. */
  trim(sinceMs: number): void {
    while (this.start < this.end && this.atMs[this.start] < sinceMs) this.start++;
    if (sinceMs > this.coveredFromMs) this.coveredFromMs = sinceMs;
    // Compacted only once half the arrays are dead, so trimming costs O(1) per point on average.
    if (this.start >= 64 && this.start * 2 >= this.end) {
      this.atMs.copyWithin(0, this.start, this.end);
      this.price.copyWithin(0, this.start, this.end);
      this.decimal.splice(0, this.start);
      this.end -= this.start;
      this.start = 0;
    }
  }

  private grow(): void {
    const atMs = new Float64Array(this.atMs.length * 2);
    const price = new Float64Array(this.atMs.length * 2);
    atMs.set(this.atMs);
    price.set(this.price);
    this.atMs = atMs;
    this.price = price;
  }
}

/**
 * The recent prices of the symbols with moving alerts, kept in the process so that a job reads
 * only what Redis gained since the last one (ZRANGEBYSCORE from the newest score held, exclusive)
 * instead of each symbol's whole window. Points other workers' jobs stored are read all the same:
 * the read goes by score, not by which ticks this process saw. A symbol is read in full when it is
 * new here or a tick needs older prices than are held (a longer window, a late tick).
 */
export class AlertPriceHistories {
  private readonly bySymbol = new Map<string, SymbolPriceHistory>();
  // Refreshes of concurrent jobs run one after another, so a history is never read twice at once.
  private chain: Promise<void> = Promise.resolve();
  /** Members read from Redis so far (tests: the incremental reads). */
  pointsRead = 0;

  get(symbol: string): SymbolPriceHistory | undefined {
    return this.bySymbol.get(symbol);
  }

  symbols(): string[] {
    return [...this.bySymbol.keys()];
  }

  /** Brings the symbols' histories up to date; `sinceMs`: per symbol, the earliest instant a tick needs. */
  refresh(redis: Redis, prefix: string, sinceMs: ReadonlyMap<string, number>): Promise<void> {
    const run = this.chain.then(() => this.read(redis, prefix, sinceMs));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Drops the symbols for which `keep` is false (no armed moving alert left). */
  retain(keep: (symbol: string) => boolean): void {
    for (const symbol of this.bySymbol.keys()) if (!keep(symbol)) this.bySymbol.delete(symbol);
  }

  private async read(redis: Redis, prefix: string, sinceMs: ReadonlyMap<string, number>): Promise<void> {
    if (!sinceMs.size) return;
    const targets: SymbolPriceHistory[] = [];
    for (const [symbol, since] of sinceMs) {
      let history = this.bySymbol.get(symbol);
      if (!history || since < history.coveredFromMs) history = new SymbolPriceHistory(since);
      targets.push(history);
    }
    const symbols = [...sinceMs.keys()];
    const results = await readPriceHistoryMembers(
      redis,
      prefix,
      targets.map((history, i) => ({ symbol: symbols[i], from: history.readFrom })),
    );
    let i = 0;
    for (const [symbol, since] of sinceMs) {
      const { error, members: read } = results[i];
      const history = targets[i++];
      if (error) throw error;
      this.pointsRead += read.length;
      history.append(read);
      history.trim(since);
      this.bySymbol.set(symbol, history);
    }
  }
}
