import { Router, type Response } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import {
  NOTIFICATION_COLUMNS,
  readPushEnv,
  resolveVapidKeys,
  loadWatchedSymbols,
  productionOutboundUrlProblem,
  toClientNotification,
  type ClientNotification,
  type JobQueues,
  type LatestPrice,
  type Logger,
  type NotificationRow,
} from '@tickerbell/jobs';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';
import { NotificationStreamHub } from './notification-stream';

export const NOTIFICATIONS_PAGE_SIZE = 50;
/** SSE comment line every 25 s: proxies and browsers keep an idle stream open. */
export const STREAM_HEARTBEAT_MS = 25_000;
/** A resume sends at most this many missed notifications (the client keeps 50 anyway). */
export const STREAM_RESUME_LIMIT = 200;

export interface NotificationsRouteDeps {
  config: { NODE_ENV: 'development' | 'production' | 'test' };
  dataSource: DataSource;
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  /** Tests shorten it; default STREAM_HEARTBEAT_MS. */
  streamHeartbeatMs?: number;
}

const idParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'a notification id') });
const listQuery = z.object({ cursor: z.string().regex(/^\d{1,18}$/, 'a notification id').optional() });

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url')
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, `${bytes} bytes, base64url`);

/** A browser PushSubscription as JSON (pushManager.subscribe(...).toJSON()). */
const subscriptionBody = z.object({
  endpoint: z.url().max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
  csrfToken: z.string().optional(),
});
const unsubscribeBody = z.object({ endpoint: z.url().max(2000), csrfToken: z.string().optional() });

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

async function unreadCount(dataSource: DataSource, userId: number): Promise<number> {
  const [row]: { count: string }[] = await dataSource.query('SELECT count(*) AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL', [
    userId,
  ]);
  return Number(row.count);
}

function writeEvent(res: Response, notification: ClientNotification): void {
  res.write(`id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`);
}

/**
 * The signed-in user's notifications (list, read, read all, clear), the live stream, and web push
 * subscriptions. Every query is scoped to the session user: another user's id is a 404.
 */
export function notificationsRoutes(deps: NotificationsRouteDeps): Router {
  const { dataSource } = deps;
  const router = Router();
  const hub = new NotificationStreamHub(deps.redis, deps.queues.prefix, deps.logger, (userId) => loadWatchedSymbols(dataSource, userId));
  const pushEnv = readPushEnv();

  router.get('/notifications', requireUser, async (req, res) => {
    const { cursor } = listQuery.parse(req.query);
    const userId = sessionUser(req).id;
    const rows: NotificationRow[] = await dataSource.query(
      `SELECT ${NOTIFICATION_COLUMNS} FROM notifications
       WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $3`,
      [userId, cursor ?? null, NOTIFICATIONS_PAGE_SIZE + 1],
    );
    const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
    res.set('Cache-Control', 'no-store').json({
      notifications: page.map(toClientNotification),
      unreadCount: await unreadCount(dataSource, userId),
      nextCursor: rows.length > NOTIFICATIONS_PAGE_SIZE ? String(page[page.length - 1].id) : null,
    });
  });

  router.post('/notifications/read-all', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const [, updated]: [unknown, number] = await dataSource.query('UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL', [userId]);
    res.json({ updated, unreadCount: 0 });
  });

  router.post('/notifications/:id/read', requireUser, async (req, res) => {
    const { id } = idParam.parse(req.params);
    const userId = sessionUser(req).id;
    const [rows]: [NotificationRow[], number] = await dataSource.query(
      `UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING ${NOTIFICATION_COLUMNS}`,
      [id, userId],
    );
    if (!rows.length) throw notFound('No such notification');
    res.json({ notification: toClientNotification(rows[0]), unreadCount: await unreadCount(dataSource, userId) });
  });

  router.delete('/notifications', requireUser, async (req, res) => {
    const [, deleted]: [unknown, number] = await dataSource.query('DELETE FROM notifications WHERE user_id = $1', [sessionUser(req).id]);
    res.json({ deleted });
  });

  /**
   * Server-sent events: `notification` events with the notification id as the event id, `price`
   * events (a LatestPrice of a watched symbol, no id), a comment every 25 s. With Last-Event-ID (sent by EventSource on reconnect) the notifications written
   * after that id come first from the database; live ones arriving meanwhile wait and are sent
   * after them, each id at most once and in increasing order.
   */
  router.get('/stream', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const header = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
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
    const send = (notification: ClientNotification) => {
      const id = BigInt(notification.id);
      if (id <= lastSent) return;
      lastSent = id;
      writeEvent(res, notification);
    };
    const client = {
      send: (n: ClientNotification) => (replaying ? pending.push(n) : send(n)),
      // Prices carry no id: they are never replayed, and a resume's Last-Event-ID stays a notification id.
      sendPrice: (price: LatestPrice) => res.write(`event: price\ndata: ${JSON.stringify(price)}\n\n`),
    };
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), deps.streamHeartbeatMs ?? STREAM_HEARTBEAT_MS);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      hub.detach(userId, client);
    };
    req.on('close', close);
    try {
      await hub.attach(userId, client);
      // The first bytes go out once the subscription is live: what is published after a client
      // sees them reaches it.
      res.write('retry: 5000\n\n');
      if (resumeFrom !== null) {
        const rows: NotificationRow[] = await dataSource.query(
          `SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
          [userId, String(resumeFrom), STREAM_RESUME_LIMIT],
        );
        for (const row of rows) send(toClientNotification(row));
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
    const [row]: { id: number }[] = await dataSource.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, user_agent) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ON CONSTRAINT uq_push_subscriptions_endpoint
       DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, user_agent = EXCLUDED.user_agent, failure_count = 0
       RETURNING id`,
      [sessionUser(req).id, body.endpoint, body.keys.p256dh, body.keys.auth, req.get('user-agent')?.slice(0, 500) ?? null],
    );
    res.status(201).json({ id: row.id, endpoint: body.endpoint });
  });

  router.delete('/push/subscriptions', requireUser, async (req, res) => {
    const body = unsubscribeBody.parse(req.body);
    const [, deleted]: [unknown, number] = await dataSource.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [
      sessionUser(req).id,
      body.endpoint,
    ]);
    if (!deleted) throw notFound('No such push subscription');
    res.status(204).end();
  });

  return router;
}
