import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, systemClock } from '../../src/index';
import { mailHandlers } from '../../src/mail/mail.processor';
import { createMailer } from '../../src/mail/mailer';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';

describe('mail', () => {
  const logger = pino({ level: 'silent' });
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-outbox-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes each message as an .eml file in the outbox when SMTP is not configured', async () => {
    const mailer = createMailer({ from: 'Tickerbell <no-reply@tickerbell.test>', outboxDir: dir, logger });
    const delivery = await mailer.send({ to: 'ada@example.com', subject: 'Confirm your email address', text: 'Open https://tickerbell.test/x' });
    expect(delivery.via).toBe('outbox');
    const eml = fs.readFileSync(delivery.file!, 'utf8');
    expect(eml).toContain('To: ada@example.com');
    expect(eml).toContain('Subject: Confirm your email address');
    expect(eml).toContain('From: Tickerbell <no-reply@tickerbell.test>');
    expect(fs.readdirSync(dir)).toHaveLength(1);
  });

  describe('the mail.send processor', () => {
    let db: TestDatabase;
    const prefix = testQueuePrefix();
    const redis = createProducerConnection(testRedisUrl());
    const queues = new JobQueues(redis, prefix);
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await queues.close();
      redis.disconnect();
      await db.drop();
      await deleteKeysWithPrefix(testRedisUrl(), prefix);
    });

    it('sends through the context mailer, and fails for good without one', async () => {
      const [handler] = mailHandlers;
      const mailer = createMailer({ from: 'a@b.test', outboxDir: dir, logger });
      const context = { dataSource: db.dataSource, queues, redis: queues.redis, clock: systemClock, logger };
      const message = { to: 'x@example.com', subject: 'Hi', text: 'Body' };
      await expect(handler.run(message, { ...context, mailer })).resolves.toMatchObject({ via: 'outbox' });
      await expect(handler.run(message, context)).rejects.toThrow('no mailer');
    });

    it('refuses a payload without a recipient when it is enqueued', async () => {
      await expect(queues.add('mail.send', { to: 'not-an-email', subject: 'x', text: 'y' })).rejects.toThrow(/to/);
    });
  });
});
