import express, { Router, type Request } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock, type JobQueues, type Logger } from '@tickerbell/jobs';
import {
  BillingError,
  billingStatus,
  createStripeClient,
  pricing,
  receiveWebhook,
  startCheckout,
  startPortal,
  type BillingConfig,
  type BillingDeps,
  type Entitlements,
} from '@tickerbell/jobs/billing';
import type {
  BillingStatusBody,
  EntitlementsBody,
  CheckoutRequestBody,
  PortalRequestBody,
  PricingBody,
  SessionUrlBody,
} from '@tickerbell/jobs/billing/shapes';
import { clientIp } from '../accounts/accounts.service';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';
import { idParam, int4Id, pathIdSchema } from '../http/input';

export interface BillingRouteDeps {
  dataSource: DataSource;
  queues: JobQueues;
  logger: Logger;
  /** The api's configuration: PUBLIC_URL, BODY_LIMIT and the billing domain's variables (STRIPE_*, BILLING_*). */
  config: BillingConfig & { PUBLIC_URL: string; BODY_LIMIT: string };
  clock?: Clock;
  /** The app's one Entitlements (built at start from the configuration). */
  entitlements: Entitlements;
}

// ---- schemas (built from @tickerbell/jobs/billing/shapes) ----------------------------------------

/** A Stripe price id as Stripe writes them (price_...), or a lookup-free id of the fake server. */
const priceIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_]+$/, 'a Stripe price id (letters, digits and _, e.g. price_1Nx...)');

/** POST /api/billing/checkout: the price to subscribe to and the team that pays. */
export const billingCheckoutBodySchema = z
  .object({ priceId: priceIdSchema, teamId: int4Id, csrfToken: z.string().optional() })
  .strict() satisfies z.ZodType<CheckoutRequestBody & { csrfToken?: string }>;

/** POST /api/billing/portal: the team whose Customer Portal to open. */
export const billingPortalBodySchema = z.object({ teamId: int4Id, csrfToken: z.string().optional() }).strict() satisfies z.ZodType<PortalRequestBody & { csrfToken?: string }>;

export const billingTeamParamsSchema = z.object({ teamId: pathIdSchema });

/**
 * POST /api/billing/webhook: a Stripe event as Stripe sends it (documentation only: the handler
 * verifies the signature on the raw bytes before it reads anything).
 */
export const stripeEventSchema = z
  .object({
    id: z.string().min(1).max(255),
    object: z.literal('event'),
    type: z.string().min(1).max(100),
    created: z.number().int(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .loose();

// ---- errors -------------------------------------------------------------------------------------

const STATUS: Record<BillingError['code'], { status: number; message: string }> = {
  billing_off: {
    status: 409,
    message: 'Billing is off on this install (self-hosted: no Stripe keys are configured), so there is nothing to pay for: every team has the self-hosted plan',
  },
  bad_signature: { status: 400, message: 'The Stripe-Signature header does not match the body (or is missing or too old)' },
  forbidden: { status: 403, message: 'Only the team’s owner or an admin can manage its subscription' },
  not_found: { status: 404, message: 'No such team' },
  unknown_price: { status: 400, message: 'Invalid input: priceId' },
  no_customer: { status: 409, message: 'This team has no Stripe customer yet: choose a plan first' },
  too_many_members: { status: 409, message: 'The team has more members than the plan has seats' },
  stripe_unavailable: { status: 503, message: 'Stripe could not be reached; try again shortly' },
};

/** The billing domain's refusals as statuses; an unknown price is the 400 naming priceId. */
async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BillingError) {
      const { status, message } = STATUS[error.code];
      if (error.code === 'unknown_price') {
        const field = error.field ?? 'priceId';
        throw new HttpError(400, 'validation_failed', `Invalid input: ${field}`, [{ field, message: 'not an active price of a Tickerbell plan' }]);
      }
      const headers: Record<string, string> = status === 503 ? { 'Retry-After': '5' } : {};
      throw new HttpError(status, error.code, error.message && error.message !== error.code ? error.message : message, undefined, headers);
    }
    throw error;
  }
}

// ---- deps ---------------------------------------------------------------------------------------

/** The billing service's dependencies, built once per app (the Stripe client and the entitlements included). */
export function billingDepsOf(deps: BillingRouteDeps): BillingDeps {
  const config = deps.config;
  return {
    dataSource: deps.dataSource,
    // The one Stripe client of the api (null: billing is off).
    stripe: createStripeClient(config),
    queues: deps.queues,
    entitlements: deps.entitlements,
    config,
    clock: deps.clock ?? systemClock,
    logger: deps.logger,
    publicUrl: config.PUBLIC_URL.replace(/\/+$/, ''),
  };
}

// ---- routes -------------------------------------------------------------------------------------

/**
 * POST /api/billing/webhook: Stripe's events, signed. Mounted before express.json: the signature
 * is checked on the raw bytes. No session, no CSRF; 200 once the event is stored (processed by a job).
 */
export function billingWebhookRoutes(deps: BillingRouteDeps, billing: BillingDeps = billingDepsOf(deps)): Router {
  const router = Router();
  router.post('/billing/webhook', express.raw({ type: 'application/json', limit: deps.config.BODY_LIMIT }), async (req, res) => {
    if (!Buffer.isBuffer(req.body)) {
      throw new HttpError(415, 'unsupported_media_type', 'Invalid input: body (a Stripe event is sent as application/json)', [{ field: 'body', message: 'Content-Type application/json' }]);
    }
    const signature = req.get('stripe-signature');
    const { duplicate } = await http(() => receiveWebhook(billing, req.body as Buffer, signature));
    res.status(200).json({ received: true, duplicate });
  });
  return router;
}

/** Pricing (public), a team's billing status, Checkout and the Customer Portal. */
export function billingRoutes(deps: BillingRouteDeps, billing: BillingDeps = billingDepsOf(deps)): Router {
  const router = Router();
  const db = deps.dataSource;
  const ip = (req: Request) => clientIp(req.ip);

  router.get('/billing/pricing', async (_req, res) => {
    const body: PricingBody = await pricing(db, billing.entitlements);
    res.set('Cache-Control', 'public, max-age=60').json(body);
  });

  router.get('/billing/entitlements', requireUser, async (req, res) => {
    const body: EntitlementsBody = await billing.entitlements.ofUser(db, sessionUser(req).id, billing.clock.now());
    res.set('Cache-Control', 'private, no-store').json(body);
  });

  router.get('/billing/teams/:teamId', requireUser, async (req, res) => {
    const teamId = idParam(req.params.teamId, 'team');
    const body: BillingStatusBody = await http(() => billingStatus(billing, { teamId, userId: sessionUser(req).id }));
    res.set('Cache-Control', 'private, no-store').json(body);
  });

  router.post('/billing/checkout', requireUser, async (req, res) => {
    const { priceId, teamId } = billingCheckoutBodySchema.parse(req.body);
    const body: SessionUrlBody = await http(() => startCheckout(billing, { teamId, userId: sessionUser(req).id, priceId, ip: ip(req) }));
    res.json(body);
  });

  router.post('/billing/portal', requireUser, async (req, res) => {
    const { teamId } = billingPortalBodySchema.parse(req.body);
    const body: SessionUrlBody = await http(() => startPortal(billing, { teamId, userId: sessionUser(req).id }));
    res.json(body);
  });

  return router;
}
