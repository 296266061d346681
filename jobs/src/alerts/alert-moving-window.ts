import type { PriceTick } from './alert-conditions';
import type { ParsedHistory } from './alert-price-history';
import { decimalToDouble } from './decimal-to-double';

/**
 * The moving conditions' arithmetic (moving up/down by an amount or a percent within a window of
 * minutes): how far one tick has moved in each window of its symbol, from the symbol's recent
 * prices, in one pass per tick.
 */

/** The moves of one tick per window (read before the next tick is measured). */
export interface WindowMoves {
  /** Move and band per window slot ([move0, band0, move1, band1, ...]), up, down, up % and down %. */
  readonly up: Float64Array;
  readonly down: Float64Array;
  readonly upPercent: Float64Array;
  readonly downPercent: Float64Array;
  /** Per family: thresholds below `sure` match whatever their window, those above `never` match in none. */
  readonly upSure: number;
  readonly upNever: number;
  readonly downSure: number;
  readonly downNever: number;
  readonly upPercentSure: number;
  readonly upPercentNever: number;
  readonly downPercentSure: number;
  readonly downPercentNever: number;
}

const RELATIVE_BAND = 1e-12;

/** Per-window scratch of the moving conditions, reused by every tick (one tick is matched at a time). */
class MovingScratch implements WindowMoves {
  size = 0;
  since = new Float64Array(0);
  min = new Float64Array(0);
  max = new Float64Array(0);
  // move and band per window, for up, down, up % and down %: [move0, band0, move1, band1, ...]
  up = new Float64Array(0);
  down = new Float64Array(0);
  upPercent = new Float64Array(0);
  downPercent = new Float64Array(0);
  // Per family: thresholds below `...Sure` match whatever their window, thresholds above `...Never` in none.
  upSure = 0;
  upNever = 0;
  downSure = 0;
  downNever = 0;
  upPercentSure = 0;
  upPercentNever = 0;
  downPercentSure = 0;
  downPercentNever = 0;

  times = new Float64Array(64);
  prices = new Float64Array(64);

  ensureHistory(n: number): void {
    if (n <= this.times.length) return;
    this.times = new Float64Array(Math.max(n, this.times.length * 2));
    this.prices = new Float64Array(this.times.length);
  }

  ensure(n: number): void {
    if (n <= this.size) return;
    this.size = Math.max(n, this.size * 2, 16);
    this.since = new Float64Array(this.size);
    this.min = new Float64Array(this.size);
    this.max = new Float64Array(this.size);
    this.up = new Float64Array(this.size * 2);
    this.down = new Float64Array(this.size * 2);
    this.upPercent = new Float64Array(this.size * 2);
    this.downPercent = new Float64Array(this.size * 2);
  }
}

const scratch = new MovingScratch();

/**
 * The moves of a tick in each of a symbol's windows (`n` distinct windows, in minutes, ascending at
 * data[windowsAt ..]), for its moving conditions. A pass over the history (in any order) puts each point in
 * the narrowest window that holds it; running extremes over the windows, narrowest first, give each
 * window's move up/down (amount and percent). A move never shrinks as its window widens, so
 * thresholds below the smallest window's move all match, those above the largest one's never do,
 * and only those in between are checked against their own window (alert-symbol-index.ts matches
 * them). Moves are computed in doubles;
 * thresholds within a band around them, wider than any rounding of that arithmetic (including
 * decimals that round to the same double), are re-checked exactly.
 */
