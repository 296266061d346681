import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { NOTIFICATION_TYPES } from '@tickerbell/jobs/notifications/shapes';
import { seedRecordedInsiderFilings } from '@tickerbell/jobs/insiders';
import { runSeeds } from '@tickerbell/jobs/seeds';
import { ARTIFACTS_DIR, launchChromium } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { submitSignIn, submitSignUp, waitUntil } from './support/journey';
import { concretePaths, routerPaths } from './support/router-paths';
import { PageProblems, contrastViolations, horizontalOverflow, openScreen } from './support/screen-checks';
import { buildWebClient } from './support/web-build';

// Every route of the web client's router, signed in and signed out, at a phone's and a desktop's
// size in both themes: the page never scrolls sideways, logs no console error, has no failed
// request, and its text meets WCAG AA contrast. The routes come from the router itself, so a
// feature's new screens are checked as soon as they are routed.
const PASSWORD = 'correct horse battery staple';
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
const THEMES = ['light', 'dark'] as const;
/** What the header, the main content and any toast show: the text a visitor reads. */
const TEXT_REGIONS = '.site-header, #main-content, .Toastify';
const SHOTS_DIR = path.join(ARTIFACTS_DIR, 'all-screens');

/** Where a screen's screenshot goes: test-artifacts/e2e/all-screens/<who>-<viewport>-<theme>-<path>.png */
function shotPath(who: string, viewport: string, theme: string, pathname: string): string {
  const slug = pathname === '/' ? 'home' : pathname.slice(1).replace(/[^a-zA-Z0-9]+/g, '-');
  return path.join(SHOTS_DIR, `${who}-${viewport}-${theme}-${slug}.png`);
}

