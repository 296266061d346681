import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newsJobIds } from '@tickerbell/jobs/news';
import { MARKET_SEED } from '@tickerbell/jobs/seeds';
import { waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { heldToast, isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The news alert journey in real Chromium against the real api, PostgreSQL, Redis and workers: a
// News alert made through the dialog for BTCUSDT is fired by one news poll of the replayed Decrypt
// feed (its recording names Bitcoin), arrives live (toast, bell) and its history shows the headline.
const NAME = 'Grace Hopper';
const PASSWORD = 'correct horse battery staple';
const ALERT_NAME = 'Bitcoin in the news';
// The replay source of https://decrypt.co/feed (feedSourceName), serving jobs/src/news/data/decrypt-feed-2025-12-12.xml.
const DECRYPT_SOURCE = 'feed:decrypt.co/feed';
const DESKTOP = { width: 1280, height: 900 };

interface ApiAlert {
  id: string;
  name: string;
  isActive: boolean;
  frequency: string;
  condition: { type: string; scope?: string; digest?: boolean };
}

describe('news alerts end to end: real Chromium, api, workers, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  let alertId = '';
  let headline = '';
  let message = '';
  const email = `grace.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `news-alerts-${name}`, options);
  const alertRow = () => page.locator('.alert-table tbody tr').filter({ hasText: ALERT_NAME });

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    // No schedules: the test queues the one news poll itself. The workers run news (the replay
    // sources, the default outside production), the alerts' news evaluation and the notifications.
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString(), extraQueueNames: ['news', 'alerts'] });
    await stack.start();
    const market = MARKET_SEED.find((m) => m.symbol === 'BTCUSDT');
    if (!market) throw new Error('BTCUSDT is not in the markets seed');
    await stack.db.dataSource.query('INSERT INTO markets (symbol, name, type, description) VALUES ($1, $2, $3, $4) ON CONFLICT (symbol) DO NOTHING', [
      market.symbol,
      market.name,
      market.type,
      market.description,
    ]);

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('news-alerts-console.log');
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

  it('creates a News alert for BTCUSDT in the dialog', async () => {
    await page.goto('/dashboard/alerts');
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await page.getByText('You have no alerts yet.').waitFor();

    await page.getByRole('button', { name: 'New alert' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert' });
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill(ALERT_NAME);
    await dialog.getByRole('combobox', { name: 'Symbol' }).fill('btc');
    await dialog.getByRole('option', { name: /^BTCUSDT/ }).click();
    await dialog.getByText('BTCUSDT · crypto').waitFor();
    await dialog.getByLabel('Condition type').selectOption('news');
    // The News group's own fields: any news, one notification per item.
    expect(await dialog.getByLabel('Which news').inputValue()).toBe('any');
    expect(await dialog.getByLabel('Notify').inputValue()).toBe('false');
    // Keywords are asked for only with that scope, and no bar interval for news.
    expect(await dialog.getByLabel('Keywords').count()).toBe(0);
    expect(await dialog.getByLabel('Bar interval').count()).toBe(0);
    await shot('01-dialog', { fullPage: false });

    const created = page.waitForResponse(isApi('/api/alerts', 'POST'));
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    const creation = await created;
    expect(creation.status()).toBe(201);
    const { alert } = (await creation.json()) as { alert: ApiAlert };
    alertId = alert.id;
    expect(alert).toMatchObject({ name: ALERT_NAME, isActive: true, frequency: 'once_per_day', condition: { type: 'news', scope: 'any' } });
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Created “${ALERT_NAME}”.`).waitFor();

    const cells = await alertRow().locator('th, td').allInnerTexts();
    expect(cells.slice(1, 3).map((cell) => cell.trim())).toEqual(['BTCUSDT', 'Any news']);
  });

  it('one poll of the replayed Decrypt feed fires it: a live toast, the bell, one log and one notification', async () => {
    await waitUntil('the live stream to subscribe', async () => (await stack.streamSubscribers()) >= 1);
    // The poll's instant comes after the alert was made, as the schedule's next slot would.
    stack.clock.set(new Date().toISOString());
    const held = heldToast(page, `${ALERT_NAME} Alert Triggered`, 30_000);
    await stack.queues.add('news.poll', { source: DECRYPT_SOURCE }, { jobId: newsJobIds.poll(DECRYPT_SOURCE, stack.clock.now()) });
    await waitForQueuesIdle([stack.queues.queue('news'), stack.queues.queue('alerts'), stack.queues.queue('notifications')], 20_000);

    // The item once_per_day fires for: the first (lowest id) Decrypt item linked to BTCUSDT.
    const linked: { title: string; link: string }[] = await stack.db.dataSource.query(
      `SELECT ni.title, ni.link FROM news_items ni JOIN news_item_markets nim ON nim.news_item_id = ni.id JOIN markets m ON m.id = nim.market_id
       WHERE m.symbol = 'BTCUSDT' AND ni.source = $1 ORDER BY ni.id`,
      [DECRYPT_SOURCE],
    );
    expect(linked.length).toBeGreaterThan(0);
    headline = linked[0]!.title;

    const logs: { message: string; was_notified: boolean; notification_id: string | null }[] = await stack.db.dataSource.query(
      'SELECT message, was_notified, notification_id::text FROM alert_logs WHERE alert_id = $1',
      [alertId],
    );
    expect(logs).toHaveLength(1);
    message = logs[0]!.message;
    expect(message.startsWith(`News on BTCUSDT: "${headline}" (decrypt.co, `)).toBe(true);
    expect(message).toContain(linked[0]!.link);
    expect(logs[0]).toMatchObject({ was_notified: true });
    const notifications: { title: string; message: string; activity: string }[] = await stack.db.dataSource.query(
      'SELECT title, message, activity_type AS activity FROM notifications WHERE user_id = $1',
      [userId],
    );
    expect(notifications).toEqual([{ title: `${ALERT_NAME} Alert Triggered`, message, activity: 'MARKET_ALERT_NEWS' }]);

    const toast = await held;
    expect((await toast.innerText()).trim()).toBe(`${ALERT_NAME} Alert Triggered: ${message}`);
    await shot('02-fired-toast', { fullPage: false });

    // The bell counts it (the page was not reloaded).
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('link', { name: 'All notifications, 1 unread' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('the alert’s history shows the headline', async () => {
    await alertRow().getByRole('button', { name: `History of ${ALERT_NAME}` }).click();
    const history = page.getByRole('region', { name: `History of “${ALERT_NAME}”` });
    await history.waitFor();
    const rows = history.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    expect(cells[2]).toBe(message);
    expect(cells[2]).toContain(headline);
    expect(cells[3]).toBe('Yes');
    await shot('03-history');
  });

  it('raised no uncaught error in the page', () => {
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
