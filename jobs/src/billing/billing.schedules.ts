import type { ScheduleDefinition } from '../schedules';

/**
 * The daily resync catches up webhooks that never arrived (registered everywhere; the job does
 * nothing while billing is off). The catalog is synced at each worker start when billing is on
 * (billing.domain.ts) and on every product.* / price.* webhook.
 */
export const BILLING_SCHEDULES: ScheduleDefinition<'billing.resync'>[] = [
  {
    id: 'billing.resync',
    job: 'billing.resync',
    data: {},
    repeat: { pattern: '20 4 * * *', tz: 'UTC' },
    description: "Every day 04:20 UTC: every team's subscription re-fetched from Stripe (billing on only)",
  },
];
