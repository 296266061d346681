import { compareDecimal, PRICE_LEVEL_CONDITIONS, type AlertCondition } from '../alerts/alert-conditions';

/** A small deterministic PRNG (mulberry32) for property tests and benchmarks. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHANNELS = ['entering_channel', 'exiting_channel', 'inside_channel', 'outside_channel'] as const;

/** A random price condition (every kind, technical ones now and then) with thresholds from `price()`. */
export function randomAlertCondition(random: () => number, price: () => string): AlertCondition {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const kind = random();
  if (kind < 0.4) return { type: pick(PRICE_LEVEL_CONDITIONS), value: price() };
  if (kind < 0.7) {
    let [low, high] = [price(), price()];
    if (compareDecimal(low, high) > 0) [low, high] = [high, low];
    if (compareDecimal(low, high) === 0) high = String(Number(high) + 1);
    return { type: pick(CHANNELS), low, high };
  }
  const minutes = 1 + Math.floor(random() * 10);
  if (kind < 0.82) return { type: pick(['moving_up', 'moving_down'] as const), amount: (0.5 + Math.floor(random() * 40) / 2).toFixed(2), minutes };
  if (kind < 0.95) return { type: pick(['moving_up_percent', 'moving_down_percent'] as const), percent: String(0.25 + Math.floor(random() * 40) / 4), minutes };
  return { type: 'rsi_below', level: 30, period: 14 };
}