export function measureWindowMoves(
  data: Float64Array,
  windowsAt: number,
  n: number,
  tick: PriceTick,
  cf: number,
  parsed: ParsedHistory | null,
): WindowMoves {
  scratch.ensure(n);
  const { since, min, max, up, down, upPercent, downPercent } = scratch;
  const now = tick.at.getTime();
  for (let j = 0; j < n; j++) {
    since[j] = now - data[windowsAt + j] * 60_000; // descending in j
    min[j] = Number.POSITIVE_INFINITY;
    max[j] = Number.NEGATIVE_INFINITY;
  }
  if (parsed) windowRanges(since, n, now, parsed.atMs, parsed.price, parsed.start, parsed.end);
  else if (tick.history) {
    const history = tick.history;
    const count = history.length;
    scratch.ensureHistory(count);
    const { times, prices } = scratch;
    // One pass of loads first (independent across points, so the CPU overlaps their cache misses).
    for (let i = 0; i < count; i++) {
      const point = history[i];
      times[i] = point.at.getTime();
      prices[i] = decimalToDouble(point.price);
    }
    windowRanges(since, n, now, times, prices, 0, count);
  }
  let low = cf;
  let high = cf;
  let upSure = Number.POSITIVE_INFINITY;
  let upNever = Number.NEGATIVE_INFINITY;
  let downSure = Number.POSITIVE_INFINITY;
  let downNever = Number.NEGATIVE_INFINITY;
  let upPercentSure = Number.POSITIVE_INFINITY;
  let upPercentNever = Number.NEGATIVE_INFINITY;
  let downPercentSure = Number.POSITIVE_INFINITY;
  let downPercentNever = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < n; j++) {
    if (min[j] < low) low = min[j];
    if (max[j] > high) high = max[j];
    // The error of a difference of two doubles is about an ulp of the larger one.
    const slack = (Math.abs(cf) + Math.abs(low) + Math.abs(high)) * 1e-13;
    const upMove = cf - low;
    const downMove = high - cf;
    const upBand = slack + Math.abs(upMove) * RELATIVE_BAND;
    const downBand = slack + Math.abs(downMove) * RELATIVE_BAND;
    // One division per base; the extra rounding (an ulp or two) is far inside the band.
    const perLow = 100 / low;
    const perHigh = 100 / high;
    const upPct = low > 0 ? upMove * perLow : Number.NEGATIVE_INFINITY;
    const downPct = high > 0 ? downMove * perHigh : Number.NEGATIVE_INFINITY;
    const upPctBand = low > 0 ? upBand * perLow + Math.abs(upPct) * RELATIVE_BAND : 0;
    const downPctBand = high > 0 ? downBand * perHigh + Math.abs(downPct) * RELATIVE_BAND : 0;
    up[2 * j] = upMove;
    up[2 * j + 1] = upBand;
    down[2 * j] = downMove;
    down[2 * j + 1] = downBand;
    upPercent[2 * j] = upPct;
    upPercent[2 * j + 1] = upPctBand;
    downPercent[2 * j] = downPct;
    downPercent[2 * j + 1] = downPctBand;
    upSure = Math.min(upSure, upMove - upBand);
    upNever = Math.max(upNever, upMove + upBand);
    downSure = Math.min(downSure, downMove - downBand);
    downNever = Math.max(downNever, downMove + downBand);
    upPercentSure = Math.min(upPercentSure, upPct - upPctBand);
    upPercentNever = Math.max(upPercentNever, upPct + upPctBand);
    downPercentSure = Math.min(downPercentSure, downPct - downPctBand);
    downPercentNever = Math.max(downPercentNever, downPct + downPctBand);
  }
  scratch.upSure = upSure;
  scratch.upNever = upNever;
  scratch.downSure = downSure;
  scratch.downNever = downNever;
  scratch.upPercentSure = upPercentSure;
  scratch.upPercentNever = upPercentNever;
  scratch.downPercentSure = downPercentSure;
  scratch.downPercentNever = downPercentNever;
  return scratch;
}

/** Puts each point of [start, end) in the narrowest window that holds it: scratch.min/max per window. */
function windowRanges(since: Float64Array, n: number, now: number, times: ArrayLike<number>, prices: ArrayLike<number>, start: number, end: number): void {
  const { min, max } = scratch;
  const widest = since[n - 1];
  let j = n - 1;
  for (let i = start; i < end; i++) {
    const t = times[i];
    if (t > now || t < widest) continue;
    if (t !== t) j = 0;
    else if (since[j] <= t) {
      if (j > 0 && since[j - 1] <= t) {
        if (j > 1 && since[j - 2] <= t) j = firstWindowHolding(since, j - 2, t);
        else j--;
      }
    } else if (since[j + 1] <= t) j++;
    else j = firstWindowHolding(since, n - 1, t);
    const v = prices[i];
    if (v < min[j]) min[j] = v;
    if (v > max[j]) max[j] = v;
  }
}

/** The first j <= last with since[j] <= t (since descends; since[last] <= t). */
function firstWindowHolding(since: Float64Array, last: number, t: number): number {
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (since[mid] <= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
