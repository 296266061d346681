import type { DataSource, EntityManager } from 'typeorm';
import type { CandleInterval } from '../prices/prices.shapes';
import { decimalToDouble } from './decimal-to-double';
import { PRICE_FIELDS, PriceColumns, trueRangeOf } from './volatility-indicators';

/** A stored closed bar as the bar conditions read it (prices as the decimal strings price_bars holds). */
export interface StoredBar {
  open: string;
  high: string;
  low: string;
  close: string;
}

/** A stored bar as barsUpTo returns it: its prices, its open time and the version of its row. */
export interface StoredBarRow extends StoredBar {
  /** The bar's open time (ms). */
  openTime: number;
  /**
   * The row version: xmin x 2^21 + (open time in seconds mod 2^21), exact in a double (xmin < 2^32).
   * PostgreSQL gives every row version the id of the transaction that wrote it (xmin), so an upsert
   * or update that writes the bar again changes it; the open time's low bits tell the bars one
   * transaction wrote apart (two bars of one interval collide only 2^21 s apart and at a multiple of
   * the interval: at least 2^17 bars, far beyond any window). An equal version is the same bar with
   * the same prices: StoredBarColumns keeps its doubles while it is unchanged. (A transaction id
   * comes back only after 2^32 transactions, and then only for that bar rewritten by exactly that one.)
   */
  version: number;
}

/**
 * The newest `limit` bars of a symbol's interval up to and including `upTo`, **newest first**, the
 * newest one's open time (the caller checks it is the bar that closed) and the market's type (which
 * annualises realised volatility). Indicator conditions read the closes; volatility conditions all
 * four prices, through StoredBarColumns.
 */
export async function barsUpTo(
  db: DataSource | EntityManager,
  symbol: string,
  interval: CandleInterval,
  upTo: Date,
  limit: number,
): Promise<{ newestOpenTime: Date | null; marketType: string | null; exchangeId: string | null; rows: StoredBarRow[] }> {
  // Open time and version as float8, which the driver hands over as numbers (exact: both are integers below 2^53).
  const rows: (StoredBarRow & { type: string; exchange_id: string | null })[] = await db.query(
    `SELECT (extract(epoch FROM b.open_time) * 1000)::float8 AS "openTime",
       (b.xmin::text::int8 * 2097152 + mod(extract(epoch FROM b.open_time)::int8, 2097152))::float8 AS version,
       b.open, b.high, b.low, b.close, m.type, m.exchange_id
     FROM price_bars b JOIN markets m ON m.id = b.market_id
     WHERE m.symbol = $1 AND b.interval = $2 AND b.open_time <= $3 ORDER BY b.open_time DESC LIMIT $4`,
    [symbol, interval, upTo, limit],
  );
  return {
    newestOpenTime: rows.length ? new Date(rows[0].openTime) : null,
    marketType: rows.length ? rows[0].type : null,
    exchangeId: rows.length ? rows[0].exchange_id : null,
    rows,
  };
}

/**
 * The close of the newest stored bar of a symbol's interval opening in [from, before), or null: the
 * previous session's last close of an opening gap (opening-gap.ts, previousCloseWindow).
 */
export async function lastCloseIn(db: DataSource | EntityManager, symbol: string, interval: CandleInterval, from: Date, before: Date): Promise<string | null> {
  const rows: { close: string }[] = await db.query(
    `SELECT b.close FROM price_bars b JOIN markets m ON m.id = b.market_id
     WHERE m.symbol = $1 AND b.interval = $2 AND b.open_time >= $3 AND b.open_time < $4 ORDER BY b.open_time DESC LIMIT 1`,
    [symbol, interval, from, before],
  );
  return rows[0]?.close ?? null;
}

const { open: OPEN, high: HIGH, low: LOW, close: CLOSE, logReturn: LOG_RETURN, trueRange: TRUE_RANGE } = PRICE_FIELDS;
/** Columns derived from a bar and the close before it. */
const FROM_PREVIOUS = LOG_RETURN | TRUE_RANGE;
/** Room beyond the bars held (at most as many again): the window slides this many bar closes before its columns are moved back. */
const SLACK = 32;

/**
 * One symbol interval's newest stored bars as the columns of doubles the volatility conditions read,
 * kept between bar closes. `align` takes a bar close's rows (newest first): the bars of the same
 * open time and row version as held keep their doubles (in place: the window slides along its
 * columns and moves back once every SLACK bar closes), the others are forgotten; `load` converts a
 * price from its decimal string (decimalToDouble: `Number`, bit for bit) only when a condition first
 * reads it, and derives a log return or a true range when first read, kept while both its bars are.
 * So a bar close converts the bar that closed (and any bar rewritten since), not the whole window:
 * at 10,000 symbols converting every price a condition reads, and taking every return's logarithm
 * again, costs more than the bar close may take (bench alerts-volatility).
 */
