import { alertConditionSchema, barsNeeded, type VolatilityCondition } from '../../src/alerts/alert-conditions';
import { alertConditionInputSchema } from '../../src/alerts/alert-input';
import { activityTypeOf } from '../../src/alerts/alert-triggers';
import { isVolatilityConditionMet, measureVolatility, volatilityAlertMessage, type VolatilityContext } from '../../src/alerts/volatility-conditions';
import { periodsPerYear, type OhlcBar } from '../../src/alerts/volatility-indicators';

// Every expected value below is worked out by hand in the comments (a = ln 1.1 = 0.0953101798...),
// and compared with the 8-decimal rounding the conditions compare with. A wrong formula (population
// instead of sample deviation, no mean subtracted, high - low instead of the true range, another
// annualisation) changes these numbers.

/** Flat bars (open = high = low = close): realised volatility and Bollinger read only closes. */
const flat = (closes: number[]): OhlcBar[] => closes.map((c) => ({ open: c, high: c, low: c, close: c }));
const crypto1d: VolatilityContext = { interval: '1d', marketType: 'crypto' };
const crypto1h: VolatilityContext = { interval: '1h', marketType: 'crypto' };
const parse = (input: Record<string, unknown>) => alertConditionSchema.parse(input) as VolatilityCondition;

describe('annualisation', () => {
  it('counts 365 calendar days for crypto, 260 weekdays for forex, 252 sessions of 6.5 hours otherwise', () => {
    expect(periodsPerYear('1d', 'crypto')).toBe(365);
    expect(periodsPerYear('1h', 'crypto')).toBe(8760); // 365 x 24
    expect(periodsPerYear('1m', 'crypto')).toBe(525_600); // 365 x 1440
    expect(periodsPerYear('1h', 'forex')).toBe(6240); // 260 x 24
    expect(periodsPerYear('1d', 'stock')).toBe(252);
    expect(periodsPerYear('1h', 'stock')).toBe(1764); // 252 x 7 (6.5 h: 7 hourly bars, the last partial)
    expect(periodsPerYear('4h', 'etf')).toBe(504); // 252 x 2
    expect(periodsPerYear('5m', 'stock')).toBe(19_656); // 252 x 78
  });
});

describe('volatility_above', () => {
  // Closes 100, 110, 121, 110, 121: log returns a, a, -a, a (a = ln 1.1 = 0.09531017980).
  // Mean a/2; deviations a/2, a/2, -3a/2, a/2; squares sum to (1 + 1 + 9 + 1) a^2 / 4 = 3a^2;
  // sample variance 3a^2 / (4 - 1) = a^2, so the deviation is exactly a.
  // Crypto 1d: a x sqrt(365) x 100 = 0.0953101798 x 19.1049731745 x 100 = 182.08984284 %.
  const bars = flat([100, 110, 121, 110, 121]);

  it('is the annualised sample deviation of log returns, in percent', () => {
    const condition = parse({ type: 'volatility_above', period: 4, level: 100 });
    expect(measureVolatility(condition, bars, crypto1d)?.value).toBe(182.08984284);
    // Stock 1d: a x sqrt(252) x 100 = 0.0953101798 x 15.8745078664 x 100 = 151.30021991 %.
    expect(measureVolatility(condition, bars, { interval: '1d', marketType: 'stock' })?.value).toBe(151.30021991);
    // Stock 1h: a x sqrt(1764) = a x 42 -> 400.30275518 %.
    expect(measureVolatility(condition, bars, { interval: '1h', marketType: 'stock' })?.value).toBe(400.30275518);
  });

  it('does not fire at its level and fires just below it', () => {
    expect(isVolatilityConditionMet(parse({ type: 'volatility_above', period: 4, level: 182.08984284 }), bars, crypto1d)).toBe(false);
    expect(isVolatilityConditionMet(parse({ type: 'volatility_above', period: 4, level: 182.08984283 }), bars, crypto1d)).toBe(true);
  });

  it('needs period + 1 closes, and defaults to 20 bars', () => {
    const condition = parse({ type: 'volatility_above', period: 4, level: 1 });
    expect(barsNeeded(condition)).toBe(5);
    expect(measureVolatility(condition, bars.slice(1), crypto1d)).toBeNull();
    expect(parse({ type: 'volatility_above', level: 60 })).toEqual({ type: 'volatility_above', period: 20, level: 60 });
  });

  it('says the measured value and its threshold', () => {
    const condition = parse({ type: 'volatility_above', period: 4, level: 60 });
    expect(volatilityAlertMessage('BTCUSDT', condition, bars, crypto1d)).toBe('BTCUSDT 1d realised volatility 182.09 % is above 60 % (4 bars, annualised)');
  });
});

