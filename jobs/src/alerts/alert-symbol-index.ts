import {
  compareDecimal,
  isPriceConditionMet,
  isNewsCondition,
  isTechnicalCondition,
  type PriceCondition,
  type PriceTick,
} from './alert-conditions';
import type { IndexedAlert } from './alert-index';
import { measureWindowMoves } from './alert-moving-window';
import { historyPoints, type ParsedHistory } from './alert-price-history';
import { decimalToDouble } from './decimal-to-double';

/**
 * One symbol's alerts, as the alert index keeps them: its price alerts in threshold order, in one
 * Float64Array per symbol (levels, channels and crossings matched here; the moves of the moving
 * conditions measured by alert-moving-window.ts), and its technical alerts (evaluated when a bar
 * closes). The hot paths stay in this module: the searches, the brackets and the exact evaluator.
 */

// The families a symbol's price alerts are kept in, each sorted by its key (a threshold as a double),
// numbered in the order a tick reads them (memory order helps the prefetcher). `other` is a
// channel's other bound, or a moving alert's window slot.
const GREATER_THAN = 0;
const LESS_THAN = 1;
const INSIDE_BY_LOW = 2; // other: high
const OUTSIDE_BY_LOW = 3;
const OUTSIDE_BY_HIGH = 4;
const CROSSING_UP = 5; // crossing_up and crossing, by value (the crossing families run from here)
const ENTERING_BY_LOW = 6; // other: high
const EXITING_BY_HIGH = 7; // other: low
const CROSSING_DOWN = 8; // crossing_down and crossing, by value
const ENTERING_BY_HIGH = 9; // other: low
const EXITING_BY_LOW = 10; // other: high
const MOVING_UP = 11; // by amount; other: window slot (moving families run from here to the end)
const MOVING_DOWN = 12;
const MOVING_UP_PERCENT = 13; // by percent; other: window slot
const MOVING_DOWN_PERCENT = 14;
const FAMILIES = 15;

type Placement = (family: number, key: number, other: number) => void;

/** Where a price condition is kept: one or two (family, key, other) places. */
function placements(condition: PriceCondition, to: Placement): void {
  switch (condition.type) {
    case 'crossing': {
      const value = decimalToDouble(condition.value);
      to(CROSSING_UP, value, Number.NaN);
      to(CROSSING_DOWN, value, Number.NaN);
      return;
    }
    case 'crossing_up':
      return to(CROSSING_UP, decimalToDouble(condition.value), Number.NaN);
    case 'crossing_down':
      return to(CROSSING_DOWN, decimalToDouble(condition.value), Number.NaN);
    case 'greater_than':
      return to(GREATER_THAN, decimalToDouble(condition.value), Number.NaN);
    case 'less_than':
      return to(LESS_THAN, decimalToDouble(condition.value), Number.NaN);
  }
  if ('low' in condition) {
    const low = decimalToDouble(condition.low);
    const high = decimalToDouble(condition.high);
    switch (condition.type) {
      case 'entering_channel':
        to(ENTERING_BY_LOW, low, high);
        return to(ENTERING_BY_HIGH, high, low);
      case 'exiting_channel':
        to(EXITING_BY_LOW, low, high);
        return to(EXITING_BY_HIGH, high, low);
      case 'inside_channel':
        return to(INSIDE_BY_LOW, low, high);
      case 'outside_channel':
        to(OUTSIDE_BY_LOW, low, high);
        return to(OUTSIDE_BY_HIGH, high, low);
    }
  }
  // The window slot is filled in once the symbol's windows are known.
  switch (condition.type) {
    case 'moving_up':
      return to(MOVING_UP, decimalToDouble(condition.amount), -1);
    case 'moving_down':
      return to(MOVING_DOWN, decimalToDouble(condition.amount), -1);
    case 'moving_up_percent':
      return to(MOVING_UP_PERCENT, decimalToDouble(condition.percent), -1);
    case 'moving_down_percent':
      return to(MOVING_DOWN_PERCENT, decimalToDouble(condition.percent), -1);
  }
}

function windowMinutes(condition: PriceCondition): number | undefined {
  return 'minutes' in condition ? condition.minutes : undefined;
}

// Families are usually small: below this size a linear scan beats a binary search's mispredicted branches.
const LINEAR_SEARCH = 16;

