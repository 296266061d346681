import {
  compareDecimal,
  isPriceConditionMet,
  isTechnicalCondition,
  type AlertCondition,
  type PriceCondition,
  type PricePoint,
  type PriceTick,
} from './alert-conditions';

/** An active alert as the index holds it. */
export interface IndexedAlert {
  id: number;
  symbol: string;
  condition: AlertCondition;
}

interface Entry {
  /** The threshold as a double: only for ordering; ties with a bound are re-checked exactly. */
  key: number;
  /** A channel's other bound as a double (NaN for other conditions). */
  other: number;
  alert: IndexedAlert;
}

/** Entries sorted by key. Bulk loads append and sort once; later edits binary-insert. */
class SortedList {
  entries: Entry[] = [];
  private sorted = true;

  push(entry: Entry): void {
    this.entries.push(entry);
    this.sorted = false;
  }

  insert(entry: Entry): void {
    this.finish();
    this.entries.splice(lowerBound(this.entries, entry.key), 0, entry);
  }

  remove(key: number, id: number): boolean {
    this.finish();
    for (let i = lowerBound(this.entries, key); i < this.entries.length && this.entries[i].key === key; i++) {
      if (this.entries[i].alert.id === id) {
        this.entries.splice(i, 1);
        return true;
      }
    }
    return false;
  }

  finish(): void {
    if (this.sorted) return;
    this.entries.sort((a, b) => a.key - b.key);
    this.sorted = true;
  }
}

