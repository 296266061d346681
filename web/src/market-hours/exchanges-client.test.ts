import { sampleExchanges } from '../../test/market-hours-api';
import { formatCountdown, formatTradingDays, parseExchanges } from './exchanges-client';

describe('exchange helpers', () => {
  it('formats countdowns', () => {
    expect(formatCountdown(0, 4 * 60_000 + 5_000)).toBe('in 4 min 05 s');
    expect(formatCountdown(0, 2 * 3600_000 + 7 * 60_000)).toBe('in 2 h 07 min');
    expect(formatCountdown(0, 3 * 86_400_000 + 4 * 3600_000)).toBe('in 3 d 4 h');
    expect(formatCountdown(10, 5)).toBe('now');
  });

  it('formats trading days', () => {
    expect(formatTradingDays([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(formatTradingDays([0, 6])).toBe('Sat, Sun');
  });

  it('refuses an exchange list of the wrong shape', () => {
    expect(() => parseExchanges([{ id: 'x' }])).toThrow(TypeError);
    expect(parseExchanges(sampleExchanges())).toHaveLength(2);
  });
});
