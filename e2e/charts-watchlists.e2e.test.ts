import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createProducerConnection } from '@tickerbell/jobs';
import { storeQuotes, type Quote } from '@tickerbell/jobs/prices';
import { MARKET_SEED } from '@tickerbell/jobs/seeds';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { isApi, recordConsole, submitSignIn, submitSignUp, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The watchlists and chart screens in real Chromium against the real api, PostgreSQL and Redis:
// what jsdom cannot show (canvas drawing, drag and drop by keyboard, the live price stream).
const WORKERS_CLOCK_AT = '2026-11-23T07:50:00Z';
const NAME = 'Grace Hopper';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 900 };
const HOUR = 3_600_000;


/**
 * Pixels of the chart's canvases that differ from the background (the top-left pixel of each):
 * candles, axes and lines drawn, not an empty or blank canvas.
 */
function drawnPixels(page: Page): Promise<{ canvases: number; drawn: number }> {
  return page.evaluate(`(() => {
    let drawn = 0;
    const canvases = [...document.querySelectorAll('.price-chart__canvas canvas')];
    for (const canvas of canvases) {
      if (!canvas.width || !canvas.height) continue;
      const context = canvas.getContext('2d');
      if (!context) continue;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const [r, g, b, a] = [data[0], data[1], data[2], data[3]];
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 0 && (data[i] !== r || data[i + 1] !== g || data[i + 2] !== b || data[i + 3] !== a)) drawn += 1;
      }
    }
    return { canvases: canvases.length, drawn };
  })()`);
}

