import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, createWorkerConnection, type Clock } from '@tickerbell/jobs';
import { createMailer, type Mailer } from '@tickerbell/jobs/mail';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../../workers/src/runtime';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { FakeGoogle } from './fake-google';
import { SmtpCapture, linkIn } from './smtp-capture';

export const PUBLIC_URL = 'http://tickerbell.test';
export const GOOD_PASSWORD = 'correct horse battery staple';

export type Agent = ReturnType<typeof request.agent>;
const logger = pino({ level: 'silent' });

/**
 * Everything an accounts test needs, real: its own database, Redis prefix, the api, mail workers
 * sending through SMTP to an in-process server, and (optionally) the fake Google.
 */
export class AccountsHarness {
  db!: TestDatabase;
  readonly prefix = testQueuePrefix();
  readonly redis = createProducerConnection(testRedisUrl());
  readonly queues = new JobQueues(this.redis, this.prefix);
  readonly smtp = new SmtpCapture();
  readonly google = new FakeGoogle();
  private workerConnection = createWorkerConnection(testRedisUrl());
  private workerQueuesConnection = createWorkerConnection(testRedisUrl());
  private workerQueues = new JobQueues(this.workerQueuesConnection, this.prefix);
  private runtime?: WorkersRuntime;
  private mailer?: Mailer;

  async start(): Promise<this> {
    this.db = await createTestDatabase();
    const smtpUrl = await this.smtp.start();
    await this.google.start();
    this.mailer = createMailer({ smtpUrl, from: 'Tickerbell <no-reply@tickerbell.test>', outboxDir: path.join(os.tmpdir(), 'unused'), logger });
    this.runtime = await startWorkers({
      dataSource: this.db.dataSource,
      connection: this.workerConnection,
      queues: this.workerQueues,
      logger,
      mailer: this.mailer,
      queueNames: ['mail'],
      schedules: [],
    });
    return this;
  }

  app(env: Record<string, string> = {}, clock?: Clock) {
    const config = loadApiConfig({
      NODE_ENV: 'test',
      DATABASE_URL: this.db.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: this.prefix,
      PUBLIC_URL,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_SIGNIN_MAX: '1000',
      RATE_LIMIT_SIGNUP_MAX: '1000',
      RATE_LIMIT_RESET_MAX: '1000',
      ...this.google.env(),
      ...env,
    });
    return createApp({ config, dataSource: this.db.dataSource, redis: this.redis, queues: this.queues, logger, clock });
  }

  async stop(): Promise<void> {
    await this.runtime?.close();
    this.mailer?.close();
    await this.workerQueues.close();
    await this.queues.close();
    this.workerConnection.disconnect();
    // Queue.close() leaves a connection it was given open.
    this.workerQueuesConnection.disconnect();
    this.redis.disconnect();
    await this.smtp.stop();
    await this.google.stop();
    await this.db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), this.prefix);
  }
}

export async function csrfOf(agent: Agent): Promise<string> {
  const res = await agent.get('/api/auth/csrf').expect(200);
  return res.body.csrfToken as string;
}

/** The path and query of a link on the public site, to call it on the app. */
export function local(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return `${parsed.pathname}${parsed.search}`;
}

export async function signUp(agent: Agent, email: string, password = GOOD_PASSWORD, name?: string) {
  const csrfToken = await csrfOf(agent);
  return agent.post('/api/auth/signup').send({ email, password, name, csrfToken });
}

/** The Set-Cookie headers of an answer (none, one or several), as a list. */
export function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const header = res.headers['set-cookie'];
  if (header === undefined) return [];
  const list = Array.isArray(header) ? header : [header];
  if (!list.every((c): c is string => typeof c === 'string')) throw new TypeError('set-cookie: expected text');
  return list;
}

/** The Cookie header a raw http client sends to be the session these Set-Cookie headers started. */
export function cookieHeaderOf(res: { headers: Record<string, unknown> }): string {
  return setCookies(res)
    .map((c) => c.split(';')[0])
    .join('; ');
}

export async function signIn(agent: Agent, email: string, password = GOOD_PASSWORD) {
  const csrfToken = await csrfOf(agent);
  return agent.post('/api/auth/callback/credentials').send({ email, password, csrfToken, callbackUrl: '/dashboard', json: true });
}

/** Signs up, opens the verification link from the real email, signs in. Returns the user id. */
export async function signedInUser(harness: AccountsHarness, agent: Agent, email: string, name?: string): Promise<number> {
  const res = await signUp(agent, email, GOOD_PASSWORD, name);
  if (res.status !== 201) throw new Error(`sign-up of ${email} answered ${res.status}: ${res.text}`);
  const mail = await harness.smtp.waitFor(email, /Confirm your email/);
  await agent.get(local(linkIn(mail, `${PUBLIC_URL}/api/auth/verify-email`))).expect(302);
  const signedIn = await signIn(agent, email);
  if (signedIn.status !== 200) throw new Error(`sign-in of ${email} answered ${signedIn.status}: ${signedIn.text}`);
  return res.body.user.id as number;
}
