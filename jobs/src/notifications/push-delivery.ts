import type Redis from 'ioredis';
import type { JobPayload } from '../registry';
import type { Clock } from '../runtime/clock';
import type { JobContext } from '../runtime/job-handler';
import type { Logger } from '../runtime/logger';
import { countDeliveries } from '../runtime/metrics';
import { toClientNotification } from './notification-content';
import { MAX_PUSH_ATTEMPTS, notificationsJobIds } from './notifications.jobs';
import { notificationsById, pushSubscriptionsById, recordPushOutcomes, type PushSubscriptionRow } from './notifications.store';
import { encodePushPayload, PushSender, type PushOutcome } from './push-sender';
import { allowsPrivateOutbound, resolveVapidKeys, type PushEnv } from './vapid-keys';

/** Backoff of a push retry without Retry-After: 2 s, 4 s, 8 s, 16 s. */
export const PUSH_RETRY_BASE_MS = 2000;
/** A Retry-After beyond this is capped: the message would be outdated anyway. */
export const MAX_PUSH_RETRY_DELAY_MS = 3600_000;
/** Concurrent requests of one push job. */
const PUSH_CONCURRENCY = 64;

export function pushRetryDelayMs(attempt: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return Math.min(Math.max(retryAfterMs, 0), MAX_PUSH_RETRY_DELAY_MS);
  return Math.min(PUSH_RETRY_BASE_MS * 2 ** (attempt - 1), MAX_PUSH_RETRY_DELAY_MS);
}

export interface PushResult {
  sent: number;
  removed: number;
  retried: number;
  rejected: number;
  expired: number;
}

/**
 * A push sender of the deployment's VAPID keys (configured, or generated once and kept in Redis).
 * Build one per process and key set: its keep-alive sockets and VAPID JWTs serve every job.
 */
export async function createPushSender(deps: { redis: Redis; prefix: string; clock: Clock; logger: Logger }, env: PushEnv): Promise<PushSender> {
  const keys = await resolveVapidKeys(deps.redis, deps.prefix, env);
  if (keys.source === 'stored') deps.logger.info('web push: using VAPID keys generated on first start (set VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY to pin them)');
  return new PushSender(keys, { timeoutMs: env.PUSH_TIMEOUT_MS, clock: deps.clock, allowPrivate: allowsPrivateOutbound(env) });
}

/** A push sender built on first use (a failed build is tried again next time) and closed at shutdown. */
export interface LazyPushSender {
  get(): Promise<PushSender>;
  close(): Promise<void>;
}

/** What a notifications domain started once per process hands its handlers (createNotificationsHandlers). */
export function lazyPushSender(deps: { redis: Redis; prefix: string; clock: Clock; logger: Logger }, env: PushEnv): LazyPushSender {
  let sender: Promise<PushSender> | undefined;
  return {
    get() {
      if (!sender) {
        const building = createPushSender(deps, env);
        building.catch(() => {
          if (sender === building) sender = undefined;
        });
        sender = building;
      }
      return sender;
    },
    async close() {
      const current = sender;
      sender = undefined;
      const settled = current ? await Promise.allSettled([current]) : [];
      for (const result of settled) if (result.status === 'fulfilled') result.value.close();
    },
  };
}

/**
 * notifications.push: each target is one notification to one browser subscription. Outcomes:
 * sent (the subscription's failure count resets), gone (404/410: the subscription is deleted),
 * retry (429/5xx/timeout: a delayed job for that target alone, after Retry-After or the backoff,
 * until MAX_PUSH_ATTEMPTS), rejected (other 4xx: counted, not retried). A target whose
 * notification is older than the push TTL by the time it is sent is dropped as expired.
 */