describe('watchlists and charts end to end: real Chromium, api, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  let watchlistId: number;
  const redis = createProducerConnection(testRedisUrl());
  const email = `grace.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const now = Date.now();
  const shot = (name: string) => screenshot(page, `charts-watchlists-${name}`);

  /** Writes quotes as the prices jobs do: latest price in Redis, published to the live streams. */
  const publishQuote = (symbol: string, price: string, at: Date) => {
    const quote: Quote = { symbol, price, at, change24hPercent: '1.25', volume24h: null, source: 'simulated', simulated: true };
    return storeQuotes(redis, stack.prefix, [quote]);
  };

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({ webDistDir, workersClockAt: WORKERS_CLOCK_AT });
    await stack.start();
    // The markets seed's two crypto pairs, with 300 simulated bars each (BTCUSDT hourly, ETHUSDT
    // 4-hourly) as the prices jobs store them: a gentle wave so candles go both ways.
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
    const bars = (symbol: string, interval: string, stepMs: number, base: number) =>
      stack.db.dataSource.query(
        `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
         SELECT m.id, $2, to_timestamp((floor($3::bigint / $4::bigint) * $4::bigint - (299 - i) * $4::bigint) / 1000.0),
                $5 + 50 * sin(i / 6.0), $5 + 50 * sin(i / 6.0) + 40, $5 + 50 * sin((i + 1) / 6.0) - 40,
                $5 + 50 * sin((i + 1) / 6.0), 100 + i, 'simulated', true
           FROM markets m, generate_series(0, 299) AS i
          WHERE m.symbol = $1`,
        [symbol, interval, now, stepMs, base],
      );
    await bars('BTCUSDT', '1h', HOUR, 60_000);
    await bars('ETHUSDT', '4h', 4 * HOUR, 3_000);
    await publishQuote('BTCUSDT', '60740.5', new Date(now - 60_000));
    await publishQuote('ETHUSDT', '3012.25', new Date(now - 60_000));

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('charts-watchlists-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    redis.disconnect();
    await stack?.stop();
  });

  it('signs up and signs in', async () => {
    expect(await submitSignUp(page, { name: NAME, email, password: PASSWORD })).toBe(201);
    // The verification mail itself is covered by web-client.e2e.test.ts.
    await stack.db.dataSource.query('UPDATE users SET is_verified = true WHERE email = $1', [email]);
    const [row]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM users WHERE email = $1', [email]);
    userId = Number(row?.id);
    expect(userId).toBeGreaterThan(0);

    await submitSignIn(page, { email, password: PASSWORD });
  });

  it('creates a watchlist and adds BTCUSDT and ETHUSDT through the search box', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Watchlists' }).click();
    await page.getByText('No watchlists yet', { exact: false }).waitFor();
    await page.getByLabel('New list name').fill('Crypto majors');
    const created = page.waitForResponse(isApi('/api/watchlists', 'POST'));
    await page.getByRole('button', { name: 'Create list' }).click();
    expect((await created).status()).toBe(201);
    await page.getByRole('heading', { level: 2, name: 'Crypto majors' }).waitFor();

    const search = page.getByRole('combobox', { name: 'Add a symbol' });
    for (const [typed, symbol] of [
      ['btc', 'BTCUSDT'],
      ['ethusdt', 'ETHUSDT'],
    ] as const) {
      await search.fill(typed);
      await page.getByRole('option', { name: new RegExp(`^${symbol}`) }).waitFor();
      const added = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/items'));
      await search.press('Enter');
      expect((await added).status()).toBe(201);
      await page.getByRole('link', { name: symbol, exact: true }).waitFor();
    }

    const rows: { id: number; symbols: string[] }[] = await stack.db.dataSource.query(
      `SELECT w.id, array_agg(m.symbol ORDER BY i."order") AS symbols
         FROM watchlists w JOIN watchlist_items i ON i.watchlist_id = w.id JOIN markets m ON m.id = i.market_id
        WHERE w.user_id = $1 GROUP BY w.id`,
      [userId],
    );
    expect(rows.map((row) => row.symbols)).toEqual([['BTCUSDT', 'ETHUSDT']]);
    watchlistId = Number(rows[0]?.id);
    await page.getByTestId('price-BTCUSDT').getByText('60,740.50').waitFor();
    expect(await page.getByRole('note').filter({ hasText: 'Simulated data' }).isVisible()).toBe(true);
  });

  it('shows a live price from the stream in the row', async () => {
    // The stream learns the user's new symbols from the watchlist change; until it has, a price
    // is not relayed, so keep publishing newer prices until one arrives.
    let price = 60_800;
    await waitUntil('a live BTCUSDT price in the watchlist', async () => {
      price += 1;
      await publishQuote('BTCUSDT', String(price), new Date());
      await new Promise((resolve) => setTimeout(resolve, 400));
      return (await page.getByTestId('price-BTCUSDT').innerText()).startsWith('60,8');
    });
    expect(await page.getByTestId('price-BTCUSDT').getAttribute('class')).toContain('price--flash-up');
    await shot('01-watchlist');
  });

  it('moves ETHUSDT above BTCUSDT by keyboard: Space, ArrowUp, Space; the order is saved', async () => {
    const handle = page.getByRole('button', { name: 'Reorder ETHUSDT' });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(150);
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(150);
    const saved = page.waitForResponse(isApi(`/api/watchlists/${watchlistId}/order`, 'PUT'));
    await page.keyboard.press('Space');
    expect((await saved).status()).toBe(200);

    const symbols = await page.locator('.watchlist-table tbody th a').allInnerTexts();
    expect(symbols).toEqual(['ETHUSDT', 'BTCUSDT']);
    const stored: { symbol: string }[] = await stack.db.dataSource.query(
      'SELECT m.symbol FROM watchlist_items i JOIN markets m ON m.id = i.market_id WHERE i.watchlist_id = $1 ORDER BY i."order"',
      [watchlistId],
    );
    expect(stored.map((row) => row.symbol)).toEqual(['ETHUSDT', 'BTCUSDT']);
    await page.reload();
    await page.getByRole('link', { name: 'BTCUSDT', exact: true }).waitFor();
    expect(await page.locator('.watchlist-table tbody th a').allInnerTexts()).toEqual(['ETHUSDT', 'BTCUSDT']);
  });

  it('opens the chart from the row: the canvas draws candles and volume', async () => {
    const bars = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/markets/BTCUSDT/bars');
    await page.getByRole('link', { name: 'BTCUSDT', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/charts/BTCUSDT');
    const answer = (await (await bars).json()) as { bars: unknown[]; simulated: boolean };
    expect(answer.bars).toHaveLength(300);
    expect(answer.simulated).toBe(true);
    await page.getByRole('img', { name: 'BTCUSDT 1h candlestick chart' }).waitFor();
    await page.getByText('Simulated data').first().waitFor();

    await waitUntil('the chart to draw', async () => (await drawnPixels(page)).drawn > 5_000);
    const { canvases } = await drawnPixels(page);
    expect(canvases).toBeGreaterThan(0);
    const box = await page.locator('.price-chart__canvas').boundingBox();
    expect(box?.width).toBeGreaterThan(600);
    await shot('02-chart-btc');
  });

  it('saves ETHUSDT 4 h with an SMA as the default layout', async () => {
    const search = page.getByRole('combobox', { name: 'Open a symbol' });
    await search.fill('eth');
    await page.getByRole('option', { name: /^ETHUSDT/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/charts/ETHUSDT');
    const fourHours = page.waitForResponse((response) => response.url().includes('/api/markets/ETHUSDT/bars?interval=4h'));
    await page.getByText('4 hours', { exact: true }).click();
    await fourHours;
    const add = page.getByRole('form', { name: 'Add an indicator' });
    await add.getByLabel('Indicator').selectOption('sma');
    await add.getByLabel('Period').fill('20');
    await add.getByRole('button', { name: 'Add indicator' }).click();
    await page.getByRole('list', { name: 'Indicators on the chart' }).getByText('SMA 20').waitFor();

    const save = page.getByRole('form', { name: 'Save layout' });
    await save.getByLabel('Layout name').fill('ETH swing');
    await save.getByLabel('Open this layout by default').check();
    const posted = page.waitForResponse(isApi('/api/chart-layouts', 'POST'));
    await save.getByRole('button', { name: 'Save layout' }).click();
    expect((await posted).status()).toBe(201);
    await page.getByText('Saved “ETH swing” as your default layout.').waitFor();

    const [row]: { name: string; is_default: boolean; layout: { symbol: string; interval: string; indicators: { type: string; period?: number }[] } }[] =
      await stack.db.dataSource.query('SELECT name, is_default, layout FROM chart_layouts WHERE user_id = $1', [userId]);
    expect(row).toMatchObject({ name: 'ETH swing', is_default: true, layout: { symbol: 'ETHUSDT', interval: '4h' } });
    expect(row?.layout.indicators).toEqual([{ type: 'volume' }, { type: 'sma', period: 20 }]);
  });

  it('after a reload, /dashboard/charts opens the default layout: its symbol, interval and indicators, drawn', async () => {
    await page.goto('/dashboard/charts');
    await page.waitForURL((url) => url.pathname === '/dashboard/charts/ETHUSDT');
    await page.getByRole('img', { name: 'ETHUSDT 4h candlestick chart' }).waitFor();
    expect(await page.getByRole('radio', { name: '4 hours' }).isChecked()).toBe(true);
    expect(await page.getByRole('list', { name: 'Indicators on the chart' }).innerText()).toContain('SMA 20');
    await waitUntil('the chart to draw', async () => (await drawnPixels(page)).drawn > 5_000);
    await shot('03-chart-default-layout');
  });

  it('on a fresh chart says the backfill is under way, then draws its bars when they arrive, without a reload', async () => {
    // ETHUSDT has one 1d bar (the poll's first tick) and no workers on the prices queue here, so
    // its backfill stays pending until this test writes the bars as the backfill does.
    const day = 24 * HOUR;
    await stack.db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
       SELECT id, '1d', to_timestamp(floor($2::bigint / $3::bigint) * $3::bigint / 1000.0), 3000, 3020, 2990, 3012.25, 0, 'simulated', true FROM markets WHERE symbol = $1`,
      ['ETHUSDT', now, day],
    );
    const status = page.getByRole('status').filter({ hasText: 'Fetching the rest of ETHUSDT’s 1 day history' });
    /** Opens ETHUSDT (its default layout: 4 h) and switches to 1 day; answers the first 1d bars response. */
    const openDaily = async () => {
      await page.goto('/dashboard/charts/ETHUSDT');
      await page.getByRole('img', { name: 'ETHUSDT 4h candlestick chart' }).waitFor();
      const daily = page.waitForResponse((response) => response.url().includes('/api/markets/ETHUSDT/bars?interval=1d'));
      await page.getByText('1 day', { exact: true }).click();
      return (await (await daily).json()) as { bars: unknown[]; backfill: { pending: boolean } };
    };
    /** The screen at 1440 and 390 px wide, light and dark (the theme applies on load). */
    const shotsOf = async (name: string, open: () => Promise<unknown>) => {
      for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
        for (const theme of ['light', 'dark']) {
          await page.evaluate(`localStorage.setItem('tickerbell:theme', '${theme}')`);
          await page.setViewportSize(viewport);
          await open();
          await shot(`${name}-${viewport.width}-${theme}`);
        }
      }
      await page.evaluate(`localStorage.setItem('tickerbell:theme', 'light')`);
      await page.setViewportSize(DESKTOP);
    };
    await shotsOf('04-chart-backfill-pending', async () => {
      await openDaily();
      await status.waitFor();
    });

    const answer = await openDaily();
    expect(answer.bars).toHaveLength(1);
    expect(answer.backfill).toEqual({ pending: true });
    await status.waitFor();
    await page.evaluate('window.__sameDocument = true');

    // The backfill's work: 300 daily bars stored, the job done.
    await stack.db.dataSource.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
       SELECT m.id, '1d', to_timestamp((floor($2::bigint / $3::bigint) * $3::bigint - (299 - i) * $3::bigint) / 1000.0),
              3000 + 50 * sin(i / 6.0), 3000 + 50 * sin(i / 6.0) + 40, 3000 + 50 * sin((i + 1) / 6.0) - 40, 3000 + 50 * sin((i + 1) / 6.0), 100 + i, 'simulated', true
         FROM markets m, generate_series(0, 299) AS i WHERE m.symbol = $1
       ON CONFLICT DO NOTHING`,
      ['ETHUSDT', now, day],
    );
    const backfills = await stack.queues.queue('prices').getJobs(['waiting', 'delayed', 'prioritized']);
    const job = backfills.find((candidate) => candidate.name === 'prices.backfill-bars' && candidate.data.symbol === 'ETHUSDT' && candidate.data.interval === '1d');
    expect(job).toBeDefined();
    await job?.remove();

    await waitUntil('the chart to redraw with the backfilled bars', async () => ((await page.locator('.price-chart figcaption').textContent()) ?? '').startsWith('300 1d bars of ETHUSDT'));
    await status.waitFor({ state: 'detached' });
    expect(await page.evaluate('window.__sameDocument === true')).toBe(true);
    await waitUntil('the chart to draw', async () => (await drawnPixels(page)).drawn > 5_000);
    await shotsOf('05-chart-backfilled', async () => {
      await openDaily();
      await waitUntil('the daily chart', async () => ((await page.locator('.price-chart figcaption').textContent()) ?? '').startsWith('300 1d bars of ETHUSDT'));
      await waitUntil('the chart to draw', async () => (await drawnPixels(page)).drawn > 5_000);
    });
  });

  it('raised no uncaught error in the page', () => {
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
