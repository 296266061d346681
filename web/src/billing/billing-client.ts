// The billing api (/api/billing/...): the plans and prices on sale (public), the signed-in user's
// entitlements, a team's billing status, and the Checkout and Customer Portal sessions the browser
// is sent to. Shaped as @tickerbell/jobs/billing/shapes; amounts stay minor-unit strings until shown.
import {
  BILLING_MODES,
  FEATURE_FLAGS,
  FEATURE_LABELS,
  LIMIT_LABELS,
  LIMIT_NAMES,
  PLAN_KEYS,
  SUBSCRIPTION_STATUSES,
  type BillingStatusBody,
  type EntitlementsBody,
  type FeatureFlag,
  type LimitName,
  type PlanBody,
  type PlanFeatures,
  type PlanLimits,
  type PriceBody,
  type PricingBody,
  type SessionUrlBody,
  type SubscriptionStatus,
} from '@tickerbell/jobs/billing/shapes';
import { apiRequest } from '../api/client';
import { at, bool, count, countOrNull, decimalOrNull, fail, list, oneOf, record, text, textOrNull } from '../api/answer';
import { sendWithCsrf } from '../accounts/auth-client';

export { FEATURE_FLAGS, FEATURE_LABELS, LIMIT_LABELS, LIMIT_NAMES };
export type { BillingStatusBody, EntitlementsBody, FeatureFlag, LimitName, PlanBody, PriceBody, PricingBody, SubscriptionStatus };

/** Where the screens live. */
export const BILLING_SETTINGS_PATH = '/dashboard/settings/billing';
export const billingSettingsPath = (teamId?: number | null) => (teamId ? `${BILLING_SETTINGS_PATH}?team=${teamId}` : BILLING_SETTINGS_PATH);

// ---- Reading the answers ----

function limits(value: unknown, where: string): PlanLimits {
  const s = record(value, where);
  return Object.fromEntries(LIMIT_NAMES.map((name) => [name, countOrNull(s[name], `${where}.${name}`)])) as PlanLimits;
}

function features(value: unknown, where: string): PlanFeatures {
  const s = record(value, where);
  return Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, bool(s[flag], `${where}.${flag}`)])) as PlanFeatures;
}

export function parsePlan(value: unknown, where = 'plan'): PlanBody {
  const s = record(value, where);
  const k = at(where);
  return {
    key: oneOf(s.key, PLAN_KEYS, k('key')),
    name: text(s.name, k('name')),
    summary: text(s.summary, k('summary')),
    limits: limits(s.limits, k('limits')),
    features: features(s.features, k('features')),
  };
}

export function parsePrice(value: unknown, where = 'price'): PriceBody {
  const s = record(value, where);
  const k = at(where);
  return {
    id: text(s.id, k('id')),
    unitAmount: decimalOrNull(s.unitAmount, k('unitAmount')),
    currency: text(s.currency, k('currency')),
    interval: textOrNull(s.interval, k('interval')),
    trialPeriodDays: countOrNull(s.trialPeriodDays, k('trialPeriodDays')),
  };
}

export function parsePricing(body: unknown): PricingBody {
  const s = record(body, 'pricing');
  return {
    billing: oneOf(s.billing, ['on', 'off'] as const, 'pricing.billing'),
    plans: list(s.plans, 'pricing.plans', (entry, where) => {
      const p = record(entry, where);
      return {
        ...parsePlan(entry, where),
        productName: textOrNull(p.productName, `${where}.productName`),
        description: textOrNull(p.description, `${where}.description`),
        prices: list(p.prices, `${where}.prices`, parsePrice),
      };
    }),
    defaultPlan: parsePlan(s.defaultPlan, 'pricing.defaultPlan'),
  };
}

function statusOrNull(value: unknown, where: string): SubscriptionStatus | null {
  return value === null || value === undefined ? null : oneOf(value, SUBSCRIPTION_STATUSES, where);
}

