import { isPriceCondition, isPriceConditionMet, type AlertCondition, type PriceTick } from './alert-conditions';
import type { ParsedHistory } from './alert-price-history';
import { matchSymbol, SymbolAlerts } from './alert-symbol-index';

/** An active alert as the index holds it. */
export interface IndexedAlert {
  id: number;
  symbol: string;
  condition: AlertCondition;
  /** Bar interval of a technical alert (evaluated when a bar of that interval closes). */
  interval?: string | null;
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
      index.place(alert, true);
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
    this.place(alert, false);
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
      this.place(alert, false);
      due.push(alert);
    }
    return due;
  }

  /**
   * The alerts whose price condition a price update of `symbol` meets. `history`, when given, is the
   * symbol's recent prices already parsed, and replaces `tick.history`.
   */
  match(symbol: string, tick: PriceTick, out: IndexedAlert[] = [], history?: ParsedHistory): IndexedAlert[] {
    const alerts = this.bySymbol.get(symbol);
    if (!alerts) return out;
    matchSymbol(alerts, tick, out, history ?? null);
    return out;
  }

  /** The longest window (minutes) of the symbol's armed moving alerts, 0 without any: how much history a tick needs. */
  historyMinutes(symbol: string): number {
    const windows = this.bySymbol.get(symbol)?.armedWindows() ?? [];
    return windows.length ? windows[windows.length - 1] : 0;
  }

  /** The technical alerts of a symbol, evaluated when one of its bars closes. */
  technicalAlerts(symbol: string): IndexedAlert[] {
    return [...(this.bySymbol.get(symbol)?.technical?.values() ?? [])];
  }

  private place(alert: IndexedAlert, bulk: boolean): void {
    let symbol = this.bySymbol.get(alert.symbol);
    if (!symbol) {
      symbol = new SymbolAlerts();
      this.bySymbol.set(alert.symbol, symbol);
    }
    symbol.add(alert, bulk);
    symbol.size++;
    this.byId.set(alert.id, alert);
  }

  private unplace(alert: IndexedAlert): void {
    const symbol = this.bySymbol.get(alert.symbol);
    if (!symbol) return;
    symbol.delete(alert);
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
    if (!tick || !isPriceCondition(alert.condition)) continue;
    if (isPriceConditionMet(alert.condition, tick)) out.push(alert);
  }
  return out;
}
