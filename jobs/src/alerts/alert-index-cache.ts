import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobContext } from '../runtime/job-handler';
import { logConnectionErrors, type Logger } from '../runtime/logger';
import { alertConditionSchema } from './alert-conditions';
import { alertChangeSchema, alertChangesChannel } from './alert-changes';
import { AlertIndex, type IndexedAlert } from './alert-index';
import { AlertPriceHistories } from './alert-price-history';
import { loadIndexRows, type IndexRow } from './alert-firings.store';

/** An indexed alert with the bar interval of a technical condition (null for price conditions). */
export type CachedAlert = IndexedAlert & { interval: string | null };

/** A stored alert as the index holds it; null when its params are not a valid condition (logged, never indexed). */
export function toIndexedAlert(row: IndexRow, logger?: Logger): CachedAlert | null {
  const parsed = alertConditionSchema.safeParse(row.params);
  if (!parsed.success) {
    logger?.warn({ alertId: row.id, issues: parsed.error.issues.map((i) => i.message) }, 'alert with an invalid condition left out of the index');
    return null;
  }
  return { id: row.id, symbol: row.symbol, condition: parsed.data, interval: row.interval };
}

/**
 * One process's alert index, kept in step with the database. Built from the database on first
 * use (so every worker start rebuilds it); a dedicated subscriber connection listens on
 * `<prefix>:alerts:changed` and reloads the alerts named there (active: upsert, gone or inactive:
 * remove). Messages that arrive while the index is being built are applied after it, and a
 * reconnect rebuilds it from scratch, since pub/sub drops what is published while disconnected.
 * The index only narrows the candidates: the evaluator re-checks every one in the database.
 */
export class AlertIndexCache {
  index = new AlertIndex();
  /** The recent prices of the symbols with moving alerts, read from Redis incrementally (kept across rebuilds). */
  readonly priceHistories = new AlertPriceHistories();
  // Bar intervals of the technical alerts (the index keeps conditions only).
  private intervals = new Map<number, string>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly dataSource: DataSource,
    private readonly subscriber: Redis,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  static async open(options: { dataSource: DataSource; redis: Redis; prefix: string; clock: Clock; logger: Logger }): Promise<AlertIndexCache> {
    // Named, so operators (CLIENT LIST) can tell it from the queue connections.
    const subscriber = options.redis.duplicate({ connectionName: `alert-index:${options.prefix}` });
    const cache = new AlertIndexCache(options.dataSource, subscriber, options.clock, options.logger);
    subscriber.on('message', (_channel: string, text: string) => cache.onMessage(text));
    logConnectionErrors(subscriber, options.logger, 'alert-index');
    let connectedBefore = false;
    subscriber.on('ready', () => {
      // ioredis re-subscribes after a reconnect, but what was published meanwhile is lost.
      if (connectedBefore) cache.enqueue(() => cache.rebuild());
      connectedBefore = true;
    });
    try {
      // Subscribe first, then build: a change published during the build is applied after it.
      await subscriber.subscribe(alertChangesChannel(options.prefix));
      await cache.rebuild();
    } catch (error) {
      subscriber.disconnect();
      throw error;
    }
    return cache;
  }

  /** Replaces the index with one built from the database. */
  async rebuild(): Promise<void> {
    const started = Date.now();
    const rows = await loadIndexRows(this.dataSource, this.clock.now());
    const alerts: IndexedAlert[] = [];
    const intervals = new Map<number, string>();
    for (const row of rows) {
      const alert = toIndexedAlert(row, this.logger);
      if (!alert) continue;
      alerts.push({ id: alert.id, symbol: alert.symbol, condition: alert.condition });
      if (alert.interval) intervals.set(alert.id, alert.interval);
    }
    this.index = AlertIndex.fromAlerts(alerts);
    this.intervals = intervals;
    this.logger.info({ alerts: this.index.size, ms: Date.now() - started }, 'alert index built');
  }

  /** Reloads these alerts from the database: active ones are upserted (re-armed), the others removed. */
  async reload(alertIds: readonly number[]): Promise<void> {
    if (!alertIds.length) return;
    const rows = await loadIndexRows(this.dataSource, this.clock.now(), alertIds);
    const found = new Set<number>();
    for (const row of rows) {
      const alert = toIndexedAlert(row, this.logger);
      if (!alert) continue;
      found.add(alert.id);
      this.upsert(alert);
    }
    for (const id of alertIds) if (!found.has(id)) this.remove(id);
  }

  /** Adds or replaces an alert (re-armed). */
  upsert(alert: CachedAlert): void {
    this.index.upsert({ id: alert.id, symbol: alert.symbol, condition: alert.condition });
    if (alert.interval) this.intervals.set(alert.id, alert.interval);
    else this.intervals.delete(alert.id);
  }

  remove(id: number): void {
    this.index.remove(id);
    this.intervals.delete(id);
  }

  /** The bar interval of an indexed technical alert. */
  intervalOf(id: number): string | null {
    return this.intervals.get(id) ?? null;
  }

  /** Resolves when every change received so far is applied (tests, and the evaluator before it reads). */
  settled(): Promise<void> {
    return this.chain;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscriber.disconnect();
    await this.chain;
  }

  private onMessage(text: string): void {
    let ids: number[];
    try {
      ids = alertChangeSchema.parse(JSON.parse(text)).alertIds;
    } catch {
      this.logger.warn({ message: text.slice(0, 200) }, 'unreadable alert change message ignored');
      return;
    }
    this.enqueue(() => this.reload(ids));
  }

  // Changes apply one after another, in the order they arrived.
  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await work();
      } catch (error) {
        // The index may now lag the database; the evaluator's re-check keeps firings right.
        this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'alert index update failed');
      }
    });
  }
}

// One cache per process, data source and queue prefix (tests run several "processes" in one).
const caches = new Map<DataSource, Map<string, Promise<AlertIndexCache>>>();

/** The process's alert index cache for this context, built on first use. */
export function alertIndexFor(context: Pick<JobContext, 'dataSource' | 'queues' | 'redis' | 'clock' | 'logger'>): Promise<AlertIndexCache> {
  let byPrefix = caches.get(context.dataSource);
  if (!byPrefix) {
    byPrefix = new Map();
    caches.set(context.dataSource, byPrefix);
  }
  const prefix = context.queues.prefix;
  let cache = byPrefix.get(prefix);
  if (!cache) {
    cache = (async () =>
      AlertIndexCache.open({
        dataSource: context.dataSource,
        redis: context.redis,
        prefix,
        clock: context.clock,
        logger: context.logger,
      }))();
    const forPrefix = byPrefix;
    cache.catch(() => forPrefix.delete(prefix));
    byPrefix.set(prefix, cache);
  }
  return cache;
}

/** Closes every alert index cache (worker shutdown, tests); the next use builds a new one. */
export async function closeAlertIndexes(dataSource?: DataSource): Promise<void> {
  const targets = dataSource ? [caches.get(dataSource)].filter((m) => m !== undefined) : [...caches.values()];
  if (dataSource) caches.delete(dataSource);
  else caches.clear();
  const all = targets.flatMap((m) => [...m.values()]);
  for (const cache of await Promise.allSettled(all)) if (cache.status === 'fulfilled') await cache.value.close();
}
