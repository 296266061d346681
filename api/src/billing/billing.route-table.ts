import { defineRouteTable } from '../http/route-table';
import { billingCheckoutBodySchema, billingPortalBodySchema, billingTeamParamsSchema, stripeEventSchema } from './billing.routes';

// Billing is per team: a team's status is read by its members, Checkout and the Customer Portal are
// opened by its owner or an admin (the service refuses anyone else). The webhook is Stripe's: no
// session and no CSRF token, its authority is the signature over the raw body.
export const billingRouteTable = defineRouteTable('billing', [
  {
    method: 'GET',
    path: '/api/billing/pricing',
    summary:
      'The plans on sale with their limits, features and Stripe prices (amount in minor units, currency, interval, trial days), and the plan of an account without a subscription; with billing off (no Stripe keys), only the self-hosted plan and its configured limits',
    auth: 'public',
    body: 'none',
    response: 'json',
  },
  {
    method: 'GET',
    path: '/api/billing/entitlements',
    summary: "The signed-in user's plan, subscription status, mode (full, grace, read_only), limits and features: the best plan of the teams they belong to",
    auth: 'user',
    body: 'none',
    response: 'json',
  },
  {
    method: 'GET',
    path: '/api/billing/teams/:teamId',
    summary:
      "A team's billing: plan, status, seats used and paid for, trial end, renewal or cancellation date, the caller's usage of each limit and whether they may manage it (members only)",
    auth: 'user',
    params: billingTeamParamsSchema,
    ids: { teamId: 'team' },
    body: 'none',
    response: 'json',
    example: { params: { teamId: '1' } },
  },
  {
    method: 'POST',
    path: '/api/billing/checkout',
    summary:
      'Opens a Stripe Checkout Session (subscription mode, one seat per member, the price’s trial, promotion codes allowed) for the team and answers its URL; owners and admins only; 409 when billing is off',
    auth: 'user',
    body: { json: billingCheckoutBodySchema },
    ids: { teamId: 'team' },
    response: 'json',
    example: { body: { teamId: 1, priceId: 'price_1PtickerbellPro' } },
  },
  {
    method: 'POST',
    path: '/api/billing/portal',
    summary: "Opens the team's Stripe Customer Portal (invoices, payment method, plan changes, cancellation) and answers its URL; owners and admins only; 409 without a customer or when billing is off",
    auth: 'user',
    body: { json: billingPortalBodySchema },
    ids: { teamId: 'team' },
    response: 'json',
    example: { body: { teamId: 1 } },
  },
  {
    method: 'POST',
    path: '/api/billing/webhook',
    summary:
      "Stripe's webhook: the Stripe-Signature header is verified on the raw body (300 s tolerance), the event stored once by its id and answered 200 at once; a job processes it (400 on a bad signature, nothing stored)",
    auth: 'public',
    csrf: 'exempt',
    body: { json: stripeEventSchema },
    response: 'json',
    example: { body: { id: 'evt_1PtickerbellExample', object: 'event', type: 'customer.subscription.updated', created: 1795808000, data: { object: { id: 'sub_1PtickerbellExample', object: 'subscription' } } } },
  },
]);
