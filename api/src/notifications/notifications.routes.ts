import { Router, type Response } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import type { Clock, JobQueues, Logger } from '@tickerbell/jobs';
import {
  clearNotifications,
  deletePushSubscription,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationsAfter,
  type PushEnv,
  resolveVapidKeys,
  savePushSubscription,
  toClientNotification,
  unreadNotificationCount,
  type ClientNotification,
} from '@tickerbell/jobs/notifications';
import type { LatestPrice } from '@tickerbell/jobs/prices';
import { productionOutboundUrlProblem } from '@tickerbell/jobs/sources';
import { loadWatchedSymbols } from '@tickerbell/jobs/watchlists';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';
import { hiddenAuthorIds, memberRoomIds, refreshPresence } from '@tickerbell/jobs/chat';
import type { ChatStreamEvent } from '@tickerbell/jobs/chat/shapes';
import { chatDepsOf } from '../chat/chat.routes';
import { NotificationStreamHub } from './notification-stream';
import { telegramRoutes, type TelegramRouteDeps } from './telegram.routes';

export const NOTIFICATIONS_PAGE_SIZE = 50;
/** SSE comment line every 25 s: proxies and browsers keep an idle stream open. */
export const STREAM_HEARTBEAT_MS = 25_000;
/** A resume sends at most this many missed notifications (the client keeps 50 anyway). */
export const STREAM_RESUME_LIMIT = 200;

export interface NotificationsRouteDeps {
  /** The push and Telegram settings (VAPID keys and subject, NODE_ENV, the bot), validated at start with the rest. */
  config: PushEnv & TelegramRouteDeps['config'];
  dataSource: DataSource;
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  /** Tests shorten it; default STREAM_HEARTBEAT_MS. */
  streamHeartbeatMs?: number;
  clock?: Clock;
  /** Telegram linking needs a plan with Telegram (the app's one Entitlements). */
  entitlements: TelegramRouteDeps['entitlements'];
}

export const idParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'a notification id') });
export const listQuery = z.object({ cursor: z.string().regex(/^\d{1,18}$/, 'a notification id').optional() });
/** `?lastEventId=` for clients that cannot send the Last-Event-ID header; anything else is ignored (a fresh stream). */
export const streamQuery = z.object({ lastEventId: z.string().regex(/^\d{1,18}$/).optional().catch(undefined) });

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url')
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, `${bytes} bytes, base64url`);

/** A browser PushSubscription as JSON (pushManager.subscribe(...).toJSON()). */
export const subscriptionBody = z.object({
  endpoint: z.url().max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
  csrfToken: z.string().optional(),
});
export const unsubscribeBody = z.object({ endpoint: z.url().max(2000), csrfToken: z.string().optional() });

/**
 * Push services are https. In production an endpoint must also not name localhost or a private
 * address (the same rule as alert webhooks; the push sender checks resolved addresses too). Plain
 * http is accepted only for a push endpoint on this machine outside production (local testing).
 */
function checkEndpoint(endpoint: string, production: boolean): void {
  const url = new URL(endpoint);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  const problem = production
    ? productionOutboundUrlProblem(endpoint)
    : url.protocol === 'https:' || (url.protocol === 'http:' && local)
      ? null
      : 'must be an https URL';
  if (problem) throw new HttpError(400, 'validation_failed', 'Invalid input: endpoint', [{ field: 'endpoint', message: problem }]);
}

const notificationEvent = (notification: ClientNotification) => `id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`;

/**
 * One stream's output. Every event of a turn of the event loop goes out in ONE write: when the
 * process is busy, the Redis messages it reads arrive together (a chat room at 10 messages a
 * second, price ticks, notifications), and one socket write per stream instead of one per event
 * is most of what relaying costs (each write is a chunk of its own, a writev). Order is kept; an
 * idle stream's event leaves at the end of the turn that produced it.
 */
class StreamWriter {
  private chunks: string[] = [];
  private scheduled = false;

  constructor(private readonly res: Response) {}

  write(text: string): void {
    this.chunks.push(text);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const text = this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
    this.chunks = [];
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(text);
  };
}

/**
 * The signed-in user's notifications (list, read, read all, clear), the live stream, and web push
 * subscriptions. Every query is scoped to the session user: another user's id is a 404.
 */
