import { CANDLE_INTERVALS } from '../../src/prices/prices.shapes';
import { barOpenTime } from '../../src/prices/prices.store';
import { barCloseTime } from '../../src/alerts/alert-evaluation';
import { nextTechnicalCheck } from '../../src/alerts/alerts.shapes';

describe('nextTechnicalCheck (when the alerts page says a technical alert is checked next)', () => {
  it('is the close of the bar in progress, in UTC', () => {
    const now = new Date('2026-11-23T16:41:10.250Z');
    expect(nextTechnicalCheck('1m', now).toISOString()).toBe('2026-11-23T16:42:00.000Z');
    expect(nextTechnicalCheck('15m', now).toISOString()).toBe('2026-11-23T16:45:00.000Z');
    expect(nextTechnicalCheck('1h', now).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    expect(nextTechnicalCheck('4h', now).toISOString()).toBe('2026-11-23T20:00:00.000Z');
    expect(nextTechnicalCheck('1d', now).toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('moves to the next bar at the instant a bar closes', () => {
    expect(nextTechnicalCheck('1h', new Date('2026-11-23T16:59:59.999Z')).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    expect(nextTechnicalCheck('1h', new Date('2026-11-23T17:00:00.000Z')).toISOString()).toBe('2026-11-23T18:00:00.000Z');
  });

  it('agrees with the bars the evaluation runs on: the stored bar in progress closes just before it', () => {
    for (const at of ['2026-11-23T16:41:10.250Z', '2026-03-29T01:30:00Z', '2026-12-31T23:59:59.999Z']) {
      const now = new Date(at);
      for (const interval of CANDLE_INTERVALS) {
        const closes = barCloseTime(barOpenTime(now, interval), interval);
        expect(nextTechnicalCheck(interval, now).getTime()).toBe(closes.getTime() + 1);
      }
    }
  });
});
