import type { Bar } from '../prices/markets-client';
import { parseBars } from '../prices/markets-client';
import { quote, risingBars } from '../../test/watchlists-charts-api';
import { applyLivePrice, macd, movingAverage, relativeStrength } from './chart-indicators';

const HOUR = 3_600_000;

function barsOf(closes: readonly number[], start = Date.UTC(2026, 10, 18) / 1000): Bar[] {
  return closes.map((close, i) => ({ time: start + i * 3600, open: close, high: close + 1, low: close - 1, close, volume: 1 }));
}

describe('chart indicators', () => {
  it('computes the SMA from the bar that completes its period, on the closes', () => {
    const bars = barsOf([10, 11, 12, 13, 14, 20]);
    const points = movingAverage(bars, 'sma', 3);

    expect(points.map((p) => p.value)).toEqual([11, 12, 13, 47 / 3]);
    expect(points[0]?.time).toBe(bars[2]?.time);
  });

  it('computes the EMA only once it averages a full period (no warm-up values)', () => {
    const points = movingAverage(barsOf([1, 2, 3, 4, 5]), 'ema', 3);

    // trading-signals seeds the EMA with the first price: 1, 1.5, 2.25, 3.125, 4.0625.
    expect(points.map((p) => p.value)).toEqual([2.25, 3.125, 4.0625]);
  });

  it('answers RSI 100 on closes that only rise and 0 on closes that only fall', () => {
    const rising = relativeStrength(barsOf([1, 2, 3, 4, 5, 6]), 3);
    const falling = relativeStrength(barsOf([6, 5, 4, 3, 2, 1]), 3);

    expect(rising.length).toBeGreaterThan(0);
    expect(rising.every((p) => p.value === 100)).toBe(true);
    expect(falling.every((p) => p.value === 0)).toBe(true);
  });

  it('starts MACD (12, 26, 9) at the 34th bar, with histogram = macd − signal', () => {
    const bars = barsOf(Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i / 3) * 5));
    const series = macd(bars);

    expect(series.macd).toHaveLength(7);
    expect(series.macd[0]?.time).toBe(bars[33]?.time);
    series.histogram.forEach((point, i) => expect(point.value).toBeCloseTo((series.macd[i]?.value ?? NaN) - (series.signal[i]?.value ?? NaN), 10));
  });

  it('parses the api bars (ISO times, decimal strings) into ascending chart bars', () => {
    const parsed = parseBars({ symbol: 'BTCUSDT', interval: '1h', simulated: true, bars: [...risingBars(3)].reverse() });

    expect(parsed.simulated).toBe(true);
    expect(parsed.bars).toEqual([
      { time: Date.UTC(2026, 10, 18, 0) / 1000, open: 99, high: 102, low: 98, close: 100, volume: 10 },
      { time: Date.UTC(2026, 10, 18, 1) / 1000, open: 100, high: 103, low: 99, close: 101, volume: 11 },
      { time: Date.UTC(2026, 10, 18, 2) / 1000, open: 101, high: 104, low: 100, close: 102, volume: 12 },
    ]);
    expect(() => parseBars({ symbol: 'BTCUSDT', interval: '2h', bars: [] })).toThrow('bars.interval');
  });
});

describe('live update of the last bar', () => {
  const bars = barsOf([100, 101, 102]);
  const lastOpen = (bars.at(-1)?.time ?? 0) * 1000;

  it('moves the close, and the high above it, inside the last bar’s hour', () => {
    const next = applyLivePrice(bars, quote('BTCUSDT', '110.5', null, true, new Date(lastOpen + 30 * 60_000).toISOString()), HOUR);

    expect(next).toHaveLength(3);
    expect(next?.at(-1)).toEqual({ ...bars[2], close: 110.5, high: 110.5 });
    expect(next?.slice(0, 2)).toEqual(bars.slice(0, 2));
  });

  it('lowers the low when the price falls below it', () => {
    const next = applyLivePrice(bars, quote('BTCUSDT', '90', null, true, new Date(lastOpen + 1000).toISOString()), HOUR);

    expect(next?.at(-1)).toMatchObject({ close: 90, low: 90, high: 103 });
  });

  it('opens a new bar at the start of the price’s hour once the last one has ended', () => {
    const next = applyLivePrice(bars, quote('BTCUSDT', '105', null, true, new Date(lastOpen + 2 * HOUR + 17 * 60_000).toISOString()), HOUR);

    expect(next).toHaveLength(4);
    expect(next?.at(-1)).toEqual({ time: (lastOpen + 2 * HOUR) / 1000, open: 105, high: 105, low: 105, close: 105, volume: 0 });
  });

  it('ignores a price older than the last bar, and one that changes nothing', () => {
    expect(applyLivePrice(bars, quote('BTCUSDT', '1', null, true, new Date(lastOpen - 1000).toISOString()), HOUR)).toBeNull();
    expect(applyLivePrice(bars, quote('BTCUSDT', '102', null, true, new Date(lastOpen + 1000).toISOString()), HOUR)).toBeNull();
    expect(applyLivePrice([], quote('BTCUSDT', '102'), HOUR)).toBeNull();
  });
});