export function notificationsRoutes(deps: NotificationsRouteDeps): Router {
  const { dataSource } = deps;
  const router = Router();
  // Chat: the rooms of a user with an open stream get their events (SSE `chat`), and the user is online there.
  const chat = chatDepsOf({ ...deps, config: deps.config as Record<string, unknown> });
  const hub = new NotificationStreamHub(deps.redis, deps.queues.prefix, deps.logger, (userId) => loadWatchedSymbols(dataSource, userId), {
    rooms: (userId) => memberRoomIds(dataSource, userId, chat().now),
    blocked: async (userId) => [...(await hiddenAuthorIds(dataSource, userId))],
    online: (userId, roomIds) => refreshPresence(chat(), userId, roomIds),
    presenceRefreshMs: Math.max(1000, (chat().config.CHAT_PRESENCE_TTL_SECONDS * 1000) / 2),
  });
  const pushEnv = deps.config;

  router.get('/notifications', requireUser, async (req, res) => {
    const { cursor } = listQuery.parse(req.query);
    const userId = sessionUser(req).id;
    const rows = await listNotifications(dataSource, userId, { beforeId: cursor ?? null, limit: NOTIFICATIONS_PAGE_SIZE + 1 });
    const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
    res.set('Cache-Control', 'no-store').json({
      notifications: page.map(toClientNotification),
      unreadCount: await unreadNotificationCount(dataSource, userId),
      nextCursor: rows.length > NOTIFICATIONS_PAGE_SIZE ? String(page[page.length - 1].id) : null,
    });
  });

  router.post('/notifications/read-all', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const updated = await markAllNotificationsRead(dataSource, userId);
    res.json({ updated, unreadCount: 0 });
  });

  router.post('/notifications/:id/read', requireUser, async (req, res) => {
    const { id } = idParam.parse(req.params);
    const userId = sessionUser(req).id;
    const row = await markNotificationRead(dataSource, userId, id);
    if (!row) throw notFound('No such notification');
    res.json({ notification: toClientNotification(row), unreadCount: await unreadNotificationCount(dataSource, userId) });
  });

  router.delete('/notifications', requireUser, async (req, res) => {
    res.json({ deleted: await clearNotifications(dataSource, sessionUser(req).id) });
  });

  /**
   * Server-sent events: `notification` events with the notification id as the event id, `price`
   * events (a LatestPrice of a watched symbol, no id), a comment every 25 s. With Last-Event-ID (sent by EventSource on reconnect) the notifications written
   * after that id come first from the database; live ones arriving meanwhile wait and are sent
   * after them, each id at most once and in increasing order.
   */
  router.get('/stream', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const header = req.get('last-event-id') ?? streamQuery.parse(req.query).lastEventId;
    const resumeFrom = header && /^\d{1,18}$/.test(header) ? BigInt(header) : null;
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();

    let lastSent = resumeFrom ?? 0n;
    let replaying = true;
    const pending: ClientNotification[] = [];
    const out = new StreamWriter(res);
    const send = (notification: ClientNotification) => {
      const id = BigInt(notification.id);
      if (id <= lastSent) return;
      lastSent = id;
      out.write(notificationEvent(notification));
    };
    const client = {
      send: (n: ClientNotification) => (replaying ? pending.push(n) : send(n)),
      // Prices carry no id: they are never replayed, and a resume's Last-Event-ID stays a notification id.
      sendPrice: (price: LatestPrice) => out.write(`event: price\ndata: ${JSON.stringify(price)}\n\n`),
      // The whales live feed: like prices, no id and never replayed.
      sendWhale: (transfer: unknown) => out.write(`event: whale\ndata: ${JSON.stringify(transfer)}\n\n`),
      // Chat events: no id either (a room's history resumes by message id: GET .../messages?after=).
      sendChat: (_event: ChatStreamEvent, data: string) => out.write(`event: chat\ndata: ${data}\n\n`),
    };
    const heartbeat = setInterval(() => out.write(': heartbeat\n\n'), deps.streamHeartbeatMs ?? STREAM_HEARTBEAT_MS);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      hub.detach(userId, client);
    };
    // The response's close: the request's own fires as soon as a body sent with the GET was read.
    res.on('close', close);
    try {
      await hub.attach(userId, client);
      // The first bytes go out once the subscription is live: what is published after a client
      // sees them reaches it.
      out.write('retry: 5000\n\n');
      if (resumeFrom !== null) {
        for (const row of await notificationsAfter(dataSource, userId, String(resumeFrom), STREAM_RESUME_LIMIT)) send(toClientNotification(row));
      }
      replaying = false;
      pending.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).forEach(send);
      pending.length = 0;
    } catch (error) {
      deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'notification stream failed to start');
      close();
      res.end();
    }
  });

  router.get('/push/public-key', async (_req, res) => {
    const keys = await resolveVapidKeys(deps.redis, deps.queues.prefix, pushEnv);
    res.json({ publicKey: keys.publicKey });
  });

  router.post('/push/subscriptions', requireUser, async (req, res) => {
    const body = subscriptionBody.parse(req.body);
    checkEndpoint(body.endpoint, deps.config.NODE_ENV === 'production');
    // The endpoint identifies a browser: re-subscribing (or another user signing in on it) takes it over.
    const id = await savePushSubscription(dataSource, {
      userId: sessionUser(req).id,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
    });
    res.status(201).json({ id, endpoint: body.endpoint });
  });

  router.delete('/push/subscriptions', requireUser, async (req, res) => {
    const body = unsubscribeBody.parse(req.body);
    const deleted = await deletePushSubscription(dataSource, sessionUser(req).id, body.endpoint);
    if (!deleted) throw notFound('No such push subscription');
    res.status(204).end();
  });

  // The channels this server has, and the user's Telegram link.
  router.use(telegramRoutes(deps));

  return router;
}
