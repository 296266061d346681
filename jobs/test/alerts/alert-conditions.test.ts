import {
  alertConditionSchema,
  isPriceConditionMet,
  isTechnicalConditionMet,
  priceConditionSchema,
  type PriceCondition,
  type PricePoint,
  type PriceTick,
} from '../../src/alerts/alert-conditions';

const T0 = Date.parse('2026-11-21T10:00:00Z');
const at = (minute: number) => new Date(T0 + minute * 60_000);

/** The ticks of a price sequence (one per minute) and which of them meet the condition (1-based). */
function firingTicks(condition: PriceCondition, prices: string[]): number[] {
  const fired: number[] = [];
  const history: PricePoint[] = [];
  prices.forEach((price, i) => {
    const tick: PriceTick = { previous: i === 0 ? null : prices[i - 1], current: price, at: at(i), history: [...history] };
    if (isPriceConditionMet(condition, tick)) fired.push(i + 1);
    history.push({ at: at(i), price });
  });
  return fired;
}

describe('price level conditions', () => {
  const level = (type: PriceCondition['type']) => priceConditionSchema.parse({ type, value: '100' });

  it('crossing_up fires when the price reaches the level from below, exactly at the level included', () => {
    expect(firingTicks(level('crossing_up'), ['99', '100', '101', '99.5', '100.00'])).toEqual([2, 5]);
  });

  it('crossing_up fires on a gap through the level', () => {
    expect(firingTicks(level('crossing_up'), ['95', '105'])).toEqual([2]);
  });

  it('crossing_up does not fire when a tick starts on the level or on the first tick', () => {
    expect(firingTicks(level('crossing_up'), ['100', '101'])).toEqual([]);
    expect(firingTicks(level('crossing_up'), ['101', '100', '101'])).toEqual([]);
  });

  it('crossing_down mirrors crossing_up', () => {
    expect(firingTicks(level('crossing_down'), ['101', '100', '99', '100.5', '100'])).toEqual([2, 5]);
    expect(firingTicks(level('crossing_down'), ['105', '95'])).toEqual([2]);
  });

  it('crossing fires in both directions', () => {
    expect(firingTicks(level('crossing'), ['95', '105', '100.1', '99.9', '100'])).toEqual([2, 4, 5]);
  });

  it('compares exactly, not in floating point', () => {
    const condition = priceConditionSchema.parse({ type: 'crossing_up', value: '0.3' });
    // 0.1 + 0.2 is 0.30000000000000004 in doubles; as decimals the recorded price is exactly 0.3.
    expect(firingTicks(condition, ['0.2999999999', '0.3'])).toEqual([2]);
    const tight = priceConditionSchema.parse({ type: 'greater_than', value: '12345678901234567.0000000001' });
    expect(firingTicks(tight, ['12345678901234567', '12345678901234567.0000000001', '12345678901234567.0000000002'])).toEqual([3]);
  });

  it('greater_than and less_than hold on every tick where the price is strictly beyond the level', () => {
    expect(firingTicks(level('greater_than'), ['99', '100', '100.01', '150', '100'])).toEqual([3, 4]);
    expect(firingTicks(level('less_than'), ['101', '100', '99.99', '50', '100'])).toEqual([3, 4]);
  });
});

describe('channel conditions', () => {
  const channel = (type: PriceCondition['type']) => priceConditionSchema.parse({ type, low: '90', high: '110' });

  it('entering_channel fires when the price moves inside from either side, bounds included', () => {
    expect(firingTicks(channel('entering_channel'), ['80', '90', '100', '120', '110', '111', '100'])).toEqual([2, 5, 7]);
  });

  it('exiting_channel fires when the price leaves, a bound itself still being inside', () => {
    expect(firingTicks(channel('exiting_channel'), ['100', '110', '110.01', '90', '89.99'])).toEqual([3, 5]);
  });

  it('a jump clean across the channel is neither entering nor exiting', () => {
    expect(firingTicks(channel('entering_channel'), ['80', '120'])).toEqual([]);
    expect(firingTicks(channel('exiting_channel'), ['80', '120'])).toEqual([]);
  });

  it('inside_channel and outside_channel hold while true, including the first tick', () => {
    expect(firingTicks(channel('inside_channel'), ['90', '89.99', '110', '110.5'])).toEqual([1, 3]);
    expect(firingTicks(channel('outside_channel'), ['90', '89.99', '110', '110.5'])).toEqual([2, 4]);
  });

  it('rejects a channel whose low is not below its high', () => {
    expect(priceConditionSchema.safeParse({ type: 'inside_channel', low: '110', high: '90' }).success).toBe(false);
  });
});

