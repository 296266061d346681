import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createStripeClient, syncCatalog } from '@tickerbell/jobs/billing';
import { startFakeStripe, type FakeStripe } from '@tickerbell/jobs/testing/fake-stripe';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { horizontalOverflow } from './support/screen-checks';
import { isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail } from './support/journey';
import { buildWebClient } from './support/web-build';

// The billing journey in real Chromium against the real api, PostgreSQL, Redis and the billing
// workers, with Stripe played by the fake Stripe server (its hosted checkout page included). A
// visitor reads the plans; a trader signs up, chooses Pro on the pricing page (naming a team),
// pays on the (fake) Stripe Checkout page, comes back to Settings → Billing, and once the signed
// webhooks are processed sees the Pro plan in trial and its raised limits.
const NAME = 'Grace Hopper';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe('billing end to end: pricing, fake Stripe Checkout, webhook, upgraded limits', () => {
  let stack: E2eStack;
  let fake: FakeStripe;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `grace.billing.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `billing-${name}`, options);

  beforeAll(async () => {
    const [webDistDir, launched, stripe] = await Promise.all([buildWebClient(), launchChromium(), startFakeStripe()]);
    browser = launched;
    fake = stripe;
    const billingEnv = { STRIPE_SECRET_KEY: 'sk_test_tickerbellE2e', STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_URL: fake.url };
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString(), extraQueueNames: ['billing'], workersEnv: billingEnv, apiEnv: billingEnv });
    await stack.start();
    fake.setWebhookUrl(stack.url('/api/billing/webhook'));

    // The catalog as `npm run cli -- billing sync` mirrors it: Pro with a 14-day trial, Team.
    const pro = fake.addProduct({ name: 'Pro', plan: 'pro', description: 'For an active trader: more alerts and watches, webhooks and Telegram.' });
    fake.addPrice({ product: pro.id, unitAmount: 1200, interval: 'month', trialPeriodDays: 14 });
    fake.addPrice({ product: pro.id, unitAmount: 12000, interval: 'year', trialPeriodDays: 14 });
    const team = fake.addProduct({ name: 'Team', plan: 'team', description: 'For a desk: the highest limits and up to 50 seats.' });
    fake.addPrice({ product: team.id, unitAmount: 2900, interval: 'month' });
    fake.addPrice({ product: team.id, unitAmount: 29000, interval: 'year' });
    await syncCatalog({ dataSource: stack.db.dataSource, stripe: createStripeClient(billingEnv)! });

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('billing-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
    await fake?.close();
  });

  it('shows a visitor the plans and prices, with a sign-up link per plan', async () => {
    await page.goto('/pricing');
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    const pro = page.getByRole('listitem', { name: 'Pro' });
    await pro.getByText('14-day free trial').waitFor();
    expect(await pro.innerText()).toContain('250 active alerts');
    expect(await page.getByRole('listitem', { name: 'Free' }).innerText()).toContain('25 active alerts');
    await pro.getByRole('link', { name: 'Sign up to choose Pro' }).waitFor();
    await shot('01-pricing-visitor');
    await page.getByRole('button', { name: 'Yearly' }).click();
    await pro.getByText('$120').waitFor();
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('02-pricing-phone');
    await page.setViewportSize(DESKTOP);
  });

  it('signs up, verifies the address from the mail, and signs in', async () => {
    expect(await submitSignUp(page, { name: NAME, email, password: PASSWORD })).toBe(201);
    await verifyFromMail(page, stack, email);
    await submitSignIn(page, { email, password: PASSWORD });
  });

  it('chooses Pro for their team, pays on Stripe Checkout, and sees the Pro plan and its limits', async () => {
    await page.goto('/pricing');
    const pro = page.getByRole('listitem', { name: 'Pro' });
    const choose = pro.getByRole('button', { name: 'Choose Pro' });
    await choose.waitFor();
    // Sign-up gave the trader a team of their own: the plan is for it.
    await page.getByText(`Choosing a plan for ${NAME}'s team`).waitFor();
    await shot('03-pricing-signed-in');
    const checkout = page.waitForResponse(isApi('/api/billing/checkout', 'POST'));
    await choose.click();
    expect((await checkout).status()).toBe(200);
    // The (fake) Stripe Checkout page.
    await page.waitForURL(`${fake.url}/checkout/**`);
    await page.getByRole('button', { name: 'Pay' }).waitFor();
    await shot('04-stripe-checkout');
    await page.getByRole('button', { name: 'Pay' }).click();

    // Back on Settings → Billing; the webhook's job writes the subscription, the page asks again.
    await page.waitForURL(/\/dashboard\/settings\/billing\?checkout=success/);
    const plan = page.getByRole('region', { name: 'Pro plan' });
    await plan.waitFor({ timeout: 30_000 });
    expect(await plan.locator('.billing-badge').innerText()).toBe('Trial');
    const facts = await plan.locator('dl').innerText();
    expect(facts).toContain('Trial ends');
    expect(facts).toMatch(/1 used of 1/);
    const usage = page.getByRole('table', { name: 'Usage of each limit of the Pro plan' });
    expect(await usage.getByRole('row', { name: /Active alerts/ }).innerText()).toMatch(/250/);
    await plan.getByRole('button', { name: 'Manage subscription and invoices' }).waitFor();
    await shot('05-settings-pro');

    const [row]: { subscription_status: string; seat_quantity: number }[] = await stack.db.dataSource.query(
      `SELECT t.subscription_status, t.seat_quantity FROM teams t WHERE t.name = $1`,
      [`${NAME}'s team`],
    );
    expect(row).toEqual({ subscription_status: 'trialing', seat_quantity: 1 });
    // The raised limits are the user's: what every domain's check asks.
    const entitlements = await page.evaluate(async () => (await fetch('/api/billing/entitlements')).json());
    expect(entitlements).toMatchObject({ plan: 'pro', status: 'trialing', mode: 'full', limits: { activeAlerts: 250, seats: 5 } });

    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('06-settings-pro-phone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate("localStorage.setItem('tickerbell:theme', 'dark')");
    await page.reload();
    await page.getByRole('region', { name: 'Pro plan' }).waitFor();
    await shot('07-settings-pro-phone-dark');
    await page.setViewportSize(DESKTOP);
    expect(consoleLog?.pageErrors ?? []).toEqual([]);
  });

  it('warns on every dashboard page when a payment fails, then turns read-only after the grace period', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate("localStorage.setItem('tickerbell:theme', 'light')");
    // Stripe marks the subscription past due after a failed renewal and sends the update.
    const [subscription] = [...fake.state.subscriptions.values()];
    const pastDue = fake.setSubscriptionStatus(subscription.id, 'past_due');
    expect((await fake.sendEvent('customer.subscription.updated', pastDue)).status).toBe(200);
    const team = `${NAME}'s team`;
    await waitForTeamStatus(team, 'past_due');

    await page.goto('/dashboard/alerts');
    const banner = page.getByRole('alert').filter({ hasText: 'past due' });
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/The Pro subscription is past due\. Everything keeps working until/);
    await shot('08-past-due-banner');

    // The grace period (7 days) has passed: built in the database by moving the past-due start
    // back, as no clock of the running system can be advanced from here.
    await stack.db.dataSource.query(`UPDATE teams SET past_due_since = now() - interval '8 days' WHERE name = $1`, [team]);
    await page.reload();
    const readOnly = page.getByRole('alert').filter({ hasText: 'Read-only' });
    await readOnly.waitFor();
    expect(await readOnly.innerText()).toMatch(/past due beyond its grace period/);
    const entitlements = await page.evaluate(async () => (await fetch('/api/billing/entitlements')).json());
    expect(entitlements).toMatchObject({ plan: 'pro', status: 'past_due', mode: 'read_only' });
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('09-read-only-banner-phone');
    await page.setViewportSize(DESKTOP);
    expect(consoleLog?.pageErrors ?? []).toEqual([]);
  });

  async function waitForTeamStatus(team: string, status: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row]: { status: string }[] = await stack.db.dataSource.query(`SELECT subscription_status AS status FROM teams WHERE name = $1`, [team]);
      if (row?.status === status) return;
      if (Date.now() > deadline) throw new Error(`team ${team} still ${row?.status}, expected ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