/** First entry in [from, to) whose key (data[keysAt + i]) is >= x. */
function lowerBound(data: Float64Array, keysAt: number, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to;
  while (hi - lo > LINEAR_SEARCH) {
    const mid = (lo + hi) >>> 1;
    if (data[keysAt + mid] < x) lo = mid + 1;
    else hi = mid;
  }
  while (lo < hi && data[keysAt + lo] < x) lo++;
  return lo;
}

/** First entry in [from, to) whose key is > x. */
function upperBound(data: Float64Array, keysAt: number, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to;
  while (hi - lo > LINEAR_SEARCH) {
    const mid = (lo + hi) >>> 1;
    if (data[keysAt + mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  while (lo < hi && data[keysAt + lo] <= x) lo++;
  return lo;
}

/**
 * The parsed history of the tick being matched (one at a time), and the tick with it as points,
 * built only if the exact evaluator needs it (rare: a threshold that ties as a double).
 */
let parsedHistory: ParsedHistory | null = null;
let withPoints: PriceTick | null = null;

/** The exact evaluator, for thresholds that tie with a bound as doubles. */
function exact(alert: IndexedAlert, tick: PriceTick): boolean {
  if (parsedHistory) tick = withPoints ??= { ...tick, history: historyPoints(parsedHistory) };
  return isPriceConditionMet(alert.condition as PriceCondition, tick);
}

function channelLow(alert: IndexedAlert): string {
  return (alert.condition as { low: string }).low;
}

function channelHigh(alert: IndexedAlert): string {
  return (alert.condition as { high: string }).high;
}

/** Bulk-build rows of one symbol, sorted once by finish(). */
interface Pending {
  family: number[];
  key: number[];
  other: number[];
  alert: IndexedAlert[];
}

// Layout of a symbol's `data` (see SymbolAlerts).
const BRACKETS_AT = FAMILIES + 1;
const BRACKETS = FAMILIES + (FAMILIES - MOVING_UP); // one per family, a second one per moving family
const WINDOWS_AT = BRACKETS_AT + 3 * BRACKETS;

/** Forgets a bracket: no value lies above +Infinity and below -Infinity. */
function clearBracket(data: Float64Array, bracket: number): void {
  data[BRACKETS_AT + 3 * bracket] = Number.POSITIVE_INFINITY;
  data[BRACKETS_AT + 3 * bracket + 1] = Number.NEGATIVE_INFINITY;
}

function clearBrackets(data: Float64Array): void {
  for (let b = 0; b < BRACKETS; b++) clearBracket(data, b);
}

/** Set by locate(): the value lies strictly between two neighbouring keys, so no key ties with it. */
let clean = false;

/**
 * The lowerBound (or upperBound) of x among family entries [from, to), through the family's
 * bracket: the open interval between the two keys around the value it last located, with that
 * position. A symbol's price moves little from tick to tick, so the next value usually falls in the
 * same gap between thresholds and the family's keys are not read at all (the index is memory-bound:
 * each family read is a cache miss). Any edit of the family clears its bracket.
 */
function locate(data: Float64Array, keysAt: number, from: number, to: number, bracket: number, x: number, upper: boolean): number {
  const at = BRACKETS_AT + 3 * bracket;
  if (data[at] < x && x < data[at + 1]) {
    clean = true;
    return from + data[at + 2];
  }
  const position = upper ? upperBound(data, keysAt, from, to, x) : lowerBound(data, keysAt, from, to, x);
  const below = position > from ? data[keysAt + position - 1] : Number.NEGATIVE_INFINITY;
  const above = position < to ? data[keysAt + position] : Number.POSITIVE_INFINITY;
  clean = below < x && x < above;
  if (clean) {
    data[at] = below;
    data[at + 1] = above;
    data[at + 2] = position - from;
  } else clearBracket(data, bracket);
  return position;
}

/**
 * The price alerts of one symbol in one Float64Array, so that a tick follows one pointer instead of
 * dozens (the index is memory-bound: with 10,000 symbols, each symbol's data is a cache miss away):
 * - data[f] (f = 0..FAMILIES): the first entry of family f, family f being entries [data[f], data[f+1]);
 * - data[BRACKETS_AT ..]: per family (and a second one per moving family) the bracket of locate(),
 *   as (below, above, position in the family);
 * - data[WINDOWS_AT ..]: the distinct windows (minutes) of the moving alerts, ascending;
 * - data[keysAt + i]: entry i's key (a threshold as a double); data[othersAt + i]: its other double.
 * Keys are kept apart from the others so that searches read dense memory.
 * `alerts[i]` is entry i's alert. Each family is sorted by key.
 */
export class SymbolAlerts {
  data = SymbolAlerts.emptyData();
  alerts: IndexedAlert[] = [];
  keysAt = WINDOWS_AT;
  othersAt = WINDOWS_AT + 8;
  windowCount = 0;
  pending: Pending | null = null;
  // How many moving alerts use each window; the entries' slots are renumbered when the set changes.
  private readonly windowUse = new Map<number, number>();
  private windowsChanged = false;
  technical: Map<number, IndexedAlert> | null = null;
  size = 0;

  get length(): number {
    return this.data[FAMILIES];
  }

  private static emptyData(): Float64Array {
    const data = new Float64Array(WINDOWS_AT + 16);
    clearBrackets(data);
    return data;
  }

  /** The family's entries moved: its brackets no longer hold. */
  private clearBrackets(family: number): void {
    clearBracket(this.data, family);
    if (family >= MOVING_UP) clearBracket(this.data, FAMILIES + family - MOVING_UP);
  }

  add(alert: IndexedAlert, bulk: boolean): void {
    if (isTechnicalCondition(alert.condition)) {
      (this.technical ??= new Map()).set(alert.id, alert);
      return;
    }
    // News alerts are evaluated on news polls (alert-news.ts), never on prices.
    if (isNewsCondition(alert.condition)) return;
    const condition = alert.condition;
    if (!bulk) this.finish();
    this.trackWindow(condition, 1);
    if (bulk) {
      const pending = (this.pending ??= { family: [], key: [], other: [], alert: [] });
      placements(condition, (family, key, other) => {
        pending.family.push(family);
        pending.key.push(key);
        pending.other.push(other);
        pending.alert.push(alert);
      });
    } else {
      placements(condition, (family, key, other) => this.insert(family, key, other, alert));
    }
  }

  delete(alert: IndexedAlert): void {
    if (isTechnicalCondition(alert.condition)) {
      this.technical?.delete(alert.id);
      return;
    }
    if (isNewsCondition(alert.condition)) return;
    this.finish();
    this.trackWindow(alert.condition, -1);
    placements(alert.condition, (family, key) => this.removeEntry(family, key, alert.id));
  }

  private insert(family: number, key: number, other: number, alert: IndexedAlert): void {
    const length = this.length;
    if (length === this.capacity()) this.relayout(this.windowCapacity(), Math.max(8, length * 2));
    const { data, keysAt, othersAt } = this;
    const at = upperBound(data, keysAt, data[family], data[family + 1], key);
    data.copyWithin(keysAt + at + 1, keysAt + at, keysAt + length);
    data.copyWithin(othersAt + at + 1, othersAt + at, othersAt + length);
    data[keysAt + at] = key;
    data[othersAt + at] =
      family >= MOVING_UP && !this.windowsChanged ? this.slotOf(windowMinutes(alert.condition as PriceCondition)!) : other;
    this.alerts.splice(at, 0, alert);
    for (let f = family + 1; f <= FAMILIES; f++) data[f]++;
    this.clearBrackets(family);
  }

  private removeEntry(family: number, key: number, id: number): void {
    const { data, keysAt, othersAt } = this;
    const end = data[family + 1];
    for (let i = lowerBound(data, keysAt, data[family], end, key); i < end && data[keysAt + i] === key; i++) {
      if (this.alerts[i].id !== id) continue;
      const length = this.length;
      data.copyWithin(keysAt + i, keysAt + i + 1, keysAt + length);
      data.copyWithin(othersAt + i, othersAt + i + 1, othersAt + length);
      this.alerts.splice(i, 1);
      for (let f = family + 1; f <= FAMILIES; f++) data[f]--;
      this.clearBrackets(family);
      return;
    }
  }

  private windowCapacity(): number {
    return this.keysAt - WINDOWS_AT;
  }

  private capacity(): number {
    return this.othersAt - this.keysAt;
  }

  /** A new array with room for `windows` windows and `entries` entries, the current content copied. */
  private relayout(windows: number, entries: number): void {
    const keysAt = WINDOWS_AT + windows;
    const othersAt = keysAt + entries;
    const data = new Float64Array(othersAt + entries);
    const length = this.length;
    data.set(this.data.subarray(0, WINDOWS_AT + this.windowCount));
    data.set(this.data.subarray(this.keysAt, this.keysAt + length), keysAt);
    data.set(this.data.subarray(this.othersAt, this.othersAt + length), othersAt);
    this.data = data;
    this.keysAt = keysAt;
    this.othersAt = othersAt;
  }

  /** Merges bulk-loaded rows: one sort by (family, key). */
  finish(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    const { family, key, other, alert } = pending;
    const order = Array.from({ length: family.length }, (_, i) => i);
    order.sort((a, b) => family[a] - family[b] || key[a] - key[b]);
    // Bulk rows only arrive before any single insert, so the layout is empty here.
    this.windowCount = 0;
    this.keysAt = WINDOWS_AT + this.windowUse.size;
    this.othersAt = this.keysAt + order.length;
    const data = (this.data = new Float64Array(this.othersAt + order.length));
    clearBrackets(data);
    const alerts = (this.alerts = new Array<IndexedAlert>(order.length));
    for (let i = 0; i < order.length; i++) {
      const j = order[i];
      data[this.keysAt + i] = key[j];
      data[this.othersAt + i] = other[j];
      alerts[i] = alert[j];
      data[family[j] + 1]++;
    }
    for (let f = 1; f <= FAMILIES; f++) data[f] += data[f - 1];
    this.windowsChanged = true;
    this.refreshWindows();
  }

  /** Counts the window of a moving condition in (+1) or out (-1). */
  private trackWindow(condition: PriceCondition, delta: 1 | -1): void {
    const minutes = windowMinutes(condition);
    if (minutes === undefined) return;
    const count = (this.windowUse.get(minutes) ?? 0) + delta;
    if (count > 0) this.windowUse.set(minutes, count);
    else this.windowUse.delete(minutes);
    if (count === 0 || (count === 1 && delta === 1)) this.windowsChanged = true;
  }

  /** A window's position among the symbol's windows. */
  private slotOf(minutes: number): number {
    let slot = 0;
    while (slot < this.windowCount && this.data[WINDOWS_AT + slot] < minutes) slot++;
    return slot;
  }

  /** The distinct windows (minutes) of the armed moving alerts, ascending. */
  armedWindows(): number[] {
    this.refreshWindows();
    return Array.from(this.data.subarray(WINDOWS_AT, WINDOWS_AT + this.windowCount));
  }

  /** Rewrites the windows and renumbers the moving entries' slots after the set of windows changed. */
  refreshWindows(): void {
    if (!this.windowsChanged) return;
    this.windowsChanged = false;
    const windows = [...this.windowUse.keys()].sort((a, b) => a - b);
    if (windows.length > this.windowCapacity()) this.relayout(windows.length * 2, Math.max(8, this.capacity()));
    this.data.set(windows, WINDOWS_AT);
    this.windowCount = windows.length;
    const { data, othersAt } = this;
    for (let i = data[MOVING_UP]; i < data[FAMILIES]; i++) {
      data[othersAt + i] = this.slotOf(windowMinutes(this.alerts[i].condition as PriceCondition)!);
    }
  }

  match(tick: PriceTick, out: IndexedAlert[], parsed: ParsedHistory | null): void {
    const data = this.data;
    if (data[FAMILIES] === 0) return;
    const keysAt = this.keysAt;
    const othersAt = this.othersAt;
    const alerts = this.alerts;
    const c = tick.current;
    const cf = decimalToDouble(c);
    let from: number;
    let to: number;

    // Levels: a prefix or suffix of the sorted thresholds; only thresholds that tie with the price
    // as doubles are compared exactly (rounding to a double is monotonic, so the rest is sure).
    if ((from = data[GREATER_THAN]) < (to = data[GREATER_THAN + 1])) {
      const sure = locate(data, keysAt, from, to, GREATER_THAN, cf, false);
      for (let i = from; i < sure; i++) out.push(alerts[i]);
      if (!clean) for (let i = sure; i < to && data[keysAt + i] === cf; i++) if (exact(alerts[i], tick)) out.push(alerts[i]);
    }
    if ((from = data[LESS_THAN]) < (to = data[LESS_THAN + 1])) {
      const sure = locate(data, keysAt, from, to, LESS_THAN, cf, true);
      if (!clean) for (let i = lowerBound(data, keysAt, from, sure, cf); i < sure; i++) if (exact(alerts[i], tick)) out.push(alerts[i]);
      for (let i = sure; i < to; i++) out.push(alerts[i]);
    }
    if ((from = data[INSIDE_BY_LOW]) < (to = data[INSIDE_BY_LOW + 1])) {
      const end = locate(data, keysAt, from, to, INSIDE_BY_LOW, cf, true);
      for (let i = from; i < end; i++) {
        const low = data[keysAt + i];
        const high = data[othersAt + i];
        if (low < cf && high > cf) out.push(alerts[i]);
        else if ((low === cf || high === cf) && exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
    // An outside alert sits in both lists; each list confirms only its own side, so a tie never
    // reports it twice.
    if ((from = data[OUTSIDE_BY_LOW]) < (to = data[OUTSIDE_BY_LOW + 1])) {
      const sure = locate(data, keysAt, from, to, OUTSIDE_BY_LOW, cf, true);
      if (!clean) {
        for (let i = lowerBound(data, keysAt, from, sure, cf); i < sure; i++) if (compareDecimal(channelLow(alerts[i]), c) > 0) out.push(alerts[i]);
      }
      for (let i = sure; i < to; i++) out.push(alerts[i]);
    }
    if ((from = data[OUTSIDE_BY_HIGH]) < (to = data[OUTSIDE_BY_HIGH + 1])) {
      const sure = locate(data, keysAt, from, to, OUTSIDE_BY_HIGH, cf, false);
      for (let i = from; i < sure; i++) out.push(alerts[i]);
      if (!clean) {
        for (let i = sure; i < to && data[keysAt + i] === cf; i++) if (compareDecimal(channelHigh(alerts[i]), c) < 0) out.push(alerts[i]);
      }
    }

    // Crossings and channel edges: only thresholds inside the range the price moved through; a tick
    // that did not move crosses nothing.
    const p = tick.previous;
    if (p !== null && p !== c && data[MOVING_UP] > data[CROSSING_UP]) {
      const pf = decimalToDouble(p);
      const direction = pf < cf ? -1 : pf > cf ? 1 : compareDecimal(p, c);
      if (direction < 0) this.matchUp(tick, pf, cf, out);
      else if (direction > 0) this.matchDown(tick, pf, cf, out);
    }

    if (data[FAMILIES] > data[MOVING_UP]) {
      if (this.windowsChanged) this.refreshWindows();
      matchMoving(this, tick, cf, out, parsed);
    }
  }

  /**
   * The entries of a family with keys in [pf, cf] (an upward tick) or [cf, pf] (downward), as
   * [first, end) in `range`; empty without reading the keys when both prices lie in the bracket.
   */
  private crossed(family: number, pf: number, cf: number, up: boolean): boolean {
    const { data, keysAt } = this;
    const from = data[family];
    const to = data[family + 1];
    if (from === to) return false;
    const bracket = BRACKETS_AT + 3 * family;
    if (up) {
      const end = locate(data, keysAt, from, to, family, cf, true);
      // The bracket around cf also holds pf: no threshold in between.
      if (clean && data[bracket] < pf) return false;
      range.first = lowerBound(data, keysAt, from, end, pf);
      range.end = end;
    } else {
      const first = locate(data, keysAt, from, to, family, cf, false);
      if (clean && pf < data[bracket + 1]) return false;
      range.first = first;
      range.end = upperBound(data, keysAt, first, to, pf);
    }
    return range.first < range.end;
  }

  /** An upward tick p < c: crossings up (p < v <= c), entering by low, exiting by high. */
  private matchUp(tick: PriceTick, pf: number, cf: number, out: IndexedAlert[]): void {
    const { data, keysAt, othersAt, alerts } = this;
    if (this.crossed(CROSSING_UP, pf, cf, true)) {
      for (let i = range.first; i < range.end; i++) {
        const v = data[keysAt + i];
        if (v !== pf && v !== cf) out.push(alerts[i]);
        else if (exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
    // Entering upward: p < low <= c <= high.
    if (this.crossed(ENTERING_BY_LOW, pf, cf, true)) {
      for (let i = range.first; i < range.end; i++) {
        const low = data[keysAt + i];
        const high = data[othersAt + i];
        if (low > pf && low < cf && high > cf) out.push(alerts[i]);
        else if ((low === pf || low === cf || high === cf) && exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
    // Exiting upward: low <= p <= high < c.
    if (this.crossed(EXITING_BY_HIGH, pf, cf, true)) {
      for (let i = range.first; i < range.end; i++) {
        const high = data[keysAt + i];
        const low = data[othersAt + i];
        if (high > pf && high < cf && low < pf) out.push(alerts[i]);
        else if ((high === pf || high === cf || low === pf) && exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
  }

  /** A downward tick p > c: crossings down (p > v >= c), entering by high, exiting by low. */
  private matchDown(tick: PriceTick, pf: number, cf: number, out: IndexedAlert[]): void {
    const { data, keysAt, othersAt, alerts } = this;
    if (this.crossed(CROSSING_DOWN, pf, cf, false)) {
      for (let i = range.first; i < range.end; i++) {
        const v = data[keysAt + i];
        if (v !== pf && v !== cf) out.push(alerts[i]);
        else if (exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
    // Entering downward: low <= c <= high < p.
    if (this.crossed(ENTERING_BY_HIGH, pf, cf, false)) {
      for (let i = range.first; i < range.end; i++) {
        const high = data[keysAt + i];
        const low = data[othersAt + i];
        if (high > cf && high < pf && low < cf) out.push(alerts[i]);
        else if ((high === cf || high === pf || low === cf) && exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
    // Exiting downward: c < low <= p <= high.
    if (this.crossed(EXITING_BY_LOW, pf, cf, false)) {
      for (let i = range.first; i < range.end; i++) {
        const low = data[keysAt + i];
        const high = data[othersAt + i];
        if (low > cf && low < pf && high > pf) out.push(alerts[i]);
        else if ((low === cf || low === pf || high === pf) && exact(alerts[i], tick)) out.push(alerts[i]);
      }
    }
  }
}

/** The entries a crossing family's tick range holds (set by SymbolAlerts.crossed; one tick at a time). */
const range = { first: 0, end: 0 };

/**
 * The alerts of `symbol` whose price condition the tick meets, into `out`. `history`, when given,
 * is the symbol's recent prices already parsed (the exact evaluator reads it instead of `tick.history`).
 */
export function matchSymbol(symbol: SymbolAlerts, tick: PriceTick, out: IndexedAlert[], history: ParsedHistory | null): void {
  parsedHistory = history;
  withPoints = null;
  try {
    symbol.match(tick, out, history);
  } finally {
    parsedHistory = null;
    withPoints = null;
  }
}

/**
 * Moving conditions of one symbol: the moves of the tick in each of the symbol's windows
 * (alert-moving-window.ts), then each moving family against its windows' moves.
 */
function matchMoving(symbol: SymbolAlerts, tick: PriceTick, cf: number, out: IndexedAlert[], parsed: ParsedHistory | null): void {
  const n = symbol.windowCount;
  if (n === 0) return;
  const moves = measureWindowMoves(symbol.data, WINDOWS_AT, n, tick, cf, parsed);
  matchMovingFamily(symbol, MOVING_UP, moves.up, moves.upSure, moves.upNever, tick, out);
  matchMovingFamily(symbol, MOVING_DOWN, moves.down, moves.downSure, moves.downNever, tick, out);
  matchMovingFamily(symbol, MOVING_UP_PERCENT, moves.upPercent, moves.upPercentSure, moves.upPercentNever, tick, out);
  matchMovingFamily(symbol, MOVING_DOWN_PERCENT, moves.downPercent, moves.downPercentSure, moves.downPercentNever, tick, out);
}

/** A threshold matches when it is at most its window's move (`moves`: move and band per slot). */
function matchMovingFamily(
  symbol: SymbolAlerts,
  family: number,
  moves: Float64Array,
  sureBelow: number,
  neverAbove: number,
  tick: PriceTick,
  out: IndexedAlert[],
): void {
  const { data, keysAt, othersAt, alerts } = symbol;
  const from = data[family];
  const to = data[family + 1];
  if (from === to) return;
  const sure = locate(data, keysAt, from, to, family, sureBelow, false);
  for (let i = from; i < sure; i++) out.push(alerts[i]);
  const end = Math.max(sure, locate(data, keysAt, from, to, FAMILIES + family - MOVING_UP, neverAbove, true));
  for (let i = sure; i < end; i++) {
    const key = data[keysAt + i];
    const slot = 2 * data[othersAt + i];
    const move = moves[slot];
    const band = moves[slot + 1];
    if (key < move - band) out.push(alerts[i]);
    else if (key <= move + band && exact(alerts[i], tick)) out.push(alerts[i]);
  }
}