export async function sendPushes(
  payload: JobPayload<'notifications.push'>,
  context: JobContext,
  pushSender: () => Promise<PushSender>,
): Promise<PushResult> {
  const { dataSource, clock, queues } = context;
  const notificationIds = [...new Set(payload.targets.map((t) => t.notificationId))];
  const subscriptionIds = [...new Set(payload.targets.map((t) => t.subscriptionId))];
  const [notifications, subscriptions] = await Promise.all([notificationsById(dataSource, notificationIds), pushSubscriptionsById(dataSource, subscriptionIds)]);
  const notificationById = new Map(notifications.map((n) => [String(n.id), n]));
  const subscriptionById = new Map(subscriptions.map((s) => [s.id, s]));
  const payloads = new Map<string, Buffer>();
  const result: PushResult = { sent: 0, removed: 0, retried: 0, rejected: 0, expired: 0 };
  const now = clock.now().getTime();
  const work: { target: (typeof payload.targets)[number]; subscription: PushSubscriptionRow; body: Buffer }[] = [];
  for (const target of payload.targets) {
    const notification = notificationById.get(target.notificationId);
    const subscription = subscriptionById.get(target.subscriptionId);
    // Deleted meanwhile (cleared list, unsubscribed browser), or not the same user: nothing to send.
    if (!notification || !subscription || subscription.user_id !== notification.user_id) continue;
    if (now - new Date(notification.created_at).getTime() > payload.push.ttlSeconds * 1000) {
      result.expired++;
      continue;
    }
    let body = payloads.get(target.notificationId);
    if (!body) {
      const client = toClientNotification(notification);
      body = encodePushPayload({
        title: client.title,
        body: client.message,
        url: payload.push.url,
        id: client.id,
        type: client.type,
        activityType: client.activityType,
        exchangeId: client.exchangeId,
        ...(payload.push.topic ? { tag: payload.push.topic } : {}),
      });
      payloads.set(target.notificationId, body);
    }
    work.push({ target, subscription, body });
  }
  if (!work.length) {
    countPushes(result);
    return result;
  }

  const sender = await pushSender();
  const outcomes: PushOutcome[] = new Array(work.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PUSH_CONCURRENCY, work.length) }, async () => {
      while (next < work.length) {
        const i = next++;
        outcomes[i] = await sender.send(work[i].subscription, work[i].body, payload.push);
      }
    }),
  );

  const sentIds: number[] = [];
  const goneIds: number[] = [];
  const failedIds: number[] = [];
  const retries = [];
  for (let i = 0; i < work.length; i++) {
    const outcome = outcomes[i];
    const { target } = work[i];
    if (outcome.kind === 'sent') sentIds.push(target.subscriptionId);
    else if (outcome.kind === 'gone') goneIds.push(target.subscriptionId);
    else if (outcome.kind === 'retry' && payload.attempt < MAX_PUSH_ATTEMPTS) {
      const attempt = payload.attempt + 1;
      retries.push({
        name: 'notifications.push' as const,
        data: { targets: [target], push: payload.push, attempt },
        options: { jobId: notificationsJobIds.pushRetry(target, attempt), delay: pushRetryDelayMs(payload.attempt, outcome.retryAfterMs) },
      });
    } else {
      failedIds.push(target.subscriptionId);
      context.logger.warn({ subscriptionId: target.subscriptionId, outcome }, 'web push given up');
    }
  }
  result.sent = sentIds.length;
  result.removed = goneIds.length;
  result.retried = retries.length;
  result.rejected = failedIds.length;
  // Counted as the push service answered, before the bookkeeping below (a failure there retries the job).
  countPushes(result);
  if (retries.length) await queues.addBulk(retries);
  await recordPushOutcomes(dataSource, { sent: sentIds, gone: goneIds, failed: failedIds }, clock.now());
  return result;
}

/** tickerbell_deliveries_total{channel="push"}: one per target. */
function countPushes(result: PushResult): void {
  countDeliveries('push', 'sent', result.sent);
  countDeliveries('push', 'gone', result.removed);
  countDeliveries('push', 'retry', result.retried);
  countDeliveries('push', 'failed', result.rejected);
  countDeliveries('push', 'expired', result.expired);
}
