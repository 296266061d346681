import { z } from 'zod';
import type { PlanLimits } from './billing.shapes';
import { parsePlanLimits } from './plans';

/**
 * The billing variables (docs/billing.md). With neither Stripe key, billing is off and every team
 * is on the self-hosted plan; with both, billing is on; one without the other is a configuration
 * error (the api and the workers refuse to start).
 */
export const billingEnvSchema = z
  .object({
    /** Stripe secret key (sk_live_… or sk_test_…); with STRIPE_WEBHOOK_SECRET it turns billing on. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    /** The signing secret of the webhook endpoint (whsec_…) that POST /api/billing/webhook verifies. */
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Another Stripe API origin (a local fake in tests and offline demos); its host, port and protocol are used. */
    STRIPE_API_URL: z
      .url()
      .refine((url) => ['http:', 'https:'].includes(new URL(url).protocol), 'must be an http(s) URL')
      .optional(),
    /** Days a past_due team keeps working before it turns read-only. */
    BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
    /** The self-hosted plan's limits, e.g. `activeAlerts=100,seats=5` (unset limits: unlimited). */
    BILLING_SELF_HOSTED_LIMITS: z
      .string()
      .default('')
      .transform((text, ctx) => {
        try {
          return parsePlanLimits(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      const missing = env.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to turn billing on, or neither to keep it off' });
    }
  });

export type BillingConfig = z.infer<typeof billingEnvSchema>;

export function billingEnabled(config: Pick<BillingConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'>): boolean {
  return Boolean(config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET);
}

export type SelfHostedLimits = Partial<PlanLimits>;
