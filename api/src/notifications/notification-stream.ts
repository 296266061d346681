import type Redis from 'ioredis';
import { notificationChannel, notificationMessageSchema, type ClientNotification, type Logger } from '@tickerbell/jobs';

export interface StreamClient {
  send(notification: ClientNotification): void;
}

/**
 * The api instance's one subscription to the notifications channel, relaying each message to the
 * open streams of its user. The Redis subscriber exists while at least one stream is open (so an
 * idle instance, or a test, holds no extra connection); ioredis resubscribes after a reconnect.
 */
export class NotificationStreamHub {
  private subscriber: Redis | undefined;
  private ready: Promise<void> | undefined;
  private readonly streams = new Map<number, Set<StreamClient>>();
  private count = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the subscription is active, so what is published afterwards reaches the client. */
  async attach(userId: number, client: StreamClient): Promise<void> {
    let set = this.streams.get(userId);
    if (!set) this.streams.set(userId, (set = new Set()));
    set.add(client);
    this.count++;
    if (!this.subscriber) {
      // A connection of its own (subscriber mode), which waits out Redis outages instead of failing fast.
      const subscriber = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
      subscriber.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'notification stream: redis error'));
      subscriber.on('message', (_channel: string, text: string) => this.relay(text));
      this.subscriber = subscriber;
      this.ready = subscriber.subscribe(notificationChannel(this.prefix)).then(() => undefined);
      this.ready.catch(() => undefined);
    }
    await this.ready;
  }

  detach(userId: number, client: StreamClient): void {
    const set = this.streams.get(userId);
    if (!set?.delete(client)) return;
    if (!set.size) this.streams.delete(userId);
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

  private relay(text: string): void {
    let parsed;
    try {
      parsed = notificationMessageSchema.parse(JSON.parse(text));
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'notification stream: message ignored');
      return;
    }
    for (const client of this.streams.get(parsed.userId) ?? []) client.send(parsed.notification);
  }
}