describe('moving conditions', () => {
  it('moving_up fires when the price is at least the amount above the low of the window', () => {
    const condition = priceConditionSchema.parse({ type: 'moving_up', amount: '5', minutes: 3 });
    // minute:                       0     1     2      3      4      5 (the low 98 has left the window)
    expect(firingTicks(condition, ['100', '98', '102', '103', '104', '104'])).toEqual([4, 5]);
    // At minute 4 the low (98, minute 1) is exactly 3 minutes old: still in the window (104 - 98 >= 5).
    expect(firingTicks(condition, ['100', '98', '100', '100', '103.01'])).toEqual([5]);
    // At minute 5 the low at minute 1 has left the window.
    expect(firingTicks(condition, ['100', '98', '100', '100', '100', '102.99'])).toEqual([]);
  });

  it('moving_down fires when the price is at least the amount below the high of the window', () => {
    const condition = priceConditionSchema.parse({ type: 'moving_down', amount: '2.5', minutes: 10 });
    expect(firingTicks(condition, ['100', '101', '99', '98.5', '98.49'])).toEqual([4, 5]);
  });

  it('moving percent conditions compare exactly at the threshold', () => {
    const up = priceConditionSchema.parse({ type: 'moving_up_percent', percent: '10', minutes: 60 });
    expect(firingTicks(up, ['30', '32.99', '33'])).toEqual([3]);
    const down = priceConditionSchema.parse({ type: 'moving_down_percent', percent: '3', minutes: 60 });
    // 3 % of 0.3 is 0.009: the fall to 0.291 is exactly 3 %.
    expect(firingTicks(down, ['0.3', '0.2911', '0.291'])).toEqual([3]);
  });
});

describe('technical conditions', () => {
  const closes = (values: number[]) => values.map(String);

  it('rsi_below fires after a steady fall and rsi_above after a steady rise', () => {
    const falling = closes(Array.from({ length: 20 }, (_, i) => 100 - i));
    const rising = closes(Array.from({ length: 20 }, (_, i) => 100 + i));
    const below = alertConditionSchema.parse({ type: 'rsi_below', level: 30 });
    const above = alertConditionSchema.parse({ type: 'rsi_above', level: 70 });
    expect([below, above].map((c) => 'level' in c && isTechnicalConditionMet(c, falling))).toEqual([true, false]);
    expect([below, above].map((c) => 'level' in c && isTechnicalConditionMet(c, rising))).toEqual([false, true]);
  });

  it('needs enough bars before an RSI can be met', () => {
    const condition = alertConditionSchema.parse({ type: 'rsi_below', level: 30 });
    expect('level' in condition && isTechnicalConditionMet(condition, closes([100, 99, 98]))).toBe(false);
  });

  it('price_crossing_ma fires on the bar the close crosses its SMA, in the asked direction', () => {
    const up = alertConditionSchema.parse({ type: 'price_crossing_ma', ma: 'sma', period: 3, direction: 'up' });
    const down = alertConditionSchema.parse({ type: 'price_crossing_ma', ma: 'sma', period: 3, direction: 'down' });
    // SMA(3) of the last three bars is 10, 10, 11: the close goes 9 (below 10) -> 12 (above 11).
    const series = closes([10, 11, 9, 10, 12]);
    if (up.type !== 'price_crossing_ma' || down.type !== 'price_crossing_ma') throw new Error('schema');
    expect(isTechnicalConditionMet(up, series.slice(0, 4))).toBe(true); // 9 < 10 then 10 >= 10: reaching counts
    expect(isTechnicalConditionMet(up, series)).toBe(false); // 10 was already on its average
    expect(isTechnicalConditionMet(down, closes([10, 10, 12, 9]))).toBe(true);
  });

  it('ma_crossover fires when the fast EMA crosses the slow one', () => {
    const condition = alertConditionSchema.parse({ type: 'ma_crossover', ma: 'ema', fast: 2, slow: 4, direction: 'up' });
    const series = closes([10, 10, 10, 10, 9, 8, 8, 12]);
    expect(isTechnicalConditionMet(condition as never, series)).toBe(true);
    expect(isTechnicalConditionMet(condition as never, series.slice(0, 7))).toBe(false);
  });

  it('macd_signal_cross fires on the bar the MACD line crosses its signal after a trend turns', () => {
    const condition = alertConditionSchema.parse({ type: 'macd_signal_cross', direction: 'up' });
    // An accelerating fall keeps the MACD line under its signal until the trend turns.
    const fall = Array.from({ length: 40 }, (_, i) => 200 - (i * i) / 20);
    const firing: number[] = [];
    const prices = [...fall, 122, 124, 127, 131, 136];
    for (let n = 35; n <= prices.length; n++) if (isTechnicalConditionMet(condition as never, closes(prices.slice(0, n)))) firing.push(n);
    expect(firing).toHaveLength(1);
    expect(firing[0]).toBeGreaterThan(40);
  });

  it('rejects a crossover whose fast period is not shorter than the slow one', () => {
    expect(alertConditionSchema.safeParse({ type: 'ma_crossover', fast: 20, slow: 10 }).success).toBe(false);
  });
});
