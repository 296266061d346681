import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createProducerConnection } from '@tickerbell/jobs';
import { PRICES_SCHEDULES, storeQuotes, type Quote } from '@tickerbell/jobs/prices';
import { MARKET_SEED } from '@tickerbell/jobs/seeds';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { heldToast, isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The alerts journey in real Chromium against the real api, PostgreSQL, Redis and workers: an
// alert made through the dialog is fired by the workers' own 10 s crypto poll of the simulated
// feed, arrives live, and its audio message is spoken once per firing, across a reload.
const NOW = Date.now();
// The workers' clock stands still: every poll quotes the same instant, so only the first poll after
// the alert exists stores a newer price (and the simulated walk at its anchor instant is the anchor).
const WORKERS_CLOCK_AT = new Date(NOW).toISOString();
const SEEDED_PRICE = '60740.5';
const NAME = 'Katherine Johnson';
const PASSWORD = 'correct horse battery staple';
const ALERT_NAME = 'BTC above the floor';
const AUDIO_MESSAGE = 'Bitcoin is above the floor';
// Wider than the 768 px below which alerts are never spoken.
const DESKTOP = { width: 1280, height: 900 };


interface Spoken {
  text: string;
  voice: string | null;
  document: number;
}
interface CheckAnswer {
  document: number;
  logIds: string[];
}
interface ApiAlert {
  id: string;
  name: string;
  isActive: boolean;
  useAudio: boolean;
  audioMessage: string | null;
  frequency: string;
  condition: { type: string; value?: string };
}

/**
 * Headless Chromium has no voices, so speechSynthesis.speak is replaced by a recorder: each
 * utterance goes to window.__spoken (this document) and to the test (every document, reloads
 * included). Each document numbers itself so the test can tell before a reload from after.
 */
const SPEECH_RECORDER = `(() => {
  window.__spoken = [];
  const documentNumber = Date.now();
  const record = (utterance) => {
    const entry = { text: utterance.text, voice: utterance.voice ? utterance.voice.name : null, document: documentNumber };
    window.__spoken.push(entry);
    window.__recordSpeech(entry);
  };
  if (window.speechSynthesis) {
    window.speechSynthesis.speak = record;
  }
})();`;

describe('alerts end to end: real Chromium, api, workers, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  let alertId = '';
  let logId = '';
  let threshold = '';
  let documentNumber = 0;
  const redis = createProducerConnection(testRedisUrl());
  const email = `katherine.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const spoken: Spoken[] = [];
  const checks: CheckAnswer[] = [];
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `alerts-${name}`, options);
  const alertRow = () => page.locator('.alert-table tbody tr').filter({ hasText: ALERT_NAME });

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({
      webDistDir,
      workersClockAt: WORKERS_CLOCK_AT,
      extraQueueNames: ['prices', 'alerts'],
      // The real 10 s crypto poll; it asks for the markets with an active alert (none until the
      // alert is made).
      schedules: PRICES_SCHEDULES.filter((schedule) => schedule.id === 'prices.poll-crypto'),
    });
    // The last price known a minute ago, stored before the workers start: their simulated feed
    // carries on from it (priceSourcesFromConfig anchors at the latest stored price).
    const quote: Quote = { symbol: 'BTCUSDT', price: SEEDED_PRICE, at: new Date(NOW - 60_000), change24hPercent: null, volume24h: null, source: 'simulated', simulated: true };
    await storeQuotes(redis, stack.prefix, [quote]);
    await stack.start();
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const market = MARKET_SEED.find((m) => m.symbol === symbol);
      if (!market) throw new Error(`${symbol} is not in the markets seed`);
      await stack.db.dataSource.query('INSERT INTO markets (symbol, name, type, description) VALUES ($1, $2, $3, $4) ON CONFLICT (symbol) DO NOTHING', [
        market.symbol,
        market.name,
        market.type,
        market.description,
      ]);
    }

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    await context.exposeFunction('__recordSpeech', (entry: Spoken) => {
      spoken.push(entry);
    });
    await context.addInitScript(SPEECH_RECORDER);
    page = await context.newPage();
    consoleLog = recordConsole(page);
    page.on('response', (response) => {
      if (!isApi('/api/alerts/crypto/check', 'POST')(response) || response.status() !== 200) return;
      const document = documentNumber;
      response
        .json()
        .then((body: { triggeredAlerts: { logId: string | number }[] }) => checks.push({ document, logIds: body.triggeredAlerts.map((a) => String(a.logId)) }))
        .catch(() => undefined);
    });
  });

  afterAll(async () => {
    consoleLog?.save('alerts-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    redis.disconnect();
    await stack?.stop();
  });

  it('signs up, verifies the address from the mail, and signs in', async () => {
    expect(await submitSignUp(page, { name: NAME, email, password: PASSWORD })).toBe(201);

    await verifyFromMail(page, stack, email);
    const [row]: { id: number; is_verified: boolean }[] = await stack.db.dataSource.query('SELECT id, is_verified FROM users WHERE email = $1', [email]);
    expect(row?.is_verified).toBe(true);
    userId = Number(row?.id);

    await submitSignIn(page, { email, password: PASSWORD });
  });

  it('opens the alerts page, empty, and reads the current BTCUSDT price', async () => {
    documentNumber += 1;
    await page.goto('/dashboard/alerts');
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await page.getByText('You have no alerts yet.').waitFor();
    const answer = await page.request.get('/api/markets/quotes?symbols=BTCUSDT');
    expect(answer.status()).toBe(200);
    const { quotes } = (await answer.json()) as { quotes: { symbol: string; price: string }[] };
    const price = quotes.find((quote) => quote.symbol === 'BTCUSDT')?.price;
    expect(price).toBe(SEEDED_PRICE);
    // Below the price: a greater_than alert holds on the very first tick the workers see.
    threshold = String(Math.floor(Number(price)) - 500);
  });

  it('the dialog shows the server field error next to the field, then creates a spoken alert', async () => {
    await page.getByRole('button', { name: 'New alert' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert' });
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill(ALERT_NAME);
    // A symbol typed by hand is only checked by the api (the form cannot know every market).
    await dialog.getByRole('combobox', { name: 'Symbol' }).fill('NOSUCHPAIR');
    await dialog.getByLabel('Condition type').selectOption('greater_than');
    await dialog.getByLabel('Price level').fill(threshold);
    await dialog.getByLabel('Speak this alert aloud').check();
    await dialog.getByLabel('Message to speak').fill(AUDIO_MESSAGE);
    // Wide window, sound not switched off: no "will not be spoken here" warning.
    expect(await dialog.getByText('Alerts are spoken only on windows wider than', { exact: false }).count()).toBe(0);

    const rejected = page.waitForResponse(isApi('/api/alerts', 'POST'));
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    const rejection = await rejected;
    expect(rejection.status()).toBe(400);
    const body = (await rejection.json()) as { error: { code: string; details: { field: string; message: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details).toEqual([expect.objectContaining({ field: 'symbol' })]);
    const serverMessage = body.error.details[0]!.message;

    const symbolInput = dialog.getByRole('combobox', { name: 'Symbol' });
    // Next to the field: the symbol box is marked invalid and described by the server's message.
    await dialog.locator('[role="combobox"][aria-invalid="true"]').waitFor();
    const describedBy = ((await symbolInput.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    const descriptions = await Promise.all(describedBy.map((id) => dialog.locator(`[id="${id}"]`).innerText()));
    expect(descriptions).toContain(serverMessage);
    const fieldError = dialog.locator(`[id="${describedBy[descriptions.indexOf(serverMessage)]}"]`);
    const [inputBox, errorBox] = await Promise.all([symbolInput.boundingBox(), fieldError.boundingBox()]);
    // Right under the box, not at the top of the dialog.
    expect(errorBox!.y).toBeGreaterThan(inputBox!.y);
    expect(errorBox!.y - (inputBox!.y + inputBox!.height)).toBeLessThan(120);
    // The invalid field gets the focus.
    expect(await page.evaluate<string | null>('document.activeElement && document.activeElement.getAttribute("aria-describedby")')).toBe(describedBy.join(' '));
    expect(await dialog.getByRole('alert').innerText()).toContain('Please correct the fields marked below.');
    expect(await stack.db.dataSource.query('SELECT id FROM alerts')).toEqual([]);
    await shot('01-dialog-server-field-error', { fullPage: false });

    await symbolInput.fill('btc');
    await dialog.getByRole('option', { name: /^BTCUSDT/ }).click();
    await dialog.getByText('BTCUSDT · crypto').waitFor();
    const created = page.waitForResponse(isApi('/api/alerts', 'POST'));
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    const creation = await created;
    expect(creation.status()).toBe(201);
    const { alert } = (await creation.json()) as { alert: ApiAlert };
    alertId = alert.id;
    expect(alert).toMatchObject({
      name: ALERT_NAME,
      isActive: true,
      useAudio: true,
      audioMessage: AUDIO_MESSAGE,
      frequency: 'once_per_day',
      condition: { type: 'greater_than', value: threshold },
    });
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Created “${ALERT_NAME}”.`).waitFor();
  });

  it('lists the alert with its human summary', async () => {
    const row = alertRow();
    await row.waitFor();
    const cells = await row.locator('th, td').allInnerTexts();
    expect(cells.slice(0, 6).map((cell) => cell.replace(/\s+/g, ' ').trim())).toEqual([
      `${ALERT_NAME} Spoken`,
      'BTCUSDT',
      `Above ${threshold}`,
      'Once per day',
      'Active',
      'Never',
    ]);
    expect(await row.getByRole('switch', { name: `Active: ${ALERT_NAME}` }).isChecked()).toBe(true);
    await shot('02-alert-listed');
  });

  it('the workers’ poll fires it: a live toast, the bell, one log, and the message spoken once', async () => {
    await waitUntil('the live stream to subscribe', async () => (await stack.streamSubscribers()) >= 1);
    // The crypto poll runs every 10 s; the evaluation and the stream follow within a second or two.
    const toast = await heldToast(page, `${ALERT_NAME} Alert Triggered`, 30_000);

    const logs: { id: string; value: string; message: string; was_notified: boolean; notification_id: string | null }[] = await stack.db.dataSource.query(
      'SELECT id::text, trim_scale(value)::text AS value, message, was_notified, notification_id::text FROM alert_logs WHERE alert_id = $1',
      [alertId],
    );
    expect(logs).toHaveLength(1);
    logId = logs[0]!.id;
    expect(logs[0]).toMatchObject({ value: SEEDED_PRICE, was_notified: true });
    expect(logs[0]!.notification_id).not.toBeNull();
    const notifications: { title: string; message: string }[] = await stack.db.dataSource.query('SELECT title, message FROM notifications WHERE user_id = $1', [userId]);
    expect(notifications).toEqual([{ title: `${ALERT_NAME} Alert Triggered`, message: logs[0]!.message }]);
    expect((await toast.innerText()).trim()).toBe(`${ALERT_NAME} Alert Triggered: ${logs[0]!.message}`);
    await shot('03-fired-toast', { fullPage: false });

    await waitUntil('the audio message to be spoken', async () => spoken.length > 0);
    expect(spoken).toEqual([{ text: AUDIO_MESSAGE, voice: null, document: expect.any(Number) }]);
    expect(await page.evaluate<Spoken[]>('window.__spoken')).toEqual(spoken);

    // The bell, and the notification in the activity list behind it (a client-side navigation:
    // the page is not reloaded).
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('link', { name: 'All notifications, 1 unread' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/activity');
    await page.locator('.notification-list').first().getByText(`${ALERT_NAME} Alert Triggered`).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Alerts' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/alerts');
  });

  it('the alert’s history shows the one firing', async () => {
    await alertRow().getByRole('button', { name: `History of ${ALERT_NAME}` }).click();
    const history = page.getByRole('region', { name: `History of “${ALERT_NAME}”` });
    await history.waitFor();
    const rows = history.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    expect(cells[1]).toBe(SEEDED_PRICE);
    expect(cells[3]).toBe('Yes');
    await shot('04-history');
  });

  it('after a reload and a crypto check, the firing is not spoken again', async () => {
    const spokenBefore = spoken.length;
    documentNumber += 1;
    const checked = page.waitForResponse(isApi('/api/alerts/crypto/check', 'POST'), { timeout: 45_000 });
    await page.reload();
    expect((await checked).status()).toBe(200);
    await alertRow().waitFor();
    // Give a (wrong) second utterance time to happen.
    await page.waitForTimeout(1_500);

    expect(spoken.length).toBe(spokenBefore);
    expect(await page.evaluate<Spoken[]>('window.__spoken')).toEqual([]);
    // The firing was handed to exactly one check (the server marks it picked up), here the one
    // after the reload, and the page did not speak it: it was spoken from the stream already.
    const carrying = checks.filter((check) => check.logIds.includes(logId));
    expect(carrying).toEqual([{ document: documentNumber, logIds: [logId] }]);
    const [log]: { checked_at: Date | null }[] = await stack.db.dataSource.query('SELECT checked_at FROM alert_logs WHERE id = $1', [logId]);
    expect(log?.checked_at).not.toBeNull();
    expect(await alertRow().locator('td').nth(4).innerText()).not.toBe('Never');
  });

  it('deactivates the alert with its switch; the api shows it inactive', async () => {
    const toggle = alertRow().getByRole('switch', { name: `Active: ${ALERT_NAME}` });
    const patched = page.waitForResponse(isApi(`/api/alerts/${alertId}`, 'PATCH'));
    await toggle.click();
    const patch = await patched;
    expect(patch.status()).toBe(200);
    expect(await patch.request().postDataJSON()).toEqual({ isActive: false });
    await alertRow().getByText('Inactive', { exact: true }).waitFor();
    expect(await toggle.isChecked()).toBe(false);

    const answer = await page.request.get(`/api/alerts/${alertId}`);
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { alert: ApiAlert }).alert.isActive).toBe(false);
    await shot('05-deactivated');
    expect(spoken).toHaveLength(1);
  });

  it('raised no uncaught error in the page', () => {
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
