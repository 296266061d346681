import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addDays, lockupsToday, scoreLockup, upsertLockupOffering } from '@tickerbell/jobs/lockups';
import { parseProspectus } from '../jobs/src/lockups/prospectus.parse';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { horizontalOverflow } from './support/screen-checks';
import { isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail } from './support/journey';
import { buildWebClient } from './support/web-build';

// The lock-up journey in real Chromium against the real api, PostgreSQL and Redis. A simulated
// offering is stored as the discovery stores one: the recorded Airbnb prospectus excerpt (staged
// release, 33 % price trigger) parsed by the real parser, renamed "Acme Cloud" and dated so its first
// step ends today and the next two in 20 and 60 days, with 80 daily closes since its IPO as the
// prices feature stores simulated bars; a second offering without a readable date needs review.
// The trader opens the calendar from the dashboard, finds today's expiry, opens the event page
// (factors, clause, trigger, chart with the expiry), follows the ticker with 7 and 1 days' notice,
// and the screens are photographed at desktop and phone widths, with the loading, empty and error states.
const NAME = 'Katherine Johnson';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const ABNB = path.resolve(__dirname, '../jobs/src/lockups/data/sec_424B4_ABNB_IPO_2020-12-09_shares-eligible-lockup_excerpt.html');

describe('lock-ups end to end: real Chromium, api, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  let eventId: number;
  const today = lockupsToday(new Date());
  const email = `katherine.lockups.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `lockups-${name}`, options);

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString() });
    await stack.start();
    const db = stack.db.dataSource;

    const parsed = parseProspectus(fs.readFileSync(ABNB, 'utf8'));
    const ipoDate = addDays(today, -80);
    const outstanding = parsed.sharesOutstandingAfter ?? '597448251';
    const steps = [0, 20, 60];
    const shares = ['16800000', '27800000', '180000000'];
    const tranches = parsed.tranches.slice(0, 3).map((tranche, i) => {
      const risk = scoreLockup({ vcBacked: true, sharesLockedUp: shares[i]!, totalSharesOutstanding: outstanding, runUp: 0.42, avgVolumeRatio: 1.6, industry: 'Technology', underwriters: parsed.underwriters });
      return { tranche: i + 1, label: tranche.label, expirationDate: addDays(today, steps[i]!), sharesLockedUp: shares[i]!, riskScore: risk.score, riskFactors: risk.factors };
    });
    const offering = {
      ticker: 'ACME',
      companyName: 'Acme Cloud, Inc.',
      cik: null,
      ipoDate,
      filingDate: ipoDate,
      ipoPrice: parsed.ipoPrice,
      sharesOffered: parsed.sharesOffered,
      underwriters: parsed.underwriters,
      lockupDays: parsed.lockupDays,
      boundParties: parsed.boundParties,
      clause: parsed.clause,
      sourceAccession: null,
      sourceUrl: null,
      dataSource: 'simulated' as const,
      totalSharesOutstanding: outstanding,
      vcBacked: true,
      industry: 'Technology',
      earlyRelease: parsed.earlyRelease.map(({ description, priceMultiple, days, windowDays, sharePct }) => ({ description, priceMultiple, days, windowDays, sharePct })),
    };
    const stored = await upsertLockupOffering(db, { ...offering, offeringKey: 'simulated:ACME', reviewReason: null, tranches }, { today });
    eventId = stored.ids[0]!;
    await upsertLockupOffering(
      db,
      { ...offering, offeringKey: 'simulated:UNRD', ticker: 'UNRD', companyName: 'Unread Robotics, Inc.', reviewReason: 'the lock-up period was not read from the filing', tranches: [{ tranche: 1, label: null, expirationDate: null, sharesLockedUp: null, riskScore: 0, riskFactors: [] }] },
      { today },
    );
    // Daily closes since the IPO, as the prices jobs store simulated bars (a climb from the $68 IPO price).
    await db.query(`INSERT INTO markets (symbol, name, type) VALUES ('ACME', 'Acme Cloud, Inc.', 'stock')`);
    await db.query(
      `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated)
       SELECT m.id, '1d', ($1::date + i)::timestamptz, 70 + i * 0.3, 72 + i * 0.3, 68 + i * 0.3, 70 + i * 0.3 + 3 * sin(i / 5.0), 2000000 - i * 10000, 'simulated', true
       FROM markets m, generate_series(0, 79) AS i WHERE m.symbol = 'ACME'`,
      [ipoDate],
    );

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('lockups-console.log');
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it('shows the public next 30 days to a visitor', async () => {
    await page.goto('/research/lockups');
    await page.getByRole('heading', { level: 1, name: 'IPO lock-up expirations' }).waitFor();
    const list = page.getByRole('list', { name: /^Lock-ups expiring by/ });
    await list.getByText('Acme Cloud, Inc.').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    await shot('01-research', { fullPage: true });
  });

  it('signs up, verifies the address from the mail, and signs in', async () => {
    expect(await submitSignUp(page, { name: NAME, email, password: PASSWORD })).toBe(201);
    await verifyFromMail(page, stack, email);
    const [row]: { id: number }[] = await stack.db.dataSource.query('SELECT id FROM users WHERE email = $1', [email]);
    userId = Number(row?.id);
    await submitSignIn(page, { email, password: PASSWORD });
  });

  it('opens the calendar: today marked with its expiry, the day listed, the review list apart', async () => {
    // Held until the screenshot of the loading state is taken, then answered.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/lockups/calendar*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Lock-ups' }).click();
    await page.getByRole('heading', { level: 1, name: 'IPO lock-up expirations' }).waitFor();
    await page.getByText('Loading lock-up expirations…').waitFor();
    await shot('02-loading');
    const answered = page.waitForResponse(isApi('/api/lockups/calendar'));
    release();
    expect((await answered).status()).toBe(200);
    await page.unroute('**/api/lockups/calendar*');

    const todayCell = page.getByRole('table', { name: /^Lock-up expiries in/ }).getByRole('button', { name: /: 1 expiry, highest risk/ }).first();
    await todayCell.waitFor();
    expect(await todayCell.getAttribute('aria-pressed')).toBe('true');
    const day = page.getByRole('table', { name: /^Lock-ups expiring / });
    const row = day.locator(`tr[data-event-id="${eventId}"]`);
    await row.waitFor();
    expect(await row.locator('td[data-label="Status"]').innerText()).toContain('Simulated');
    expect(await row.locator('td[data-label="Unlocking"]').innerText()).toContain('16.8M');
    await page.getByRole('region', { name: 'Needs review (1)' }).getByRole('link', { name: 'UNRD' }).waitFor();
    await page.getByText('Replay data', { exact: true }).first().waitFor();
    await shot('03-calendar', { fullPage: true });

    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('table', { name: /^Lock-ups expiring in / }).waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBe('list');
    await shot('04-list', { fullPage: true });
    await page.getByRole('button', { name: 'Calendar' }).click();
  });

  it('opens the event page: factors with their studies, the clause, the trigger, the chart with the expiry; follows with 7 and 1 days’ notice', async () => {
    await page.getByRole('table', { name: /^Lock-ups expiring / }).locator(`tr[data-event-id="${eventId}"]`).getByRole('link', { name: 'ACME' }).click();
    await page.getByRole('heading', { level: 1, name: 'ACME Acme Cloud, Inc.' }).waitFor();
    const factors = page.getByRole('region', { name: /^Why it scores/ });
    expect(await factors.locator('li').count()).toBe(6);
    await page.getByRole('region', { name: 'The lock-up clause' }).getByText('Who is bound').waitFor();
    expect(await page.locator('.lockup-clause').innerText()).toContain('Class A common stock');
    await page.getByRole('region', { name: 'Early release' }).getByText('Not met').first().waitFor();
    const chart = page.getByRole('region', { name: 'Price since the IPO' });
    expect(await chart.getByRole('img').getAttribute('aria-label')).toMatch(/^ACME closed at \$\d+\.\d\d on .* The lock-up ends on /);
    await chart.getByText('Early-release trigger $90.44 (1.33× IPO)').waitFor();
    await page.getByRole('region', { name: 'Release steps' }).getByRole('link', { name: 'Tranche 2' }).waitFor();
    await shot('05-event', { fullPage: true });

    const follow = page.getByRole('region', { name: 'Alerts for ACME' });
    await follow.getByLabel('14 days before').uncheck();
    const created = page.waitForResponse(isApi('/api/lockups/follows', 'POST'));
    await follow.getByRole('button', { name: 'Follow ACME' }).click();
    expect((await created).status()).toBe(201);
    await follow.getByText('You follow ACME: notified 7 and 1 days before, and on the day.').waitFor();
    const stored = await stack.db.dataSource.query('SELECT kind, ticker, notice_days FROM lockup_follows WHERE user_id = $1', [userId]);
    expect(stored).toEqual([{ kind: 'ticker', ticker: 'ACME', notice_days: [7, 1] }]);
  });

  it('shows the empty and error states', async () => {
    await page.goto('/dashboard/lockups?month=2031-02');
    await page.getByText('No lock-up expiry is known for February 2031.', { exact: false }).waitFor();
    await shot('06-empty');
    await page.route('**/api/lockups/calendar*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'The database is not reachable', requestId: 'e2e' } }) }));
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByText('The lock-up calendar could not be loaded: The database is not reachable').waitFor();
    await shot('07-error');
    await page.unroute('**/api/lockups/calendar*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No lock-up expiry is known for March 2031.', { exact: false }).waitFor();
  });

  it('fits a phone: the calendar, the event page and the research page', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard/lockups');
    await page.getByRole('table', { name: /^Lock-ups expiring / }).locator(`tr[data-event-id="${eventId}"]`).waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('08-phone-calendar', { fullPage: true });
    await page.goto(`/dashboard/lockups/${eventId}`);
    await page.getByRole('region', { name: 'Alerts for ACME' }).getByText('You follow ACME', { exact: false }).waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('09-phone-event', { fullPage: true });
    await page.goto('/research/lockups');
    await page.getByRole('list', { name: /^Lock-ups expiring by/ }).waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('10-phone-research', { fullPage: true });
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
