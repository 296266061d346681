import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { BillingStatusBody, EntitlementsBody, PlanBody, PricingBody } from '@tickerbell/jobs/billing/shapes';
import { removeFetch, installFetch, type FakeReply } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { BillingBanners } from './billing-banners';
import { bannerOf, formatAmount, formatPrice, navigation, parseBillingStatus, parsePricing } from './billing-client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

// The billing api as these screens see it: answers typed by jobs/src/billing/billing.shapes.ts, with
// the plans of jobs/src/billing/plans.ts and prices as the catalog sync stores Stripe's.
const LIMITS_FREE = { activeAlerts: 25, watchlists: 5, whaleWatches: 10, yieldAlerts: 10, lockupFollows: 20, insiderFollows: 20, chatRoomsCreated: 1, seats: 3 };
const LIMITS_PRO = { activeAlerts: 250, watchlists: 50, whaleWatches: 100, yieldAlerts: 100, lockupFollows: 200, insiderFollows: 200, chatRoomsCreated: 5, seats: 5 };
const LIMITS_TEAM = { ...LIMITS_PRO, activeAlerts: 1000, seats: 50 };
const UNLIMITED = { activeAlerts: null, watchlists: null, whaleWatches: null, yieldAlerts: null, lockupFollows: null, insiderFollows: null, chatRoomsCreated: null, seats: null };
const FREE: PlanBody = { key: 'free', name: 'Free', summary: 'Every feature, with room for a personal setup.', limits: LIMITS_FREE, features: { webhooks: false, telegram: false } };
const PRO: PlanBody = { key: 'pro', name: 'Pro', summary: 'For an active trader.', limits: LIMITS_PRO, features: { webhooks: true, telegram: true } };
const TEAM: PlanBody = { key: 'team', name: 'Team', summary: 'For a desk.', limits: LIMITS_TEAM, features: { webhooks: true, telegram: true } };
const SELF_HOSTED: PlanBody = { key: 'self-hosted', name: 'Self-hosted', summary: 'Billing is off on this install.', limits: { ...UNLIMITED, activeAlerts: 100 }, features: { webhooks: true, telegram: true } };

const PRICING_ON: PricingBody = {
  billing: 'on',
  defaultPlan: FREE,
  plans: [
    {
      ...PRO,
      productName: 'Tickerbell Pro',
      description: 'More alerts and watches, webhooks and Telegram.',
      prices: [
        { id: 'price_pro_month', unitAmount: '1200', currency: 'usd', interval: 'month', trialPeriodDays: 14 },
        { id: 'price_pro_year', unitAmount: '12000', currency: 'usd', interval: 'year', trialPeriodDays: 14 },
      ],
    },
    { ...TEAM, productName: 'Tickerbell Team', description: null, prices: [{ id: 'price_team_month', unitAmount: '2950', currency: 'usd', interval: 'month', trialPeriodDays: null }] },
  ],
};
const PRICING_OFF: PricingBody = { billing: 'off', defaultPlan: SELF_HOSTED, plans: [{ ...SELF_HOSTED, productName: null, description: null, prices: [] }] };

const entitlements = (fields: Partial<EntitlementsBody> = {}): EntitlementsBody => ({
  billing: 'on',
  plan: 'pro',
  planName: 'Pro',
  teamId: 7,
  status: 'active',
  mode: 'full',
  graceEndsAt: null,
  limits: LIMITS_PRO,
  features: PRO.features,
  ...fields,
});

const status = (fields: Partial<BillingStatusBody> = {}): BillingStatusBody => ({
  teamId: 7,
  teamName: 'Morning desk',
  role: 'owner',
  canManage: true,
  entitlements: entitlements(),
  subscription: { status: 'active', priceId: 'price_pro_month', seats: 2, currentPeriodEnd: '2026-12-21T12:00:00.000Z', trialEnd: null, cancelAtPeriodEnd: false, pastDueSince: null },
  seatsUsed: 2,
  usage: { activeAlerts: 30, watchlists: 2, whaleWatches: 0 },
  hasCustomer: true,
  ...fields,
});

type Answers = Record<string, FakeReply | FakeReply[]>;

/** Answers by `METHOD path`; a list is answered in turn (the last one repeats). Records calls and bodies. */
function billingApi(answers: Answers) {
  const calls: string[] = [];
  const bodies: Record<string, unknown[]> = {};
  const handler = (path: string, init?: RequestInit): FakeReply => {
    const key = `${init?.method ?? 'GET'} ${path}`;
    calls.push(key);
    if (typeof init?.body === 'string') (bodies[key] ??= []).push(JSON.parse(init.body));
    const answer = answers[key];
    if (!answer) return { status: 404, body: { error: { code: 'not_found', message: `No route for ${key}` } } };
    if (Array.isArray(answer)) return answer.length > 1 ? answer.shift()! : answer[0]!;
    return answer;
  };
  return Object.assign(handler, { calls, bodies });
}

