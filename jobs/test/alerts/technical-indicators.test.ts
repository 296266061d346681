import { ema, macd, rsi, sma } from '../../src/alerts/technical-indicators';

describe('technical indicators', () => {
  it('SMA is the mean of the last n closes, undefined before n bars', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
  });

  it('EMA uses alpha 2/(n+1) seeded with the SMA of the first n closes', () => {
    expect(ema([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
    expect(ema([10, 20, 30, 10], 2)).toEqual([null, 15, 25, 15]);
  });

  it("RSI follows Wilder's smoothing (the StockCharts worked example)", () => {
    // StockCharts "Relative Strength Index (RSI)" ChartSchool spreadsheet, 14 periods.
    const closes = [
      44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282,
      46.0028,
    ];
    const values = rsi(closes, 14);
    expect(values.slice(0, 14).every((v) => v === null)).toBe(true);
    expect(values[14]).toBeCloseTo(70.53, 1);
    expect(values[15]).toBeCloseTo(66.32, 1);
  });

  it('RSI is 100 without losses and 50 without any change', () => {
    expect(rsi([1, 2, 3, 4], 3).at(-1)).toBe(100);
    expect(rsi([5, 5, 5, 5], 3).at(-1)).toBe(50);
  });

  it('MACD line is EMA(12) - EMA(26) and its signal the EMA(9) of the line', () => {
    const closes = Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i / 3) * 5);
    const m = macd(closes);
    const e12 = ema(closes, 12);
    const e26 = ema(closes, 26);
    expect(m.line[24]).toBeNull();
    expect(m.line[25]).toBeCloseTo(e12[25]! - e26[25]!, 12);
    expect(m.signal[32]).toBeNull();
    const firstNine = m.line.slice(25, 34) as number[];
    expect(m.signal[33]).toBeCloseTo(firstNine.reduce((a, b) => a + b, 0) / 9, 12);
    expect(m.histogram[39]).toBeCloseTo(m.line[39]! - m.signal[39]!, 12);
  });
});