export class StoredBarColumns extends PriceColumns {
  /** The row version of the bar at each index. */
  private versions = new Float64Array(0);
  /** PRICE_FIELDS bits of the columns loaded at each index. */
  private loaded = new Uint8Array(0);
  /** The open time of the newest bar held (ms). */
  private newestOpenTime = NaN;
  /**
   * Indexes known loaded without looking at `loaded`: the prices of `readyFields` at [readyFrom,
   * readyTo), its derived columns at (readyFrom, readyTo) (the first one's bar before is not in it).
   * A steady bar close then visits the new bar only.
   */
  private readyFields = 0;
  private readyFrom = 0;
  private readyTo = 0;
  private rows: readonly StoredBarRow[] = [];
  /** Until when the cache keeps these columns without a bar close aligning them (ms). */
  keepUntil = 0;

  /** The columns over the newest min(rows.length, size) of a bar close's rows (newest first). */
  align(rows: readonly StoredBarRow[], size: number): this {
    size = Math.min(rows.length, size);
    if (rows === this.rows && size === this.length) return this;
    const held = this.length;
    // The bar the columns end with, among the rows: how many bars are newer (one, a bar close later).
    let newer = -1;
    if (held > 0) {
      for (let k = 0; k < size; k++) {
        if (rows[k].openTime === this.newestOpenTime) {
          newer = k;
          break;
        }
      }
    }
    // Window positions [keptFrom, keptTo) are bars held, which stay where they are: the window starts `shift` further.
    let keptFrom = 0;
    let keptTo = 0;
    let start = 0;
    if (newer >= 0) {
      const shift = held + newer - size;
      keptFrom = Math.max(0, -shift);
      keptTo = size - newer;
      start = this.start + shift;
    }
    if (newer < 0) this.readyTo = this.readyFrom = 0;
    if (start < 0 || start + size > this.close.length) {
      start = this.relocate(start, keptFrom, keptTo, size);
      this.readyTo = this.readyFrom = 0;
    }
    // Kept bars stay at their indexes: the ready range holds, within the kept ones.
    this.readyFrom = Math.max(this.readyFrom, start + keptFrom);
    this.readyTo = Math.min(this.readyTo, start + keptTo);
    // A position keeps its doubles only if it holds the same bar in the same row version (a gap or
    // a rewritten bar is converted again); a derived value only if the bar before it is kept too.
    const versions = this.versions;
    const loaded = this.loaded;
    const last = size - 1;
    for (let j = 0; j < size; j++) {
      const version = rows[last - j].version;
      const at = start + j;
      if (j < keptFrom || j >= keptTo || versions[at] !== version) {
        versions[at] = version;
        loaded[at] = 0;
        if (j < last) loaded[at + 1] &= ~FROM_PREVIOUS;
        // A bar written again inside the ready range: what is newer than it stays ready.
        if (at >= this.readyFrom && at < this.readyTo) this.readyFrom = at + 1;
      }
    }
    this.start = start;
    this.length = size;
    this.newestOpenTime = size > 0 ? rows[0].openTime : NaN;
    this.rows = rows;
    return this;
  }

  load(count: number, fields: number): void {
    if (count <= 0 || fields === 0) return;
    const end = this.start + this.length;
    const from = end - count;
    if ((fields & ~this.readyFields) === 0 && this.readyFrom < this.readyTo) {
      // Only what lies outside the ready range: older bars (and the derived values of the range's
      // first bar, whose bar before now is in), and the bars newer than it.
      if (from < this.readyFrom) this.loadRange(from, Math.min(this.readyFrom + 1, end), fields);
      if (this.readyTo < end) this.loadRange(Math.max(this.readyTo - 1, from), end, fields);
      this.readyFrom = Math.min(this.readyFrom, from);
    } else {
      this.loadRange(from, end, fields);
      this.readyFields = fields;
      this.readyFrom = from;
    }
    this.readyTo = end;
  }

  /** Loads the `fields` of the bars [from, end): prices at all, derived values after the first. */
  private loadRange(from: number, end: number, fields: number): void {
    const loaded = this.loaded;
    // Derived columns read the prices of their bar and the close before (converted first: the loop goes oldest first).
    const prices = (fields & ~FROM_PREVIOUS) | (fields & LOG_RETURN ? CLOSE : 0) | (fields & TRUE_RANGE ? HIGH | LOW | CLOSE : 0);
    const all = prices | (fields & FROM_PREVIOUS);
    if ((prices & ~loaded[from]) !== 0) this.convert(from, prices & ~loaded[from]);
    for (let at = from + 1; at < end; at++) {
      const missing = all & ~loaded[at];
      if (missing !== 0) this.fill(at, missing);
    }
  }

