import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { z } from 'zod';
import { JobQueues, createProducerConnection, createWorkerConnection, fixedClock, loadProcessConfig, type QueueName, type ScheduleDefinition } from '@tickerbell/jobs';
import { closeAlertIndexes } from '@tickerbell/jobs/alerts';
import { createMailer, type Mailer } from '@tickerbell/jobs/mail';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, importExchangeCalendarFile, readExchangeCalendarFile } from '@tickerbell/jobs/market-hours';
import { notificationChannel } from '@tickerbell/jobs/notifications';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../api/src/app';
import { loadApiConfig } from '../../api/src/config';
import { SmtpCapture } from '../../api/test/support/smtp-capture';
import { startWorkers, type WorkersRuntime } from '../../workers/src/runtime';

const logger = pino({ level: 'silent' });

export interface E2eStackOptions {
  /** The production build of web/ the api serves (WEB_DIST_DIR). */
  webDistDir: string;
  /** The workers' clock (the api keeps the system clock). */
  workersClockAt: string;
  /** Extra queues the workers work on (prices and alerts for the alerts journey). */
  extraQueueNames?: QueueName[];
  /** Repeatable schedules the workers register (default none). */
  schedules?: ScheduleDefinition[];
  /** Domain variables of the workers (e.g. a smaller replay), on top of the defaults. */
  workersEnv?: Record<string, string>;
  /** Variables of the api on top of the stack's (e.g. STRIPE_* for the billing journey). */
  apiEnv?: Record<string, string>;
}

/**
 * The real system for a browser test: a fresh migrated database with the exchange calendars, its
 * own Redis prefix, the api (createApp) listening on a free port of 127.0.0.1 and serving the built
 * client, and in-process workers for mail, market hours and notifications. Mail goes over SMTP to
 * an in-process capture server.
 */
export class E2eStack {
  db!: TestDatabase;
  baseUrl = '';
  readonly prefix = testQueuePrefix();
  readonly smtp = new SmtpCapture();
  readonly clock: ReturnType<typeof fixedClock>;
  private readonly redis = createProducerConnection(testRedisUrl());
  /** Producer side, as the api and the schedulers use it. */
  readonly queues = new JobQueues(this.redis, this.prefix);
  private readonly workerConnection = createWorkerConnection(testRedisUrl());
  private readonly workerQueuesConnection = createWorkerConnection(testRedisUrl());
  private readonly workerQueues = new JobQueues(this.workerQueuesConnection, this.prefix);
  private readonly server = http.createServer();
  private runtime?: WorkersRuntime;
  private mailer?: Mailer;

  constructor(private readonly options: E2eStackOptions) {
    this.clock = fixedClock(options.workersClockAt);
  }

  async start(): Promise<this> {
    this.db = await createTestDatabase();
    await importExchangeCalendarFile(this.db.dataSource, readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH));
    const smtpUrl = await this.smtp.start();

    // The port first: PUBLIC_URL (links in emails, same-origin checks) must be the browser's origin.
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    const config = loadApiConfig({
      NODE_ENV: 'test',
      DATABASE_URL: this.db.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: this.prefix,
      PUBLIC_URL: this.baseUrl,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: this.options.webDistDir,
      RATE_LIMIT_SIGNIN_MAX: '1000',
      RATE_LIMIT_SIGNUP_MAX: '1000',
      RATE_LIMIT_RESET_MAX: '1000',
      ...this.options.apiEnv,
    });
    const app = createApp({ config, dataSource: this.db.dataSource, redis: this.redis, queues: this.queues, logger });
    this.server.on('request', app);

    this.mailer = createMailer({ smtpUrl, from: 'Tickerbell <no-reply@tickerbell.test>', outboxDir: path.join(os.tmpdir(), 'unused'), logger });
    this.runtime = await startWorkers({
      dataSource: this.db.dataSource,
      connection: this.workerConnection,
      queues: this.workerQueues,
      logger,
      clock: this.clock,
      mailer: this.mailer,
      ...(this.options.workersEnv ? { domains: loadProcessConfig(z.object({}), this.options.workersEnv, 'e2e workers').domains } : {}),
      queueNames: ['mail', 'market-hours', 'notifications', ...(this.options.extraQueueNames ?? [])],
      // No repeatable schedules unless asked: the test fires the market clock itself, at the clock it sets.
      schedules: this.options.schedules ?? [],
    });
    return this;
  }

  url(pathname: string): string {
    return new URL(pathname, this.baseUrl).toString();
  }

  /** Subscribers of this stack's notifications channel: the api holds one while a stream is open. */
  async streamSubscribers(): Promise<number> {
    const [, count] = (await this.redis.pubsub('NUMSUB', notificationChannel(this.prefix))) as [string, number];
    return Number(count);
  }

  /** Sets the workers' clock and runs the market-clock job once, as the minute schedule would. */
  async runMarketClock(at: string): Promise<void> {
    this.clock.set(at);
    await this.queues.add('market-hours.clock', {});
    await waitForQueuesIdle([this.queues.queue('market-hours'), this.queues.queue('notifications')], 20_000);
  }

  async stop(): Promise<void> {
    // Open event streams would keep close() waiting forever.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.runtime?.close();
    // The alerts workers' index subscribes to alert changes on a connection of its own.
    if (this.db) await closeAlertIndexes(this.db.dataSource);
    this.mailer?.close();
    await this.workerQueues.close();
    await this.queues.close();
    // Queues built on a connection they were given leave it open: it is closed here.
    this.workerQueuesConnection.disconnect();
    this.workerConnection.disconnect();
    this.redis.disconnect();
    await this.smtp.stop();
    await this.db?.drop();
    await deleteKeysWithPrefix(testRedisUrl(), this.prefix);
  }
}
