import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fixedClock } from '@tickerbell/jobs';
import { findInsiderCompany, recomputeInsiderAnalytics, seedRecordedInsiderFilings } from '@tickerbell/jobs/insiders';
import { CLUSTER, importPurchaseVariant } from '../api/test/insiders/insiders-fixtures';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { horizontalOverflow } from './support/screen-checks';
import { isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The insider trades journey in real Chromium against the real api, PostgreSQL and Redis: the
// recorded Form 4 filings are stored as the replay source stores them, with two purchases of NCV
// built from its recorded filing (other owners, dates and amounts); the screener's "Latest
// purchases" preset lists them, a third purchase stored while the page is open arrives as a new,
// highlighted row on the next refresh, then the trader opens NCV and follows it with their settings.
const NAME = 'Grace Hopper';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe('insider trades end to end: real Chromium, api, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  const email = `grace.insiders.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `insiders-${name}`, options);
  const rows = () => page.getByRole('table', { name: 'Insider transactions' }).locator('tbody tr');
  const recompute = async (at: Date) => {
    const ncv = await findInsiderCompany(stack.db.dataSource, 'NCV');
    await recomputeInsiderAnalytics({ dataSource: stack.db.dataSource, queues: stack.queues, clock: fixedClock(at) }, ncv!.id);
  };

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString() });
    await stack.start();
    await seedRecordedInsiderFilings(stack.db.dataSource, new Date('2026-11-18T15:00:00Z'));
    for (const variant of CLUSTER.slice(0, 2)) await importPurchaseVariant(stack.db.dataSource, variant, new Date('2026-11-18T23:00:00Z'));
    await recompute(new Date('2026-11-18T23:00:00Z'));
    // Anterix (ATEX) as a market of the prices feature, with 300 daily bars up to today as the
    // prices jobs store simulated ones (a gentle wave): its company page draws its recorded sale on them.
    await stack.db.dataSource.query(`INSERT INTO markets (symbol, name, type, cik) VALUES ('ATEX', 'Anterix Inc.', 'stock', '0001304492')`);
    await stack.db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
       SELECT m.id, '1d', to_timestamp((floor($1::bigint / 86400000) - (299 - i)) * 86400), 80 + 5 * sin(i / 9.0), 80 + 5 * sin(i / 9.0) + 2,
              80 + 5 * sin((i + 1) / 9.0) - 2, 80 + 5 * sin((i + 1) / 9.0), 1000 + i, 'simulated', true
       FROM markets m, generate_series(0, 299) AS i WHERE m.symbol = 'ATEX'`,
      [Date.now()],
    );

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('insiders-console.log');
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

  it('opens the screener and applies the "Latest purchases" preset', async () => {
    // The page's clock runs under the test's control: the 30 s refresh happens when the test says.
    await page.clock.install();
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Insiders' }).click();
    await page.getByRole('heading', { level: 1, name: 'Insider trades' }).waitFor();
    await rows().first().waitFor();
    expect(await rows().count()).toBe(43);
    await shot('01-screener-all');

    const preset = page.waitForResponse((response) => isApi('/api/insiders/screener')(response) && new URL(response.url()).searchParams.get('codes') === 'P');
    await page.getByRole('button', { name: 'Latest purchases' }).click();
    expect((await preset).status()).toBe(200);
    await page.getByRole('button', { name: 'Latest purchases', pressed: true }).waitFor();
    await waitUntil('the three purchases', async () => (await rows().count()) === 3);
    expect(new URL(page.url()).search).toBe('?codes=P&sort=filedAt&order=desc');
    const insiders = await rows().locator('td[data-label="Insider"] a').allInnerTexts();
    expect(insiders).toEqual(['DIRECTOR TWO', 'OFFICER ONE', 'LEMESEVSKI ELIZABETH']);
    expect(await rows().first().getByText('Simulated').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/insiders/screener?codes=P&sort=filedAt&order=desc&format=csv');
    await shot('02-latest-purchases');
  });

  it('downloads the CSV of the preset', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('insider-trades-P.csv');
    const path = await file.path();
    const text = (await import('node:fs')).readFileSync(path, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^filed_at,filing_date,accession_number,form_type,ticker,company/);
    expect(text.trim().split('\n')).toHaveLength(4);
  });

  it('shows a purchase filed while the page is open as a new, highlighted row on the next refresh', async () => {
    await importPurchaseVariant(stack.db.dataSource, CLUSTER[2]!, new Date('2026-11-19T23:00:00Z'));
    await recompute(new Date('2026-11-20T15:00:00Z'));
    const refreshed = page.waitForResponse(isApi('/api/insiders/screener'));
    await page.clock.fastForward(30_000);
    await refreshed;
    const fresh = page.locator('tr.insider-row--new');
    await fresh.waitFor();
    expect(await rows().count()).toBe(4);
    expect(await fresh.locator('td[data-label="Insider"] a').innerText()).toBe('AFFILIATE THREE');
    expect(await fresh.getByText('New', { exact: true }).count()).toBe(1);
    await page.getByText('1 new trade since you opened the page (highlighted).').waitFor();
    await shot('03-new-row', { fullPage: false });
  });

  it('opens NCV: the cluster buy, the trades on a timeline, the lines and the analytics history', async () => {
    await rows().first().getByRole('link', { name: 'NCV' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/insiders/companies/NCV');
    await page.getByRole('heading', { level: 1, name: /NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND/ }).waitFor();
    await page.getByText('3 insiders bought on the open market in the 30 days.').waitFor();
    await page.getByText(/NCV has no market in Tickerbell’s price feed/).waitFor();
    expect(await page.getByRole('table', { name: 'Insider transactions of NCV' }).locator('tbody tr').count()).toBe(4);
    await page.getByRole('heading', { name: 'Analytics history' }).waitFor();
    await shot('04-company');
  });

  it('follows NCV with an officer-buy minimum of $50,000 and no unusual-activity alerts', async () => {
    const form = page.getByRole('form', { name: 'Follow NCV' });
    await form.getByLabel('Minimum purchase (USD)').fill('50000');
    await form.getByRole('checkbox', { name: /Unusual activity/ }).uncheck();
    const saved = page.waitForResponse(isApi('/api/insiders/follows/NCV', 'PUT'));
    await form.getByRole('button', { name: 'Follow NCV' }).click();
    expect((await saved).status()).toBe(200);
    await form.getByText('Following NCV.').waitFor();
    await form.getByRole('button', { name: 'Save settings' }).waitFor();
    const stored = await stack.db.dataSource.query(
      `SELECT c.ticker, f.notify_cluster_buy, f.officer_buy_min_value, f.notify_unusual_activity
       FROM insider_follows f JOIN insider_trading_companies c ON c.id = f.company_id WHERE f.user_id = $1`,
      [userId],
    );
    expect(stored).toEqual([{ ticker: 'NCV', notify_cluster_buy: true, officer_buy_min_value: '50000.00', notify_unusual_activity: false }]);
    await shot('05-followed');

    // Opened again, the page shows the saved settings.
    await page.reload();
    const again = page.getByRole('form', { name: 'Follow NCV' });
    await again.getByText('Following.').waitFor();
    expect(await again.getByLabel('Minimum purchase (USD)').inputValue()).toBe('50000');
    expect(await again.getByRole('checkbox', { name: /Unusual activity/ }).isChecked()).toBe(false);
  });

  it('opens ATEX: its daily candles with the recorded sale of 2026-09-08 marked on them', async () => {
    const bars = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/markets/ATEX/bars');
    await page.goto('/dashboard/insiders/companies/ATEX');
    expect((await bars).status()).toBe(200);
    await page.getByTestId('insider-price-chart').locator('canvas').first().waitFor();
    await page.getByText('2026-09-08: sold $25K (Ashe Gena L)').waitFor({ state: 'attached' });
    await page.getByText('Simulated data').waitFor();
    await shot('06-company-chart');
  });

  it('fits a phone: the screener and the company page', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard/insiders?codes=P&sort=filedAt&order=desc');
    await rows().first().waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('07-phone-screener');
    await page.goto('/dashboard/insiders/companies/NCV');
    await page.getByRole('form', { name: 'Follow NCV' }).waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('08-phone-company');
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
