import type { Browser, BrowserContext, Page } from 'playwright-core';
import { linkIn } from '../api/test/support/smtp-capture';
import { launchChromium, pngSize, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { holdToast, isApi, recordConsole, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// A Monday, 07:50 in London (GMT): the LSE opens at 08:00, so its "opening soon" event is due. The
// user follows the default exchanges (XNYS, XNAS, XLON); nothing else of theirs is due then.
const MARKET_CLOCK_AT = '2026-11-23T07:50:00Z';
const NAME = 'Ada Lovelace';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 812 };


describe('web client end to end: real Chromium, api, workers, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  let notificationTitle = '';
  const email = `ada.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;

  const shot = async (name: string, options?: { fullPage?: boolean }) => {
    await screenshot(page, name, options);
  };
  const htmlTheme = () => page.evaluate<string | undefined>('document.documentElement.dataset.theme');
  const openAccountMenu = async () => {
    const toggle = page.getByRole('button', { name: 'Account menu' });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await page.locator('.user-menu__panel').waitFor({ state: 'visible' });
  };

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    // Assigned before it starts, so afterAll stops whatever part of it did start.
    stack = new E2eStack({ webDistDir, workersClockAt: MARKET_CLOCK_AT });
    await stack.start();
    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('browser-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it('serves the public home page from the built client, signed out', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign Up', exact: true }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Sign In', exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).isVisible()).toBe(true);
    await shot('01-home-signed-out');
  });

  it('signs up through the form and is asked to check the inbox', async () => {
    await page.goto('/sign-up');
    const form = page.getByRole('form', { name: 'Create account' });
    await form.getByLabel('Name').fill(NAME);
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await shot('02-sign-up');
    const signup = page.waitForResponse(isApi('/api/auth/signup', 'POST'));
    await form.getByRole('button', { name: 'Create Account' }).click();

    expect((await signup).status()).toBe(201);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const [row]: { id: number; is_verified: boolean }[] = await stack.db.dataSource.query('SELECT id, is_verified FROM users WHERE email = $1', [email]);
    expect(row.is_verified).toBe(false);
    userId = Number(row.id);
    await shot('03-sign-up-check-email');
  });

  it('the workers mail the verification link, and opening it verifies the address', async () => {
    const mail = await stack.smtp.waitFor(email, /Confirm your email/, 20_000);
    const link = linkIn(mail, stack.url('/api/auth/verify-email'));

    await page.goto(link.toString());

    await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.get('verified') === '1');
    await page.getByText('Your email is verified. Sign in to continue.').waitFor();
    const [row]: { is_verified: boolean }[] = await stack.db.dataSource.query('SELECT is_verified FROM users WHERE id = $1', [userId]);
    expect(row.is_verified).toBe(true);
    await shot('04-sign-in-verified');
  });

  it('signs in with the credentials, sending the csrf token it fetched, and lands on the dashboard', async () => {
    const form = page.getByRole('form', { name: 'Sign in with email' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    const csrf = page.waitForResponse(isApi('/api/auth/csrf'));
    const signIn = page.waitForResponse(isApi('/api/auth/callback/credentials', 'POST'));
    await form.getByRole('button', { name: 'Sign In' }).click();

    const { csrfToken } = (await (await csrf).json()) as { csrfToken: string };
    const response = await signIn;
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('x-csrf-token')).toBe(csrfToken);
    expect(response.request().postDataJSON()).toMatchObject({ email, csrfToken, json: true });
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${NAME}` }).waitFor();
  });

  it('shows the dashboard with the display name, the initial and the email in the header', async () => {
    const avatar = page.getByRole('link', { name: `${NAME}: open your dashboard` });
    await avatar.waitFor();
    expect((await avatar.textContent())?.trim()).toBe('A');
    await openAccountMenu();
    expect(await page.locator('.user-menu__name').textContent()).toBe(NAME);
    expect(await page.locator('.user-menu__subtitle').textContent()).toBe(email);
    expect(await page.getByRole('link', { name: 'Notifications', exact: true }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    // The followed exchanges come from the api: the defaults, imported from the bundled calendars.
    await page.getByRole('region', { name: 'Followed exchanges' }).getByText('London Stock Exchange').first().waitFor();
    await shot('05-dashboard');
  });

  it('a market notification produced by the workers arrives live as a toast and in the bell', async () => {
    // The client opened /api/stream when the session became authenticated; the api subscribes to
    // the notifications channel for it. Only then can a published notification reach the page.
    await waitUntil('the live stream to subscribe', async () => (await stack.streamSubscribers()) >= 1);
    // Caught and held the moment it shows, so the checks below never race its auto-close.
    const toastShown = holdToast(page.locator('.Toastify__toast'), 30_000);

    await stack.runMarketClock(MARKET_CLOCK_AT);

    const rows: { title: string; message: string; exchange_id: string; type: string }[] = await stack.db.dataSource.query(
      'SELECT title, message, exchange_id, type FROM notifications WHERE user_id = $1',
      [userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ exchange_id: 'XLON', type: 'warning' });
    notificationTitle = rows[0].title;
    const toast = await toastShown;
    expect((await toast.innerText()).trim()).toBe(`${rows[0].title}: ${rows[0].message}`);
    // At rest after its slide-in (held), inside the viewport.
    const box = await toast.boundingBox();
    expect(box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= DESKTOP.width && box.y + box.height <= DESKTOP.height).toBe(true);
    await shot('06-dashboard-live-toast', { fullPage: false });

    await page.locator('[data-testid="bell-unread-dot"]').waitFor({ state: 'attached' });
    // The header's bell shows the count; the account menu keeps its own bell with the list.
    await page.getByRole('link', { name: 'Notifications, 1 unread', exact: true }).waitFor();
    await openAccountMenu();
    await page.getByRole('link', { name: 'All notifications, 1 unread' }).waitFor();
    expect(await page.locator('.notification-list').first().getByText(notificationTitle).isVisible()).toBe(true);
  });

  it('marks the notification read from the bell', async () => {
    await page.getByRole('link', { name: 'All notifications, 1 unread' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/activity');
    const markRead = page.getByRole('button', { name: `Mark read: ${notificationTitle}` });
    await markRead.click();

    await markRead.waitFor({ state: 'detached' });
    await page.getByText('All read.', { exact: false }).waitFor();
    expect(await page.locator('.user-menu__toggle .unread-dot').count()).toBe(0);
    await openAccountMenu();
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await shot('07-activity-read');
  });

  it('switches the theme from the avatar menu: data-theme changes and persists after a reload', async () => {
    const before = await htmlTheme();
    expect(['light', 'dark']).toContain(before);
    const target = before === 'dark' ? 'light' : 'dark';
    await openAccountMenu();
    await page.getByRole('radio', { name: target === 'dark' ? 'Dark' : 'Light' }).check();

    await waitUntil(`data-theme="${target}"`, async () => (await htmlTheme()) === target);
    expect(await page.evaluate<string | null>(`localStorage.getItem('tickerbell:theme')`)).toBe(target);
    expect(await page.locator('meta[name="theme-color"]').first().getAttribute('content')).toBe(target === 'dark' ? '#151924' : '#ffffff');
    await page.keyboard.press('Escape');
    await shot(`08-theme-${target}`);

    await page.reload();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    expect(await htmlTheme()).toBe(target);
    await openAccountMenu();
    expect(await page.getByRole('radio', { name: target === 'dark' ? 'Dark' : 'Light' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('follows an exchange from the exchanges page, sorted by name in its region; the follow is stored and shown after a reload', async () => {
    await page.goto('/dashboard/exchanges');
    const table = page.getByRole('table', { name: 'All exchanges' });
    const follow = table.getByRole('button', { name: 'Follow Tokyo Stock Exchange', exact: true });
    await follow.waitFor();
    // Each region's exchanges (a tbody each), by the name text that starts each row header.
    type RowGroup = { querySelectorAll(selector: string): ArrayLike<{ firstChild: { textContent: string | null } | null }> };
    for (const names of await table.locator('tbody').evaluateAll((groups: RowGroup[]) =>
      groups.map((group) => Array.from(group.querySelectorAll('th[scope="row"]'), (th) => th.firstChild?.textContent ?? '')),
    )) {
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })));
    }
    const put = page.waitForResponse(isApi('/api/exchanges/XTKS/follow', 'PUT'));
    await follow.click();

    expect((await put).status()).toBe(200);
    const rows: { exchange_id: string }[] = await stack.db.dataSource.query('SELECT exchange_id FROM exchange_follows WHERE user_id = $1 ORDER BY exchange_id', [userId]);
    // The first change turns the defaults into rows of their own, and adds Tokyo.
    expect(rows.map((row) => row.exchange_id)).toEqual(['XLON', 'XNAS', 'XNYS', 'XTKS']);
    await page.reload();
    const unfollow = page.getByRole('table', { name: 'All exchanges' }).getByRole('button', { name: 'Unfollow Tokyo Stock Exchange', exact: true });
    await unfollow.waitFor();
    expect(await unfollow.getAttribute('aria-pressed')).toBe('true');
    await page.goto('/dashboard');
    await page.getByRole('table', { name: 'Followed exchanges' }).getByRole('button', { name: 'Unfollow Tokyo Stock Exchange', exact: true }).waitFor();
  });

  it('at 1440 and 390 px, light and dark, the exchanges page fits the width with every row action on screen', async () => {
    const before = await htmlTheme();
    for (const theme of ['light', 'dark']) {
      for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
        await page.setViewportSize(viewport);
        await page.evaluate(`localStorage.setItem('tickerbell:theme', '${theme}')`);
        await page.goto('/dashboard/exchanges');
        const buttons = page.getByRole('table', { name: 'All exchanges' }).getByRole('button', { name: /^(Follow|Unfollow) / });
        await buttons.first().waitFor();
        expect(await htmlTheme()).toBe(theme);
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
        for (const button of await buttons.all()) {
          const box = await button.boundingBox();
          expect([box !== null && box.x >= 0, box !== null && box.x + box.width <= viewport.width]).toEqual([true, true]);
        }
        await shot(`12-exchanges-${viewport.width}-${theme}`);
      }
    }
    await page.evaluate(`localStorage.setItem('tickerbell:theme', '${before ?? 'light'}')`);
    await page.setViewportSize(DESKTOP);
  });

  it('at 375 px the mobile menu opens, and closes when a link is chosen or on Escape', async () => {
    await page.setViewportSize(MOBILE);
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await mobileNav.isVisible()).toBe(false);

    await toggle.click();
    await mobileNav.waitFor({ state: 'visible' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await shot('09-mobile-menu-open', { fullPage: false });
    await mobileNav.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    await mobileNav.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await shot('10-mobile-pricing');

    await toggle.click();
    await mobileNav.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await mobileNav.waitFor({ state: 'hidden' });
    await page.setViewportSize(DESKTOP);
  });

  it('registers the service worker, which caches the app shell', async () => {
    const registration = await page.evaluate<{ scope: string; script: string | null }>(
      'navigator.serviceWorker.ready.then((r) => ({ scope: r.scope, script: r.active ? r.active.scriptURL : null }))',
    );
    expect(registration).toEqual({ scope: stack.url('/'), script: stack.url('/sw.js') });
    const shellCached = await page.evaluate<boolean>("caches.match('/index.html').then((r) => Boolean(r))");
    expect(shellCached).toBe(true);
  });

  it('links a valid web app manifest whose icons load', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const response = await page.request.get(stack.url(href as string));
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/(manifest\+)?json/);
    const manifest = (await response.json()) as {
      name?: string;
      short_name?: string;
      start_url?: string;
      scope?: string;
      display?: string;
      theme_color?: string;
      background_color?: string;
      icons?: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest.name).toBeTruthy();
    expect(manifest.short_name).toBeTruthy();
    expect(['standalone', 'fullscreen', 'minimal-ui']).toContain(manifest.display);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const startUrl = new URL(manifest.start_url ?? '', stack.url(href as string));
    expect(startUrl.origin).toBe(stack.baseUrl);
    expect(startUrl.pathname.startsWith(new URL(manifest.scope ?? '/', stack.baseUrl).pathname)).toBe(true);
    const start = await page.request.get(startUrl.toString());
    expect(start.status()).toBe(200);
    expect(start.headers()['content-type']).toMatch(/^text\/html/);

    const icons = manifest.icons ?? [];
    const pngSizes = icons.filter((icon) => icon.type === 'image/png').map((icon) => icon.sizes);
    expect(pngSizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of icons) {
      const file = await page.request.get(new URL(icon.src, stack.url(href as string)).toString());
      expect([icon.src, file.status()]).toEqual([icon.src, 200]);
      expect(file.headers()['content-type']).toContain(icon.type);
      if (icon.type === 'image/png') {
        const size = pngSize(await file.body());
        expect([icon.src, size && `${size.width}x${size.height}`]).toEqual([icon.src, icon.sizes]);
      }
    }
  });

  it('signs out from the avatar menu and lands on /', async () => {
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${NAME}` }).waitFor();
    await openAccountMenu();
    const signOut = page.waitForResponse(isApi('/api/auth/signout', 'POST'));
    await page.getByRole('button', { name: 'Sign Out' }).click();

    expect((await signOut).status()).toBe(200);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Sign In', exact: true }).first().waitFor();
    expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});
    await shot('11-home-after-sign-out');

    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/sign-in');
  });

  it('raised no uncaught error in the page during the whole journey', () => {
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
