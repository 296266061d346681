import { QueueEvents, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { parseEnv } from '../../src/config/env';
import { mailHandlers } from '../../src/mail/mail.processor';
import { notificationsEnvSchema } from '../../src/notifications/notifications.config';
import { telegramConfigured } from '../../src/notifications/telegram.config';
import type { Mailer } from '../../src/mail/mailer';
import { setDeliveryReceipt, type DeliveryReceipt } from '../../src/notifications/delivery-receipts';
import { notificationsJobIds } from '../../src/notifications/notifications.jobs';
import { createNotificationsHandlers } from '../../src/notifications/notifications.processor';
import { notify, type NotificationRequest } from '../../src/notifications/notify';
import { TelegramBotClient, TELEGRAM_SOURCE } from '../../src/notifications/telegram.client';
import { deliverTelegram } from '../../src/notifications/telegram-delivery';
import { pollTelegramUpdates, telegramUpdatesOffsetKey } from '../../src/notifications/telegram-linking';
import { linkCodeOf, parseTelegramAnswer, sendMessageResultSchema } from '../../src/notifications/telegram.parse';
import { recordedSendMessageAnswer, startTelegramReplayServer, type TelegramReplayServer } from '../../src/notifications/telegram-replay';
import { createTelegramLinkCode, TELEGRAM_CODE_TTL_MS, telegramLinkOf } from '../../src/notifications/telegram.store';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext, JobHandler } from '../../src/runtime/job-handler';
import { JobQueues, parseJobPayload } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import type { JobName } from '../../src/registry';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';

const NOW = new Date('2026-11-23T14:30:00Z');
const GROUP_CHAT = -400123456;

describe('telegram: parsing the recorded answer and link messages (pure)', () => {
  it('reads the recorded sendMessage answer once its redacted chat id is a number', () => {
    const answer = parseTelegramAnswer(recordedSendMessageAnswer(-987654321), sendMessageResultSchema);
    expect(answer).toEqual({
      ok: true,
      result: expect.objectContaining({ message_id: 9, date: 1635877783, text: 'Hello World', chat: expect.objectContaining({ id: '-987654321', type: 'group', title: 'Logging' }) }),
    });
    if (answer.ok) expect(answer.result.from).toMatchObject({ is_bot: true, username: 'RogerLoggerBot' });
  });

  it('takes the bot token and username together or not at all, and is off without them', () => {
    const token = '123456789:AAReplayTokenForTestsOnly_abcdefghij';
    expect(() => parseEnv(notificationsEnvSchema, { TELEGRAM_BOT_TOKEN: token }, 'workers')).toThrow(/TELEGRAM_BOT_USERNAME: set TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_USERNAME together/);
    expect(() => parseEnv(notificationsEnvSchema, { TELEGRAM_BOT_TOKEN: 'not-a-token', TELEGRAM_BOT_USERNAME: 'TickerbellBot' }, 'workers')).toThrow(/TELEGRAM_BOT_TOKEN: must be a bot token/);
    const on = parseEnv(notificationsEnvSchema, { TELEGRAM_BOT_TOKEN: token, TELEGRAM_BOT_USERNAME: 'TickerbellBot' }, 'workers');
    expect(on).toMatchObject({ TELEGRAM_API_URL: 'https://api.telegram.org', TELEGRAM_TIMEOUT_MS: 10_000 });
    expect(telegramConfigured(on)).toBe(true);
    expect(telegramConfigured(parseEnv(notificationsEnvSchema, { TELEGRAM_BOT_TOKEN: '' }, 'workers'))).toBe(false);
  });

  it('finds the code in /start CODE, /start@bot CODE and a bare code, case-insensitively', () => {
    expect(linkCodeOf('/start abcd2345ef')).toEqual({ command: 'start', code: 'ABCD2345EF' });
    expect(linkCodeOf('/start@TickerbellBot ABCD2345EF ')).toEqual({ command: 'start', code: 'ABCD2345EF' });
    expect(linkCodeOf('  ABCD2345EF\n')).toEqual({ command: null, code: 'ABCD2345EF' });
    expect(linkCodeOf('/start')).toEqual({ command: 'start', code: null });
    expect(linkCodeOf('hello there')).toEqual({ command: null, code: null });
  });
});