  /** Converts the `missing` prices of the bar at `at` and derives its missing values (the bar before it is loaded). */
  private fill(at: number, missing: number): void {
    if (missing & ~FROM_PREVIOUS) this.convert(at, missing & ~FROM_PREVIOUS);
    const close = this.close;
    if (missing & LOG_RETURN) this.logReturn[at] = Math.log(close[at] / close[at - 1]);
    if (missing & TRUE_RANGE) this.trueRange[at] = trueRangeOf(this.high[at], this.low[at], close[at - 1]);
    this.loaded[at] |= missing & FROM_PREVIOUS;
  }

  private convert(at: number, fields: number): void {
    const row = this.rows[this.start + this.length - 1 - at];
    if (fields & CLOSE) this.close[at] = decimalToDouble(row.close);
    if (fields & HIGH) this.high[at] = decimalToDouble(row.high);
    if (fields & LOW) this.low[at] = decimalToDouble(row.low);
    if (fields & OPEN) this.open[at] = decimalToDouble(row.open);
    this.loaded[at] |= fields;
  }

  /**
   * Moves the window to the columns' start, the held bars at window positions [keptFrom, keptTo)
   * (now at `start + keptFrom`) with it; returns the new start, 0. In new columns (one backing
   * store for all) if `size` bars do not fit, or once they slid to the end of columns without room
   * to slide: room for min(SLACK, size) more then. (A symbol's first bar close allocates just its
   * window: at a worker's first bar close, 10,000 symbols' slack would add tens of MB at once.)
   */
  private relocate(start: number, keptFrom: number, keptTo: number, size: number): number {
    const kept = keptTo - keptFrom;
    const from = start + keptFrom;
    const columns = [this.open, this.high, this.low, this.close, this.logReturn, this.trueRange, this.versions];
    // Slid to the end of columns that have no room to slide (kept bars past their end).
    const slid = kept > 0 && start > 0;
    if (this.close.length >= size + Math.min(SLACK, size) || (this.close.length >= size && !slid)) {
      if (kept > 0) {
        for (const column of columns) column.copyWithin(keptFrom, from, from + kept);
        this.loaded.copyWithin(keptFrom, from, from + kept);
      }
      return 0;
    }
    const capacity = this.close.length === 0 ? size : size + Math.min(SLACK, size);
    const buffer = new ArrayBuffer(capacity * (columns.length * Float64Array.BYTES_PER_ELEMENT + 1));
    const moved = columns.map((old, k) => {
      const values = new Float64Array(buffer, k * capacity * Float64Array.BYTES_PER_ELEMENT, capacity);
      if (kept > 0) values.set(old.subarray(from, from + kept), keptFrom);
      return values;
    });
    [this.open, this.high, this.low, this.close, this.logReturn, this.trueRange, this.versions] = moved;
    const loaded = new Uint8Array(buffer, columns.length * capacity * Float64Array.BYTES_PER_ELEMENT, capacity);
    if (kept > 0) loaded.set(this.loaded.subarray(from, from + kept), keptFrom);
    this.loaded = loaded;
    return 0;
  }
}

/**
 * A worker process's StoredBarColumns by symbol and interval. Columns no bar close aligned for two
 * intervals (plus a minute) are dropped (`sweep`): the symbol has no volatility alert of that
 * interval any more, or its bars stopped.
 */
export class StoredBarCache {
  private readonly byInterval = new Map<CandleInterval, Map<string, StoredBarColumns>>();

  /** The columns of a symbol's interval aligned with a bar close's rows (newest first), at most `size` bars. */
  columnsFor(symbol: string, interval: CandleInterval, intervalMs: number, rows: readonly StoredBarRow[], size: number, now: number): StoredBarColumns {
    let bySymbol = this.byInterval.get(interval);
    if (!bySymbol) this.byInterval.set(interval, (bySymbol = new Map()));
    let columns = bySymbol.get(symbol);
    if (!columns) bySymbol.set(symbol, (columns = new StoredBarColumns()));
    columns.keepUntil = now + 2 * intervalMs + 60_000;
    return columns.align(rows, size);
  }

  /** Drops the columns kept until before `now`. */
  sweep(now: number): void {
    for (const bySymbol of this.byInterval.values()) for (const [symbol, columns] of bySymbol) if (columns.keepUntil < now) bySymbol.delete(symbol);
  }

  /** The symbol intervals held. */
  get size(): number {
    let size = 0;
    for (const bySymbol of this.byInterval.values()) size += bySymbol.size;
    return size;
  }
}