export function parseEntitlements(body: unknown, where = 'entitlements'): EntitlementsBody {
  const s = record(body, where);
  const k = at(where);
  return {
    billing: oneOf(s.billing, ['on', 'off'] as const, k('billing')),
    plan: oneOf(s.plan, PLAN_KEYS, k('plan')),
    planName: text(s.planName, k('planName')),
    teamId: countOrNull(s.teamId, k('teamId')),
    status: statusOrNull(s.status, k('status')),
    mode: oneOf(s.mode, BILLING_MODES, k('mode')),
    graceEndsAt: textOrNull(s.graceEndsAt, k('graceEndsAt')),
    limits: limits(s.limits, k('limits')),
    features: features(s.features, k('features')),
  };
}

export function parseBillingStatus(body: unknown): BillingStatusBody {
  const s = record(body, 'billing');
  const k = at('billing');
  const sub = s.subscription === null || s.subscription === undefined ? null : record(s.subscription, k('subscription'));
  const usage = record(s.usage ?? {}, k('usage'));
  return {
    teamId: count(s.teamId, k('teamId')),
    teamName: text(s.teamName, k('teamName')),
    role: oneOf(s.role, ['owner', 'admin', 'member'] as const, k('role')),
    canManage: bool(s.canManage, k('canManage')),
    entitlements: parseEntitlements(s.entitlements, k('entitlements')),
    subscription: sub && {
      status: oneOf(sub.status, SUBSCRIPTION_STATUSES, 'billing.subscription.status'),
      priceId: textOrNull(sub.priceId, 'billing.subscription.priceId'),
      seats: countOrNull(sub.seats, 'billing.subscription.seats'),
      currentPeriodEnd: textOrNull(sub.currentPeriodEnd, 'billing.subscription.currentPeriodEnd'),
      trialEnd: textOrNull(sub.trialEnd, 'billing.subscription.trialEnd'),
      cancelAtPeriodEnd: bool(sub.cancelAtPeriodEnd, 'billing.subscription.cancelAtPeriodEnd'),
      pastDueSince: textOrNull(sub.pastDueSince, 'billing.subscription.pastDueSince'),
    },
    seatsUsed: count(s.seatsUsed, k('seatsUsed')),
    usage: Object.fromEntries(
      Object.entries(usage)
        .filter(([name]) => (LIMIT_NAMES as readonly string[]).includes(name))
        .map(([name, value]) => [name, count(value, `billing.usage.${name}`)]),
    ) as BillingStatusBody['usage'],
    hasCustomer: bool(s.hasCustomer, k('hasCustomer')),
  };
}

