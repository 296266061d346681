import type { Job } from 'bullmq';
import type Redis from 'ioredis';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import type { TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { alertIndexFor, closeAlertIndexes } from '../../src/alerts/alert-index-cache';
import { publishAlertChanges } from '../../src/alerts/alert-changes';
import type { AlertCondition } from '../../src/alerts/alert-conditions';
import { evaluatePriceTicks } from '../../src/alerts/alert-evaluation';
import type { TriggerResult } from '../../src/alerts/alert-triggers';
import { storeQuotes } from '../../src/prices/latest-prices.store';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';

export const silentLogger = pino({ level: 'silent' });

export interface AlertOptions {
  name?: string;
  frequency?: 'once' | 'once_per_day' | 'every_time';
  cooldownSeconds?: number;
  expiresAt?: Date | null;
  notifyPush?: boolean;
  notifyEmail?: boolean;
  webhookUrl?: string | null;
  webhookSecret?: string | null;
  interval?: string | null;
  useAudio?: boolean;
  audioMessage?: string | null;
  audioVoiceId?: string | null;
  isActive?: boolean;
}

export interface AlertLogRow {
  id: string;
  alert_id: number;
  triggered_at: Date;
  value: string;
  was_notified: boolean;
  dedupe_key: string;
  message: string;
  notification_id: string | null;
  webhook_status: string | null;
  webhook_attempts: number;
  webhook_last_error: string | null;
}

/** The main threshold column of a condition (the spec's alerts.value). */
export function mainValue(condition: AlertCondition): string {
  if ('value' in condition) return condition.value;
  if ('low' in condition) return condition.low;
  if ('amount' in condition) return condition.amount;
  if ('percent' in condition) return String(condition.percent);
  if ('level' in condition) return String(condition.level);
  if ('period' in condition) return String(condition.period);
  if ('slow' in condition) return String(condition.slow);
  return '0';
}

/** Alerts, markets and users in a real database; prices and evaluations through real Redis, one prefix. */
export class AlertsHarness {
  readonly prefix = testQueuePrefix();
  readonly connection: Redis = createWorkerConnection(testRedisUrl());
  readonly queues: JobQueues;
  readonly clock = fixedClock('2026-11-23T10:00:00Z');
  readonly context: JobContext;
  private markets = new Map<string, number>();

  constructor(
    readonly db: TestDatabase,
    dataSource: DataSource = db.dataSource,
  ) {
    this.queues = new JobQueues(this.connection, this.prefix);
    this.context = { dataSource, queues: this.queues, redis: this.queues.redis, clock: this.clock, logger: silentLogger };
  }

  get dataSource(): DataSource {
    return this.context.dataSource;
  }

  async close(): Promise<void> {
    await closeAlertIndexes(this.context.dataSource);
    await this.queues.close();
    this.connection.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), this.prefix);
  }

  async user(email: string): Promise<number> {
    const [{ id }] = await this.dataSource.query('INSERT INTO users (email) VALUES ($1) RETURNING id', [email]);
    return id;
  }

  async market(symbol: string, type = 'crypto'): Promise<number> {
    const known = this.markets.get(symbol);
    if (known) return known;
    const [{ id }] = await this.dataSource.query(
      `INSERT INTO markets (symbol, name, type) VALUES ($1, $1, $2) ON CONFLICT ON CONSTRAINT uq_markets_symbol DO UPDATE SET type = EXCLUDED.type RETURNING id`,
      [symbol, type],
    );
    this.markets.set(symbol, id);
    return id;
  }

  async alert(userId: number, symbol: string, condition: AlertCondition, options: AlertOptions = {}): Promise<number> {
    const marketId = await this.market(symbol);
    const [{ id }] = await this.dataSource.query(
      `INSERT INTO alerts (user_id, market_id, name, condition, value, params, interval, frequency, cooldown_seconds, expires_at,
         notify_push, notify_email, webhook_url, webhook_secret, use_audio, audio_message, audio_voice_id, is_active)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id`,
      [
        userId,
        marketId,
        options.name ?? `${symbol} ${condition.type}`,
        condition.type,
        mainValue(condition),
        JSON.stringify(condition),
        options.interval ?? null,
        options.frequency ?? 'every_time',
        options.cooldownSeconds ?? 0,
        options.expiresAt ?? null,
        options.notifyPush ?? true,
        options.notifyEmail ?? false,
        options.webhookUrl ?? null,
        options.webhookSecret ?? null,
        options.useAudio ?? false,
        options.audioMessage ?? null,
        options.audioVoiceId ?? null,
        options.isActive ?? true,
      ],
    );
    // As the api does after its commit: every worker's index takes the new alert.
    const indexed = (options.isActive ?? true) && !(options.expiresAt && options.expiresAt <= this.clock.now());
    if (indexed) {
      const cache = await alertIndexFor(this.context);
      await this.publishChanges([id], () => cache.index.get(id) !== undefined);
    }
    return id;
  }

  /** Publishes alert changes as the api does after its commit, and waits until this process's index applied them. */
  async publishChanges(ids: number[], applied: () => boolean): Promise<void> {
    await publishAlertChanges(this.queues.redis, this.prefix, ids);
    const cache = await alertIndexFor(this.context);
    const deadline = Date.now() + 5000;
    for (;;) {
      await cache.settled();
      if (applied()) return;
      if (Date.now() > deadline) throw new Error('the alert index did not apply the change');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * A price update as the prices jobs make it: stored in Redis (latest + history), then evaluated
   * with the price it replaced. The clock moves to the tick's time.
   */
  async price(symbol: string, price: string, at: string | Date, job?: Partial<Job>): Promise<TriggerResult> {
    const when = new Date(at);
    this.clock.set(when);
    const redis = this.queues.redis;
    const [update] = await storeQuotes(redis, this.prefix, [
      { symbol, price, at: when, change24hPercent: null, volume24h: null, source: 'simulated', simulated: true },
    ]);
    if (!update) throw new Error(`price of ${symbol} at ${when.toISOString()} not newer than the stored one`);
    return evaluatePriceTicks(
      { ticks: [{ symbol, previous: update.previous, current: price, at: when.toISOString() }] },
      { ...this.context, job: job as Job | undefined },
    );
  }

  /** Prices one after another, a minute apart from `start`; returns which of them fired. */
  async sequence(symbol: string, prices: string[], start = '2026-11-23T10:00:00Z', stepMs = 60_000): Promise<number[]> {
    const fired: number[] = [];
    for (let i = 0; i < prices.length; i++) {
      const result = await this.price(symbol, prices[i], new Date(Date.parse(start) + i * stepMs));
      if (result.fired) fired.push(i);
    }
    return fired;
  }

  async logs(alertId?: number): Promise<AlertLogRow[]> {
    return this.dataSource.query(
      `SELECT id, alert_id, triggered_at, value::text AS value, was_notified, dedupe_key, message, notification_id, webhook_status,
         webhook_attempts, webhook_last_error FROM alert_logs ${alertId ? 'WHERE alert_id = $1' : ''} ORDER BY id`,
      alertId ? [alertId] : [],
    );
  }

  async alertRow(id: number): Promise<{ is_active: boolean; last_triggered: Date | null }> {
    const [row] = await this.dataSource.query('SELECT is_active, last_triggered FROM alerts WHERE id = $1', [id]);
    return row;
  }
}