/** First index whose key is >= x. */
function lowerBound(entries: Entry[], x: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is > x. */
function upperBound(entries: Entry[], x: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type Verify = (alert: IndexedAlert) => boolean;

/** Keys below `sureBelow` match; keys in [sureBelow, maybeUpTo] match when `verify` says so. */
function collectPrefix(list: SortedList, sureBelow: number, maybeUpTo: number, verify: Verify, out: IndexedAlert[]): void {
  const e = list.entries;
  if (e.length === 0) return;
  const sure = lowerBound(e, sureBelow);
  for (let i = 0; i < sure; i++) out.push(e[i].alert);
  const end = upperBound(e, maybeUpTo);
  for (let i = sure; i < end; i++) if (verify(e[i].alert)) out.push(e[i].alert);
}

/** Keys above `sureAbove` match; keys in [maybeFrom, sureAbove] match when `verify` says so. */
function collectSuffix(list: SortedList, sureAbove: number, maybeFrom: number, verify: Verify, out: IndexedAlert[]): void {
  const e = list.entries;
  if (e.length === 0) return;
  const sure = upperBound(e, sureAbove);
  for (let i = lowerBound(e, maybeFrom); i < sure; i++) if (verify(e[i].alert)) out.push(e[i].alert);
  for (let i = sure; i < e.length; i++) out.push(e[i].alert);
}

/** Keys in [lo, hi] are candidates; edge keys (== lo or == hi) or all of them are verified. */
function collectBetween(list: SortedList, lo: number, hi: number, verifyAll: boolean, verify: Verify, out: IndexedAlert[]): void {
  const e = list.entries;
  if (e.length === 0) return;
  const end = upperBound(e, hi);
  for (let i = lowerBound(e, lo); i < end; i++) {
    const { key, alert } = e[i];
    if ((verifyAll || key === lo || key === hi) ? verify(alert) : true) out.push(alert);
  }
}

/** The alerts of one symbol, by what a tick can cross. */
class SymbolAlerts {
  readonly crossingUp = new SortedList(); // crossing_up and crossing, by value
  readonly crossingDown = new SortedList(); // crossing_down and crossing, by value
  readonly greaterThan = new SortedList();
  readonly lessThan = new SortedList();
  readonly enteringByLow = new SortedList();
  readonly enteringByHigh = new SortedList();
  readonly exitingByLow = new SortedList();
  readonly exitingByHigh = new SortedList();
  readonly insideByLow = new SortedList();
  readonly outsideByLow = new SortedList();
  readonly outsideByHigh = new SortedList();
  // Moving conditions by amount or percent (`other` is the window in minutes).
  readonly movingUp = new SortedList();
  readonly movingDown = new SortedList();
  readonly movingUpPercent = new SortedList();
  readonly movingDownPercent = new SortedList();
  // The windows (minutes) the moving alerts use, with how many use each.
  private readonly windowUse = new Map<number, number>();
  private windowCache: { minutes: number[]; index: Map<number, number> } | null = null;
  readonly technical = new Map<number, IndexedAlert>();
  size = 0;

  lists(condition: PriceCondition): { list: SortedList; key: number; other?: number }[] {
    switch (condition.type) {
      case 'crossing':
        return [
          { list: this.crossingUp, key: Number(condition.value) },
          { list: this.crossingDown, key: Number(condition.value) },
        ];
      case 'crossing_up':
        return [{ list: this.crossingUp, key: Number(condition.value) }];
      case 'crossing_down':
        return [{ list: this.crossingDown, key: Number(condition.value) }];
      case 'greater_than':
        return [{ list: this.greaterThan, key: Number(condition.value) }];
      case 'less_than':
        return [{ list: this.lessThan, key: Number(condition.value) }];
      case 'entering_channel':
        return [
          { list: this.enteringByLow, key: Number(condition.low) },
          { list: this.enteringByHigh, key: Number(condition.high) },
        ];
      case 'exiting_channel':
        return [
          { list: this.exitingByLow, key: Number(condition.low) },
          { list: this.exitingByHigh, key: Number(condition.high) },
        ];
      case 'inside_channel':
        return [{ list: this.insideByLow, key: Number(condition.low), other: Number(condition.high) }];
      case 'outside_channel':
        return [
          { list: this.outsideByLow, key: Number(condition.low) },
          { list: this.outsideByHigh, key: Number(condition.high) },
        ];
      case 'moving_up':
      case 'moving_down':
        return [{ list: condition.type === 'moving_up' ? this.movingUp : this.movingDown, key: Number(condition.amount), other: condition.minutes }];
      case 'moving_up_percent':
      case 'moving_down_percent':
        return [
          { list: condition.type === 'moving_up_percent' ? this.movingUpPercent : this.movingDownPercent, key: Number(condition.percent), other: condition.minutes },
        ];
    }
  }

  /** Counts the window of a moving condition in (+1) or out (-1). */
  trackWindow(condition: PriceCondition, delta: 1 | -1): void {
    if (!('minutes' in condition)) return;
    const count = (this.windowUse.get(condition.minutes) ?? 0) + delta;
    if (count > 0) this.windowUse.set(condition.minutes, count);
    else this.windowUse.delete(condition.minutes);
    this.windowCache = null;
  }

  /** The distinct windows, ascending, and each one's position. */
  windows(): { minutes: number[]; index: Map<number, number> } {
    if (!this.windowCache) {
      const minutes = [...this.windowUse.keys()].sort((a, b) => a - b);
      this.windowCache = { minutes, index: new Map(minutes.map((m, i) => [m, i])) };
    }
    return this.windowCache;
  }

  finish(): void {
    for (const list of this.allLists()) list.finish();
  }

  private *allLists(): Iterable<SortedList> {
    yield* [this.crossingUp, this.crossingDown, this.greaterThan, this.lessThan];
    yield* [this.enteringByLow, this.enteringByHigh, this.exitingByLow, this.exitingByHigh];
    yield* [this.insideByLow, this.outsideByLow, this.outsideByHigh];
    yield* [this.movingUp, this.movingDown, this.movingUpPercent, this.movingDownPercent];
  }

  match(tick: PriceTick, out: IndexedAlert[]): void {
    const c = tick.current;
    const cf = Number(c);
    const exact: Verify = (alert) => isPriceConditionMet(alert.condition as PriceCondition, tick);

    // Levels: a prefix or suffix of the sorted thresholds; only thresholds that tie with the price
    // as doubles are compared exactly.
    collectPrefix(this.greaterThan, cf, cf, exact, out);
    collectSuffix(this.lessThan, cf, cf, exact, out);
    matchInside(this.insideByLow, cf, exact, out);
    collectSuffix(this.outsideByLow, cf, cf, (a) => channel(a).low !== c && compareDecimal(channel(a).low, c) > 0, out);
    collectPrefix(this.outsideByHigh, cf, cf, (a) => compareDecimal(channel(a).high, c) < 0, out);

    // Crossings and channel edges: only thresholds inside the range the price moved through.
    const p = tick.previous;
    if (p !== null) {
      const pf = Number(p);
      const direction = compareDecimal(p, c);
      if (direction < 0) {
        collectBetween(this.crossingUp, pf, cf, false, exact, out);
        collectBetween(this.enteringByLow, pf, cf, true, exact, out);
        collectBetween(this.exitingByHigh, pf, cf, true, exact, out);
      } else if (direction > 0) {
        collectBetween(this.crossingDown, cf, pf, false, exact, out);
        collectBetween(this.enteringByHigh, cf, pf, true, exact, out);
        collectBetween(this.exitingByLow, cf, pf, true, exact, out);
      }
    }

    if (this.windowUse.size) matchMoving(tick, cf, this, exact, out);
  }
}

function channel(alert: IndexedAlert): { low: string; high: string } {
  return alert.condition as { low: string; high: string };
}

/** inside_channel: low <= price <= high, over the alerts sorted by low (high rides along as a double). */
function matchInside(list: SortedList, cf: number, exact: Verify, out: IndexedAlert[]): void {
  const e = list.entries;
  if (e.length === 0) return;
  const end = upperBound(e, cf);
  for (let i = 0; i < end; i++) {
    const { key, other, alert } = e[i];
    if (key < cf && other > cf) out.push(alert);
    else if (key === cf || other === cf) {
      if (exact(alert)) out.push(alert);
    }
  }
}

interface ParsedPoint {
  t: number;
  v: number;
  price: string;
}

const RELATIVE_BAND = 1e-12;

/** History points parsed once per tick, newest first (history is usually kept oldest first). */
function newestFirst(history: readonly PricePoint[]): ParsedPoint[] {
  const points = new Array<ParsedPoint>(history.length);
  let ordered = true;
  for (let i = 0, j = history.length - 1; j >= 0; i++, j--) {
    const h = history[j];
    points[i] = { t: h.at.getTime(), v: Number(h.price), price: h.price };
    if (i > 0 && points[i].t > points[i - 1].t) ordered = false;
  }
  if (!ordered) points.sort((a, b) => b.t - a.t);
  return points;
}

/**
 * Moving conditions of one symbol. One pass over the history (newest first) gives each window's
 * move up/down (amount and percent); a move never shrinks as its window widens, so thresholds
 * below the smallest window's move all match, those above the largest one's never do, and only
 * those in between are checked against their own window. Moves are computed in doubles; thresholds
 * within a band around them, wider than any rounding of that arithmetic, are re-checked exactly.
 */
function matchMoving(tick: PriceTick, cf: number, symbol: SymbolAlerts, exact: Verify, out: IndexedAlert[]): void {
  const { minutes, index } = symbol.windows();
  const n = minutes.length;
  const now = tick.at.getTime();
  const points = newestFirst(tick.history ?? []);
  const up = new Array<number>(n);
  const down = new Array<number>(n);
  const upPercent = new Array<number>(n);
  const downPercent = new Array<number>(n);
  const upBand = new Array<number>(n);
  const downBand = new Array<number>(n);
  const upPercentBand = new Array<number>(n);
  const downPercentBand = new Array<number>(n);
  let min: ParsedPoint = { t: now, v: cf, price: tick.current };
  let max = min;
  let i = 0;
  for (let j = 0; j < n; j++) {
    const since = now - minutes[j] * 60_000;
    for (; i < points.length && points[i].t >= since; i++) {
      const point = points[i];
      if (point.t > now) continue;
      // Doubles order the decimals except when they tie: then compare exactly.
      if (point.v < min.v || (point.v === min.v && compareDecimal(point.price, min.price) < 0)) min = point;
      if (point.v > max.v || (point.v === max.v && compareDecimal(point.price, max.price) > 0)) max = point;
    }
    // The error of a difference of two doubles is about an ulp of the larger one.
    const slack = (Math.abs(cf) + Math.abs(min.v) + Math.abs(max.v)) * 1e-13;
    up[j] = cf - min.v;
    down[j] = max.v - cf;
    upBand[j] = slack + Math.abs(up[j]) * RELATIVE_BAND;
    downBand[j] = slack + Math.abs(down[j]) * RELATIVE_BAND;
    upPercent[j] = min.v > 0 ? (up[j] * 100) / min.v : Number.NEGATIVE_INFINITY;
    downPercent[j] = max.v > 0 ? (down[j] * 100) / max.v : Number.NEGATIVE_INFINITY;
    upPercentBand[j] = min.v > 0 ? (upBand[j] * 100) / min.v + Math.abs(upPercent[j]) * RELATIVE_BAND : 0;
    downPercentBand[j] = max.v > 0 ? (downBand[j] * 100) / max.v + Math.abs(downPercent[j]) * RELATIVE_BAND : 0;
  }
  matchMovingList(symbol.movingUp, up, upBand, index, exact, out);
  matchMovingList(symbol.movingDown, down, downBand, index, exact, out);
  matchMovingList(symbol.movingUpPercent, upPercent, upPercentBand, index, exact, out);
  matchMovingList(symbol.movingDownPercent, downPercent, downPercentBand, index, exact, out);
}

/** A threshold matches when it is at most its window's move. */
function matchMovingList(
  list: SortedList,
  move: number[],
  band: number[],
  windowIndex: Map<number, number>,
  exact: Verify,
  out: IndexedAlert[],
): void {
  const e = list.entries;
  if (e.length === 0) return;
  let sureBelow = Number.POSITIVE_INFINITY;
  let neverAbove = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < move.length; j++) {
    sureBelow = Math.min(sureBelow, move[j] - band[j]);
    neverAbove = Math.max(neverAbove, move[j] + band[j]);
  }
  const sure = lowerBound(e, sureBelow);
  for (let k = 0; k < sure; k++) out.push(e[k].alert);
  const end = upperBound(e, neverAbove);
  for (let k = sure; k < end; k++) {
    const { key, other, alert } = e[k];
    const j = windowIndex.get(other)!;
    if (key < move[j] - band[j]) out.push(alert);
    else if (key <= move[j] + band[j] && exact(alert)) out.push(alert);
  }
}

/**
 * Active alerts indexed per symbol by threshold, so a price update touches only the alerts whose
 * thresholds lie in the range the price moved through (levels: the sorted prefix/suffix that holds;
 * moving conditions: by amount/percent per window). Technical alerts are kept per symbol for
 * evaluation on bar close. docs/alerts.md explains the structure.
 */
export class AlertIndex {
  private readonly bySymbol = new Map<string, SymbolAlerts>();
  private readonly byId = new Map<number, IndexedAlert>();
  private readonly disarmed = new Map<number, number>(); // id -> until (ms)
  private readonly rearmQueue = new MinHeap();

  /** Builds the index from rows in one pass (append, then one sort per list). */
  static fromAlerts(alerts: Iterable<IndexedAlert>): AlertIndex {
    const index = new AlertIndex();
    for (const alert of alerts) {
      if (index.byId.has(alert.id)) throw new Error(`alert ${alert.id} appears twice`);
      index.place(alert, false);
    }
    for (const symbol of index.bySymbol.values()) symbol.finish();
    return index;
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): IndexedAlert | undefined {
    return this.byId.get(id);
  }

  symbols(): string[] {
    return [...this.bySymbol.keys()];
  }

  /** Adds an alert or replaces the one with its id (its symbol or condition may have changed). */
  upsert(alert: IndexedAlert): void {
    this.remove(alert.id);
    this.place(alert, true);
  }

  /** Removes an alert (deleted, deactivated, fired once); false when it was not indexed. */
  remove(id: number): boolean {
    const alert = this.byId.get(id);
    if (!alert) return false;
    if (!this.disarmed.delete(id)) this.unplace(alert);
    this.byId.delete(id);
    return true;
  }

  /**
   * Takes a fired alert out of matching until `untilMs` (the next UTC day for once_per_day, the
   * end of the cooldown for every_time): a level that stays true then costs nothing per tick.
   */
  disarm(id: number, untilMs: number): boolean {
    const alert = this.byId.get(id);
    if (!alert || this.disarmed.has(id)) return false;
    this.unplace(alert);
    this.disarmed.set(id, untilMs);
    this.rearmQueue.push({ at: untilMs, id });
    return true;
  }

  isArmed(id: number): boolean {
    return this.byId.has(id) && !this.disarmed.has(id);
  }

  /**
   * Puts back every alert whose disarm time has come and returns them: the caller checks each
   * once against the symbol's latest price with no previous price (levels fire, crossings wait).
   */
  rearmDue(nowMs: number): IndexedAlert[] {
    const due: IndexedAlert[] = [];
    for (let next = this.rearmQueue.peek(); next && next.at <= nowMs; next = this.rearmQueue.peek()) {
      this.rearmQueue.pop();
      // Stale entries (alert removed, or disarmed again later) are skipped.
      if (this.disarmed.get(next.id) !== next.at) continue;
      const alert = this.byId.get(next.id)!;
      this.disarmed.delete(next.id);
      this.place(alert, true);
      due.push(alert);
    }
    return due;
  }

  /** The alerts whose price condition a price update of `symbol` meets. */
  match(symbol: string, tick: PriceTick, out: IndexedAlert[] = []): IndexedAlert[] {
    this.bySymbol.get(symbol)?.match(tick, out);
    return out;
  }

  /** The technical alerts of a symbol, evaluated when one of its bars closes. */
  technicalAlerts(symbol: string): IndexedAlert[] {
    return [...(this.bySymbol.get(symbol)?.technical.values() ?? [])];
  }

  private place(alert: IndexedAlert, sortedInsert: boolean): void {
    let symbol = this.bySymbol.get(alert.symbol);
    if (!symbol) {
      symbol = new SymbolAlerts();
      this.bySymbol.set(alert.symbol, symbol);
    }
    if (isTechnicalCondition(alert.condition)) symbol.technical.set(alert.id, alert);
    else {
      symbol.trackWindow(alert.condition, 1);
      for (const { list, key, other = Number.NaN } of symbol.lists(alert.condition)) {
        if (sortedInsert) list.insert({ key, other, alert });
        else list.push({ key, other, alert });
      }
    }
    symbol.size++;
    this.byId.set(alert.id, alert);
  }

  private unplace(alert: IndexedAlert): void {
    const symbol = this.bySymbol.get(alert.symbol);
    if (!symbol) return;
    if (isTechnicalCondition(alert.condition)) symbol.technical.delete(alert.id);
    else {
      symbol.trackWindow(alert.condition, -1);
      for (const { list, key } of symbol.lists(alert.condition)) list.remove(key, alert.id);
    }
    symbol.size--;
    if (symbol.size === 0) this.bySymbol.delete(alert.symbol);
  }
}

/** A binary min-heap of (time, alert id). */
class MinHeap {
  private readonly items: { at: number; id: number }[] = [];

  peek(): { at: number; id: number } | undefined {
    return this.items[0];
  }

  push(item: { at: number; id: number }): void {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent].at <= a[i].at) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }

  pop(): { at: number; id: number } | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].at < a[m].at) m = l;
        if (r < a.length && a[r].at < a[m].at) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}

/** The reference the index must agree with: every alert checked against its symbol's update. */
export function matchByFullScan(alerts: Iterable<IndexedAlert>, ticks: ReadonlyMap<string, PriceTick>): IndexedAlert[] {
  const out: IndexedAlert[] = [];
  for (const alert of alerts) {
    const tick = ticks.get(alert.symbol);
    if (!tick || isTechnicalCondition(alert.condition)) continue;
    if (isPriceConditionMet(alert.condition, tick)) out.push(alert);
  }
  return out;
}
