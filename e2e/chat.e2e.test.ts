import { request, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
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
// Then Ada moderates General: a third member's message that Grace reports is deleted from the
// reports queue, Grace is muted (her composer says until when) and unmuted from the audit log.
// Last, Ada makes a private room of her own, invites Grace with a one-use link (the link then says it
// is not valid) and appoints her a moderator, which Grace's open page shows at once.
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe('chat end to end: two users in real Chromium, api, PostgreSQL and Redis', () => {
  let stack: E2eStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const apiContexts: APIRequestContext[] = [];
  const logs: { name: string; log: ReturnType<typeof recordConsole> }[] = [];
  let ada: Page;
  let grace: Page;
  /** The private room the invite step makes (and the delete step deletes). */
  let macroDeskId = 0;
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

  /**
   * A member without a browser, for the messages of a third person: signs up, is verified in the
   * database and signs in through the api; `post` sends with the session's CSRF token.
   */
  async function apiMember(name: string): Promise<{ post: (path: string, data?: unknown) => Promise<APIResponse> }> {
    const api = await request.newContext({ baseURL: stack.baseUrl });
    apiContexts.push(api);
    const csrf = async () => ((await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
    const email = `${name.toLowerCase().replace(/\s+/g, '.')}.chat.${run}@example.test`;
    expect((await api.post('/api/auth/signup', { data: { name, email, password: PASSWORD, csrfToken: await csrf() } })).status()).toBe(201);
    await stack.db.dataSource.query('UPDATE users SET is_verified = true WHERE email = $1', [email]);
    expect((await api.post('/api/auth/callback/credentials', { data: { email, password: PASSWORD, csrfToken: await csrf(), json: true } })).status()).toBe(200);
    const token = await csrf();
    return { post: (path, data) => api.post(path, { data: data ?? {}, headers: { 'x-csrf-token': token } }) };
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
    for (const api of apiContexts) await api.dispose().catch(() => undefined);
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

  it('a moderator deletes a reported message, mutes a member with a rule, unmutes them and reads the audit log', async () => {
    const db = stack.db.dataSource;
    const [{ id: roomId }]: { id: number }[] = await db.query(`SELECT id FROM chat_rooms WHERE name = 'General'`);
    const [{ id: adaId }]: { id: number }[] = await db.query(`SELECT id FROM users WHERE name = 'Ada Lovelace'`);
    // General is a seeded room with no owner, so nobody in the app can appoint its moderators: Ada is
    // made General's moderator by a direct update of her membership row in the test's database (her
    // page learns her role when it next reads the room list).
    await db.query(`UPDATE chat_room_members SET role = 'moderator' WHERE room_id = $1 AND user_id = $2`, [roomId, adaId]);

    // Ada goes back from her mentions to the rooms, whose list now gives her the role: the room shows her the Moderation button.
    await ada.getByRole('navigation', { name: 'Chat screens' }).getByRole('link', { name: 'Rooms' }).click();
    await ada.getByRole('navigation', { name: 'Chat rooms' }).getByRole('link', { name: 'General', exact: true }).click();
    await messages(ada, 'General').waitFor();
    const moderation = ada.locator('.chat-room__tools').getByRole('button', { name: 'Moderation' });
    await moderation.waitFor();

    // A third member posts a pump through the api; Grace (still at phone width) sees it live and reports it.
    const pump = await apiMember('Pump Signals');
    expect((await pump.post(`/api/chat/rooms/${roomId}/join`)).status()).toBe(200);
    await grace.getByRole('navigation', { name: 'Chat rooms' }).getByRole('link', { name: 'General', exact: true }).click();
    await messages(grace, 'General').waitFor();
    const spamText = '$PEPE 100x guaranteed tonight, get in before it pumps';
    const postedSpam = await pump.post(`/api/chat/rooms/${roomId}/messages`, { text: spamText });
    expect(postedSpam.status()).toBe(201);
    const spamId = ((await postedSpam.json()) as { message: { id: string } }).message.id;
    const spamAtGrace = messages(grace, 'General').locator(`[data-message-id="${spamId}"]`);
    await spamAtGrace.getByText('100x guaranteed', { exact: false }).waitFor();
    await spamAtGrace.locator('summary', { hasText: 'More' }).click();
    await spamAtGrace.getByRole('menuitem', { name: 'Report' }).click();
    const reportDialog = grace.getByRole('dialog', { name: 'Report Pump Signals’s message' });
    await reportDialog.getByLabel('What is wrong with it?').fill('Pump and dump shilling');
    await screenshot(grace, 'chat-10-report-dialog-phone', { fullPage: false });
    const reported = grace.waitForResponse(isPost(/^\/api\/chat\/messages\/\d+\/report$/));
    await reportDialog.getByRole('button', { name: 'Send report' }).click();
    expect((await reported).status()).toBe(201);
    await grace.getByText('Thank you: the room’s moderators will look at the report.').waitFor();
    // Ada's open page counts it on her Moderation button at once.
    await ada.locator('.chat-room__tools').getByRole('button', { name: /^Moderation\W+1 open report$/ }).waitFor();

    // Ada opens the Moderation panel: the report is in the queue.
    await moderation.click();
    const panel = ada.getByRole('complementary', { name: 'Moderation' });
    const report = panel.getByRole('region', { name: 'Reports' }).getByRole('listitem').filter({ hasText: 'Grace Hopper reported Pump Signals' });
    await report.getByText(spamText).waitFor();
    await report.getByText('Reason: Pump and dump shilling').waitFor();
    await screenshot(ada, 'chat-11-moderation-reports-desktop', { fullPage: false });
    expect(await contrastViolations(ada, '.chat-side')).toEqual([]);

    // Deleting it from the queue asks which rule it breaks first; then the queue empties and both rooms
    // show the message as removed, live at Grace's.
    await report.getByRole('button', { name: 'Delete message…' }).click();
    const confirm = report.getByRole('group', { name: 'Delete the reported message' });
    await confirm.getByLabel('Rule it breaks (recorded in the audit log)').selectOption('pump_and_dump');
    const deleted = ada.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/moderation$/));
    await confirm.getByRole('button', { name: 'Delete for pump and dump' }).click();
    expect((await deleted).status()).toBe(201);
    await panel.getByText('No open reports.').waitFor();
    await ada.locator('.chat-room__tools').getByRole('button', { name: 'Moderation', exact: true }).waitFor();
    await messages(ada, 'General').locator(`[data-message-id="${spamId}"]`).getByText('Removed by a moderator').waitFor();
    await spamAtGrace.getByText('Removed by a moderator').waitFor();
    await panel.getByRole('button', { name: 'Resolved' }).click();
    await panel.getByRole('listitem').filter({ hasText: 'Grace Hopper reported Pump Signals' }).getByText('Removed by a moderator').waitFor();

    // Grace snaps at the spammer; Ada mutes her for 10 minutes, citing the harassment rule.
    const snap = '@PumpSignals you are a scammer and everyone here knows it';
    const graceComposer = grace.getByRole('form', { name: 'Message General' });
    await graceComposer.getByLabel('Message General').fill(snap);
    const snapped = grace.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/messages$/));
    await graceComposer.getByRole('button', { name: 'Send' }).click();
    expect((await snapped).status()).toBe(201);
    const snapAtAda = messages(ada, 'General').locator('.chat-message').filter({ hasText: 'you are a scammer' });
    await snapAtAda.locator('summary', { hasText: 'More' }).click();
    await snapAtAda.getByRole('menuitem', { name: 'Mute Grace Hopper…' }).click();
    const muteDialog = ada.getByRole('dialog', { name: 'Mute Grace Hopper' });
    await muteDialog.getByLabel('For', { exact: true }).selectOption({ label: '10 minutes' });
    await muteDialog.getByLabel('Rule broken').selectOption({ label: 'Harassment' });
    await muteDialog.getByLabel('Reason (optional)').fill('Keep it civil, report instead');
    await screenshot(ada, 'chat-12-mute-dialog-desktop', { fullPage: false });
    const muted = ada.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/moderation$/));
    await muteDialog.getByRole('button', { name: 'Mute', exact: true }).click();
    expect((await muted).status()).toBe(201);
    await ada.getByText('Muted Grace Hopper (Harassment).').waitFor();
    const [{ until }]: { until: Date }[] = await db.query(`SELECT until FROM chat_moderation_actions WHERE room_id = $1 AND action = 'mute'`, [roomId]);
    // The end as the page writes it (formatUntil: the time today, with the day after midnight).
    const untilText = await grace.evaluate((iso) => {
      const date = new Date(iso);
      const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' }).format(date);
      return date.toDateString() === new Date().toDateString() ? time : `${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(date)} ${time}`;
    }, until.toISOString());

    // Grace's open page learns of the mute live (a `standing` event to her own streams): her composer
    // gives way to until when, without a reload or a refused post.
    await grace.locator('.chat-composer--disabled').getByText(`A moderator muted you in this room until ${untilText}. You can still read it.`).waitFor();
    expect(await grace.getByRole('form', { name: 'Message General' }).count()).toBe(0);
    await screenshot(grace, 'chat-13-muted-composer-phone', { fullPage: false });

    // The audit log lists the mute with its rule and end, and lifts it.
    await panel.getByRole('button', { name: 'Audit log' }).click();
    const audit = panel.getByRole('list', { name: 'Audit log' });
    const muteEntry = audit.getByRole('listitem').filter({ hasText: `Ada Lovelace · Muted Grace Hopper until ${untilText}` });
    await muteEntry.getByText('Harassment · Keep it civil, report instead ·', { exact: false }).waitFor();
    await audit.getByRole('listitem').filter({ hasText: 'Ada Lovelace · Deleted a message by Pump Signals' }).waitFor();
    await screenshot(ada, 'chat-14-moderation-audit-desktop', { fullPage: false });
    const unmuted = ada.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/moderation$/));
    await muteEntry.getByRole('button', { name: 'Unmute Grace Hopper' }).click();
    expect((await unmuted).status()).toBe(201);
    await audit.getByRole('listitem').first().getByText('Ada Lovelace · Unmuted Grace Hopper').waitFor();
    expect(await audit.getByRole('button', { name: 'Unmute Grace Hopper' }).count()).toBe(0);
    expect(await audit.getByRole('listitem').count()).toBe(3);
    // Unmuted, Grace's composer is back in her open page (live again).
    await graceComposer.waitFor();
    expect(await grace.locator('.chat-composer--disabled').count()).toBe(0);

    // At phone width the panel is a sheet over the room that fits the screen.
    await ada.setViewportSize(PHONE);
    expect(await horizontalOverflow(ada)).toBeNull();
    await screenshot(ada, 'chat-15-moderation-audit-phone', { fullPage: false });
    await panel.getByRole('button', { name: 'Reports' }).click();
    await panel.getByRole('button', { name: 'Resolved' }).click();
    await panel.getByRole('listitem').filter({ hasText: 'Grace Hopper reported Pump Signals' }).waitFor();
    expect(await horizontalOverflow(ada)).toBeNull();
    await screenshot(ada, 'chat-16-moderation-reports-phone', { fullPage: false });
    expect(await contrastViolations(ada, '.chat-side')).toEqual([]);
    await panel.getByRole('button', { name: 'Close moderation' }).click();
    await ada.setViewportSize(DESKTOP);

    // What the database recorded: three actions by Ada, the report resolved by her, the mute lifted
    // (posting again after an unmute is jobs/test/chat/moderation.test.ts' case; Grace's page shows it on its next load).
    const actions: { action: string; moderator: string; target: string | null; message_id: string | null; rule: string | null; reason: string | null }[] = await db.query(
      `SELECT a.action, m.name AS moderator, t.name AS target, a.message_id::text, a.rule, a.reason
         FROM chat_moderation_actions a JOIN users m ON m.id = a.moderator_id LEFT JOIN users t ON t.id = a.target_user_id
        WHERE a.room_id = $1 ORDER BY a.id`,
      [roomId],
    );
    expect(actions).toEqual([
      { action: 'delete_message', moderator: 'Ada Lovelace', target: 'Pump Signals', message_id: spamId, rule: 'pump_and_dump', reason: null },
      { action: 'mute', moderator: 'Ada Lovelace', target: 'Grace Hopper', message_id: null, rule: 'harassment', reason: 'Keep it civil, report instead' },
      { action: 'unmute', moderator: 'Ada Lovelace', target: 'Grace Hopper', message_id: null, rule: null, reason: null },
    ]);
    const minutes = (until.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(8);
    expect(minutes).toBeLessThanOrEqual(10);
    expect(
      await db.query(
        `SELECT p.status, r.name AS reporter, s.name AS resolved_by, c.deleted_by, c.message FROM chat_reports p JOIN chat_messages c ON c.id = p.message_id
           JOIN users r ON r.id = p.reporter_id LEFT JOIN users s ON s.id = p.resolved_by WHERE p.message_id = $1`,
        [spamId],
      ),
    ).toEqual([{ status: 'resolved', reporter: 'Grace Hopper', resolved_by: 'Ada Lovelace', deleted_by: 'moderator', message: '' }]);
    expect(await db.query(`SELECT muted_until FROM chat_room_members m JOIN users u ON u.id = m.user_id WHERE m.room_id = $1 AND u.name = 'Grace Hopper'`, [roomId])).toEqual([{ muted_until: null }]);
  });

  it('a member makes a private room, invites by a one-use link, and appoints the newcomer a moderator', async () => {
    const db = stack.db.dataSource;
    const ROOM = 'Macro desk';

    // Ada (desktop) opens New room from the list; a name that another room has in other letters is refused under the field.
    await ada.getByRole('navigation', { name: 'Chat rooms' }).getByRole('button', { name: 'New room' }).click();
    const dialog = ada.getByRole('dialog', { name: 'New room' });
    const name = dialog.getByLabel('Name', { exact: true });
    await name.fill('gENERAL');
    const refused = ada.waitForResponse(isPost(/^\/api\/chat\/rooms$/));
    await dialog.getByRole('button', { name: 'Create room' }).click();
    expect((await refused).status()).toBe(409);
    await dialog.locator('.form-field__error').getByText('A room named “gENERAL” already exists: choose another name').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await ada.evaluate(`document.activeElement?.getAttribute('aria-invalid') + ' ' + document.activeElement?.getAttribute('name')`)).toBe('true name');
    await screenshot(ada, 'chat-17-new-room-taken-desktop', { fullPage: false });

    await name.fill(ROOM);
    await dialog.getByLabel('Description (optional)').fill('Rates, FX and the Fed: the desk’s own notes');
    await dialog.getByRole('checkbox', { name: 'Private: members join by invite link' }).check();
    const created = ada.waitForResponse(isPost(/^\/api\/chat\/rooms$/));
    await dialog.getByRole('button', { name: 'Create room' }).click();
    expect((await created).status()).toBe(201);
    const roomId = ((await (await created).json()) as { id: number }).id;
    await ada.waitForURL((url) => url.pathname === `/dashboard/chat/${roomId}`);
    await ada.getByRole('heading', { level: 2, name: ROOM }).waitFor();
    await ada.getByRole('form', { name: `Message ${ROOM}` }).waitFor();
    await ada.locator('.chat-room__meta').getByText('1 member', { exact: true }).waitFor();

    // Invite people: a one-use link, shown in full once, listed among the active links.
    await ada.locator('.chat-room__tools').getByRole('button', { name: 'Invite people' }).click();
    const invitePanel = ada.getByRole('complementary', { name: 'Invite people' });
    await invitePanel.getByLabel('Uses').selectOption({ label: '1 use' });
    const made = ada.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/invites$/));
    await invitePanel.getByRole('button', { name: 'Create link' }).click();
    expect((await made).status()).toBe(201);
    const linkField = invitePanel.getByLabel('New invite link');
    const link = await linkField.inputValue();
    // The link takes focus, selected, ready to copy.
    expect(await ada.evaluate(`(() => { const field = document.activeElement; return field?.tagName === 'TEXTAREA' && field.selectionStart === 0 && field.selectionEnd === field.value.length ? field.value : null; })()`)).toBe(link);
    expect(link).toMatch(new RegExp(`^${stack.baseUrl}/dashboard/chat/join/[A-Za-z0-9_-]{16,64}$`));
    await invitePanel.getByRole('list', { name: 'Active invite links' }).getByText('0 of 1 use').waitFor();
    await screenshot(ada, 'chat-18-invite-link-desktop', { fullPage: false });
    expect(await contrastViolations(ada, '.chat-side')).toEqual([]);
    await ada.setViewportSize(PHONE);
    expect(await horizontalOverflow(ada)).toBeNull();
    await screenshot(ada, 'chat-19-invite-link-phone', { fullPage: false });
    await ada.setViewportSize(DESKTOP);

    // Grace (phone) opens the link: the preview, then Join lands her in the room.
    await grace.goto(link);
    const card = grace.getByRole('region', { name: ROOM });
    await card.getByText('You are invited to').waitFor();
    await card.getByText('Private room · 1 member', { exact: false }).waitFor();
    expect(await horizontalOverflow(grace)).toBeNull();
    await screenshot(grace, 'chat-20-join-preview-phone', { fullPage: false });
    expect(await contrastViolations(grace, '#main-content')).toEqual([]);
    const accepted = grace.waitForResponse(isPost(/^\/api\/chat\/invites\/[^/]+\/accept$/));
    await card.getByRole('button', { name: 'Join room' }).click();
    expect((await accepted).status()).toBe(200);
    await grace.waitForURL((url) => url.pathname === `/dashboard/chat/${roomId}`);
    const graceComposer = grace.getByRole('form', { name: `Message ${ROOM}` });
    await graceComposer.waitFor();

    // Ada's open room counts her live, and her used-up link leaves the active links.
    await ada.locator('.chat-room__meta').getByText('2 members', { exact: true }).waitFor();
    await invitePanel.getByText('No active link.', { exact: false }).waitFor();
    await invitePanel.getByRole('status').getByText('Your new link has been used up: it lets nobody else in.').waitFor();
    expect(await invitePanel.getByLabel('New invite link').count()).toBe(0);

    // Grace posts; Ada sees it live and, as the owner, makes her a moderator from its More menu.
    await graceComposer.getByLabel(`Message ${ROOM}`).fill('Thanks for the invite: flat $ETH into the Fed');
    const posted = grace.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/messages$/));
    await graceComposer.getByRole('button', { name: 'Send' }).click();
    expect((await posted).status()).toBe(201);
    const graceAtAda = messages(ada, ROOM).locator('.chat-message').filter({ hasText: 'flat $ETH into the Fed' });
    await graceAtAda.waitFor();
    // Grace's page must learn of her new role without a reload: a mark on its window survives only if it does.
    await grace.evaluate(`window.__chatE2eNoReload = true`);
    await graceAtAda.locator('summary', { hasText: 'More' }).click();
    const promoted = ada.waitForResponse(isPost(/^\/api\/chat\/rooms\/\d+\/moderation$/));
    await graceAtAda.getByRole('menuitem', { name: 'Make moderator' }).click();
    expect((await promoted).status()).toBe(201);
    await ada.getByRole('status').getByText(`Grace Hopper is now a moderator of ${ROOM}.`).waitFor();
    const graceTools = grace.locator('.chat-room__tools');
    await graceTools.getByRole('button', { name: 'Moderation' }).waitFor();
    await graceTools.getByRole('button', { name: 'Invite people' }).waitFor();
    expect(await grace.evaluate(`window.__chatE2eNoReload === true`)).toBe(true);

    // Ada's Members panel: the owner, then the new moderator; the owner may remove her from there.
    await ada.locator('.chat-room__tools').getByRole('button', { name: 'Members' }).click();
    const members = ada.getByRole('list', { name: 'Members of the room' });
    await members.getByRole('button', { name: 'Remove moderator: Grace Hopper' }).waitFor();
    expect((await members.getByRole('listitem').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Ada Lovelace (you) · Owner',
      'Grace Hopper · Moderator Remove moderator Make owner…',
    ]);
    expect(await contrastViolations(ada, '.chat-side')).toEqual([]);
    await screenshot(ada, 'chat-22-members-desktop', { fullPage: false });
    await ada.getByRole('button', { name: 'Close members' }).click();

    // The link is used up: opened again, it is not valid (even for Grace, a member now).
    await grace.goto(link);
    const invalid = grace.getByRole('region', { name: 'Invite link' });
    await invalid.getByRole('alert').getByText('This invite link is not valid (expired, revoked or used up).').waitFor();
    await invalid.getByRole('link', { name: 'go back to the chat rooms' }).waitFor();
    expect(await horizontalOverflow(grace)).toBeNull();
    await screenshot(grace, 'chat-21-invite-invalid-phone', { fullPage: false });

    // What the database recorded.
    expect(await db.query(`SELECT r.is_private, u.name AS created_by FROM chat_rooms r JOIN users u ON u.id = r.created_by WHERE r.id = $1`, [roomId])).toEqual([
      { is_private: true, created_by: 'Ada Lovelace' },
    ]);
    expect(await db.query(`SELECT u.name, m.role FROM chat_room_members m JOIN users u ON u.id = m.user_id WHERE m.room_id = $1 ORDER BY u.name`, [roomId])).toEqual([
      { name: 'Ada Lovelace', role: 'owner' },
      { name: 'Grace Hopper', role: 'moderator' },
    ]);
    expect(await db.query(`SELECT i.max_uses, i.uses, i.revoked_at, u.name AS created_by FROM chat_room_invites i JOIN users u ON u.id = i.created_by WHERE i.room_id = $1`, [roomId])).toEqual([
      { max_uses: 1, uses: 1, revoked_at: null, created_by: 'Ada Lovelace' },
    ]);
    expect(
      await db.query(
        `SELECT a.action, m.name AS moderator, t.name AS target FROM chat_moderation_actions a JOIN users m ON m.id = a.moderator_id JOIN users t ON t.id = a.target_user_id WHERE a.room_id = $1`,
        [roomId],
      ),
    ).toEqual([{ action: 'promote', moderator: 'Ada Lovelace', target: 'Grace Hopper' }]);
    macroDeskId = roomId;
  });

  it('the owner deletes the room after a confirmation; a member who has it open is taken back to the list and told', async () => {
    const ROOM = 'Macro desk';
    await grace.goto(`/dashboard/chat/${macroDeskId}`);
    await grace.getByRole('form', { name: `Message ${ROOM}` }).waitFor();

    // Room settings: making the room public says what it would do (not saved here).
    await ada.locator('.chat-room__tools').getByRole('button', { name: 'Room settings' }).click();
    const settings = ada.getByRole('dialog', { name: 'Room settings' });
    await settings.getByRole('checkbox', { name: 'Private: members join by invite link' }).uncheck();
    await settings.getByText('Anyone signed in will read and join it, and its invite links stop working.').waitFor();
    expect(await contrastViolations(ada, '.chat-dialog')).toEqual([]);
    await screenshot(ada, 'chat-23-room-settings-desktop', { fullPage: false });
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await settings.waitFor({ state: 'detached' });

    await ada.locator('.chat-room__tools').getByRole('button', { name: 'Delete room…' }).click();
    const confirm = ada.getByRole('alertdialog', { name: `Delete “${ROOM}”?` });
    await confirm.getByText('and its 1 other member loses it. This cannot be undone.', { exact: false }).waitFor();
    expect(await ada.evaluate(`document.activeElement?.textContent`)).toBe('Cancel');
    expect(await contrastViolations(ada, '.chat-dialog')).toEqual([]);
    await screenshot(ada, 'chat-24-delete-room-desktop', { fullPage: false });
    const deleted = ada.waitForResponse((response) => response.request().method() === 'DELETE' && new URL(response.url()).pathname === `/api/chat/rooms/${macroDeskId}`);
    await confirm.getByRole('button', { name: 'Delete room' }).click();
    expect((await deleted).status()).toBe(204);

    await ada.waitForURL((url) => url.pathname === '/dashboard/chat');
    await ada.getByRole('status').getByText(`You deleted “${ROOM}”.`).waitFor();
    await grace.waitForURL((url) => url.pathname === '/dashboard/chat');
    await grace.getByRole('status').getByText(`“${ROOM}” was deleted by its owner.`).waitFor();
    for (const page of [ada, grace]) expect(await page.getByRole('navigation', { name: 'Chat rooms' }).getByRole('link', { name: new RegExp(ROOM) }).count()).toBe(0);
    expect(await horizontalOverflow(grace)).toBeNull();
    await screenshot(grace, 'chat-25-room-deleted-phone', { fullPage: false });
    expect(await stack.db.dataSource.query(`SELECT id FROM chat_rooms WHERE id = $1`, [macroDeskId])).toEqual([]);
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