let assign: jest.SpyInstance;
beforeEach(() => {
  window.localStorage.clear();
  assign = jest.spyOn(navigation, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  removeFetch();
  assign.mockRestore();
});

describe('pricing page', () => {
  it('says the install is self-hosted when billing is off: one free plan with the operator’s limits', async () => {
    installFakeApi(null, billingApi({ 'GET /api/billing/pricing': { status: 200, body: PRICING_OFF } }));
    renderApp('/pricing');
    const plan = await screen.findByRole('listitem', { name: 'Self-hosted' });
    expect(screen.getByRole('note')).toHaveTextContent('This install is self-hosted: billing is off, so there is nothing to pay.');
    expect(within(plan).getByText('100 active alerts')).toBeInTheDocument();
    expect(within(plan).getByText('Unlimited watchlists')).toBeInTheDocument();
    expect(within(plan).getByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', '/sign-up');
    expect(screen.queryByRole('button', { name: /Choose/ })).not.toBeInTheDocument();
  });

  it('lists the plans and prices; a visitor is sent to sign up; monthly and yearly', async () => {
    installFakeApi(null, billingApi({ 'GET /api/billing/pricing': { status: 200, body: PRICING_ON } }));
    renderApp('/pricing');
    const pro = await screen.findByRole('listitem', { name: 'Tickerbell Pro' });
    expect(screen.getByRole('listitem', { name: 'Free' })).toHaveTextContent('25 active alerts');
    expect(pro).toHaveTextContent('$12 per seat / month');
    expect(pro).toHaveTextContent('14-day free trial');
    expect(pro).toHaveTextContent('250 active alerts');
    expect(within(pro).getByRole('link', { name: 'Sign up to choose Tickerbell Pro' })).toHaveAttribute('href', '/sign-up?plan=pro');
    fireEvent.click(screen.getByRole('button', { name: 'Yearly' }));
    expect(pro).toHaveTextContent('$120 per seat / year');
    // A plan without a yearly price shows the one it has.
    expect(screen.getByRole('listitem', { name: 'Tickerbell Team' })).toHaveTextContent('$29.50 per seat / month');
  });

  it('sends a signed-in owner to Stripe Checkout for their team', async () => {
    const api = billingApi({
      'GET /api/billing/pricing': { status: 200, body: PRICING_ON },
      'GET /api/teams': { status: 200, body: { teams: [{ id: 7, name: 'Morning desk', role: 'owner' }, { id: 9, name: 'Friends', role: 'member' }] } },
      'POST /api/billing/checkout': { status: 200, body: { url: 'https://checkout.stripe.test/c/pay/cs_1' } },
    });
    installFakeApi(signedInSession(), api);
    renderApp('/pricing');
    const pro = await screen.findByRole('listitem', { name: 'Tickerbell Pro' });
    const choose = within(pro).getByRole('button', { name: 'Choose Tickerbell Pro' });
    await waitFor(() => expect(choose).toBeEnabled());
    // Only one team the user manages: no picker.
    expect(screen.queryByLabelText('Team to upgrade')).not.toBeInTheDocument();
    fireEvent.click(choose);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_1'));
    expect(api.bodies['POST /api/billing/checkout']).toEqual([{ teamId: 7, priceId: 'price_pro_month' }]);
  });

  it('names a team first when the user has none, and shows the api’s refusal', async () => {
    const api = billingApi({
      'GET /api/billing/pricing': { status: 200, body: PRICING_ON },
      'GET /api/teams': { status: 200, body: { teams: [] } },
      'POST /api/teams': { status: 201, body: { id: 12, name: 'Night desk', role: 'owner' } },
      'POST /api/billing/checkout': { status: 409, body: { error: { code: 'billing_off', message: 'Billing is off on this install' } } },
    });
    installFakeApi(signedInSession(), api);
    renderApp('/pricing');
    const team = await screen.findByRole('listitem', { name: 'Tickerbell Team' });
    const choose = within(team).getByRole('button', { name: 'Choose Tickerbell Team' });
    await waitFor(() => expect(choose).toBeEnabled());
    fireEvent.click(choose);
    expect(await screen.findByRole('alert')).toHaveTextContent('Name your team first');
    fireEvent.change(screen.getByLabelText('Team name'), { target: { value: 'Night desk' } });
    fireEvent.click(choose);
    expect(await screen.findByText('Billing is off on this install')).toBeInTheDocument();
    expect(api.bodies['POST /api/teams']).toEqual([{ name: 'Night desk' }]);
    expect(api.bodies['POST /api/billing/checkout']).toEqual([{ teamId: 12, priceId: 'price_team_month' }]);
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the loading state, then the error with Try again, and a canceled checkout', async () => {
    installFakeApi(
      null,
      billingApi({ 'GET /api/billing/pricing': [{ status: 503, body: { error: { code: 'database_unavailable', message: 'The database is unavailable; try again shortly' } } }, { status: 200, body: PRICING_ON }] }),
    );
    renderApp('/pricing?checkout=canceled');
    expect(await screen.findByRole('list', { name: 'Loading the plans' })).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByText(/The plans could not be loaded: The database is unavailable/)).toBeInTheDocument();
    expect(screen.getByText(/Checkout was canceled: nothing was charged/)).toBeInTheDocument();
    // What every plan includes stays readable without the api.
    expect(screen.getByRole('heading', { name: 'Every plan includes' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Tickerbell Pro' })).toBeInTheDocument();
  });
});

describe('settings → billing', () => {
  const teams = (list: { id: number; name: string; role: string }[]) => ({ status: 200, body: { teams: list } });

  it('shows an owner the plan, status, seats, renewal and usage, and opens the portal', async () => {
    const api = billingApi({
      'GET /api/teams': teams([{ id: 7, name: 'Morning desk', role: 'owner' }]),
      'GET /api/billing/teams/7': { status: 200, body: status() },
      'POST /api/billing/portal': { status: 200, body: { url: 'https://billing.stripe.test/p/session/bps_1' } },
    });
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/settings/billing');
    const plan = await screen.findByRole('region', { name: 'Pro plan' });
    expect(plan.querySelector('.billing-badge')).toHaveTextContent('Active');
    expect(plan.querySelector('.billing-badge')).toHaveClass('billing-badge--good');
    const facts = Object.fromEntries([...plan.querySelectorAll('dl div')].map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent]));
    expect(facts).toEqual({ Status: 'Active', Seats: '2 used of 2', 'Renews on': 'Dec 21, 2026' });
    const usage = within(screen.getByRole('table', { name: 'Usage of each limit of the Pro plan' }));
    expect(usage.getByRole('row', { name: /Active alerts/ })).toHaveTextContent('Active alerts30250');
    expect(usage.getByRole('row', { name: /Team seats/ })).toHaveTextContent('Team seats25');
    expect(screen.getByRole('list', { name: 'Features of the plan' })).toHaveTextContent('Alert webhooks included');
    expect(within(plan).getByRole('link', { name: 'Change plan' })).toHaveAttribute('href', '/pricing?team=7');
    fireEvent.click(within(plan).getByRole('button', { name: 'Manage subscription and invoices' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session/bps_1'));
    expect(api.bodies['POST /api/billing/portal']).toEqual([{ teamId: 7 }]);
  });

  it('shows a member the plan without the buttons, a trial end and the cancellation date', async () => {
    const trialing = status({
      role: 'member',
      canManage: false,
      entitlements: entitlements({ status: 'trialing' }),
      subscription: { status: 'trialing', priceId: 'price_pro_month', seats: 3, currentPeriodEnd: '2026-12-05T00:00:00.000Z', trialEnd: '2026-12-05T00:00:00.000Z', cancelAtPeriodEnd: true, pastDueSince: null },
      seatsUsed: 3,
    });
    installFakeApi(signedInSession(), billingApi({ 'GET /api/teams': teams([{ id: 7, name: 'Morning desk', role: 'member' }]), 'GET /api/billing/teams/7': { status: 200, body: trialing } }));
    renderApp('/dashboard/settings/billing?team=7');
    const plan = await screen.findByRole('region', { name: 'Pro plan' });
    expect(plan).toHaveTextContent('Trial ends');
    expect(plan).toHaveTextContent('Ends on');
    expect(plan).toHaveTextContent('Dec 5, 2026');
    expect(within(plan).queryByRole('button')).not.toBeInTheDocument();
    expect(within(plan).queryByRole('link')).not.toBeInTheDocument();
    expect(plan).toHaveTextContent('Only the team’s owner or an admin can change the plan');
  });

  it('says when billing is off (self-hosted), when there is no team, and when the request fails', async () => {
    const selfHosted = status({ entitlements: { ...entitlements(), billing: 'off', plan: 'self-hosted', planName: 'Self-hosted', status: null, teamId: null, limits: UNLIMITED }, subscription: null, hasCustomer: false });
    installFakeApi(signedInSession(), billingApi({ 'GET /api/teams': teams([{ id: 7, name: 'Morning desk', role: 'owner' }]), 'GET /api/billing/teams/7': { status: 200, body: selfHosted } }));
    const { unmount } = { unmount: () => document.body.replaceChildren() };
    renderApp('/dashboard/settings/billing');
    const plan = await screen.findByRole('region', { name: 'Self-hosted plan' });
    expect(plan).toHaveTextContent('This install is self-hosted: billing is off');
    expect(within(plan).queryByRole('button')).not.toBeInTheDocument();
    unmount();

    installFakeApi(signedInSession(), billingApi({ 'GET /api/teams': teams([]) }));
    renderApp('/dashboard/settings/billing');
    expect(await screen.findByRole('heading', { name: 'No team yet' })).toBeInTheDocument();
    document.body.replaceChildren();

    installFakeApi(
      signedInSession(),
      billingApi({ 'GET /api/teams': teams([{ id: 7, name: 'Morning desk', role: 'owner' }]), 'GET /api/billing/teams/7': { status: 503, body: { error: { code: 'redis_unavailable', message: 'Redis is unavailable' } } } }),
    );
    renderApp('/dashboard/settings/billing');
    expect(await screen.findByText(/The team’s billing could not be loaded: Redis is unavailable/)).toBeInTheDocument();
  });

  it('after Checkout, asks again until the subscription is there', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      const free = status({ entitlements: entitlements({ plan: 'free', planName: 'Free', status: null, teamId: null, limits: LIMITS_FREE, features: FREE.features }), subscription: null, hasCustomer: true });
      const api = billingApi({ 'GET /api/teams': teams([{ id: 7, name: 'Morning desk', role: 'owner' }]), 'GET /api/billing/teams/7': [{ status: 200, body: free }, { status: 200, body: status() }] });
      installFakeApi(signedInSession(), api);
      renderApp('/dashboard/settings/billing?checkout=success&session_id=cs_1');
      expect(await screen.findByText(/Stripe confirmed the checkout/)).toBeInTheDocument();
      expect(await screen.findByText('Waiting for Stripe’s confirmation…')).toBeInTheDocument();
      act(() => {
        jest.advanceTimersByTime(1600);
      });
      expect(await screen.findByRole('region', { name: 'Pro plan' })).toBeInTheDocument();
      expect(api.calls.filter((call) => call === 'GET /api/billing/teams/7')).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('dashboard banners', () => {
  const now = new Date('2026-11-30T12:00:00.000Z');

  it('picks read-only, then past due, then a trial ending within 3 days', () => {
    expect(bannerOf(entitlements({ mode: 'read_only', status: 'unpaid' }), null, now)).toMatchObject({ kind: 'read_only', status: 'unpaid' });
    expect(bannerOf(entitlements({ mode: 'grace', status: 'past_due', graceEndsAt: '2026-12-04T00:00:00.000Z' }), null, now)).toMatchObject({ kind: 'past_due', graceEndsAt: '2026-12-04T00:00:00.000Z' });
    expect(bannerOf(entitlements({ status: 'trialing' }), '2026-12-02T12:00:00.000Z', now)).toMatchObject({ kind: 'trial_ending', teamId: 7 });
    expect(bannerOf(entitlements({ status: 'trialing' }), '2026-12-10T12:00:00.000Z', now)).toBeNull();
    expect(bannerOf(entitlements(), null, now)).toBeNull();
    expect(bannerOf(entitlements({ billing: 'off', mode: 'read_only' }), null, now)).toBeNull();
  });

  it('shows the banner of the user’s entitlements with a link to billing', async () => {
    const soon = new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString();
    installFetch(
      billingApi({
        'GET /api/billing/entitlements': { status: 200, body: entitlements({ status: 'trialing' }) },
        'GET /api/billing/teams/7': { status: 200, body: status({ subscription: { status: 'trialing', priceId: 'price_pro_month', seats: 2, currentPeriodEnd: soon, trialEnd: soon, cancelAtPeriodEnd: false, pastDueSince: null } }) },
      }),
    );
    render(
      <MemoryRouter>
        <BillingBanners />
      </MemoryRouter>,
    );
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(/Your Pro trial ends in 3 days/);
    expect(within(banner).getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/dashboard/settings/billing?team=7');
    document.body.replaceChildren();

    installFetch(billingApi({ 'GET /api/billing/entitlements': { status: 200, body: entitlements({ mode: 'read_only', status: 'past_due' }) } }));
    render(
      <MemoryRouter>
        <BillingBanners />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Read-only: the Pro subscription is past due beyond its grace period.');
  });
});

describe('billing client', () => {
  it('reads the answers and formats amounts', () => {
    expect(parsePricing(PRICING_ON)).toEqual(PRICING_ON);
    expect(parseBillingStatus(status())).toEqual(status());
    expect(() => parsePricing({ ...PRICING_ON, billing: 'maybe' })).toThrow('pricing.billing: expected on, off');
    expect(formatAmount('1200', 'usd')).toBe('$12');
    expect(formatAmount('999', 'eur')).toBe('€9.99');
    expect(formatAmount('1500', 'jpy')).toBe('¥1,500');
    expect(formatPrice({ unitAmount: '1200', currency: 'usd', interval: 'month' })).toBe('$12 per seat\u00a0/\u00a0month');
  });
});
