import { defineDomain } from '../runtime/domain';
import { billingEnabled, billingEnvSchema } from './billing.config';
import { billingJobIds } from './billing.jobs';
import { createBillingHandlers } from './billing.processor';
import { BILLING_SCHEDULES } from './billing.schedules';
import { createStripeClient } from './stripe.client';

/**
 * Billing in the workers: one Stripe client per process (none while billing is off, and every job
 * then does nothing). With billing on, each start queues a catalog sync (its id is the start's instant).
 */
export const billingDomain = defineDomain({
  name: 'billing',
  env: billingEnvSchema,
  schedules: BILLING_SCHEDULES,
  start(config, deps) {
    const stripe = createStripeClient(config);
    if (billingEnabled(config) && deps.queues) {
      deps.queues
        .add('billing.sync-catalog', {}, { jobId: billingJobIds.syncCatalogAtStart(deps.clock.now()) })
        .catch((error: Error) => deps.logger.warn({ err: error.message }, 'billing: the catalog sync at start was not queued'));
    }
    return { handlers: createBillingHandlers({ stripe, config }) };
  },
});
