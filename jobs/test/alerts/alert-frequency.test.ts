import { decideTrigger, defaultFrequency, isExpired, triggerRuleSchema, type TriggerState } from '../../src/alerts/alert-frequency';

const state = (overrides: Partial<TriggerState>): TriggerState => ({ frequency: 'once', lastTriggered: null, isActive: true, ...overrides });
const d = (iso: string) => new Date(iso);

describe('trigger frequency', () => {
  it('fires a once alert the first time and deactivates it', () => {
    expect(decideTrigger(7, state({}), d('2026-11-21T10:00:00Z'))).toEqual({ fire: true, key: '7:once', deactivate: true });
    expect(decideTrigger(7, state({ lastTriggered: d('2026-11-21T10:00:00Z'), isActive: false }), d('2026-11-21T10:00:05Z'))).toMatchObject({
      fire: false,
      reason: 'inactive',
    });
  });

  it('arms a once alert again when its owner re-activates it, under a new key; the same firing seen again is not new', () => {
    const reactivated = state({ lastTriggered: d('2026-11-21T10:00:00Z') });
    expect(decideTrigger(7, reactivated, d('2026-11-21T11:00:00Z'))).toEqual({ fire: true, key: `7:once:${Date.parse('2026-11-21T10:00:00Z')}`, deactivate: true });
    expect(decideTrigger(7, reactivated, d('2026-11-21T10:00:00Z'))).toMatchObject({ fire: false, reason: 'already_fired' });
  });

  it('fires once_per_day once per UTC calendar day', () => {
    const rule = state({ frequency: 'once_per_day', lastTriggered: d('2026-11-21T00:00:00Z') });
    expect(decideTrigger(3, rule, d('2026-11-21T23:59:59.999Z'))).toMatchObject({ fire: false, reason: 'fired_today' });
    expect(decideTrigger(3, rule, d('2026-11-22T00:00:00Z'))).toEqual({ fire: true, key: '3:day:2026-11-22', deactivate: false });
  });

  it('keys once_per_day on the UTC date, not a local one', () => {
    // 23:30 in New York on the 21st is already the 22nd in UTC.
    const rule = state({ frequency: 'once_per_day', lastTriggered: d('2026-11-21T12:00:00Z') });
    expect(decideTrigger(3, rule, d('2026-11-22T04:30:00Z'))).toMatchObject({ fire: true, key: '3:day:2026-11-22' });
  });

  it('fires every_time again only once the cooldown has passed, exactly at its end', () => {
    const rule = state({ frequency: 'every_time', cooldownSeconds: 30, lastTriggered: d('2026-11-21T10:00:00Z') });
    expect(decideTrigger(9, rule, d('2026-11-21T10:00:29.999Z'))).toMatchObject({ fire: false, reason: 'cooling_down' });
    expect(decideTrigger(9, rule, d('2026-11-21T10:00:30Z'))).toEqual({
      fire: true,
      key: `9:at:${Date.parse('2026-11-21T10:00:30Z')}`,
      deactivate: false,
    });
  });

  it('never fires an expired alert and deactivates it, expiry instant included', () => {
    const rule = state({ frequency: 'every_time', expiresAt: d('2026-11-21T10:00:00Z') });
    expect(decideTrigger(1, rule, d('2026-11-21T09:59:59Z'))).toMatchObject({ fire: true });
    expect(decideTrigger(1, rule, d('2026-11-21T10:00:00Z'))).toEqual({ fire: false, reason: 'expired', deactivate: true });
    expect(isExpired(rule, d('2026-11-21T10:00:00Z'))).toBe(true);
  });

  it('never fires an inactive alert', () => {
    expect(decideTrigger(1, state({ isActive: false }), d('2026-11-21T10:00:00Z'))).toMatchObject({ fire: false, reason: 'inactive' });
  });

  it('defaults to once per day for crypto and once for everything else', () => {
    expect([defaultFrequency('crypto'), defaultFrequency('stock')]).toEqual(['once_per_day', 'once']);
  });

  it('validates a rule with a 60 s cooldown by default', () => {
    expect(triggerRuleSchema.parse({ frequency: 'every_time' })).toEqual({ frequency: 'every_time', cooldownSeconds: 60, expiresAt: null });
    expect(triggerRuleSchema.safeParse({ frequency: 'hourly' }).success).toBe(false);
  });
});
