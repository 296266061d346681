import { sampleExchanges } from '../../test/market-hours-api';
import { formatCountdown, formatTradingDays, formatTradingHours, parseExchanges } from './exchanges-client';

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

  it('formats regular hours with the lunch break as two sessions', () => {
    expect(formatTradingHours({ open: '09:30', close: '16:00', breakStart: '12:00', breakEnd: '13:00' })).toBe('09:30–12:00, 13:00–16:00');
    expect(formatTradingHours({ open: '09:30', close: '16:00', breakStart: null, breakEnd: null })).toBe('09:30–16:00');
  });

  it('reads the lunch break of the answer, both ends or neither', () => {
    const [newYork] = sampleExchanges();
    expect(parseExchanges([{ ...newYork, breakStart: '11:30', breakEnd: '12:30' }])[0]).toMatchObject({ breakStart: '11:30', breakEnd: '12:30' });
    expect(parseExchanges([{ ...newYork, breakStart: '11:30', breakEnd: undefined }])[0]).toMatchObject({ breakStart: null, breakEnd: null });
  });

  it('refuses an exchange list of the wrong shape', () => {
    expect(() => parseExchanges([{ id: 'x' }])).toThrow(TypeError);
    expect(parseExchanges(sampleExchanges())).toHaveLength(2);
  });
});
