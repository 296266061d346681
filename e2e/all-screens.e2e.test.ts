import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { NOTIFICATION_TYPES } from '@tickerbell/jobs/notifications/shapes';
import { seedRecordedInsiderFilings } from '@tickerbell/jobs/insiders';
import { addDays, lockupsToday, upsertLockupOffering } from '@tickerbell/jobs/lockups';
import { importPredictionMarkets } from '@tickerbell/jobs/predictions';
import { runSeeds } from '@tickerbell/jobs/seeds';
import { waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { REPLAY_USDC_WETH_POOL, yieldsJobIds } from '@tickerbell/jobs/yields';
import { ARTIFACTS_DIR, launchChromium } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { dismissToast, holdToast, submitSignIn, submitSignUp, waitUntil } from './support/journey';
import { concretePaths, routerPaths } from './support/router-paths';
import { PageProblems, contrastViolations, horizontalOverflow, openScreen } from './support/screen-checks';
import { buildWebClient } from './support/web-build';

// Every route of the web client's router, signed in and signed out, at a phone's and a desktop's
// size and in both themes: the page never scrolls sideways, logs no console error, has no failed
// request, and its text meets WCAG AA contrast. The routes come from the router itself, so a
// feature's new screens are checked as soon as they are routed. Sideways scrolling depends on the
// width and contrast on the theme, so each screen is checked in two pairs that cover both of each
// (phone + light, desktop + dark) rather than all four (the suite's time: about half). Signed out,
// the dashboard's screens only send the visitor to sign in: one of them is checked for that.
const PASSWORD = 'correct horse battery staple';
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
const THEMES = ['light', 'dark'] as const;
/** The pairs each screen is checked in: both widths and both themes, each once. */
const PAIRS = [
  { viewport: VIEWPORTS[0], theme: THEMES[0] },
  { viewport: VIEWPORTS[1], theme: THEMES[1] },
] as const;
/** What the header, the main content and any toast show: the text a visitor reads. */
const TEXT_REGIONS = '.site-header, #main-content, .Toastify';
const SHOTS_DIR = path.join(ARTIFACTS_DIR, 'all-screens');

/** Where a screen's screenshot goes: test-artifacts/e2e/all-screens/<who>-<viewport>-<theme>-<path>.png */
function shotPath(who: string, viewport: string, theme: string, pathname: string): string {
  const slug = pathname === '/' ? 'home' : pathname.slice(1).replace(/[^a-zA-Z0-9]+/g, '-');
  return path.join(SHOTS_DIR, `${who}-${viewport}-${theme}-${slug}.png`);
}

describe('every screen at 390 and 1440 px and in both themes: no sideways scroll, no errors, AA contrast', () => {
  let stack: E2eStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let urls: string[] = [];
  let predictionMarketId = 0;
  let signedInState: Awaited<ReturnType<BrowserContext['storageState']>>;

  beforeAll(async () => {
    const [webDistDir, launched, paths] = await Promise.all([buildWebClient(), launchChromium(), routerPaths()]);
    browser = launched;
    // The prices workers fill a chart's bars (the simulated source: no network).
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString(), extraQueueNames: ['prices', 'yields'], workersEnv: { YIELDS_REPLAY_POOLS: '100' } });
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
    // Prediction markets as `import predictions <file>` loads them: the recorded Gamma /markets answer (ten markets).
    await importPredictionMarkets(
      { dataSource: stack.db.dataSource, queues: stack.queues, clock: stack.clock },
      path.resolve(__dirname, '../jobs/src/predictions/data/polymarket_gamma_markets_ten_markets_2024-07.json'),
    );
    const [market]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM prediction_markets ORDER BY volume_24h DESC NULLS LAST, id LIMIT 1');
    predictionMarketId = Number(market!.id);
    // Yield pools as the hourly ingest stores them (the workers' replay twins, 100 pools): a pool page with its snapshot.
    await stack.queues.add('yields.ingest', {}, { jobId: yieldsJobIds.ingest(stack.clock.now()) });
    await waitForQueuesIdle([stack.queues.queue('yields'), stack.queues.queue('notifications')], 30_000);
    const [yieldPool]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM yield_pools WHERE pool_id = $1', [REPLAY_USDC_WETH_POOL]);
    const yieldPoolId = Number(yieldPool!.id);
    // A lock-up event as the discovery stores one (a simulated offering expiring in 10 days): its calendar day and event page.
    const today = lockupsToday(new Date());
    const lockup = await upsertLockupOffering(
      stack.db.dataSource,
      {
        offeringKey: 'simulated:SCRN', ticker: 'SCRN', companyName: 'Screens Check, Inc.', cik: null, ipoDate: addDays(today, -170), filingDate: addDays(today, -170),
        ipoPrice: '21', sharesOffered: '12000000', underwriters: ['Goldman Sachs & Co. LLC'], lockupDays: 180, boundParties: 'our directors and executive officers',
        clause: 'We and our directors and executive officers have agreed not to sell any shares for 180 days after the date of this prospectus.', sourceAccession: null,
        sourceUrl: null, dataSource: 'simulated', totalSharesOutstanding: '90000000', vcBacked: true, industry: 'Technology', earlyRelease: [], reviewReason: null,
        tranches: [{ tranche: 1, label: '180 days', expirationDate: addDays(today, 10), sharesLockedUp: '60000000', riskScore: 64.5, riskFactors: [] }],
      },
      { today },
    );
    // A chat room: the seeded BTC/USDT pair's room (read as a visitor who has not joined it).
    const [chatRoom]: { id: number }[] = await stack.db.dataSource.query(`SELECT id FROM chat_rooms WHERE name = 'BTC/USDT'`);
    // An address page: Binance 14, an exchange wallet of the seeded label list (any address has a page).
    urls = concretePaths(paths, {
      code: instrument.code,
      symbol: 'BTCUSDT',
      ticker: company.ticker,
      cik: insider.cik,
      address: '0x28c6c06298d514db089934071355e5743bf21d60',
      id: String(predictionMarketId),
      poolId: String(yieldPoolId),
      eventId: String(lockup.ids[0]),
      roomId: String(chatRoom!.id),
    });
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
    expect(urls).toEqual(expect.arrayContaining(['/', '/pricing', '/research/cot', '/dashboard', '/dashboard/alerts', '/dashboard/cot', '/dashboard/charts', '/dashboard/charts/BTCUSDT', '/dashboard/insiders', '/research/insiders', '/dashboard/whales', '/dashboard/whales/watchlist', '/dashboard/whales/exchanges', '/dashboard/whales/addresses/0x28c6c06298d514db089934071355e5743bf21d60', '/research/whales', '/dashboard/predictions', '/dashboard/predictions/performance', '/dashboard/predictions/mispricing', `/dashboard/predictions/markets/${predictionMarketId}`, '/no-such-page']));
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

    // Signed out, a dashboard screen is a redirect to sign in: checked once, on /dashboard.
    const paths = who === 'signed-in' ? urls : urls.filter((pathname) => pathname === '/dashboard' || !pathname.startsWith('/dashboard/'));
    for (const pathname of paths) {
      await openScreen(page, problems, pathname);
      const shown = new URL(page.url()).pathname;
      // Signed out, a signed-in screen sends the visitor to the sign-in page, checked on its own.
      if (who === 'signed-out' && pathname === '/dashboard') expect(shown).toBe('/sign-in');
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
        // Held (the pointer on it, after its slide-in), a toast stays until it is checked.
        await holdToast(toast);
        expect(await page.evaluate<string | undefined>('document.documentElement.dataset.theme')).toBe(theme);
        failures.push(...(await contrastViolations(page, '.Toastify')).map((violation) => `${type} toast, ${theme}: ${violation}`));
        await page.screenshot({ path: path.join(SHOTS_DIR, `toast-${type}-${theme}.png`) });
        // Closed by its button (a trader's way, and no wait for the auto-close timer).
        await dismissToast(toast);
      }
    }

    expect(failures).toEqual([]);
    expect(problems.take()).toEqual([]);
  });

  it.each(['signed-in', 'signed-out'] as const)('%s, at 390 × 844 in light and 1440 × 900 in dark', async (who) => {
    // Both at once: most of a screen's time is spent waiting for its requests.
    const failures = await Promise.all(PAIRS.map(({ viewport, theme }) => checkScreens(who, viewport, theme)));
    expect(failures.flat()).toEqual([]);
  }, 600_000);
});
