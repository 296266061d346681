import http from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, fixedClock } from '@tickerbell/jobs';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { redeemTelegramLinkCode } from '../../../jobs/src/notifications/telegram.store';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { quickUser, type SignedIn } from '../support/route-requests';

const logger = pino({ level: 'silent' });
const NOW = new Date('2026-11-23T14:30:00Z');
const BOT = { TELEGRAM_BOT_TOKEN: '123456789:AAReplayTokenForTestsOnly_abcdefghij', TELEGRAM_BOT_USERNAME: 'TickerbellTestBot' };

describe('Telegram linking api and the configured channels (real Express, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const servers: http.Server[] = [];
  let on: http.Server;
  let off: http.Server;

  const serve = (env: Record<string, string>) => {
    const config = loadApiConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent', ...env });
    const server = http.createServer(createApp({ config, dataSource: db.dataSource, redis, queues, logger, clock: fixedClock(NOW) })).listen(0);
    servers.push(server);
    return server;
  };
  let users = 0;
  const user = (server: http.Server) => quickUser(db.dataSource, server, `telegram-${++users}@example.test`);

  beforeAll(async () => {
    db = await createTestDatabase();
    on = serve({ ...BOT, SMTP_URL: 'smtp://mail.example.test:587' });
    off = serve({});
  });

  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('says which channels the server has; without a bot token Telegram is off and no code is made', async () => {
    const ada = await user(off);
    expect((await ada.agent.get('/api/notifications/channels').expect(200)).body).toEqual({ email: { configured: false }, telegram: { configured: false } });
    expect((await ada.agent.get('/api/notifications/telegram').expect(200)).body).toEqual({
      configured: false,
      botUsername: null,
      linked: false,
      chatUsername: null,
      linkedAt: null,
    });
    const refused = await ada.agent.post('/api/notifications/telegram/code').set('x-csrf-token', ada.csrf).expect(409);
    expect(refused.body.error).toMatchObject({ code: 'telegram_not_configured', message: 'Telegram is not configured on this server' });
    expect(await db.dataSource.query('SELECT 1 FROM telegram_link_codes')).toEqual([]);

    const grace = await user(on);
    expect((await grace.agent.get('/api/notifications/channels').expect(200)).body).toEqual({ email: { configured: true }, telegram: { configured: true } });
  });

  it('signed out: 401 on every Telegram route; a code needs the CSRF token', async () => {
    for (const [method, path] of [
      ['get', '/api/notifications/channels'],
      ['get', '/api/notifications/telegram'],
      ['post', '/api/notifications/telegram/code'],
      ['delete', '/api/notifications/telegram'],
    ] as const) {
      await request(on)[method](path).expect(401);
    }
    const ada = await user(on);
    await ada.agent.post('/api/notifications/telegram/code').expect(403);
  });

  it('makes a one-time code (stored hashed, 15 minutes, the earlier one void) that links the chat; unlinking clears it', async () => {
    const ada: SignedIn = await user(on);
    const bob: SignedIn = await user(on);
    const first = await ada.agent.post('/api/notifications/telegram/code').set('x-csrf-token', ada.csrf).expect(201);
    const res = await ada.agent.post('/api/notifications/telegram/code').set('x-csrf-token', ada.csrf).expect(201);
    expect(res.body).toEqual({
      code: expect.stringMatching(/^[A-Z2-9]{10}$/),
      expiresAt: new Date(NOW.getTime() + 15 * 60_000).toISOString(),
      botUsername: 'TickerbellTestBot',
      link: `https://t.me/TickerbellTestBot?start=${res.body.code}`,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const stored: { code_hash: string }[] = await db.dataSource.query('SELECT code_hash FROM telegram_link_codes WHERE user_id = $1', [ada.id]);
    expect(stored).toHaveLength(1);
    expect(stored[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].code_hash).not.toContain(res.body.code);

    // The bot receives the codes (the workers' notifications.telegram-updates does this).
    expect(await redeemTelegramLinkCode(db.dataSource, first.body.code, { chatId: '-400123456', username: 'ada_l' }, NOW)).toEqual({ status: 'unknown' });
    expect(await redeemTelegramLinkCode(db.dataSource, res.body.code, { chatId: '-400123456', username: 'ada_l' }, NOW)).toMatchObject({ status: 'linked', userId: ada.id });

    expect((await ada.agent.get('/api/notifications/telegram').expect(200)).body).toEqual({
      configured: true,
      botUsername: 'TickerbellTestBot',
      linked: true,
      chatUsername: 'ada_l',
      linkedAt: NOW.toISOString(),
    });
    // Another user sees only their own state, and their unlink touches nothing of Ada's.
    expect((await bob.agent.get('/api/notifications/telegram').expect(200)).body).toMatchObject({ linked: false });
    expect((await bob.agent.delete('/api/notifications/telegram').set('x-csrf-token', bob.csrf).expect(200)).body).toMatchObject({ linked: false });
    expect((await ada.agent.get('/api/notifications/telegram').expect(200)).body).toMatchObject({ linked: true });

    expect((await ada.agent.delete('/api/notifications/telegram').set('x-csrf-token', ada.csrf).expect(200)).body).toMatchObject({ configured: true, linked: false, chatUsername: null });
    expect(await db.dataSource.query('SELECT 1 FROM telegram_links WHERE user_id = $1', [ada.id])).toEqual([]);
  });
});
