import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';
import fixtures from './data/stripe/stripe-objects.json';

/**
 * A small fake of the Stripe API for tests and offline demos: the endpoints Tickerbell calls,
 * answering with Stripe's own object shapes (./data/stripe, from Stripe's mock server fixtures)
 * with ids, amounts, dates and statuses of their own. The official client is pointed at it through
 * its host / port / protocol options (STRIPE_API_URL). Request bodies are form-encoded the way
 * Stripe's clients send them and parsed with `qs`, as Stripe does.
 *
 * Besides the API it serves a hosted checkout page (GET /checkout/:id with a Pay button) that
 * creates the subscription, delivers signed `checkout.session.completed` and
 * `customer.subscription.created` webhooks to `webhookUrl` and redirects to the session's
 * success_url; and a portal page (GET /portal/:id) that can cancel at the period end.
 * State is in memory, per server.
 */

/**
 * A Stripe JSON object. The objects the fake keeps type the fields it reads and writes (below);
 * every other field stays as the fixtures have it. Request bodies and queries arrive as this too
 * (qs output) and are read through the narrowing helpers, never trusted as typed.
 */
export type StripeObject = { [field: string]: unknown };
type Metadata = Record<string, string>;

export interface FakeCustomer extends StripeObject {
  id: string;
  email: string | null;
  name: string | null;
  metadata: Metadata;
}

export interface FakeProduct extends StripeObject {
  id: string;
  name: string;
  active: boolean;
  metadata: Metadata;
  default_price: string | null;
}

export interface FakePrice extends StripeObject {
  id: string;
  product: string;
  active: boolean;
  created: number;
  currency: string;
  type: string;
  unit_amount: number | null;
  unit_amount_decimal: string | null;
  recurring: StripeObject & { interval: string; trial_period_days: number | null };
}

export interface FakeSubscriptionItem extends StripeObject {
  id: string;
  price: FakePrice;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
}

export interface FakeSubscription extends StripeObject {
  id: string;
  customer: string;
  status: string;
  currency: string;
  metadata: Metadata;
  items: StripeObject & { data: FakeSubscriptionItem[] };
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  trial_end: number | null;
  pause_collection: unknown;
}

export interface FakeCheckoutSession extends StripeObject {
  id: string;
  customer: string;
  status: string;
  subscription: string | null;
  success_url: string;
  cancel_url: string | null;
}

export interface FakePortalSession extends StripeObject {
  id: string;
  customer: string;
  return_url: string | null;
  url: string;
}

export interface FakeEvent extends StripeObject {
  id: string;
  type: string;
  created: number;
  data: { object: StripeObject; previous_attributes?: StripeObject };
}

