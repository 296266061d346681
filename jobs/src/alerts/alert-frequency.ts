import { z } from 'zod';
import { COOLDOWN_SECONDS, TRIGGER_FREQUENCIES, type TriggerFrequency } from './alerts.shapes';

/**
 * When a met condition may fire an alert (docs/alerts.md, "Trigger frequency"):
 * - `once`: the first time, then the alert becomes inactive (re-activating it arms it again).
 * - `once_per_day`: at most once per UTC calendar day (the default for crypto alerts). UTC, not the
 *   user's zone: crypto trades around the clock, and every worker must derive the same dedupe key.
 * - `every_time`: every time, but not again within `cooldownSeconds` of the last trigger.
 * An alert past its `expiresAt` never fires and becomes inactive.
 */
export { TRIGGER_FREQUENCIES, type TriggerFrequency } from './alerts.shapes';

export const DEFAULT_COOLDOWN_SECONDS = COOLDOWN_SECONDS.default;

export const triggerRuleSchema = z
  .object({
    frequency: z.enum(TRIGGER_FREQUENCIES),
    // Only for every_time; one day at most.
    cooldownSeconds: z.number().int().min(0).max(COOLDOWN_SECONDS.max).default(DEFAULT_COOLDOWN_SECONDS),
    expiresAt: z.coerce.date().nullable().default(null),
  })
  .strict();

export interface TriggerState {
  frequency: TriggerFrequency;
  cooldownSeconds?: number;
  expiresAt?: Date | null;
  lastTriggered: Date | null;
  isActive: boolean;
}

export type TriggerDecision =
  | { fire: true; /** Unique per allowed firing: the database dedupe key. */ key: string; deactivate: boolean }
  | { fire: false; reason: 'inactive' | 'expired' | 'already_fired' | 'fired_today' | 'cooling_down'; deactivate: boolean };

/** The default frequency for a market type: once per day for crypto (as the spec says), once otherwise. */
export function defaultFrequency(marketType: string): TriggerFrequency {
  return marketType === 'crypto' ? 'once_per_day' : 'once';
}

export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Whether an alert whose condition is met at `now` fires, and whether it then becomes inactive. */
export function decideTrigger(alertId: number | string, state: TriggerState, now: Date): TriggerDecision {
  if (!state.isActive) return { fire: false, reason: 'inactive', deactivate: false };
  if (state.expiresAt && now.getTime() >= state.expiresAt.getTime()) return { fire: false, reason: 'expired', deactivate: true };
  const last = state.lastTriggered;
  switch (state.frequency) {
    case 'once':
      // Once per activation: a firing deactivates the alert, so an active `once` alert with a last
      // trigger was re-activated by its owner and may fire again, under a key of its own. A
      // trigger at or before the last one is the same firing seen again (a retry, a late tick).
      if (!last) return { fire: true, key: `${alertId}:once`, deactivate: true };
      if (now.getTime() <= last.getTime()) return { fire: false, reason: 'already_fired', deactivate: false };
      return { fire: true, key: `${alertId}:once:${last.getTime()}`, deactivate: true };
    case 'once_per_day': {
      const day = utcDate(now);
      if (last && utcDate(last) === day) return { fire: false, reason: 'fired_today', deactivate: false };
      return { fire: true, key: `${alertId}:day:${day}`, deactivate: false };
    }
    case 'every_time': {
      const cooldownMs = (state.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS) * 1000;
      if (last && now.getTime() - last.getTime() < cooldownMs) return { fire: false, reason: 'cooling_down', deactivate: false };
      // The trigger instant (ms) keys each firing; the cooldown keeps two firings apart.
      return { fire: true, key: `${alertId}:at:${now.getTime()}`, deactivate: false };
    }
  }
}

/** Whether an alert is past its expiry at `now` (a sweep deactivates those that never fire again). */
export function isExpired(state: Pick<TriggerState, 'expiresAt'>, now: Date): boolean {
  return !!state.expiresAt && now.getTime() >= state.expiresAt.getTime();
}
