import type Redis from 'ioredis';
import { logConnectionErrors, type Logger } from '@tickerbell/jobs';
import { notificationChannel, notificationMessageSchema, type ClientNotification } from '@tickerbell/jobs/notifications';
import { latestPriceSchema, priceUpdatesChannel, type LatestPrice } from '@tickerbell/jobs/prices';
import { watchlistChangeSchema, watchlistChangesChannel } from '@tickerbell/jobs/watchlists';
import { whaleTransfersChannel } from '@tickerbell/jobs/whales';
import { chatEventsChannel, parseChatEvent, type ChatRelayEvent } from '@tickerbell/jobs/chat';
import type { ChatStreamEvent } from '@tickerbell/jobs/chat/shapes';
import type { WhaleTransferView } from '@tickerbell/jobs/whales/shapes';

export interface StreamClient {
  send(notification: ClientNotification): void;
  /** A price update of a symbol on one of the user's watchlists. */
  sendPrice(price: LatestPrice): void;
  /** A whale transfer just recorded (the live feed: every open stream gets it). */
  sendWhale?(transfer: WhaleTransferView): void;
  /** A chat event of one of the user's rooms (SSE `chat`). */
  sendChat?(event: ChatStreamEvent, data: string): void;
}

/**
 * The chat relay's needs: the rooms a user is a member of (loaded when their first stream opens,
 * then kept by the `member` events), and what to do while the user has a stream open (their
 * presence in those rooms, refreshed every `presenceRefreshMs`).
 */