/** The channel end to end against the fake Bot API: real PostgreSQL, Redis and a BullMQ worker. */
describe('telegram: delivery and linking (fake Bot API, real PostgreSQL, Redis and BullMQ)', () => {
  let db: TestDatabase;
  let server: TelegramReplayServer;
  let redis: Redis;
  let workerRedis: Redis;
  let queues: JobQueues;
  let worker: Worker;
  let events: QueueEvents;
  let eventsRedis: Redis;
  let context: JobContext;
  let bot: TelegramBotClient;
  const prefix = testQueuePrefix();
  const clock = fixedClock(NOW);
  let nextLog = 0;
  let nextUser = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startTelegramReplayServer({ now: () => clock.now() });
    redis = createWorkerConnection(testRedisUrl());
    workerRedis = createWorkerConnection(testRedisUrl());
    queues = new JobQueues(redis, prefix);
    context = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    bot = new TelegramBotClient({ apiUrl: server.url, token: server.token, timeoutMs: 2000, health: { dataSource: db.dataSource, clock } });
    // retry_after counts in milliseconds here, so flood control waits on BullMQ's real delayed set for ms, not s.
    const handlers = new Map<string, JobHandler>(
      createNotificationsHandlers({ pushSender: () => Promise.reject(new Error('no push in this test')), telegram: bot, telegramRetryAfterUnitMs: 1 }).map((h) => [h.name, h as JobHandler]),
    );
    // What the workers' processor does: check the payload, run the handler with the job.
    worker = new Worker(
      'notifications',
      async (job: Job) => handlers.get(job.name)!.run(parseJobPayload(job.name as JobName, job.data), { ...context, job }),
      { connection: workerRedis, prefix, concurrency: 4 },
    );
    eventsRedis = createWorkerConnection(testRedisUrl());
    events = new QueueEvents('notifications', { connection: eventsRedis, prefix });
    await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);
  });

  afterEach(async () => {
    // Each test has its own users, chats and dedupe keys: only what is shared is reset.
    server.sent.length = 0;
    await db.dataSource.query('DELETE FROM source_health');
  });

  afterAll(async () => {
    await worker.close();
    await events.close();
    eventsRedis.disconnect();
    await queues.close();
    redis.disconnect();
    workerRedis.disconnect();
    await server.close();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  async function user(email: string, name: string | null = null): Promise<number> {
    const [{ id }]: { id: number }[] = await db.dataSource.query('INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id', [`${++nextUser}.${email}`, name]);
    return id;
  }
  async function link(userId: number, chatId: number): Promise<void> {
    await db.dataSource.query(`INSERT INTO telegram_links (user_id, chat_id, username, linked_at) VALUES ($1, $2, 'ada_l', $3)`, [userId, chatId, NOW]);
  }
  /** A yield alert log of the user: the row whose telegram_sent / email_sent a receipt sets. */
  async function yieldAlertLog(userId: number): Promise<number> {
    const [{ id: poolId }] = await db.dataSource.query(
      `INSERT INTO yield_pools (pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier) VALUES ($1, 'A/B', '0xa', '0xb', 'A', 'B', 3000) RETURNING id`,
      [`pool-${++nextLog}`],
    );
    const [{ id: alertId }] = await db.dataSource.query(`INSERT INTO yield_alerts (user_id, pool_id, alert_type, threshold) VALUES ($1, $2, 'apr', 5) RETURNING id`, [userId, poolId]);
    const [{ id }] = await db.dataSource.query(`INSERT INTO yield_alert_logs (alert_id, triggered_value, threshold) VALUES ($1, 7.5, 5) RETURNING id`, [alertId]);
    return id;
  }
  const flags = async (logId: number) =>
    (await db.dataSource.query('SELECT email_sent, telegram_sent FROM yield_alert_logs WHERE id = $1', [logId]))[0] as { email_sent: boolean; telegram_sent: boolean };

  const request = (recipients: number[], telegram: NotificationRequest['channels']['telegram'], dedupeKey = 'yield:1'): NotificationRequest => ({
    recipients,
    content: { title: 'USDC/WETH APR above 5%', message: 'USDC/WETH 0.05% fee APR is 7.5%', type: 'warning', activityType: 'YIELD_ALERT', details: null },
    dedupeKey,
    channels: { push: null, email: null, telegram },
  });

  /** Notifies and waits for the Telegram job of the one notification written. */
  async function notifyAndDeliver(recipients: number[], telegram: NotificationRequest['channels']['telegram'], dedupeKey?: string) {
    const result = await notify(context, [request(recipients, telegram, dedupeKey)], { now: NOW });
    // The first recipient's row.
    const [{ id }] = await db.dataSource.query('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [recipients[0]]);
    const job = await queues.queue('notifications').getJob(notificationsJobIds.telegram(String(id)));
    return { result, job: job!, value: job ? await job.waitUntilFinished(events, 5000) : null };
  }

  it('sends the Telegram copy to linked recipients only, as plain text without link previews, and records source health', async () => {
    const ada = await user('ada@example.test', 'Ada');
    const bob = await user('bob@example.test');
    await link(ada, GROUP_CHAT);

    const { result, value } = await notifyAndDeliver([ada, bob], {});
    expect(result).toMatchObject({ inserted: 2, telegrams: 1 });
    expect(value).toEqual({ sent: true, messageId: expect.any(Number), receiptSet: false });
    expect(server.sent).toEqual([
      {
        chatId: String(GROUP_CHAT),
        text: 'USDC/WETH APR above 5%\nUSDC/WETH 0.05% fee APR is 7.5%',
        body: expect.objectContaining({ chat_id: GROUP_CHAT, disable_web_page_preview: true }),
      },
    ]);
    expect(server.sent[0].body).not.toHaveProperty('parse_mode');
    const [health] = await db.dataSource.query('SELECT source, consecutive_failures, last_success_at FROM source_health WHERE source = $1', [TELEGRAM_SOURCE]);
    expect(health).toMatchObject({ source: 'telegram', consecutive_failures: 0, last_success_at: NOW });
  });

  it("honours 429 retry_after: the job waits in BullMQ's delayed set and is sent without using an attempt", async () => {
    const ada = await user('ada@example.test', 'Ada');
    await link(ada, GROUP_CHAT);
    server.rateLimitNext(2, 40);

    const started = Date.now();
    const { job, value } = await notifyAndDeliver([ada], {});
    expect(value).toMatchObject({ sent: true });
    // Two waits of retry_after 40 (× 1 ms here): BullMQ really delayed the job twice.
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
    const finished = await queues.queue('notifications').getJob(job.id!);
    // Three runs (two put back by flood control), one attempt: the completing one.
    expect(finished!.attemptsStarted).toBe(3);
    expect(finished!.attemptsMade).toBe(1);
    expect(finished!.data.rateLimitDelays).toBe(2);
    expect(server.requests.filter((r) => r.method === 'sendMessage' && r.body.chat_id === GROUP_CHAT).length).toBeGreaterThanOrEqual(3);
    expect(server.sent).toHaveLength(1);
  });

  it('unlinks the chat when Telegram answers 403 (the bot was blocked), and sends nothing more to it', async () => {
    const ada = await user('ada@example.test', 'Ada');
    await link(ada, -400999001);
    server.block(-400999001);

    const { value } = await notifyAndDeliver([ada], {});
    expect(value).toEqual({ unlinked: 1 });
    expect(await telegramLinkOf(db.dataSource, ada)).toBeNull();
    expect(server.sent).toEqual([]);
    // The next notification finds no linked chat: no job.
    expect((await notify(context, [request([ada], {}, 'yield:2')], { now: NOW })).telegrams).toBe(0);
  });

  it('follows a group that became a supergroup (400 migrate_to_chat_id) and sends there', async () => {
    const ada = await user('ada@example.test', 'Ada');
    await link(ada, -400555001);
    server.migrate(-400555001, -1001400555001);

    const { value } = await notifyAndDeliver([ada], {});
    expect(value).toMatchObject({ sent: true, migratedTo: '-1001400555001' });
    expect((await telegramLinkOf(db.dataSource, ada))?.chatId).toBe('-1001400555001');
    expect(server.sent.map((m) => m.chatId)).toEqual(['-1001400555001']);
  });

  it('sets a delivery receipt once: a second run of the same delivery sends nothing', async () => {
    const ada = await user('ada@example.test', 'Ada');
    await link(ada, GROUP_CHAT);
    const logId = await yieldAlertLog(ada);
    const receipt: DeliveryReceipt = { target: 'yield_alert_logs.telegram_sent', id: logId };

    const { value } = await notifyAndDeliver([ada], { receipt, text: 'USDC/WETH APR is 7.5% (above 5%).' });
    expect(value).toMatchObject({ sent: true, receiptSet: true });
    expect(await flags(logId)).toEqual({ email_sent: false, telegram_sent: true });
    expect(server.sent.map((m) => m.text)).toEqual(['USDC/WETH APR is 7.5% (above 5%).']);

    // The same job run again (a retry after the send, a duplicate): the receipt says it went out.
    const [{ id }] = await db.dataSource.query('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [ada]);
    const again = await deliverTelegram({ notificationId: String(id), receipt, rateLimitDelays: 0 }, context, bot, { retryAfterUnitMs: 1 });
    expect(again).toEqual({ skipped: 'already-sent' });
    expect(server.sent).toHaveLength(1);
    expect(await setDeliveryReceipt(db.dataSource, receipt)).toBe(false);
  });

  it('the email copy sets its receipt after a successful send, and is not sent again once set', async () => {
    const ada = await user('ada@example.test', 'Ada');
    const logId = await yieldAlertLog(ada);
    const receipt: DeliveryReceipt = { target: 'yield_alert_logs.email_sent', id: logId };
    const written = await notify(
      context,
      [{ ...request([ada], null, 'yield:mail'), channels: { push: null, email: { to: 'all', text: 'Your yield alert.', receipt }, telegram: null } }],
      { now: NOW },
    );
    expect(written.emails).toBe(1);
    const [{ id }] = await db.dataSource.query('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [ada]);
    const queued = await queues.queue('mail').getJob(notificationsJobIds.mail(String(id)));
    expect(queued!.data).toMatchObject({ to: expect.stringMatching(/ada@example\.test$/), text: 'Your yield alert.', receipt });

    const sent: string[] = [];
    const mailer: Mailer = { send: async (m) => (sent.push(m.to), { messageId: 'm-1', via: 'outbox' }), close: () => undefined };
    const [mailSend] = mailHandlers;
    const payload = parseJobPayload('mail.send', queued!.data);
    expect(await mailSend.run(payload, { ...context, mailer })).toMatchObject({ messageId: 'm-1', receiptSet: true });
    expect(await flags(logId)).toEqual({ email_sent: true, telegram_sent: false });
    expect(await mailSend.run(payload, { ...context, mailer })).toEqual({ skipped: 'already sent' });
    expect(sent).toEqual([queued!.data.to]);
  });

  it('a 5xx or no answer fails the attempt (BullMQ retries with backoff) and marks the source failing', async () => {
    const ada = await user('ada@example.test', 'Ada');
    await link(ada, GROUP_CHAT);
    await notify(context, [request([ada], null, 'yield:5xx')], { now: NOW });
    const [{ id }] = await db.dataSource.query('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [ada]);
    server.failNext(1, 502);
    await expect(deliverTelegram({ notificationId: String(id), rateLimitDelays: 0 }, context, bot, { retryAfterUnitMs: 1 })).rejects.toThrow(/telegram unavailable: .*502/);
    const [health] = await db.dataSource.query('SELECT consecutive_failures, last_error FROM source_health WHERE source = $1', [TELEGRAM_SOURCE]);
    expect(health.consecutive_failures).toBe(1);
    expect(health.last_error).not.toContain(server.token);
    // Without a bot (TELEGRAM_BOT_TOKEN unset) the job does nothing.
    expect(await deliverTelegram({ notificationId: String(id), rateLimitDelays: 0 }, context, null, { retryAfterUnitMs: 1 })).toEqual({ skipped: 'not-configured' });
  });

  it('links a chat by its one-time code through getUpdates, answers in the chat, and refuses expired, used and unknown codes', async () => {
    const ada = await user('ada@example.test', 'Ada Lovelace');
    const grace = await user('grace@example.test');
    const { code } = await createTelegramLinkCode(db.dataSource, ada, NOW);
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    const { code: stale } = await createTelegramLinkCode(db.dataSource, grace, new Date(NOW.getTime() - TELEGRAM_CODE_TTL_MS - 1000));

    server.receive({ chatId: GROUP_CHAT, text: `/start ${code.toLowerCase()}`, chatUsername: 'ada_chat' });
    server.receive({ chatId: -400777002, text: stale });
    server.receive({ chatId: -400777003, text: `/start@TickerbellBot ${code}` });
    server.receive({ chatId: -400777004, text: '/start NOTACODE42' });
    const lastUpdate = server.receive({ chatId: -400777005, text: 'hello' });

    // The scheduled job, as the workers run it.
    const job = await queues.add('notifications.telegram-updates', {}, { jobId: 'telegram-updates-test' });
    expect(await job.waitUntilFinished(events, 5000)).toEqual({ updates: 5, linked: 1, refused: 3 });

    expect(await telegramLinkOf(db.dataSource, ada)).toEqual({ chatId: String(GROUP_CHAT), username: 'ada_chat', linkedAt: NOW });
    expect(await telegramLinkOf(db.dataSource, grace)).toBeNull();
    const replies = Object.fromEntries(server.sent.map((m) => [m.chatId, m.text]));
    expect(replies[String(GROUP_CHAT)]).toMatch(/^Linked to Tickerbell as Ada Lovelace\./);
    expect(replies['-400777002']).toMatch(/^This code has expired\./);
    expect(replies['-400777003']).toMatch(/^This code was already used\./);
    expect(replies['-400777004']).toMatch(/^This is not a Tickerbell code\./);
    // Chatter in a group is not answered (the bot sees only commands there anyway).
    expect(replies['-400777005']).toBeUndefined();

    // The offset moved past every update: the next read confirms them and finds nothing new.
    expect(await redis.get(telegramUpdatesOffsetKey(prefix))).toBe(String(lastUpdate + 1));
    server.sent.length = 0;
    expect(await pollTelegramUpdates(context, bot)).toEqual({ updates: 0, linked: 0, refused: 0 });
    expect(server.confirmedUpTo()).toBe(lastUpdate);
    expect(server.sent).toEqual([]);

    // A new code replaces the old one; linking another chat moves the link.
    const { code: second } = await createTelegramLinkCode(db.dataSource, ada, NOW);
    server.receive({ chatId: -400777009, text: `/start ${second}` });
    expect(await pollTelegramUpdates(context, bot)).toEqual({ updates: 1, linked: 1, refused: 0 });
    expect((await telegramLinkOf(db.dataSource, ada))?.chatId).toBe('-400777009');
    // Without a bot the job does nothing.
    expect(await pollTelegramUpdates(context, null)).toEqual({ updates: 0, linked: 0, refused: 0, status: 'not-configured' });
  });
});