describe('every screen at 390 and 1440 px in both themes: no sideways scroll, no errors, AA contrast', () => {
  let stack: E2eStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let urls: string[] = [];
  let signedInState: Awaited<ReturnType<BrowserContext['storageState']>>;

  beforeAll(async () => {
    const [webDistDir, launched, paths] = await Promise.all([buildWebClient(), launchChromium(), routerPaths()]);
    browser = launched;
    // The prices workers fill a chart's bars (the simulated source: no network).
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString(), extraQueueNames: ['prices'] });
    await stack.start();
    // The demo data of a fresh system (markets, the COT sample, every later feature's seeds).
    await runSeeds(stack.db.dataSource);
    const [instrument]: { code: string }[] = await stack.db.dataSource.query('SELECT cftc_code AS code FROM cot_instruments ORDER BY cftc_code LIMIT 1');
    // The recorded Form 4 filings, as the offline replay source stores them: a company and an insider with lines.
    await seedRecordedInsiderFilings(stack.db.dataSource);
    const [company]: { ticker: string }[] = await stack.db.dataSource.query(
      'SELECT c.ticker FROM insider_trading_companies c WHERE c.ticker IS NOT NULL AND EXISTS (SELECT 1 FROM insider_trading_transactions t WHERE t.company_id = c.id) ORDER BY c.ticker LIMIT 1',
    );
    const [insider]: { cik: string }[] = await stack.db.dataSource.query('SELECT i.cik FROM insider_trading_insiders i ORDER BY i.cik LIMIT 1');
    // An address page: Binance 14, an exchange wallet of the seeded label list (any address has a page).
    urls = concretePaths(paths, { code: instrument.code, symbol: 'BTCUSDT', ticker: company.ticker, cik: insider.cik, address: '0x28c6c06298d514db089934071355e5743bf21d60' });
    fs.mkdirSync(SHOTS_DIR, { recursive: true });

    // A verified account with an alert and a watchlist, so the tables have rows and row actions.
    const context = await browser.newContext({ baseURL: stack.baseUrl });
    contexts.push(context);
    const page = await context.newPage();
    const email = `screens.${Date.now().toString(36)}@example.test`;
    expect(await submitSignUp(page, { name: 'Grace Hopper', email, password: PASSWORD })).toBe(201);
    await stack.db.dataSource.query('UPDATE users SET is_verified = true WHERE email = $1', [email]);
    await submitSignIn(page, { email, password: PASSWORD });
    const made = await page.evaluate(async () => {
      const { csrfToken } = (await (await fetch('/api/auth/csrf')).json()) as { csrfToken: string };
      const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken };
      const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.status);
      const alert = await post('/api/alerts', {
        name: 'Bitcoin above one hundred thousand',
        symbol: 'BTCUSDT',
        condition: { type: 'greater_than', value: '100000' },
        frequency: 'once_per_day',
      });
      const rsi = await post('/api/alerts', { name: 'Ether oversold', symbol: 'ETHUSDT', condition: { type: 'rsi_below', level: 30, period: 14 }, interval: '1h' });
      const list = (await (await fetch('/api/watchlists', { method: 'POST', headers, body: JSON.stringify({ name: 'Across markets' }) })).json()) as { watchlist?: { id: string }; id?: string };
      const items = [];
      for (const symbol of ['BTCUSDT', 'AAPL', 'EURUSD']) items.push(await post(`/api/watchlists/${list.watchlist?.id ?? list.id}/items`, { symbol }));
      return [alert, rsi, ...items];
    });
    expect(made).toEqual([201, 201, 201, 201, 201]);
    signedInState = await context.storageState();
    await context.close();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it('finds the routes in the router, the dashboard and public ones alike', () => {
    expect(urls).toEqual(expect.arrayContaining(['/', '/pricing', '/research/cot', '/dashboard', '/dashboard/alerts', '/dashboard/cot', '/dashboard/charts', '/dashboard/charts/BTCUSDT', '/dashboard/insiders', '/research/insiders', '/dashboard/whales', '/dashboard/whales/watchlist', '/dashboard/whales/exchanges', '/dashboard/whales/addresses/0x28c6c06298d514db089934071355e5743bf21d60', '/research/whales', '/no-such-page']));
  });

  /** Every screen at one size in one theme (each theme from its own page load, as a visitor gets it). */
  async function checkScreens(who: 'signed-in' | 'signed-out', viewport: (typeof VIEWPORTS)[number], theme: (typeof THEMES)[number]): Promise<string[]> {
    const context = await browser.newContext({
      baseURL: stack.baseUrl,
      viewport: { width: viewport.width, height: viewport.height },
      // Colours are read as they end, not halfway through a transition.
      reducedMotion: 'reduce',
      ...(who === 'signed-in' ? { storageState: signedInState } : {}),
    });
    contexts.push(context);
    await context.addInitScript(`window.localStorage.setItem('tickerbell:theme', '${theme}')`);
    const page: Page = await context.newPage();
    const problems = new PageProblems(page);
    const failures: string[] = [];

    for (const pathname of urls) {
      await openScreen(page, problems, pathname);
      const shown = new URL(page.url()).pathname;
      // Signed out, a signed-in screen sends the visitor to the sign-in page, checked on its own.
      if (who === 'signed-out' && shown === '/sign-in' && pathname !== '/sign-in') continue;
      expect(await page.evaluate<string | undefined>('document.documentElement.dataset.theme')).toBe(theme);
      const found: string[] = [];
      const overflow = await horizontalOverflow(page);
      if (overflow) found.push(`scrolls sideways, ${overflow.scrollWidth} px wide in ${overflow.clientWidth} px (${overflow.widest.join(', ')})`);
      found.push(...(await contrastViolations(page, TEXT_REGIONS)).map((violation) => `contrast of ${violation}`));
      found.push(...problems.take());
      if (found.length > 0 || process.env.TB_ALL_SCREENS_SHOTS) {
        await page.screenshot({ path: shotPath(who, viewport.name, theme, pathname), fullPage: true });
      }
      failures.push(...found.map((problem) => `${who} ${viewport.width} px ${theme} ${pathname}${shown === pathname ? '' : ` (shown at ${shown})`}: ${problem}`));
    }
    await context.close();
    return failures;
  }

  it('shows a toast of every notification type with AA contrast in both themes', async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce', storageState: signedInState });
    contexts.push(context);
    const page = await context.newPage();
    const problems = new PageProblems(page);
    const [{ id: userId }]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM users ORDER BY id DESC LIMIT 1');
    const failures: string[] = [];

    for (const theme of THEMES) {
      // Each theme from its own page load, as a visitor gets it.
      await page.evaluate(`window.localStorage.setItem('tickerbell:theme', '${theme}')`).catch(() => undefined);
      await context.addInitScript(`window.localStorage.setItem('tickerbell:theme', '${theme}')`);
      await openScreen(page, problems, '/dashboard');
      await waitUntil('the live stream to subscribe', async () => (await stack.streamSubscribers()) >= 1);
      for (const type of NOTIFICATION_TYPES) {
        await stack.queues.add('notifications.deliver', {
          notification: { title: `A ${type} notification`, message: 'as a toast', type, activityType: null, exchangeId: null, symbolId: null, details: null, dedupeKey: `screens-${theme}-${type}` },
          push: { ttlSeconds: 60, urgency: 'normal', topic: null, url: '/dashboard/activity' },
          email: false,
          userIds: [Number(userId)],
        });
        const toast = page.locator(`.Toastify__toast--${type}`);
        await toast.waitFor({ state: 'visible' });
        // Hovered, a toast stays until it is checked.
        await toast.hover();
        expect(await page.evaluate<string | undefined>('document.documentElement.dataset.theme')).toBe(theme);
        failures.push(...(await contrastViolations(page, '.Toastify')).map((violation) => `${type} toast, ${theme}: ${violation}`));
        await page.screenshot({ path: path.join(SHOTS_DIR, `toast-${type}-${theme}.png`) });
        await page.mouse.move(0, 0);
        await toast.waitFor({ state: 'detached' });
      }
    }

    expect(failures).toEqual([]);
    expect(problems.take()).toEqual([]);
  });

  it.each(['signed-in', 'signed-out'] as const)('%s, at 390 × 844 and 1440 × 900, light and dark', async (who) => {
    // All four at once: most of a screen's time is spent waiting for its requests.
    const failures = await Promise.all(VIEWPORTS.flatMap((viewport) => THEMES.map((theme) => checkScreens(who, viewport, theme))));
    expect(failures.flat()).toEqual([]);
  }, 300_000);
});
