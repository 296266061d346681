import { ema, macd, rsi, sma } from '../../src/alerts/technical-indicators';

describe('technical indicators', () => {
  it('SMA is the mean of the last n closes, undefined before n bars', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
  });

  it('EMA uses alpha 2/(n+1) from the first close and is reported from the n-th close on (trading-signals)', () => {
    // alpha 0.5: 1 -> 1.5 -> 2.25 -> 3.125 -> 4.0625
    expect(ema([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2.25, 3.125, 4.0625]);
    // alpha 2/3: 10 -> 16.67 -> 25.56 -> 15.19
    const values = ema([10, 20, 30, 10], 2);
    expect(values[0]).toBeNull();
    expect(values[1]).toBeCloseTo(10 + (2 / 3) * 10, 12);
    expect(values[3]).toBeCloseTo(values[2]! + (2 / 3) * (10 - values[2]!), 12);
  });

  it('EMA skips leading nulls (a MACD line) instead of feeding them', () => {
    // alpha 2/3 from 4: 4 (not reported yet) -> 6.667 -> 7.556
    const values = ema([null, null, 4, 8, 8], 2);
    expect(values.slice(0, 3)).toEqual([null, null, null]);
    expect(values[3]).toBeCloseTo(4 + (2 / 3) * 4, 12);
    expect(values[4]).toBeCloseTo(values[3]! + (2 / 3) * (8 - values[3]!), 12);
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

  it('RSI is 100 without losses, a flat series included (as TradingView), and 0 without gains', () => {
    expect(rsi([1, 2, 3, 4], 3).at(-1)).toBe(100);
    expect(rsi([5, 5, 5, 5], 3).at(-1)).toBe(100);
    expect(rsi([4, 3, 2, 1], 3).at(-1)).toBe(0);
  });

  it('MACD line is EMA(12) - EMA(26) and its signal the EMA(9) of the line', () => {
    const closes = Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i / 3) * 5);
    const m = macd(closes);
    const e12 = ema(closes, 12);
    const e26 = ema(closes, 26);
    expect(m.line[24]).toBeNull();
    expect(m.line[25]).toBeCloseTo(e12[25]! - e26[25]!, 12);
    expect(m.signal[32]).toBeNull();
    // The signal is the EMA(9) of the line values, started at the first one.
    let signal = m.line[25]!;
    for (let i = 26; i <= 33; i++) signal = signal + 0.2 * (m.line[i]! - signal);
    expect(m.signal[33]).toBeCloseTo(signal, 12);
    expect(m.histogram[39]).toBeCloseTo(m.line[39]! - m.signal[39]!, 12);
  });
});
