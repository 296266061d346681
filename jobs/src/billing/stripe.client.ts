import Stripe from 'stripe';

/**
 * The one Stripe client of a process (the official library), built from the billing variables.
 * The API version is pinned: the objects this code reads (subscription items carrying their period,
 * invoices naming their subscription under `parent`) are this version's shapes, whatever the
 * account's default version is. STRIPE_API_URL points it at another server (the fake in tests and
 * offline demos): its host, port and protocol are the library's own options.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** Retries of one request on a network error or a 409/429/5xx answer (the library adds idempotency keys). */
export const STRIPE_MAX_NETWORK_RETRIES = 2;
export const STRIPE_TIMEOUT_MS = 10_000;

export interface StripeClientConfig {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_URL?: string;
}

/** Billing on needs both keys (the config schema refuses one without the other). */
export function createStripeClient(config: StripeClientConfig): Stripe | null {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    appInfo: { name: 'Tickerbell' },
    ...(config.STRIPE_API_URL ? stripeServerOptions(config.STRIPE_API_URL) : {}),
  });
}

/** host / port / protocol of another Stripe API origin. */
export function stripeServerOptions(url: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** Stripe's webhook helpers (signature checks, test headers), which need no key. */
export const stripeWebhooks = Stripe.webhooks;

export type { Stripe };