/** A request field that must be a string (qs gives strings, arrays or nested records). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** A request field that must be a nested record; anything else reads as empty. */
const fields = (value: unknown): StripeObject => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as StripeObject) : {});
/** Stripe metadata: string values only. */
const metadataOf = (value: unknown): Metadata => Object.fromEntries(Object.entries(fields(value)).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

export interface FakeStripeOptions {
  /** Where webhooks go (the api's POST /api/billing/webhook); none: events are only built and signed. */
  webhookUrl?: string;
  /** The signing secret (whsec_…) the receiver verifies with. */
  webhookSecret?: string;
  /** The fake's clock (object dates, trial ends); default the wall clock. */
  now?: () => Date;
}

export interface FakeStripeRequest {
  method: string;
  path: string;
  query: StripeObject;
  body: StripeObject;
  idempotencyKey: string | null;
}

export interface FakeStripeState {
  customers: Map<string, FakeCustomer>;
  products: Map<string, FakeProduct>;
  prices: Map<string, FakePrice>;
  subscriptions: Map<string, FakeSubscription>;
  checkoutSessions: Map<string, { session: FakeCheckoutSession; lineItems: { price: string; quantity: number }[]; subscriptionData: StripeObject }>;
  portalSessions: Map<string, FakePortalSession>;
  /** Every API request (not the hosted pages), oldest first. */
  requests: FakeStripeRequest[];
  /** Every event built (sent or not), oldest first. */
  events: FakeEvent[];
}

export interface DeliveredEvent {
  event: FakeEvent;
  /** The receiver's answer; null when no webhookUrl is set. */
  status: number | null;
  body: string | null;
}

export interface FakeStripe {
  /** The API origin, e.g. http://127.0.0.1:40123 (STRIPE_API_URL). */
  url: string;
  port: number;
  webhookSecret: string;
  state: FakeStripeState;
  close(): Promise<void>;
  /** Sets where webhooks go (a server started before the api it calls). */
  setWebhookUrl(url: string | undefined): void;
  addProduct(input: { name: string; plan?: string | null; metadata?: Record<string, string>; description?: string | null; active?: boolean; id?: string }): FakeProduct;
  addPrice(input: { product: string; unitAmount: number; currency?: string; interval?: 'day' | 'week' | 'month' | 'year'; trialPeriodDays?: number | null; active?: boolean; id?: string }): FakePrice;
  addCustomer(input?: { email?: string; name?: string; metadata?: Record<string, string> }): FakeCustomer;
  /** A subscription created directly (as if a checkout completed), without webhooks. */
  createSubscription(input: { customer: string; price: string; quantity?: number; status?: string; metadata?: Record<string, string>; trialDays?: number }): FakeSubscription;
  /** Changes a subscription as Stripe would (canceled sets ended_at and canceled_at); `extra` fields are merged in. Sends nothing. */
  setSubscriptionStatus(id: string, status: string, extra?: StripeObject): FakeSubscription;
  /** An event of `type` around `object` (Stripe's event envelope), signed and POSTed to webhookUrl when set. */
  sendEvent(type: string, object: StripeObject, extra?: { previousAttributes?: StripeObject; id?: string; created?: number }): Promise<DeliveredEvent>;
  /** The same event again (Stripe delivers at least once). */
  deliver(event: FakeEvent): Promise<DeliveredEvent>;
  /** An event envelope, recorded in state.events, not sent. */
  buildEvent(type: string, object: StripeObject, extra?: { previousAttributes?: StripeObject; id?: string; created?: number }): FakeEvent;
  /** The raw body and Stripe-Signature header of an event, as Stripe would send it. `timestamp` in seconds. */
  sign(event: StripeObject, options?: { timestamp?: number; secret?: string }): { body: Buffer; header: string };
  /** An invoice of a subscription (invoice.payment_failed, invoice.paid events). */
  invoiceFor(subscriptionId: string, input?: { status?: string; attemptCount?: number }): StripeObject;
  /** The next `count` API requests answer `status` (500 default) with Stripe-Should-Retry: false. */
  failNext(count: number, status?: number): void;
  /** Completes a checkout session as the hosted page's Pay button does; answers the subscription. */
  completeCheckout(sessionId: string): Promise<FakeSubscription>;
}

const clone = <T>(value: T): T => structuredClone(value);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function stripeId(prefix: string): string {
  const bytes = randomBytes(24);
  let text = '';
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${text}`;
}

const DAY = 86_400;
function addInterval(seconds: number, interval: string, count = 1): number {
  const date = new Date(seconds * 1000);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + count);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + count);
  else date.setUTCMonth(date.getUTCMonth() + count);
  return Math.floor(date.getTime() / 1000);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

class FakeStripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeObject,
  ) {
    super(String(fields(body.error).message ?? status));
  }
}
const missing = (kind: string, id: string, param = 'id') =>
  new FakeStripeHttpError(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param } });
const invalid = (message: string, param?: string) => new FakeStripeHttpError(400, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const now = options.now ?? (() => new Date());
  const nowSeconds = () => Math.floor(now().getTime() / 1000);
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  let webhookUrl = options.webhookUrl;
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const idempotent = new Map<string, { status: number; body: StripeObject }>();
  const state: FakeStripeState = {
    customers: new Map(),
    products: new Map(),
    prices: new Map(),
    subscriptions: new Map(),
    checkoutSessions: new Map(),
    portalSessions: new Map(),
    requests: [],
    events: [],
  };
  let base = '';

  // ---- object builders (from the fixtures' shapes) --------------------------------------------

  function addCustomer(input: { email?: string; name?: string; metadata?: Record<string, string> } = {}): FakeCustomer {
    const customer: FakeCustomer = {
      ...(clone(fixtures.customer) as StripeObject),
      id: stripeId('cus'),
      created: nowSeconds(),
      email: input.email ?? null,
      name: input.name ?? null,
      description: null,
      metadata: input.metadata ?? {},
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      balance: 0,
      delinquent: false,
      livemode: false,
      test_clock: null,
    };
    state.customers.set(customer.id, customer);
    return customer;
  }

  function addProduct(input: { name: string; plan?: string | null; metadata?: Record<string, string>; description?: string | null; active?: boolean; id?: string }): FakeProduct {
    const metadata = { ...(input.metadata ?? {}), ...(input.plan ? { tickerbell_plan: input.plan } : {}) };
    const product: FakeProduct = {
      id: input.id ?? stripeId('prod'),
      object: 'product',
      active: input.active ?? true,
      created: nowSeconds(),
      default_price: null,
      description: input.description ?? null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata,
      name: input.name,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      type: 'service',
      unit_label: null,
      updated: nowSeconds(),
      url: null,
    };
    state.products.set(product.id, product);
    return product;
  }

  // A price has the shape of the fixture subscription item's price.
  function addPrice(input: { product: string; unitAmount: number; currency?: string; interval?: 'day' | 'week' | 'month' | 'year'; trialPeriodDays?: number | null; active?: boolean; id?: string }): FakePrice {
    const product = state.products.get(input.product);
    if (!product) throw new Error(`fake Stripe: no product ${input.product}`);
    const price: FakePrice = {
      ...(clone(fixtures.subscription.items.data[0].price) as StripeObject),
      id: input.id ?? stripeId('price'),
      active: input.active ?? true,
      created: nowSeconds(),
      currency: input.currency ?? 'usd',
      product: input.product,
      lookup_key: null,
      metadata: {},
      nickname: null,
      recurring: { interval: input.interval ?? 'month', interval_count: 1, meter: null, usage_type: 'licensed', trial_period_days: input.trialPeriodDays ?? null },
      transform_quantity: null,
      type: 'recurring',
      unit_amount: input.unitAmount,
      unit_amount_decimal: String(input.unitAmount),
    };
    state.prices.set(price.id, price);
    product.default_price ??= price.id;
    return price;
  }

  function priceOrThrow(id: string, param = 'price'): FakePrice {
    const price = state.prices.get(id);
    if (!price) throw missing('price', id, param);
    return price;
  }

  function subscriptionItem(subscriptionId: string, price: FakePrice, quantity: number, periodStart: number, periodEnd: number): FakeSubscriptionItem {
    const item = clone(fixtures.subscription.items.data[0]) as StripeObject;
    const plan = {
      ...fields(item.plan),
      id: price.id,
      amount: price.unit_amount,
      amount_decimal: price.unit_amount_decimal,
      billing_scheme: 'per_unit',
      created: price.created,
      currency: price.currency,
      interval: price.recurring.interval,
      interval_count: 1,
      livemode: false,
      metadata: {},
      product: price.product,
      transform_usage: null,
      trial_period_days: price.recurring.trial_period_days,
    };
    return {
      ...item,
      id: stripeId('si'),
      created: periodStart,
      metadata: {},
      price: clone(price),
      plan,
      quantity,
      subscription: subscriptionId,
      current_period_start: periodStart,
      current_period_end: periodEnd,
      billing_thresholds: null,
    };
  }

  function createSubscription(input: { customer: string; price: string; quantity?: number; status?: string; metadata?: Record<string, string>; trialDays?: number }): FakeSubscription {
    if (!state.customers.has(input.customer)) throw missing('customer', input.customer, 'customer');
    const price = priceOrThrow(input.price);
    const id = stripeId('sub');
    const start = nowSeconds();
    const trialDays = input.trialDays ?? price.recurring.trial_period_days ?? 0;
    const trialEnd = trialDays > 0 ? start + trialDays * DAY : null;
    const periodEnd = trialEnd ?? addInterval(start, price.recurring.interval);
    const subscription: FakeSubscription = {
      ...(clone(fixtures.subscription) as StripeObject),
      id,
      billing_cycle_anchor: periodEnd,
      billing_cycle_anchor_config: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      created: start,
      currency: price.currency,
      customer: input.customer,
      ended_at: null,
      items: { object: 'list', data: [subscriptionItem(id, price, input.quantity ?? 1, start, periodEnd)], has_more: false, total_count: 1, url: `/v1/subscription_items?subscription=${id}` },
      latest_invoice: null,
      metadata: input.metadata ?? {},
      next_pending_invoice_item_invoice: null,
      pause_collection: null,
      pending_invoice_item_interval: null,
      pending_update: null,
      start_date: start,
      status: input.status ?? (trialEnd ? 'trialing' : 'active'),
      transfer_data: null,
      trial_end: trialEnd,
      trial_start: trialEnd ? start : null,
      billing_thresholds: null,
    };
    state.subscriptions.set(id, subscription);
    return subscription;
  }

  function subscriptionOrThrow(id: string): FakeSubscription {
    const subscription = state.subscriptions.get(id);
    if (!subscription) throw missing('subscription', id);
    return subscription;
  }

  function setSubscriptionStatus(id: string, status: string, extra: StripeObject = {}): FakeSubscription {
    const subscription = subscriptionOrThrow(id);
    subscription.status = status;
    if (status === 'canceled' || status === 'incomplete_expired') {
      subscription.ended_at ??= nowSeconds();
      subscription.canceled_at ??= nowSeconds();
    }
    if (status === 'paused') subscription.pause_collection = null;
    Object.assign(subscription, extra);
    return clone(subscription);
  }

  function invoiceFor(subscriptionId: string, input: { status?: string; attemptCount?: number } = {}): StripeObject {
    const subscription = subscriptionOrThrow(subscriptionId);
    const item = subscription.items.data[0];
    const amount = (item.price.unit_amount ?? 0) * item.quantity;
    const invoice = clone(fixtures.invoice) as StripeObject;
    Object.assign(invoice, {
      id: stripeId('in'),
      amount_due: amount,
      amount_paid: input.status === 'paid' ? amount : 0,
      amount_remaining: input.status === 'paid' ? 0 : amount,
      attempt_count: input.attemptCount ?? 1,
      attempted: true,
      billing_reason: 'subscription_cycle',
      created: nowSeconds(),
      currency: subscription.currency,
      customer: subscription.customer,
      lines: { object: 'list', data: [], has_more: false, url: '/v1/invoices/lines' },
      livemode: false,
      metadata: {},
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: subscription.metadata, subscription: subscriptionId } },
      period_end: item.current_period_end,
      period_start: item.current_period_start,
      status: input.status ?? 'open',
      subscription: subscriptionId,
      subtotal: amount,
      total: amount,
    });
    return invoice;
  }

  function buildEvent(type: string, object: StripeObject, extra: { previousAttributes?: StripeObject; id?: string; created?: number } = {}): FakeEvent {
    const event: FakeEvent = {
      ...(clone(fixtures.event) as StripeObject),
      id: extra.id ?? stripeId('evt'),
      api_version: '2026-10-28.endive',
      created: extra.created ?? nowSeconds(),
      data: { object: clone(object), ...(extra.previousAttributes ? { previous_attributes: extra.previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    state.events.push(event);
    return event;
  }

  function sign(event: StripeObject, signOptions: { timestamp?: number; secret?: string } = {}): { body: Buffer; header: string } {
    const payload = JSON.stringify(event, null, 2);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: signOptions.secret ?? webhookSecret,
      ...(signOptions.timestamp !== undefined ? { timestamp: signOptions.timestamp } : {}),
    });
    return { body: Buffer.from(payload), header };
  }

  async function deliver(event: FakeEvent): Promise<DeliveredEvent> {
    if (!webhookUrl) return { event, status: null, body: null };
    const { body, header } = sign(event);
    const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header }, body });
    return { event, status: response.status, body: await response.text() };
  }

  const sendEvent = (type: string, object: StripeObject, extra?: { previousAttributes?: StripeObject; id?: string; created?: number }) => deliver(buildEvent(type, object, extra));

  async function completeCheckout(sessionId: string): Promise<FakeSubscription> {
    const entry = state.checkoutSessions.get(sessionId);
    if (!entry) throw missing('checkout.session', sessionId);
    const { session, lineItems, subscriptionData } = entry;
    if (session.status === 'complete' && session.subscription) return subscriptionOrThrow(session.subscription);
    const [line] = lineItems;
    const trialDays = Number(subscriptionData.trial_period_days ?? 0) || undefined;
    const subscription = createSubscription({
      customer: session.customer,
      price: line.price,
      quantity: line.quantity,
      metadata: metadataOf(subscriptionData.metadata),
      ...(trialDays ? { trialDays } : { trialDays: 0 }),
    });
    Object.assign(session, { status: 'complete', payment_status: subscription.status === 'trialing' ? 'no_payment_required' : 'paid', subscription: subscription.id });
    await sendEvent('checkout.session.completed', session);
    await sendEvent('customer.subscription.created', subscription);
    return clone(subscription);
  }

  // ---- the API ---------------------------------------------------------------------------------

  function list(path: string, items: { id: string }[], query: StripeObject): StripeObject {
    const limit = Math.min(Math.max(Number(query.limit ?? 10) || 10, 1), 100);
    let start = 0;
    if (query.starting_after) {
      const at = items.findIndex((item) => item.id === query.starting_after);
      start = at < 0 ? items.length : at + 1;
    }
    const page = items.slice(start, start + limit);
    return { object: 'list', data: clone(page), has_more: start + limit < items.length, url: path };
  }

  const bool = (value: unknown) => (value === undefined ? undefined : value === true || value === 'true');

  function api(method: string, path: string, query: StripeObject, body: StripeObject): { status: number; body: StripeObject } {
    const parts = path.split('/').filter(Boolean).slice(1); // after v1
    const [resource, id, sub] = parts;
    const ok = (object: StripeObject) => ({ status: 200, body: clone(object) });

    if (resource === 'customers') {
      if (method === 'POST' && !id) return ok(addCustomer({ email: text(body.email), name: text(body.name), metadata: metadataOf(body.metadata) }));
      if (id) {
        const customer = state.customers.get(id);
        if (!customer) throw missing('customer', id);
        if (method === 'POST') Object.assign(customer, { ...(text(body.email) ? { email: text(body.email) } : {}), ...(text(body.name) ? { name: text(body.name) } : {}), metadata: { ...customer.metadata, ...metadataOf(body.metadata) } });
        return ok(customer);
      }
      return { status: 200, body: list(path, [...state.customers.values()], query) };
    }

    if (resource === 'products') {
      if (id) {
        const product = state.products.get(id);
        if (!product) throw missing('product', id);
        return ok(product);
      }
      const active = bool(query.active);
      return { status: 200, body: list(path, [...state.products.values()].filter((p) => active === undefined || p.active === active), query) };
    }

    if (resource === 'prices') {
      if (id) return ok(priceOrThrow(id, 'id'));
      const active = bool(query.active);
      const prices = [...state.prices.values()].filter(
        (p) => (active === undefined || p.active === active) && (!query.product || p.product === query.product) && (!query.type || p.type === query.type),
      );
      return { status: 200, body: list(path, prices, query) };
    }

    if (resource === 'checkout' && id === 'sessions') {
      const sessionId = sub;
      if (method === 'POST' && !sessionId) return ok(createCheckoutSession(body));
      if (sessionId) {
        const entry = state.checkoutSessions.get(sessionId);
        if (!entry) throw missing('checkout.session', sessionId);
        return ok(entry.session);
      }
    }

    if (resource === 'billing_portal' && id === 'sessions' && method === 'POST') {
      const customer = text(body.customer);
      if (!customer || !state.customers.has(customer)) throw missing('customer', customer ?? '', 'customer');
      const portalId = stripeId('bps');
      const session: FakePortalSession = {
        id: portalId,
        object: 'billing_portal.session',
        configuration: stripeId('bpc'),
        created: nowSeconds(),
        customer,
        flow: null,
        livemode: false,
        locale: null,
        on_behalf_of: null,
        return_url: text(body.return_url) ?? null,
        url: `${base}/portal/${portalId}`,
      };
      state.portalSessions.set(portalId, session);
      return ok(session);
    }

    if (resource === 'subscriptions') {
      if (!id) {
        const status = query.status ?? 'active-ish';
        const subscriptions = [...state.subscriptions.values()].filter(
          (s) => (!query.customer || s.customer === query.customer) && (!query.price || s.items.data[0].price.id === query.price) && (status === 'all' || (status === 'active-ish' ? s.status !== 'canceled' : s.status === status)),
        );
        return { status: 200, body: list(path, subscriptions, query) };
      }
      const subscription = subscriptionOrThrow(id);
      if (method === 'DELETE') return ok(setSubscriptionStatus(id, 'canceled'));
      if (method === 'POST') {
        if (subscription.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
        if (Array.isArray(body.items)) {
          for (const change of body.items as StripeObject[]) {
            const item = subscription.items.data.find((i) => i.id === change.id) ?? (change.id ? null : subscription.items.data[0]);
            if (!item) throw invalid(`No such subscription item: '${change.id}'`, 'items');
            if (change.quantity !== undefined) item.quantity = Number(change.quantity);
            const price = text(change.price);
            if (price) item.price = clone(priceOrThrow(price, 'items[0][price]'));
          }
        }
        if (body.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = bool(body.cancel_at_period_end) === true;
          subscription.cancel_at = subscription.cancel_at_period_end ? subscription.items.data[0].current_period_end : null;
        }
        if (body.metadata) subscription.metadata = { ...subscription.metadata, ...metadataOf(body.metadata) };
      }
      return ok(subscription);
    }

    if (resource === 'subscription_items' && id) {
      const item = [...state.subscriptions.values()].flatMap((s) => s.items.data).find((i) => i.id === id);
      if (!item) throw missing('subscription_item', id);
      if (method === 'POST' && body.quantity !== undefined) item.quantity = Number(body.quantity);
      return ok(item);
    }

    throw new FakeStripeHttpError(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } });
  }

  function createCheckoutSession(body: StripeObject): FakeCheckoutSession {
    if (body.mode !== 'subscription') throw invalid('This fake serves mode=subscription only', 'mode');
    const lines = (Array.isArray(body.line_items) ? body.line_items : []) as StripeObject[];
    if (!lines.length) throw invalid('line_items is required in subscription mode', 'line_items');
    const lineItems = lines.map((line, i) => {
      priceOrThrow(String(line.price), `line_items[${i}][price]`);
      return { price: String(line.price), quantity: Number(line.quantity ?? 1) };
    });
    const successUrl = text(body.success_url);
    if (!successUrl) throw invalid('success_url is required', 'success_url');
    let customer = text(body.customer);
    if (customer && !state.customers.has(customer)) throw missing('customer', customer, 'customer');
    customer ??= addCustomer({ email: text(body.customer_email) }).id;
    const price = priceOrThrow(lineItems[0].price);
    const amount = (price.unit_amount ?? 0) * lineItems[0].quantity;
    const id = stripeId('cs_test');
    const session: FakeCheckoutSession = {
      ...(clone(fixtures['checkout.session']) as StripeObject),
      id,
      allow_promotion_codes: bool(body.allow_promotion_codes) ?? null,
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: text(body.cancel_url) ?? null,
      client_reference_id: text(body.client_reference_id) ?? null,
      client_secret: null,
      created: nowSeconds(),
      currency: price.currency,
      customer,
      customer_email: text(body.customer_email) ?? null,
      expires_at: nowSeconds() + DAY,
      invoice: null,
      livemode: false,
      metadata: metadataOf(body.metadata),
      mode: 'subscription',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      url: `${base}/checkout/${id}`,
    };
    state.checkoutSessions.set(id, { session, lineItems, subscriptionData: fields(body.subscription_data) });
    return session;
  }

  // ---- the hosted pages ------------------------------------------------------------------------

  async function page(method: string, path: string, res: ServerResponse): Promise<void> {
    const checkout = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
    if (checkout) {
      const entry = state.checkoutSessions.get(checkout[1]);
      if (!entry) return html(res, 404, '<h1>Checkout session not found</h1>');
      if (method === 'POST' && checkout[2]) {
        await completeCheckout(checkout[1]);
        res.writeHead(303, { location: entry.session.success_url.replace('{CHECKOUT_SESSION_ID}', entry.session.id) }).end();
        return;
      }
      const price = priceOrThrow(entry.lineItems[0].price);
      const product = state.products.get(price.product);
      const trial = Number(entry.subscriptionData.trial_period_days ?? 0);
      const amount = `${((price.unit_amount ?? 0) / 100).toFixed(2)} ${String(price.currency).toUpperCase()}`;
      return html(
        res,
        200,
        `<h1>Subscribe to ${escapeHtml(product?.name ?? price.product)}</h1>
         <p>${escapeHtml(amount)} per seat per ${escapeHtml(price.recurring.interval)}, ${entry.lineItems[0].quantity} seat(s)${trial ? `, ${trial}-day free trial` : ''}.</p>
         <p>Test mode: no card is charged.</p>
         <form method="post" action="/checkout/${escapeHtml(entry.session.id)}/pay"><button type="submit">Pay</button></form>
         ${entry.session.cancel_url ? `<p><a href="${escapeHtml(entry.session.cancel_url)}">Cancel</a></p>` : ''}`,
      );
    }
    const portal = /^\/portal\/([^/]+)(\/cancel)?$/.exec(path);
    if (portal) {
      const session = state.portalSessions.get(portal[1]);
      if (!session) return html(res, 404, '<h1>Portal session not found</h1>');
      const subscription = [...state.subscriptions.values()].find((s) => s.customer === session.customer && s.status !== 'canceled');
      if (method === 'POST' && portal[2] && subscription) {
        subscription.cancel_at_period_end = true;
        subscription.cancel_at = subscription.items.data[0].current_period_end;
        await sendEvent('customer.subscription.updated', subscription, { previousAttributes: { cancel_at_period_end: false } });
        res.writeHead(303, { location: session.return_url ?? '/' }).end();
        return;
      }
      return html(
        res,
        200,
        `<h1>Billing portal</h1>
         <p>${subscription ? `Subscription ${escapeHtml(subscription.status)}, ${subscription.items.data[0].quantity} seat(s).` : 'No subscription.'}</p>
         ${subscription && !subscription.cancel_at_period_end ? `<form method="post" action="/portal/${escapeHtml(session.id)}/cancel"><button type="submit">Cancel at period end</button></form>` : ''}
         ${session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return</a></p>` : ''}`,
      );
    }
    html(res, 404, '<h1>Not found</h1>');
  }

  function html(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe</title></head><body>${body}</body></html>`);
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake-stripe');
      const method = req.method ?? 'GET';
      const raw = await readBody(req);
      if (!url.pathname.startsWith('/v1/')) return page(method, url.pathname, res);
      const query: StripeObject = qs.parse(url.search.replace(/^\?/, ''), { depth: 10, arrayLimit: 100 });
      const body: StripeObject = qs.parse(raw, { depth: 10, arrayLimit: 100 });
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
      state.requests.push({ method, path: url.pathname, query, body, idempotencyKey });
      const send = (status: number, json: StripeObject, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req'), ...headers }).end(JSON.stringify(json));
      if (!/^Bearer sk_(test|live)_/.test(req.headers.authorization ?? '')) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (failures.count > 0) {
        failures.count--;
        return send(failures.status, { error: { type: 'api_error', message: 'Fake Stripe: failure injected' } }, { 'stripe-should-retry': 'false' });
      }
      const replayKey = idempotencyKey && method === 'POST' ? `${url.pathname}|${idempotencyKey}` : null;
      const replay = replayKey ? idempotent.get(replayKey) : undefined;
      if (replay) return send(replay.status, replay.body, { 'idempotent-replayed': 'true' });
      let answer: { status: number; body: StripeObject };
      try {
        answer = api(method, url.pathname, query, body);
      } catch (error) {
        if (!(error instanceof FakeStripeHttpError)) throw error;
        answer = { status: error.status, body: error.body };
      }
      if (replayKey) idempotent.set(replayKey, answer);
      send(answer.status, answer.body);
    })().catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: error.message } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    port,
    webhookSecret,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    setWebhookUrl: (url) => void (webhookUrl = url),
    addProduct,
    addPrice,
    addCustomer,
    createSubscription: (input) => clone(createSubscription(input)),
    setSubscriptionStatus,
    sendEvent,
    deliver,
    buildEvent,
    sign,
    invoiceFor,
    failNext: (count, status = 500) => void (failures = { count, status }),
    completeCheckout,
  };
}
