import { apiAlert } from '../../test/alerts-api';
import { parseAlert } from './alerts-client';
import { applyLiveFirings } from './alerts-page';

describe('alerts list: live firings', () => {
  const daily = parseAlert(apiAlert({ id: 1, frequency: 'once_per_day', lastTriggered: null }));
  const once = parseAlert(apiAlert({ id: 2, frequency: 'once', lastTriggered: null }));
  const other = parseAlert(apiAlert({ id: 3, lastTriggered: '2026-11-21T09:00:00.000Z' }));

  it('shows a live firing as the last trigger; a once alert becomes inactive as the server made it', () => {
    const firings = new Map([
      [1, '2026-11-21T10:00:00.000Z'],
      [2, '2026-11-21T10:00:05.000Z'],
    ]);
    const [a, b, c] = applyLiveFirings([daily, once, other], firings);
    expect([a.lastTriggered, a.isActive]).toEqual(['2026-11-21T10:00:00.000Z', true]);
    expect([b.lastTriggered, b.isActive]).toEqual(['2026-11-21T10:00:05.000Z', false]);
    expect(c).toBe(other);
  });

  it('never moves a newer last trigger back to an older firing', () => {
    const fresh = parseAlert(apiAlert({ id: 1, lastTriggered: '2026-11-21T11:00:00.000Z' }));
    expect(applyLiveFirings([fresh], new Map([[1, '2026-11-21T10:00:00.000Z']]))[0]).toBe(fresh);
  });
});