export function parseSessionUrl(body: unknown): SessionUrlBody {
  const s = record(body, 'session');
  const url = text(s.url, 'session.url');
  if (!/^https?:\/\//.test(url)) fail('session.url', 'an http(s) address');
  return { url };
}

// ---- Requests ----

export const getPricing = (signal?: AbortSignal) => apiRequest('/api/billing/pricing', { signal, parse: parsePricing });
export const getEntitlements = (signal?: AbortSignal) => apiRequest('/api/billing/entitlements', { signal, parse: (body) => parseEntitlements(body) });
export const getBillingStatus = (teamId: number, signal?: AbortSignal) => apiRequest(`/api/billing/teams/${teamId}`, { signal, parse: parseBillingStatus });
export const startCheckout = (teamId: number, priceId: string) => sendWithCsrf('/api/billing/checkout', { method: 'POST', body: { teamId, priceId }, parse: parseSessionUrl });
export const openPortal = (teamId: number) => sendWithCsrf('/api/billing/portal', { method: 'POST', body: { teamId }, parse: parseSessionUrl });

/** Sends the browser to Stripe (Checkout or the portal); a seam for tests. */
export const navigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

// ---- Formatting ----

const NBSP = '\u00a0';

/** Currencies without a minor unit (Stripe's list of zero-decimal currencies, the common ones). */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

/** "$12", "$9.50", "€120": an amount in minor units. */
export function formatAmount(unitAmount: string | null, currency: string): string {
  if (unitAmount === null) return '—';
  const minor = Number(unitAmount);
  if (!Number.isFinite(minor)) return '—';
  const code = currency.toLowerCase();
  const value = ZERO_DECIMAL.has(code) ? minor : minor / 100;
  const whole = Number.isInteger(value);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code.toUpperCase(), minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${value.toFixed(whole ? 0 : 2)}${NBSP}${code.toUpperCase()}`;
  }
}

const INTERVAL_WORDS: Record<string, string> = { day: 'day', week: 'week', month: 'month', year: 'year' };

/** "$12 per seat / month". */
export function formatPrice(price: Pick<PriceBody, 'unitAmount' | 'currency' | 'interval'>): string {
  const amount = formatAmount(price.unitAmount, price.currency);
  return price.interval ? `${amount} per seat${NBSP}/${NBSP}${INTERVAL_WORDS[price.interval] ?? price.interval}` : amount;
}

/** "Monthly", "Yearly". */
export function intervalLabel(interval: string | null): string {
  if (interval === 'month') return 'Monthly';
  if (interval === 'year') return 'Yearly';
  if (interval === 'week') return 'Weekly';
  if (interval === 'day') return 'Daily';
  return 'One-time';
}

/** "250 active alerts", "Unlimited watchlists". */
export function formatLimit(name: LimitName, max: number | null): string {
  return max === null ? `Unlimited ${LIMIT_LABELS[name]}` : `${max.toLocaleString('en-US')} ${LIMIT_LABELS[name]}`;
}

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "Dec 3, 2026"; "—" when unknown. */
export function formatDate(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : DATE.format(date);
}

/** Whole days (rounded up) from now until an instant; negative once past. */
export function daysUntil(iso: string, now: Date = new Date()): number {
  return Math.ceil((new Date(iso).getTime() - now.getTime()) / 86_400_000);
}

/** "today", "tomorrow", "in 3 days". */
export function formatDaysLeft(iso: string, now: Date = new Date()): string {
  const n = daysUntil(iso, now);
  if (n <= 0) return 'today';
  if (n === 1) return 'tomorrow';
  return `in ${n}${NBSP}days`;
}

export const STATUS_LABELS: Readonly<Record<SubscriptionStatus, string>> = {
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Past due',
  unpaid: 'Unpaid',
  canceled: 'Canceled',
  incomplete: 'Incomplete',
  incomplete_expired: 'Expired',
  paused: 'Paused',
};

/** The badge tone of a status. */
export function statusTone(status: SubscriptionStatus | null): 'good' | 'warn' | 'bad' | 'neutral' {
  if (status === 'active' || status === 'trialing') return 'good';
  if (status === 'past_due' || status === 'incomplete') return 'warn';
  if (status === 'unpaid' || status === 'paused') return 'bad';
  return 'neutral';
}

// ---- Banners ----

export type BillingBanner =
  | { kind: 'trial_ending'; tone: 'info'; planName: string; trialEnd: string; teamId: number }
  | { kind: 'past_due'; tone: 'warn'; planName: string; graceEndsAt: string | null; teamId: number | null }
  | { kind: 'read_only'; tone: 'bad'; planName: string; status: SubscriptionStatus | null; teamId: number | null };

/** Trial ending within this many days shows the banner. */
export const TRIAL_BANNER_DAYS = 3;

/**
 * The banner the dashboard shows for these entitlements (and, while trialing, the team's trial end),
 * or null: read-only first, then past due in its grace period, then a trial ending within 3 days.
 */
export function bannerOf(entitlements: EntitlementsBody, trialEnd: string | null, now: Date = new Date()): BillingBanner | null {
  if (entitlements.billing === 'off') return null;
  const { planName, teamId, status, mode } = entitlements;
  if (mode === 'read_only') return { kind: 'read_only', tone: 'bad', planName, status, teamId };
  if (mode === 'grace') return { kind: 'past_due', tone: 'warn', planName, graceEndsAt: entitlements.graceEndsAt, teamId };
  if (status === 'trialing' && trialEnd && teamId !== null) {
    const days = daysUntil(trialEnd, now);
    if (days >= 0 && days <= TRIAL_BANNER_DAYS) return { kind: 'trial_ending', tone: 'info', planName, trialEnd, teamId };
  }
  return null;
}