export interface ChatRelayOptions {
  rooms(userId: number): Promise<number[]>;
  /** The users whose messages, edits and typing the user's streams leave out (those they blocked). */
  blocked?(userId: number): Promise<number[]>;
  online?(userId: number, roomIds: number[]): Promise<void>;
  presenceRefreshMs?: number;
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
    private readonly chat?: ChatRelayOptions,
  ) {}

  /** user -> rooms (users with an open stream here), and room -> those users: a chat event touches only its room's members. */
  private readonly chatRooms = new Map<number, Set<number>>();
  private readonly roomMembers = new Map<number, Set<number>>();
  private readonly chatLoads = new Map<number, Promise<void>>();
  /** user -> the authors they blocked (users with an open stream here). */
  private readonly blockedBy = new Map<number, Set<number>>();
  /** Chat events are handled one after another (a membership change waits for a pending load), in publication order. */
  private chatChain: Promise<void> = Promise.resolve();
  private presenceTimer: NodeJS.Timeout | undefined;

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
        .subscribe(
          notificationChannel(this.prefix),
          priceUpdatesChannel(this.prefix),
          watchlistChangesChannel(this.prefix),
          whaleTransfersChannel(this.prefix),
          chatEventsChannel(this.prefix),
        )
        .then(() => undefined);
      this.ready.catch(() => undefined);
    }
    await this.ready;
    // Loaded after subscribing: a watchlist change published meanwhile triggers a newer load.
    await Promise.all([
      firstStream ? this.loadWatched(userId) : this.loads.get(userId)?.done,
      firstStream ? this.loadChatRooms(userId) : this.chatLoads.get(userId),
    ]);
    if (firstStream && this.chat?.online) this.markOnline(userId);
    if (this.chat?.online && !this.presenceTimer) {
      this.presenceTimer = setInterval(() => {
        for (const id of this.streams.keys()) this.markOnline(id);
      }, this.chat.presenceRefreshMs ?? 30_000);
      this.presenceTimer.unref();
    }
  }

  /** Rooms of a user with an open stream here (tests). */
  chatRoomsOf(userId: number): number[] {
    return [...(this.chatRooms.get(userId) ?? [])];
  }

  private markOnline(userId: number): void {
    const rooms = this.chatRooms.get(userId);
    if (!rooms?.size || !this.chat?.online) return;
    this.chat.online(userId, [...rooms]).catch((error: unknown) => {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), userId }, 'chat presence not refreshed');
    });
  }

  private loadChatRooms(userId: number): Promise<void> {
    if (!this.chat) return Promise.resolve();
    const done = Promise.all([this.chat.rooms(userId), this.loadBlocked(userId)]).then(
      ([rooms]) => {
        if (!this.streams.has(userId)) return;
        for (const roomId of rooms) this.setChatMember(userId, roomId, true);
      },
      (error: unknown) => {
        this.logger.warn({ err: error instanceof Error ? error.message : String(error), userId }, 'notification stream: chat rooms not loaded');
      },
    );
    this.chatLoads.set(userId, done);
    return done;
  }

  /** The authors the user blocked; a failed load keeps what was known (the page hides them too). */
  private async loadBlocked(userId: number): Promise<void> {
    let blocked: number[];
    try {
      blocked = (await this.chat?.blocked?.(userId)) ?? [];
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), userId }, 'notification stream: chat blocks not loaded');
      return;
    }
    if (!this.streams.has(userId)) return;
    if (blocked.length) this.blockedBy.set(userId, new Set(blocked));
    else this.blockedBy.delete(userId);
  }

  private setChatMember(userId: number, roomId: number, joined: boolean): void {
    if (joined && !this.streams.has(userId)) return;
    let rooms = this.chatRooms.get(userId);
    let members = this.roomMembers.get(roomId);
    if (joined) {
      if (!rooms) this.chatRooms.set(userId, (rooms = new Set()));
      if (!members) this.roomMembers.set(roomId, (members = new Set()));
      rooms.add(roomId);
      members.add(userId);
    } else {
      rooms?.delete(roomId);
      members?.delete(userId);
      if (members && !members.size) this.roomMembers.delete(roomId);
    }
  }

  private async onChat(event: ChatRelayEvent): Promise<void> {
    if (event.kind === 'blocks') {
      if (this.streams.has(event.userId)) await this.loadBlocked(event.userId);
      return;
    }
    if (event.kind === 'member') {
      await this.chatLoads.get(event.userId);
      this.setChatMember(event.userId, event.roomId, event.joined);
    }
    // A read mark concerns the reader's own tabs only, a change of standing the member's own.
    const users = event.kind === 'read' || event.kind === 'standing' ? [event.userId] : [...(this.roomMembers.get(event.roomId) ?? [])];
    if (event.kind === 'member' && !event.joined) users.push(event.userId);
    if (!users.length) return;
    // Serialized once for all the room's streams; a blocked author's messages, edits and typing are left out of the blocker's.
    const data = JSON.stringify(event);
    const author = event.kind === 'message' || event.kind === 'edited' ? event.message.author?.id : event.kind === 'typing' ? event.user.id : undefined;
    for (const userId of users) {
      if (author !== undefined && this.blockedBy.get(userId)?.has(author)) continue;
      for (const client of this.streams.get(userId) ?? []) client.sendChat?.(event, data);
    }
    // A deleted room has no members left to relay to.
    if (event.kind === 'room' && event.deleted) for (const userId of users) this.setChatMember(userId, event.roomId, false);
  }

  detach(userId: number, client: StreamClient): void {
    const set = this.streams.get(userId);
    if (!set?.delete(client)) return;
    if (!set.size) {
      this.streams.delete(userId);
      this.setWatched(userId, []);
      this.watched.delete(userId);
      this.loads.delete(userId);
      for (const roomId of this.chatRooms.get(userId) ?? []) this.setChatMember(userId, roomId, false);
      this.chatRooms.delete(userId);
      this.chatLoads.delete(userId);
      this.blockedBy.delete(userId);
    }
    this.count--;
    if (this.count === 0 && this.subscriber) {
      this.subscriber.disconnect();
      this.subscriber = undefined;
      this.ready = undefined;
      clearInterval(this.presenceTimer);
      this.presenceTimer = undefined;
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
      } else if (channel === chatEventsChannel(this.prefix)) {
        const event = parseChatEvent(text);
        if (!event) throw new Error('not a chat event');
        this.chatChain = this.chatChain.then(() => this.onChat(event)).catch((error: unknown) => {
          this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'notification stream: chat event not relayed');
        });
      } else if (channel === watchlistChangesChannel(this.prefix)) {
        const { userId } = watchlistChangeSchema.parse(JSON.parse(text));
        if (this.streams.has(userId)) void this.loadWatched(userId);
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), channel }, 'notification stream: message ignored');
    }
  }
}
