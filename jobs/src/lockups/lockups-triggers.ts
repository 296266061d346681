// Pure checks on daily bars: early-release price triggers (close at or above a multiple of the IPO
// price for N of M trading days), and the run-up and volume inputs of the risk score.
import type { LockupEarlyReleaseView } from './lockups.shapes';

export interface DailyBar {
  /** YYYY-MM-DD. */
  date: string;
  close: string | number;
  volume?: string | number;
}

/** Trading days averaged on each side of the volume ratio. */
export const VOLUME_WINDOW_DAYS = 30;

/**
 * The first day a price trigger was met: the day ending the first window of `windowDays` trading
 * days (bars, oldest first) with at least `days` closes at or above priceMultiple x ipoPrice. Only
 * bars after the IPO date and up to `today` count. Null when not met, or when the trigger is not a
 * price trigger (an event such as an earnings release). N defaults to 1 and M to N when unstated.
 */
export function priceTriggerMetOn(
  trigger: Pick<LockupEarlyReleaseView, 'priceMultiple' | 'days' | 'windowDays'>,
  ipoPrice: number,
  bars: readonly DailyBar[],
  range: { ipoDate: string; today: string },
): string | null {
  if (trigger.priceMultiple === null || !(ipoPrice > 0)) return null;
  const n = Math.max(1, trigger.days ?? 1);
  const m = Math.max(n, trigger.windowDays ?? n);
  // A tiny epsilon: 1.33 x 15 must equal a close of 19.95 despite binary floating point.
  const threshold = trigger.priceMultiple * ipoPrice - 1e-9;
  const window: boolean[] = [];
  let above = 0;
  for (const bar of bars) {
    if (bar.date <= range.ipoDate || bar.date > range.today) continue;
    const hit = Number(bar.close) >= threshold;
    window.push(hit);
    if (hit) above++;
    if (window.length > m && window.shift()) above--;
    if (above >= n) return bar.date;
  }
  return null;
}

/**
 * Applies the price triggers to an event's list: each newly met trigger gets its metOn. Answers
 * the updated list and the earliest new metOn (null when nothing changed).
 */
export function checkEarlyReleaseTriggers(
  triggers: readonly LockupEarlyReleaseView[],
  ipoPrice: number,
  bars: readonly DailyBar[],
  range: { ipoDate: string; today: string },
): { triggers: LockupEarlyReleaseView[]; newlyMetOn: string | null } {
  let newlyMetOn: string | null = null;
  const updated = triggers.map((t) => {
    if (t.metOn) return t;
    const metOn = priceTriggerMetOn(t, ipoPrice, bars, range);
    if (!metOn) return t;
    if (!newlyMetOn || metOn < newlyMetOn) newlyMetOn = metOn;
    return { ...t, metOn };
  });
  return { triggers: updated, newlyMetOn };
}

/** Last close / IPO price - 1, or null without a close or a price. */
export function runUpSinceIpo(bars: readonly DailyBar[], ipoPrice: number | null): number | null {
  if (!bars.length || ipoPrice === null || !(ipoPrice > 0)) return null;
  return Number(bars[bars.length - 1].close) / ipoPrice - 1;
}

/**
 * Average volume of the last VOLUME_WINDOW_DAYS bars over that of the first VOLUME_WINDOW_DAYS
 * after the IPO. Null until there are two full windows that do not overlap (60 trading days), or
 * when the early volume is 0 (unknown: bars built from quotes carry no volume).
 */
export function volumeRatio(bars: readonly DailyBar[], window = VOLUME_WINDOW_DAYS): number | null {
  if (bars.length < 2 * window) return null;
  const mean = (slice: readonly DailyBar[]) => slice.reduce((a, b) => a + Number(b.volume ?? 0), 0) / slice.length;
  const early = mean(bars.slice(0, window));
  const recent = mean(bars.slice(-window));
  if (!(early > 0)) return null;
  return recent / early;
}
