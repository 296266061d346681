import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { REPLAY_USDC_WETH_POOL, yieldsJobIds } from '@tickerbell/jobs/yields';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { horizontalOverflow } from './support/screen-checks';
import { dismissToast, heldToast, isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The yields journey in real Chromium against the real api, PostgreSQL, Redis and workers, with the
// workers' own replay twins of DefiLlama and the Uniswap v3 subgraph (no DEFILLAMA_YIELDS_URL):
// their answers follow the workers' clock. A first ingest stores the hour's snapshot; the user
// opens the replay's Uniswap v3 USDC-WETH pool, creates an "APR above 1 %" alert (its APR is tens
// of percent), and the next hour's ingest, which queues the evaluation, fires it: the alert arrives
// as an in-app notification, the pool page shows it waiting to re-arm, and the history lists it.
const NAME = 'Ada Lovelace';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const HOUR_MS = 3_600_000;
// The workers' clock: a few minutes into an hour, two hours back (the next snapshot is still in the past for the browser).
const T0 = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * HOUR_MS + 5 * 60_000;

describe('yields end to end: real Chromium, api, workers, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  let poolId: number;
  const email = `ada.yields.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `yields-${name}`, options);
  const ingestAt = async (at: number) => {
    stack.clock.set(new Date(at).toISOString());
    await stack.queues.add('yields.ingest', {}, { jobId: yieldsJobIds.ingest(new Date(at)) });
    await waitForQueuesIdle([stack.queues.queue('yields'), stack.queues.queue('notifications')], 30_000);
  };

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    // A 300-pool replay answer (the default is 2,000): every pool of it is tracked, the USDC-WETH one too.
    stack = new E2eStack({ webDistDir, workersClockAt: new Date(T0).toISOString(), extraQueueNames: ['yields'], workersEnv: { YIELDS_REPLAY_POOLS: '300' } });
    await stack.start();
    await ingestAt(T0);
    const [pool]: { id: number; tracked: boolean }[] = await stack.db.dataSource.query('SELECT id, tracked FROM yield_pools WHERE pool_id = $1', [REPLAY_USDC_WETH_POOL]);
    expect(pool?.tracked).toBe(true);
    poolId = pool!.id;
    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('yields-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it('signs up, verifies the address from the mail, and signs in', async () => {
    expect(await submitSignUp(page, { name: NAME, email, password: PASSWORD })).toBe(201);
    await verifyFromMail(page, stack, email);
    const [row]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM users WHERE email = $1', [email]);
    userId = Number(row?.id);
    await submitSignIn(page, { email, password: PASSWORD });
  });

  it('finds the pool in the table (replay data, filtered) and opens it', async () => {
    const pools = page.waitForResponse(isApi('/api/yields/pools'));
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Yields' }).click();
    await page.getByRole('heading', { level: 1, name: 'Liquidity-pool yields' }).waitFor();
    expect((await pools).status()).toBe(200);
    await page.getByText('Replay data', { exact: true }).first().waitFor();
    const filters = page.getByRole('form', { name: 'Pool filters' });
    await filters.getByLabel('Chain').fill('Ethereum');
    await filters.getByLabel('Dex / project').fill('uniswap-v3');
    await filters.getByLabel('Token').fill('USDC-WETH');
    const filtered = page.waitForResponse(isApi('/api/yields/pools'));
    await filters.getByRole('button', { name: 'Apply' }).click();
    expect(new URL((await filtered).url()).searchParams.get('token')).toBe('USDC-WETH');
    const row = page.locator(`tr[data-pool-id="${poolId}"]`);
    await row.waitFor();
    expect(await row.locator('td[data-label="Pool"]').innerText()).toContain('uniswap-v3 · Ethereum · 0.3');
    await row.getByRole('link', { name: 'USDC-WETH' }).click();
    await page.getByRole('heading', { level: 1, name: 'USDC-WETH' }).waitFor();
    await page.getByRole('region', { name: 'Score breakdown' }).getByText('Fee APR', { exact: true }).waitFor();
    await page.getByText('No alert on this pool yet.', { exact: false }).waitFor();
  });

  it('creates an alert in the dialog: a threshold the api refuses is named, then “APR above 1 %”', async () => {
    await page.getByRole('button', { name: 'New alert' }).click();
    const dialog = page.getByRole('dialog', { name: 'New yield alert' });
    await dialog.getByText('Telegram is not set up on this server.').waitFor();
    expect(await dialog.getByRole('checkbox', { name: /Telegram/ }).isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Alert me when').inputValue()).toBe('apr_above');
    await dialog.getByLabel('Threshold').fill('200000');
    const refused = page.waitForResponse(isApi('/api/yields/alerts', 'POST'));
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    expect((await refused).status()).toBe(400);
    await dialog.getByText('threshold must be from', { exact: false }).waitFor();
    expect(await dialog.getByLabel('Threshold').getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel('Threshold').fill('1');
    const created = page.waitForResponse(isApi('/api/yields/alerts', 'POST'));
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    expect((await created).status()).toBe(201);
    await page.getByText('Alert created: APR above 1 %.', { exact: false }).waitFor();
    const cards = page.getByRole('list', { name: 'Your alerts on USDC-WETH' });
    await cards.getByText('Active', { exact: true }).waitFor();
    const stored = await stack.db.dataSource.query('SELECT alert_type, condition, threshold, armed, cooldown_minutes FROM yield_alerts WHERE user_id = $1', [userId]);
    expect(stored).toEqual([{ alert_type: 'apr', condition: 'greater_than', threshold: '1.0000', armed: true, cooldown_minutes: 360 }]);
    await shot('01-pool-with-alert');
  });

  it('sees the alert fire when the next hour’s snapshot is ingested and evaluated', async () => {
    await waitUntil('the live stream to subscribe', async () => (await stack.streamSubscribers()) >= 1);
    const held = heldToast(page, 'Yield alert: USDC-WETH', 30_000);
    await ingestAt(T0 + HOUR_MS);
    const toast = await held;
    const logs: { triggered_value: string; message: string }[] = await stack.db.dataSource.query(
      'SELECT l.triggered_value::text AS triggered_value, l.message FROM yield_alert_logs l JOIN yield_alerts a ON a.id = l.alert_id WHERE a.user_id = $1',
      [userId],
    );
    expect(logs).toHaveLength(1);
    expect(Number(logs[0]!.triggered_value)).toBeGreaterThan(1);
    expect(logs[0]!.message).toMatch(/^USDC-WETH \(uniswap-v3, Ethereum\): APR [\d.,]+ %, above your 1 %\.$/);
    const notifications: { title: string }[] = await stack.db.dataSource.query('SELECT title FROM notifications WHERE user_id = $1', [userId]);
    expect(notifications.map((n) => n.title)).toEqual(['Yield alert: USDC-WETH']);
    await shot('02-alert-fired', { fullPage: false });
    await dismissToast(toast);

    // The alerts screen: waiting to re-arm, and the firing in the history.
    await page.getByRole('link', { name: 'All your yield alerts and their history' }).click();
    const alerts = page.getByRole('region', { name: 'Your yield alerts' });
    await alerts.getByText('Waiting to re-arm').waitFor();
    const history = page.getByRole('region', { name: 'Alert history' });
    await history.locator('tbody tr').first().waitFor();
    expect(await history.locator('tbody tr').count()).toBe(1);
    expect(await history.locator('td[data-label="Threshold"]').innerText()).toBe('1\u00a0%');
    expect(await history.locator('td[data-label="Message"]').innerText()).toBe(logs[0]!.message);
    await shot('03-alerts-history');
  });

  it('fits a phone: the alerts screen and the pool page', async () => {
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('04-phone-alerts');
    await page.goto(`/dashboard/yields/pools/${poolId}`);
    await page.getByRole('list', { name: 'Your alerts on USDC-WETH' }).getByText('Waiting to re-arm').waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('05-phone-pool');
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