describe('volatility_spike', () => {
  // Closes 100, 100, 100, 100, 110: log returns 0, 0, 0, a. Two-bar volatility: windows [0, 0],
  // [0, 0] -> 0, 0; [0, a]: mean a/2, squares a^2/4 + a^2/4 = a^2/2 over (2 - 1) -> deviation a/sqrt 2.
  // Crypto 1h: a / sqrt 2 x sqrt(8760) x 100 = 0.0673944 x 93.5949 x 100 = 630.77771869 %.
  // Its 3-bar average: (0 + 0 + 630.77771869) / 3 = 210.25923956 %: the spike is exactly 3 times it.
  const bars = flat([100, 100, 100, 100, 110]);

  it('compares the last volatility with factor x its mean over the long window', () => {
    const measure = measureVolatility(parse({ type: 'volatility_spike', period: 2, longPeriod: 3, factor: 2 }), bars, crypto1h);
    // 2 x 630.77771869 / 3 = 1261.55543738 / 3 = 420.518479127 -> 420.51847913.
    expect(measure).toEqual({ value: 630.77771869, threshold: 420.51847913, reference: 210.25923956, met: true });
  });

  it('does not fire at exactly factor x the mean, fires just above', () => {
    expect(isVolatilityConditionMet(parse({ type: 'volatility_spike', period: 2, longPeriod: 3, factor: 3 }), bars, crypto1h)).toBe(false);
    expect(isVolatilityConditionMet(parse({ type: 'volatility_spike', period: 2, longPeriod: 3, factor: 2.9999999 }), bars, crypto1h)).toBe(true);
  });

  it('needs period + longPeriod closes', () => {
    const condition = parse({ type: 'volatility_spike', period: 2, longPeriod: 3, factor: 2 });
    expect(barsNeeded(condition)).toBe(5);
    expect(measureVolatility(condition, bars.slice(1), crypto1h)).toBeNull();
  });
});

describe('atr_above', () => {
  // True ranges: bar 1 (no previous close) 10 - 8 = 2; bar 2 max(11 - 9, |11 - 9|, |9 - 9|) = 2;
  // bar 3 max(12 - 9, |12 - 10|, |9 - 10|) = 3; bar 4, a gap up from 11: max(16 - 15, |16 - 11|, |15 - 11|) = 5.
  // ATR(3), Wilder: first = (2 + 2 + 3) / 3 = 7/3; then (7/3 x 2 + 5) / 3 = 29/9 = 3.22222222.
  // In percent of the last close 15.5: 29/9 / 15.5 x 100 = 20.78853047 %.
  const bars: OhlcBar[] = [
    [10, 8, 9],
    [11, 9, 10],
    [12, 9, 11],
    [16, 15, 15.5],
  ].map(([high, low, close]) => ({ open: close, high, low, close }));

  it('uses the true range (gaps included) with Wilder smoothing, in price or percent of the close', () => {
    expect(measureVolatility(parse({ type: 'atr_above', period: 3, level: 3 }), bars, crypto1h)?.value).toBe(3.22222222);
    expect(measureVolatility(parse({ type: 'atr_above', period: 3, unit: 'percent', level: 3 }), bars, crypto1h)?.value).toBe(20.78853047);
  });

  it('does not fire at its level and fires just below it', () => {
    expect(isVolatilityConditionMet(parse({ type: 'atr_above', period: 3, level: 3.22222222 }), bars, crypto1h)).toBe(false);
    expect(isVolatilityConditionMet(parse({ type: 'atr_above', period: 3, level: 3.22222221 }), bars, crypto1h)).toBe(true);
    expect(isVolatilityConditionMet(parse({ type: 'atr_above', period: 3, unit: 'percent', level: 20.78853047 }), bars, crypto1h)).toBe(false);
    expect(isVolatilityConditionMet(parse({ type: 'atr_above', period: 3, unit: 'percent', level: 20.78853046 }), bars, crypto1h)).toBe(true);
  });

  it('needs period bars and defaults to ATR(14) in price units', () => {
    expect(barsNeeded(parse({ type: 'atr_above', period: 3, level: 1 }))).toBe(3);
    expect(measureVolatility(parse({ type: 'atr_above', period: 3, level: 1 }), bars.slice(2), crypto1h)).toBeNull();
    expect(parse({ type: 'atr_above', level: 500 })).toEqual({ type: 'atr_above', period: 14, unit: 'price', level: 500 });
  });

  it('says the measured value and its threshold', () => {
    expect(volatilityAlertMessage('BTCUSDT', parse({ type: 'atr_above', period: 3, level: 3 }), bars, crypto1h)).toBe('BTCUSDT 1h ATR(3) 3.22222 is above 3');
    expect(volatilityAlertMessage('BTCUSDT', parse({ type: 'atr_above', period: 3, unit: 'percent', level: 20 }), bars, crypto1h)).toBe(
      'BTCUSDT 1h ATR(3) 20.79 % of the close is above 20 %',
    );
  });
});

