export {
  BILLING_MODES,
  FEATURE_FLAGS,
  FEATURE_LABELS,
  LIMIT_LABELS,
  LIMIT_NAMES,
  PLAN_KEYS,
  SUBSCRIPTION_STATUSES,
  type BillingMode,
  type BillingStatusBody,
  type CheckoutRequestBody,
  type EntitlementRefusalBody,
  type EntitlementsBody,
  type FeatureFlag,
  type LimitName,
  type PlanBody,
  type PlanKey,
  type PlanLimits,
  type PortalRequestBody,
  type PricingBody,
  type SessionUrlBody,
  type SubscriptionStatus,
} from './billing.shapes';
export { PLANS, PLAN_METADATA_KEY, parsePlanLimits, planOfProductMetadata, planRank, selfHostedPlan } from './plans';
export { billingEnabled, billingEnvSchema, type BillingConfig, type SelfHostedLimits } from './billing.config';
export { EntitlementError, createEntitlements, entitlementsFromConfig, teamStateOf, type Entitlements, type EntitlementsOptions, type TeamState } from './entitlements';

// jobs, services and the webhook
export { createStripeClient, stripeServerOptions, STRIPE_API_VERSION, type StripeClientConfig } from './stripe.client';
export { BillingError, startCheckout, startPortal, billingStatus, pricing, stripeFailure, type BillingDeps, type BillingErrorCode } from './billing-service';
export { receiveWebhook, processStripeEvent, queueProcessing, eventTarget, WEBHOOK_TOLERANCE_SECONDS, type ProcessOutcome } from './billing-webhook';
export { syncCatalog, resyncSubscriptions, refreshSubscription, snapshotOf, currentSubscription, type ResyncOutcome } from './billing-sync';
export { requestSeatSync, syncSeats, type SeatSyncOutcome } from './billing-seats';
export { billingNotice, BILLING_NOTICE_EVENTS } from './billing-notify';
export { BILLING_ACTIVITY_ACTION, LIVE_SUBSCRIPTION_STATUSES, isLiveStatus } from './billing.store';
export { billingJobIds } from './billing.jobs';
export { createBillingHandlers, type BillingHandlerDeps } from './billing.processor';
export { billingDomain } from './billing.domain';
