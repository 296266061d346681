import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { importPredictionMarkets } from '@tickerbell/jobs/predictions';
import { waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { horizontalOverflow } from './support/screen-checks';
import { isApi, recordConsole, submitSignIn, submitSignUp } from './support/journey';
import { buildWebClient } from './support/web-build';

// The predictions journey in real Chromium against the real api, PostgreSQL, Redis and workers. A
// market arrives as an operator's `import predictions <file>` of a Gamma /markets answer (the
// recorded open market of jobs/src/predictions/data, varied); the user opens it and forecasts
// "3:2". Then a second import of the same market, closed with outcomePrices ["1","0"] as Gamma
// reports a YES resolution, queues the resolve job; the workers score the forecast and recompute
// the user's performance, and the user reads the scorecard.
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const QUESTION = 'Will the Tickerbell journey resolve YES?';
const RECORDED = path.resolve(__dirname, '../jobs/src/predictions/data/polymarket_gamma_market_open_btc-updown-5m_2026-03-11.json');

/** The recorded open Gamma market, varied into this journey's market (a /markets answer of one). */
function gammaAnswer(changes: Record<string, unknown>): string {
  const recorded = JSON.parse(fs.readFileSync(RECORDED, 'utf8')) as Record<string, unknown>;
  const market = {
    ...recorded,
    id: '990001',
    question: QUESTION,
    slug: 'tickerbell-journey-990001',
    conditionId: `0x${'99'.repeat(32)}`,
    outcomes: '["Yes", "No"]',
    outcomePrices: '["0.55", "0.45"]',
    bestBid: 0.54,
    bestAsk: 0.56,
    spread: 0.02,
    volume24hr: 125000,
    liquidityNum: 48000,
    liquidity: '48000',
    volume: '2150000',
    volumeNum: 2150000,
    endDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    events: [],
    ...changes,
  };
  return JSON.stringify([market]);
}

describe('predictions end to end: real Chromium, api, workers, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let marketId: number;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tickerbell-predictions-e2e-'));
  const email = `ada.predictions.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `predictions-${name}`, options);
  const importFile = async (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return importPredictionMarkets({ dataSource: stack.db.dataSource, queues: stack.queues, clock: stack.clock }, file);
  };
  const setTheme = async (theme: 'light' | 'dark') => {
    await page.evaluate(`window.localStorage.setItem('tickerbell:theme', '${theme}')`);
    await page.reload();
  };

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString(), extraQueueNames: ['predictions'] });
    await stack.start();
    expect(await importFile('open.json', gammaAnswer({}))).toMatchObject({ inserted: 1, resolved: 0 });
    const [row]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM prediction_markets WHERE polymarket_id = $1', ['990001']);
    marketId = Number(row!.id);
    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl, reducedMotion: 'reduce' });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('predictions-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in, opens the market from the browser and forecasts "3:2"; the forecast joins the history', async () => {
    expect(await submitSignUp(page, { name: 'Ada Lovelace', email, password: PASSWORD })).toBe(201);
    await stack.db.dataSource.query('UPDATE users SET is_verified = true WHERE email = $1', [email]);
    await submitSignIn(page, { email, password: PASSWORD });
    // Light first (the shots of both themes are taken), whatever the hour of the automatic theme.
    await setTheme('light');

    const markets = page.waitForResponse(isApi('/api/predictions/markets'));
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Predictions' }).click();
    expect((await markets).status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Prediction markets' }).waitFor();
    await page.getByRole('region', { name: 'Prediction markets' }).getByRole('link', { name: QUESTION }).click();
    await page.getByRole('heading', { level: 1, name: QUESTION }).waitFor();

    const form = page.getByRole('form', { name: 'Your forecast' });
    await form.getByLabel('Your probability of Yes').fill('3:2');
    await form.getByText('= 60% for Yes (odds 3:2, read as odds)', { exact: false }).waitFor();
    const saved = page.waitForResponse(isApi(`/api/predictions/markets/${marketId}/forecasts`, 'POST'));
    await form.getByRole('button', { name: 'Save forecast' }).click();
    expect((await saved).status()).toBe(201);
    const history = page.getByRole('region', { name: 'Your forecasts on this market' });
    await history.getByText('typed “3:2”').waitFor();
    const row = history.locator('tbody tr').first();
    expect((await row.locator('td[data-label="Yours"]').innerText()).replace(/\s+/g, ' ')).toBe('60% typed “3:2”');
    expect(await row.locator('td[data-label="Market then"]').innerText()).toBe('55%');
    const stored = await stack.db.dataSource.query(`SELECT user_prediction::text AS p, market_price::text AS m, input_form, input_text FROM user_predictions`);
    expect(stored).toEqual([{ p: '0.6000', m: '0.5500', input_form: 'odds', input_text: '3:2' }]);
    await shot('01-market-forecast');
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('02-phone-market-forecast');
    await page.setViewportSize(DESKTOP);
  });

  it('reads the performance page after the market resolves YES: accuracy, Brier, the calibration plot', async () => {
    // Before any resolution: the empty scorecard.
    await page.getByRole('link', { name: '← All markets' }).click();
    await page.getByRole('navigation', { name: 'Prediction screens' }).getByRole('link', { name: 'Performance' }).click();
    await page.getByRole('heading', { level: 2, name: 'No resolved forecast yet' }).waitFor();

    // The same market, closed by Polymarket with the YES outcome at 1, imported as a sync page would apply it.
    const closedTime = new Date(Date.now() + 1_000).toISOString();
    const applied = await importFile('resolved.json', gammaAnswer({ active: false, closed: true, acceptingOrders: false, outcomePrices: '["1", "0"]', umaResolutionStatus: 'resolved', closedTime }));
    expect(applied).toMatchObject({ resolved: 1 });
    await waitForQueuesIdle([stack.queues.queue('predictions')], 20_000);
    const [scored]: { points: string | null; resolution: string }[] = await stack.db.dataSource.query('SELECT points::text AS points, resolution FROM user_predictions');
    expect(scored).toMatchObject({ resolution: 'yes', points: expect.any(String) });

    const performance = page.waitForResponse(isApi('/api/predictions/performance'));
    await page.reload();
    expect((await performance).status()).toBe(200);
    const score = (name: string) => page.locator('.pm-score').filter({ has: page.getByText(name, { exact: true }) });
    expect((await score('Accuracy').locator('.pm-score__value').innerText()).trim()).toBe('100%');
    expect((await score('Brier score').locator('.pm-score__value').innerText()).trim()).toBe('0.160');
    expect(await score('Brier score').locator('.pm-score__sub').innerText()).toMatch(/^market 0\.20\d · skill \+0\.04\d$/);
    const plot = page.getByTestId('calibration-plot');
    await plot.waitFor();
    expect(await plot.locator('circle.pm-svg__point').count()).toBe(1);
    expect(await plot.locator('line.pm-svg__diagonal').count()).toBe(1);
    expect(await page.locator('.pm-verdict').innerText()).toMatch(/^You beat the market: your Brier score is 0\.04\d lower/);
    await shot('03-performance');
    await setTheme('dark');
    await plot.waitFor();
    await shot('04-performance-dark');
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('05-phone-performance-dark');

    // The closed market: the form gives way to the resolution and the user's points.
    await page.goto(`/dashboard/predictions/markets/${marketId}`);
    await page.getByRole('group', { name: 'Resolution' }).getByText('Resolved YES', { exact: false }).waitFor();
    expect(await page.getByRole('form', { name: 'Your forecast' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Resolution' }).innerText()).toContain('Your points on this market: +');
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('06-phone-market-resolved-dark');
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
