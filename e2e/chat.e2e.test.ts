import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { runSeeds } from '@tickerbell/jobs/seeds';
import { launchChromium, screenshot } from './support/chromium';
import { E2eStack } from './support/e2e-stack';
import { contrastViolations, horizontalOverflow } from './support/screen-checks';
import { recordConsole, submitSignIn, submitSignUp, waitUntil } from './support/journey';
import { buildWebClient } from './support/web-build';

// The chat journey in real Chromium against the real api, PostgreSQL and Redis: two users in two
// browser contexts join the seeded General room; Ada posts with a cashtag, a mention and a bullish
// tag, Grace sees it live, replies in a thread and reacts, Ada sees both live; then Ada reads
// another room while Grace posts in General, and General's unread count rises in Ada's room list.
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe('chat end to end: two users in real Chromium, api, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const logs: { name: string; log: ReturnType<typeof recordConsole> }[] = [];
  let ada: Page;
  let grace: Page;
  const run = Date.now().toString(36);

  async function signedIn(name: string, viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport, baseURL: stack.baseUrl, reducedMotion: 'reduce' });
    contexts.push(context);
    const page = await context.newPage();
    logs.push({ name, log: recordConsole(page) });
    const email = `${name.toLowerCase().replace(/\s+/g, '.')}.chat.${run}@example.test`;
    expect(await submitSignUp(page, { name, email, password: PASSWORD })).toBe(201);
    await stack.db.dataSource.query('UPDATE users SET is_verified = true WHERE email = $1', [email]);
    await submitSignIn(page, { email, password: PASSWORD });
    await page.evaluate(`window.localStorage.setItem('tickerbell:theme', 'light')`);
    return page;
  }

  /** Opens a room from the list and joins it. */
  async function joinRoom(page: Page, name: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Chat rooms' }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 2, name }).waitFor();
    const joined = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/join'));
    await page.locator('.chat-room__tools').getByRole('button', { name: 'Join room' }).click();
    expect((await joined).status()).toBe(200);
    await page.getByRole('form', { name: `Message ${name}` }).waitFor();
  }

  const isPost = (path: RegExp) => (response: Response) => response.request().method() === 'POST' && path.test(new URL(response.url()).pathname);
  const messages = (page: Page, room: string) => page.getByRole('list', { name: `Messages in ${room}` });

  beforeAll(async () => {
    const [webDistDir, launched] = await Promise.all([buildWebClient(), launchChromium()]);
    browser = launched;
    stack = new E2eStack({ webDistDir, workersClockAt: new Date().toISOString() });
    await stack.start();
    await runSeeds(stack.db.dataSource);
    [ada, grace] = await Promise.all([signedIn('Ada Lovelace', DESKTOP), signedIn('Grace Hopper', DESKTOP)]);
  });

  afterAll(async () => {
    for (const { name, log } of logs) log.save(`chat-${name.split(' ')[0]!.toLowerCase()}-console.log`);
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it('two members chat live: a message with a cashtag and a mention, a thread reply and a reaction', async () => {
    for (const page of [ada, grace]) {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Chat' }).click();
      await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
      await joinRoom(page, 'General');
    }

    const composer = ada.getByRole('form', { name: 'Message General' });
    await composer.getByLabel('Message General').fill('Morning! $BTC holding the range, watching @GraceHopper’s levels');
    await composer.getByRole('button', { name: 'Bullish' }).click();
    const posted = ada.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/messages$/));
    await composer.getByRole('button', { name: 'Send' }).click();
    expect((await posted).status()).toBe(201);
    await messages(ada, 'General').getByText('holding the range', { exact: false }).waitFor();

    // Grace sees it without reloading: her mention stands out, the tag is there.
    const live = messages(grace, 'General').locator('.chat-message').filter({ hasText: 'holding the range' });
    await live.waitFor();
    await live.locator('.chat-mention--me').getByText('@GraceHopper').waitFor();
    await live.getByText('Bullish').waitFor();
    await screenshot(grace, 'chat-01-live-message-desktop');

    // Grace replies in the thread panel; Ada's message shows "1 reply" live.
    await live.getByRole('button', { name: 'Reply to Ada Lovelace in a thread' }).click();
    const thread = grace.getByRole('complementary', { name: 'Thread' });
    await thread.getByRole('textbox', { name: 'Reply in the thread' }).fill('Agreed, 64k is the line for me');
    await thread.getByRole('button', { name: 'Send' }).click();
    await thread.getByText('Agreed, 64k is the line for me').waitFor();
    const adaMessage = messages(ada, 'General').locator('.chat-message').filter({ hasText: 'holding the range' });
    await adaMessage.getByRole('button', { name: /^1 reply/ }).waitFor();

    // Grace reacts; Ada sees the count, and her own toggle adds to it.
    await live.locator('summary', { hasText: 'React' }).click();
    await live.getByRole('menuitem', { name: 'React with 🚀' }).click();
    await adaMessage.getByRole('button', { name: '🚀 1' }).waitFor();
    await adaMessage.getByRole('button', { name: '🚀 1' }).click();
    await live.getByRole('button', { name: '🚀 2' }).waitFor();
    await screenshot(ada, 'chat-02-thread-reaction-desktop');

    // Ada opens her reply in the thread too.
    await adaMessage.getByRole('button', { name: /^1 reply/ }).click();
    await ada.getByRole('complementary', { name: 'Thread' }).getByText('Agreed, 64k is the line for me').waitFor();
    await screenshot(ada, 'chat-03-thread-panel-desktop');
    expect(await contrastViolations(ada, '#main-content')).toEqual([]);
  });

  it('unread counts change live in the room list while another room is open', async () => {
    await joinRoom(ada, 'BTC/USDT');
    const rooms = ada.getByRole('navigation', { name: 'Chat rooms' });
    await rooms.getByRole('link', { name: 'General', exact: true }).waitFor();

    const composer = grace.getByRole('form', { name: 'Message General' });
    for (const text of ['First one while Ada is away', 'And a second, @AdaLovelace']) {
      const posted = grace.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/messages$/));
      await composer.getByLabel('Message General').fill(text);
      await composer.getByRole('button', { name: 'Send' }).click();
      expect((await posted).status()).toBe(201);
    }
    await rooms.getByRole('link', { name: 'General, 2 unread, 1 mention' }).waitFor();
    await screenshot(ada, 'chat-04-unread-desktop');

    // Opening the room lands on the divider and clears the count, on the server too.
    await rooms.getByRole('link', { name: 'General, 2 unread, 1 mention' }).click();
    await messages(ada, 'General').getByRole('separator', { name: '2 new messages' }).waitFor();
    await rooms.getByRole('link', { name: 'General', exact: true }).waitFor();
    await waitUntil('the read mark', async () => {
      const [row]: { unread: number }[] = await stack.db.dataSource.query(
        `SELECT count(*)::int AS unread FROM chat_messages m JOIN chat_room_members r ON r.room_id = m.room_id
          JOIN users u ON u.id = r.user_id WHERE u.name = 'Ada Lovelace' AND m.room_id = (SELECT id FROM chat_rooms WHERE name = 'General') AND m.id > coalesce(r.last_read_message_id, 0)`,
      );
      return row?.unread === 0;
    });

    // The mentions view lists Grace's mention.
    await ada.getByRole('navigation', { name: 'Chat screens' }).getByRole('link', { name: /^Mentions/ }).click();
    await ada.getByRole('region', { name: 'Mentions and replies' }).getByText('And a second,', { exact: false }).waitFor();
    await screenshot(ada, 'chat-05-mentions-desktop');
  });

  it('works at phone width: the list and the room are two panes that switch', async () => {
    await grace.setViewportSize(PHONE);
    await grace.goto('/dashboard/chat');
    const rooms = grace.getByRole('navigation', { name: 'Chat rooms' });
    await rooms.getByRole('link', { name: 'General', exact: true }).waitFor();
    expect(await horizontalOverflow(grace)).toBeNull();
    await screenshot(grace, 'chat-06-list-phone');
    await rooms.getByRole('link', { name: 'General', exact: true }).click();
    await messages(grace, 'General').waitFor();
    expect(await rooms.isVisible()).toBe(false);
    expect(await horizontalOverflow(grace)).toBeNull();
    await screenshot(grace, 'chat-07-room-phone', { fullPage: false });
    expect(await contrastViolations(grace, '#main-content')).toEqual([]);
    await grace.getByRole('button', { name: 'Rooms' }).click();
    await rooms.waitFor();
  });

  it('shows the loading state while the rooms load, and a failed load with Try again', async () => {
    // The rooms' answer is held until the loading state is on screen, then refused once.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await ada.route('**/api/chat/rooms', async (route) => {
      await held;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'database_unavailable', message: 'The database is unavailable; try again shortly', requestId: 'e2e' } }) });
    });
    await ada.goto('/dashboard/chat');
    await ada.getByRole('status').getByText('Loading the rooms…').waitFor();
    await screenshot(ada, 'chat-08-loading-desktop', { fullPage: false });
    release();
    const failed = ada.getByRole('navigation', { name: 'Chat rooms' }).getByRole('alert');
    await failed.getByText('The rooms could not be loaded: The database is unavailable; try again shortly').waitFor();
    await screenshot(ada, 'chat-09-error-desktop', { fullPage: false });
    await ada.unroute('**/api/chat/rooms');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await ada.getByRole('navigation', { name: 'Chat rooms' }).getByRole('link', { name: 'General', exact: true }).waitFor();
    for (const { log } of logs) expect(log.pageErrors).toEqual([]);
  });
});
