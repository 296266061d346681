import type Redis from 'ioredis';
import { logConnectionErrors, type Logger } from '@tickerbell/jobs';
import { notificationChannel, notificationMessageSchema, type ClientNotification } from '@tickerbell/jobs/notifications';
import { latestPriceSchema, priceUpdatesChannel, type LatestPrice } from '@tickerbell/jobs/prices';
import { watchlistChangeSchema, watchlistChangesChannel } from '@tickerbell/jobs/watchlists';
import { whaleTransfersChannel } from '@tickerbell/jobs/whales';
import type { WhaleTransferView } from '@tickerbell/jobs/whales/shapes';

export interface StreamClient {
  send(notification: ClientNotification): void;
  /** A price update of a symbol on one of the user's watchlists. */
  sendPrice(price: LatestPrice): void;
  /** A whale transfer just recorded (the live feed: every open stream gets it). */
  sendWhale?(transfer: WhaleTransferView): void;
}

/** The fields a relayed whale transfer must have (the workers publish WhaleTransferView; anything else is ignored). */
function isWhaleTransfer(value: unknown): value is WhaleTransferView {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.txHash === 'string' && typeof v.from === 'string' && typeof v.blockNumber === 'string' && typeof v.explorerUrl === 'string';
}

/** The symbols a user watches (any watchlist). */
export type WatchedSymbolsLoader = (userId: number) => Promise<string[]>;

/**
 * The api instance's one subscription to the notifications, price updates, watchlist changes and
 * whale transfers channels (a whale transfer goes to every open stream as SSE `whale`). Notifications go to the open streams of their user; a price update goes to the open
 * streams of every user watching its symbol. A user's watched symbols are loaded when their first
 * stream opens and reloaded when their watchlists change (published by whoever changed them). The
 * Redis subscriber exists while at least one stream is open (so an idle instance, or a test, holds
 * no extra connection); ioredis resubscribes after a reconnect.
 */
export class NotificationStreamHub {
  private subscriber: Redis | undefined;
  private ready: Promise<void> | undefined;
  private readonly streams = new Map<number, Set<StreamClient>>();
  private count = 0;
  /** user -> watched symbols, and symbol -> watching users with an open stream (a price touches only its watchers). */
  private readonly watched = new Map<number, Set<string>>();
  private readonly watchers = new Map<string, Set<number>>();
  /** user -> the latest load asked for: an older load finishing late never overwrites a newer one. */
  private readonly loads = new Map<number, { version: number; done: Promise<void> }>();
  private loadVersion = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly watchedSymbols: WatchedSymbolsLoader = async () => [],
  ) {}

  /**
   * Resolves once the subscription is active and the user's watched symbols are loaded, so what is
   * published afterwards reaches the client.
   */
  async attach(userId: number, client: StreamClient): Promise<void> {
    let set = this.streams.get(userId);
    const firstStream = !set;
    if (!set) this.streams.set(userId, (set = new Set()));
    set.add(client);
    this.count++;
    if (!this.subscriber) {
      // A connection of its own (subscriber mode), which waits out Redis outages instead of failing fast.
      const subscriber = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
      logConnectionErrors(subscriber, this.logger, 'notification-stream');
      subscriber.on('message', (channel: string, text: string) => this.onMessage(channel, text));
      this.subscriber = subscriber;
      this.ready = subscriber
        .subscribe(notificationChannel(this.prefix), priceUpdatesChannel(this.prefix), watchlistChangesChannel(this.prefix), whaleTransfersChannel(this.prefix))
        .then(() => undefined);
      this.ready.catch(() => undefined);
    }
    await this.ready;
    // Loaded after subscribing: a watchlist change published meanwhile triggers a newer load.
    await (firstStream ? this.loadWatched(userId) : this.loads.get(userId)?.done);
  }

  detach(userId: number, client: StreamClient): void {
    const set = this.streams.get(userId);
    if (!set?.delete(client)) return;
    if (!set.size) {
      this.streams.delete(userId);
      this.setWatched(userId, []);
      this.watched.delete(userId);
      this.loads.delete(userId);
    }
    this.count--;
    if (this.count === 0 && this.subscriber) {
      this.subscriber.disconnect();
      this.subscriber = undefined;
      this.ready = undefined;
    }
  }

  /** Open streams of this instance (status and tests). */
  get size(): number {
    return this.count;
  }

  private loadWatched(userId: number): Promise<void> {
    const version = ++this.loadVersion;
    const done = this.watchedSymbols(userId).then(
      (symbols) => {
        if (this.loads.get(userId)?.version !== version || !this.streams.has(userId)) return;
        this.setWatched(userId, symbols);
      },
      (error: unknown) => {
        // The stream still carries notifications; the next watchlist change retries the load.
        this.logger.warn({ err: error instanceof Error ? error.message : String(error), userId }, 'notification stream: watched symbols not loaded');
      },
    );
    this.loads.set(userId, { version, done });
    return done;
  }

  private setWatched(userId: number, symbols: readonly string[]): void {
    for (const symbol of this.watched.get(userId) ?? []) {
      const users = this.watchers.get(symbol);
      users?.delete(userId);
      if (users && !users.size) this.watchers.delete(symbol);
    }
    const next = new Set(symbols);
    this.watched.set(userId, next);
    for (const symbol of next) {
      let users = this.watchers.get(symbol);
      if (!users) this.watchers.set(symbol, (users = new Set()));
      users.add(userId);
    }
  }

  private onMessage(channel: string, text: string): void {
    try {
      if (channel === notificationChannel(this.prefix)) {
        const parsed = notificationMessageSchema.parse(JSON.parse(text));
        for (const client of this.streams.get(parsed.userId) ?? []) client.send(parsed.notification);
      } else if (channel === priceUpdatesChannel(this.prefix)) {
        const price = latestPriceSchema.parse(JSON.parse(text));
        for (const userId of this.watchers.get(price.symbol) ?? []) {
          for (const client of this.streams.get(userId) ?? []) client.sendPrice(price);
        }
      } else if (channel === whaleTransfersChannel(this.prefix)) {
        const transfer: unknown = JSON.parse(text);
        if (!isWhaleTransfer(transfer)) throw new Error('not a whale transfer');
        for (const clients of this.streams.values()) for (const client of clients) client.sendWhale?.(transfer);
      } else if (channel === watchlistChangesChannel(this.prefix)) {
        const { userId } = watchlistChangeSchema.parse(JSON.parse(text));
        if (this.streams.has(userId)) void this.loadWatched(userId);
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), channel }, 'notification stream: message ignored');
    }
  }
}