describe('bollinger_squeeze', () => {
  // Closes 10, 12, 10, 12: middle (SMA 4) 11; population deviation sqrt((1 + 1 + 1 + 1) / 4) = 1;
  // bands 11 +- 2 -> 13 and 9; width (13 - 9) / 11 = 4/11 = 0.36363636.
  const bars = flat([10, 12, 10, 12]);

  it('is (upper - lower) / middle of 2-sigma bands with the population deviation', () => {
    expect(measureVolatility(parse({ type: 'bollinger_squeeze', period: 4, level: 1 }), bars, crypto1h)?.value).toBe(0.36363636);
  });

  it('does not fire at its level and fires just above it (the width is below)', () => {
    expect(isVolatilityConditionMet(parse({ type: 'bollinger_squeeze', period: 4, level: 0.36363636 }), bars, crypto1h)).toBe(false);
    expect(isVolatilityConditionMet(parse({ type: 'bollinger_squeeze', period: 4, level: 0.36363637 }), bars, crypto1h)).toBe(true);
  });

  it('needs period closes and defaults to 20', () => {
    expect(barsNeeded(parse({ type: 'bollinger_squeeze', period: 4, level: 1 }))).toBe(4);
    expect(measureVolatility(parse({ type: 'bollinger_squeeze', period: 4, level: 1 }), bars.slice(1), crypto1h)).toBeNull();
    expect(parse({ type: 'bollinger_squeeze', level: 0.05 })).toEqual({ type: 'bollinger_squeeze', period: 20, level: 0.05 });
  });
});

describe('bollinger_breakout', () => {
  // Width 4 bars earlier (closes 10, 12, 10, 12): 4/11 as above. Last width (closes 9, 13, 9, 13):
  // middle 11, deviation 2, bands 15 and 7: 8/11 = 0.72727273, exactly twice the earlier width.
  const bars = flat([10, 12, 10, 12, 9, 13, 9, 13]);

  it('compares the width with factor x its value lookback bars earlier', () => {
    expect(measureVolatility(parse({ type: 'bollinger_breakout', period: 4, factor: 1.5, lookback: 4 }), bars, crypto1h)).toEqual({
      value: 0.72727273,
      // 1.5 x 4/11 = 6/11
      threshold: 0.54545455,
      reference: 0.36363636,
      met: true,
    });
  });

  it('does not fire at exactly factor times, fires just above', () => {
    expect(isVolatilityConditionMet(parse({ type: 'bollinger_breakout', period: 4, factor: 2, lookback: 4 }), bars, crypto1h)).toBe(false);
    expect(isVolatilityConditionMet(parse({ type: 'bollinger_breakout', period: 4, factor: 1.99999999, lookback: 4 }), bars, crypto1h)).toBe(true);
  });

  it('needs period + lookback closes', () => {
    const condition = parse({ type: 'bollinger_breakout', period: 4, factor: 2, lookback: 4 });
    expect(barsNeeded(condition)).toBe(8);
    expect(measureVolatility(condition, bars.slice(1), crypto1h)).toBeNull();
  });
});

describe('volatility condition validation', () => {
  const issues = (input: Record<string, unknown>) => {
    // The request body's schema (the type checked first, then the condition's own fields).
    const result = alertConditionInputSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };

  it('names the field that is out of range', () => {
    expect(issues({ type: 'volatility_above', level: 0 })).toContain('level');
    expect(issues({ type: 'volatility_above', level: 10_001 })).toContain('level');
    expect(issues({ type: 'volatility_above', level: 50, period: 1 })).toContain('period');
    expect(issues({ type: 'volatility_spike', factor: 1 })).toContain('factor');
    expect(issues({ type: 'volatility_spike', factor: 2, period: 30, longPeriod: 30 })).toContain('longPeriod');
    expect(issues({ type: 'atr_above', unit: 'percent', level: 1001 })).toContain('level');
    expect(issues({ type: 'atr_above', unit: 'points', level: 1 })).toContain('unit');
    expect(issues({ type: 'bollinger_squeeze', level: 11 })).toContain('level');
    expect(issues({ type: 'bollinger_breakout', factor: 2, lookback: 0 })).toContain('lookback');
    expect(issues({ type: 'bollinger_breakout', factor: 2, extra: 1 })).not.toEqual([]);
  });

  it('accepts the documented defaults', () => {
    expect(parse({ type: 'volatility_spike', factor: 2 })).toEqual({ type: 'volatility_spike', period: 20, longPeriod: 100, factor: 2 });
    expect(parse({ type: 'bollinger_breakout', factor: 2 })).toEqual({ type: 'bollinger_breakout', period: 20, factor: 2, lookback: 5 });
  });
});

describe('activity kind', () => {
  it('is MARKET_ALERT_VOLATILITY for volatility conditions, TECHNICAL and PRICE for the others', () => {
    expect(activityTypeOf(parse({ type: 'atr_above', level: 1 }))).toBe('MARKET_ALERT_VOLATILITY');
    expect(activityTypeOf(alertConditionSchema.parse({ type: 'rsi_above', level: 70 }))).toBe('MARKET_ALERT_TECHNICAL');
    expect(activityTypeOf(alertConditionSchema.parse({ type: 'greater_than', value: '1' }))).toBe('MARKET_ALERT_PRICE');
  });
});
