import { z } from 'zod';
import { pushEnvSchema } from '../notifications/vapid-keys';
import { DEFAULT_ALERTS_PLAN_LIMITS, parseAlertPlanLimits } from './alert-plans';

/** The alerts variables (the api enforces the plan limits; every process validates them at start). */
export const alertsEnvSchema = z.object({
  // Webhooks follow the same outbound rule as push endpoints (jobs/src/sources/outbound-guard.ts).
  ...pushEnvSchema.pick({ NODE_ENV: true, OUTBOUND_ALLOW_PRIVATE: true }).shape,
  /** Most active alerts per plan (plan=limit, comma-separated; `free` is required: users without a subscription). */
  ALERTS_PLAN_LIMITS: z
    .string()
    .default(DEFAULT_ALERTS_PLAN_LIMITS)
    .transform((text, ctx) => {
      try {
        return parseAlertPlanLimits(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
});

export type AlertsConfig = z.infer<typeof alertsEnvSchema>;
