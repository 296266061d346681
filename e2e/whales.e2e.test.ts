import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { WHALES_CHAIN, parseTransferLogs, readCheckpoint, simulatedWhaleTransfers, whalesJobIds, whalesReplayChain, whalesReplayHead, type ParsedTransfer } from '@tickerbell/jobs/whales';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { horizontalOverflow } from './support/screen-checks';
import { dismissToast, heldToast, isApi, recordConsole, submitSignIn, submitSignUp, verifyFromMail, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The whales journey in real Chromium against the real api, PostgreSQL, Redis and workers, with the
// workers' own replay twin of an Ethereum node (no ETH_RPC_URL): its chain is a function of the
// seed and the block number, its head of the workers' clock (a block per 12 s since
// WHALES_REPLAY_EPOCH). The test rebuilds the same chain to know what the next block to scan
// holds, watches an address of it on the watchlist screen, moves the workers' clock one slot on
// and asks for a scan: the transfer arrives in the open feed over the stream, highlighted, and the
// alert arrives as an in-app notification.
const NAME = 'Ada Lovelace';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
// Sends 0.02 WETH to a Uniswap pair in every replay block (the recorded 2023 receipt's Transfer
// log); the replay's coins twin prices WETH at a simulated $3,000, so each is worth $60.
const WATCHED = '0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad';
const LABEL = 'Swapper wallet';
const SLOT_MS = 12_000;
// The workers' clock, a little after the start of a 12 s slot, at a slot whose scanned block (the
// head 12 confirmations back) and the next carry no simulated whale transfer (every
// SIMULATED_WHALE_EVERY-th replay block does): the feed starts empty and one transfer arrives.
const T0 = (() => {
  const first = whalesReplayChain().first;
  const scanned = (at: number) => whalesReplayHead(first, new Date(at)) - 12n;
  let at = Math.floor(Date.now() / SLOT_MS) * SLOT_MS + 1_000;
  while (simulatedWhaleTransfers(scanned(at)).length || simulatedWhaleTransfers(scanned(at) + 1n).length) at += SLOT_MS;
  return at;
})();

describe('whales end to end: real Chromium, api, workers, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId: number;
  /** The watched address's transfer in the block the workers scan next. */
  let coming: ParsedTransfer;
  const email = `ada.whales.${Date.now().toString(36)}@example.test`;
  let consoleLog: ReturnType<typeof recordConsole> | undefined;
  const shot = (name: string, options?: { fullPage?: boolean }) => screenshot(page, `whales-${name}`, options);
  const feedRows = () => page.getByRole('region', { name: 'Whale transfers' }).locator('tbody tr');
  const scanAt = async (at: number) => {
    stack.clock.set(new Date(at).toISOString());
    await stack.queues.add('whales.scan', {}, { jobId: whalesJobIds.scan(WHALES_CHAIN, new Date(at)) });
    await waitForQueuesIdle([stack.queues.queue('whales'), stack.queues.queue('notifications')], 20_000);
  };

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({ webDistDir, workersClockAt: new Date(T0).toISOString(), extraQueueNames: ['whales'] });
    await stack.start();
    // The first scan (no checkpoint yet) records the block at head - confirmations: the chain's
    // history starts there, before anyone watches anything.
    await scanAt(T0);
    const checkpoint = await readCheckpoint(stack.db.dataSource, WHALES_CHAIN);
    expect(checkpoint).not.toBeNull();

    // The same chain as the workers', one slot later: its next block to scan, and what it holds.
    const chain = whalesReplayChain();
    const next = checkpoint!.number + 1n;
    const head = whalesReplayHead(chain.first, new Date(T0 + SLOT_MS));
    expect(head - next).toBe(12n);
    chain.append(Number(head - chain.head));
    const transfers = parseTransferLogs(chain.rawLogs(next, next)).filter((t) => t.from === WATCHED);
    expect(transfers).toHaveLength(1);
    coming = transfers[0]!;
    expect(coming.blockNumber).toBe(next);
    // Not recorded yet.
    const [{ count }]: { count: number }[] = await stack.db.dataSource.query('SELECT count(*)::int AS count FROM whale_transactions WHERE hash = $1', [coming.txHash]);
    expect(count).toBe(0);

    context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
    page = await context.newPage();
    consoleLog = recordConsole(page);
  });

  afterAll(async () => {
    consoleLog?.save('whales-console.log');
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

  it('opens the feed: replay data, nothing large enough yet', async () => {
    const feed = page.waitForResponse(isApi('/api/whales/transfers'));
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Whales' }).click();
    await page.getByRole('heading', { level: 1, name: 'Whale transfers' }).waitFor();
    expect((await feed).status()).toBe(200);
    await page.getByText('Replay data', { exact: true }).waitFor();
    await page.getByText('No whale transfers are recorded yet.', { exact: false }).waitFor();
  });

  it('watches the address on the watchlist screen with a $50 threshold and immediate alerts', async () => {
    await page.getByRole('navigation', { name: 'Whale screens' }).getByRole('link', { name: 'Watchlist' }).click();
    await page.getByRole('heading', { level: 1, name: 'Whale watchlist' }).waitFor();
    await page.getByText('You watch no address yet.', { exact: false }).waitFor();
    const form = page.getByRole('form', { name: 'Watch an address' });
    await form.getByRole('textbox', { name: 'Address', exact: true }).fill(WATCHED);
    await form.getByLabel('Your label (optional)').fill(LABEL);
    await form.getByLabel('Alert threshold (USD)').fill('50');
    expect(await form.getByLabel('Alert me', { exact: true }).inputValue()).toBe('immediate');
    const created = page.waitForResponse(isApi('/api/whales/watchlist', 'POST'));
    await form.getByRole('button', { name: 'Watch address' }).click();
    expect((await created).status()).toBe(201);
    await page.getByText(`Watching ${LABEL}.`).waitFor();
    const table = page.getByRole('region', { name: 'Watched addresses' });
    await table.getByRole('link', { name: LABEL }).waitFor();
    const stored = await stack.db.dataSource.query(
      `SELECT a.address, w.custom_label, w.alert_enabled, w.alert_threshold, w.alert_frequency
       FROM user_watchlists w JOIN whale_addresses a ON a.id = w.address_id WHERE w.user_id = $1`,
      [userId],
    );
    expect(stored).toEqual([{ address: WATCHED, custom_label: LABEL, alert_enabled: true, alert_threshold: '50.00', alert_frequency: 'immediate' }]);
    await shot('01-watchlist');
  });

  it('sees the address’s transfer of the next block arrive live in the open feed, and the alert', async () => {
    const feed = page.waitForResponse(isApi('/api/whales/transfers'));
    await page.getByRole('navigation', { name: 'Whale screens' }).getByRole('link', { name: 'Live feed' }).click();
    expect((await feed).status()).toBe(200);
    // The block scanned before the watch holds the same transfer: the feed lists it for a watcher.
    await feedRows().first().waitFor();
    expect(await feedRows().count()).toBe(1);
    expect(await page.locator('tr.whale-row--new').count()).toBe(0);
    // A mark on this document: gone if the page reloaded.
    await page.evaluate('window.__sameDocument = true');
    await waitUntil('the live stream to subscribe', async () => (await stack.streamSubscribers()) >= 1);

    // One slot later the replay node has one more block, so the next block is confirmed: scanned,
    // its alerts written and notified, its watched transfers published to the feed.
    const held = heldToast(page, 'Whale alert: 0.02 WETH ($60.00)', 30_000);
    await scanAt(T0 + SLOT_MS);
    const rowId = `${coming.txHash}:${coming.logIndex}`;
    const fresh = page.locator(`tr.whale-row--new[data-row-id="${rowId}"]`);
    await fresh.waitFor();
    expect(await feedRows().count()).toBe(2);
    expect(await feedRows().first().getAttribute('data-row-id')).toBe(rowId);
    expect(await fresh.getByText('New', { exact: true }).count()).toBe(1);
    expect((await fresh.locator('td[data-label="Amount"]').innerText()).replace(/\s+/g, ' ')).toMatch(/^0\.02 WETH @ \$3,000(\.00)? Simulated$/);
    // The stream carries public labels only (one event for every viewer); the page puts the viewer's
    // own label on the live row, as the api does on the rows it answers.
    expect(await fresh.locator('td[data-label="From"]').innerText()).toContain(LABEL);
    expect(await feedRows().nth(1).locator('td[data-label="From"]').innerText()).toContain(LABEL);
    expect(await fresh.locator(`a[href="https://etherscan.io/tx/${coming.txHash}"]`).count()).toBe(1);
    await page.getByText('1 new transfer since you opened the page (highlighted).').waitFor();
    expect(await page.evaluate<boolean | undefined>('window.__sameDocument')).toBe(true);

    // The alert: written once, sent at once, and shown in the app as it arrives.
    const toast = await held;
    const alerts = await stack.db.dataSource.query(
      `SELECT tx_hash, log_index, status, frequency, usd_value::text AS usd_value, direction FROM whale_alerts WHERE user_id = $1`,
      [userId],
    );
    expect(alerts).toEqual([{ tx_hash: coming.txHash, log_index: coming.logIndex, status: 'sent', frequency: 'immediate', usd_value: '60.00', direction: 'outgoing' }]);
    const notifications: { title: string; message: string; details: { link?: { href: string } } }[] = await stack.db.dataSource.query(
      'SELECT title, message, details FROM notifications WHERE user_id = $1',
      [userId],
    );
    expect(notifications).toHaveLength(1);
    expect(notifications[0]!.title).toBe('Whale alert');
    // One short sentence ("0.02 WETH ($60.00) Swapper wallet (0x3fc9…7fad) → … · …"); the explorer link rides beside it.
    expect(notifications[0]!.message).toMatch(new RegExp(`^0\\.02 WETH \\(\\$60\\.00\\) ${LABEL} \\(0x3fc9…7fad\\) → .+ · `));
    expect(notifications[0]!.message.length).toBeLessThanOrEqual(140);
    expect(notifications[0]!.message).not.toContain('https://');
    expect(notifications[0]!.details.link?.href).toBe(`https://etherscan.io/tx/${coming.txHash}`);
    await shot('02-live-arrival', { fullPage: false });
    // Dismissed, so it covers nothing in the phone shots.
    await dismissToast(toast);
  });

  it('fits a phone: the feed with the new row, and the watchlist', async () => {
    await page.setViewportSize(PHONE);
    await feedRows().first().waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('03-phone-feed');
    await page.getByRole('navigation', { name: 'Whale screens' }).getByRole('link', { name: 'Watchlist' }).click();
    await page.getByRole('region', { name: 'Watched addresses' }).getByRole('link', { name: LABEL }).waitFor();
    expect(await horizontalOverflow(page)).toBeNull();
    await shot('04-phone-watchlist');
    expect(consoleLog?.pageErrors).toEqual([]);
  });
});
