import type { EntityManager } from 'typeorm';
import { importanceOf, NOTIFICATION_COLUMNS, toClientNotification, type NotificationRow, type PushOptions } from '../notifications/notification-content';
import { publishNotifications } from '../notifications/notification-channel';
import { MAX_PUSH_TARGETS } from '../notifications/notifications.jobs';
import { queuesRedis } from '../notifications/queues-redis';
import type { JobContext } from '../runtime/job-handler';
import { alertConditionSchema, ExactDecimal, isTechnicalCondition, TECHNICAL_CONDITIONS, type AlertCondition } from './alert-conditions';
import { publishAlertChanges } from './alert-changes';
import { decideTrigger, isExpired, TRIGGER_FREQUENCIES, type TriggerFrequency, type TriggerState } from './alert-frequency';
import type { AlertIndexCache, CachedAlert } from './alert-index-cache';
import { alertTitle } from './alert-message';

/** An alert row as the trigger path locks and reads it. */
export interface LockedAlert {
  id: number;
  user_id: number;
  name: string;
  condition: string;
  value: string;
  params: unknown;
  interval: string | null;
  frequency: string;
  cooldown_seconds: number;
  expires_at: Date | null;
  notify_push: boolean;
  notify_email: boolean;
  webhook_url: string | null;
  is_active: boolean;
  use_audio: boolean;
  audio_message: string | null;
  audio_voice_id: string | null;
  last_triggered: Date | null;
  symbol: string;
}

const LOCKED_ALERT_COLUMNS = `a.id, a.user_id, a.name, a.condition, a.value, a.params, a.interval, a.frequency, a.cooldown_seconds,
  a.expires_at, a.notify_push, a.notify_email, a.webhook_url, a.is_active, a.use_audio, a.audio_message, a.audio_voice_id,
  a.last_triggered, m.symbol`;

/** An alert the index says a tick or a closed bar meets. */
export interface TriggerCandidate {
  alertId: number;
  symbol: string;
  /** The trigger instant: the tick's time, or the close of the bar (it keys the firing). */
  at: Date;
  /** The price that met the condition (the tick's price, the bar's close). */
  price: string;
  /**
   * Re-checks the condition as stored against the same prices (the index may lag an edit):
   * the firing's message when met, null when not.
   */
  check(condition: AlertCondition, alert: LockedAlert): string | null;
}

/** Which firings a retried job looks for: those of these symbols at these instants (interval null: price alerts). */
export interface FiringKey {
  symbol: string;
  at: Date;
  interval: string | null;
}

export interface TriggerResult {
  candidates: number;
  fired: number;
  /** Firings of an earlier attempt of this job whose deliveries were queued again. */
  requeued: number;
  published: number;
  pushTargets: number;
  emails: number;
  webhooks: number;
}

/** A written firing with what its deliveries need. */
interface Firing {
  logId: string;
  alertId: number;
  name: string;
  userId: number;
  notifyPush: boolean;
  notifyEmail: boolean;
  webhook: boolean;
  notification: NotificationRow;
}

/**
 * Alert push messages: high urgency (delivered at once to a sleeping phone), an hour to live, no
 * topic: a topic would let one alert's firing replace another's, and pushes of a burst share one job.
 */
export const ALERT_PUSH_OPTIONS: PushOptions = { ttlSeconds: 3600, urgency: 'high', topic: null, url: '/dashboard/alerts' };

/** The notification dedupe key of a firing (unique per user with notifications.dedupe_key). */
export function alertNotificationDedupeKey(alertId: number, decisionKey: string): string {
  return `alert:${alertId}:${decisionKey}`;
}

function triggerState(alert: LockedAlert): TriggerState {
  const frequency = (TRIGGER_FREQUENCIES as readonly string[]).includes(alert.frequency) ? (alert.frequency as TriggerFrequency) : 'once';
  return {
    frequency,
    cooldownSeconds: alert.cooldown_seconds,
    expiresAt: alert.expires_at,
    lastTriggered: alert.last_triggered,
    isActive: alert.is_active,
  };
}

/** When a fired (or not yet re-fireable) alert may fire again: the next UTC day, or the end of its cooldown. */
export function rearmAt(state: TriggerState): number | null {
  if (!state.lastTriggered) return null;
  const last = state.lastTriggered;
  if (state.frequency === 'once_per_day') return Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate() + 1);
  if (state.frequency === 'every_time') return last.getTime() + (state.cooldownSeconds ?? 60) * 1000;
  return null;
}

/** What the evaluator does to its local index once the transaction has committed. */
interface IndexChanges {
  remove: number[];
  disarm: [number, number][];
  upsert: CachedAlert[];
}

interface PendingFiring {
  candidate: TriggerCandidate;
  alert: LockedAlert;
  condition: AlertCondition;
  key: string;
  deactivate: boolean;
  message: string;
}

/**
 * The trigger path shared by price ticks and closed bars. In ONE transaction: lock the candidates'
 * rows (ordered by id, so two workers never deadlock), re-check each against the database (the
 * truth: active, expiry, frequency, the condition as stored), write the allowed firings
 * (alert_logs with the decision's dedupe key, lastTriggered, `once` alerts deactivated, one
 * notification each, linked back). After the commit: live stream, pushes, emails, webhooks under
 * deterministic job ids; the local index drops or disarms what fired or may not fire yet.
 *
 * Exactly once: a second worker evaluating the same tick waits on the row locks and then sees
 * lastTriggered at (or after) the tick: nothing to write. A retried job (attemptsMade > 0) writes
 * nothing new for the same reason, so it re-reads the firings its ticks produced and queues their
 * deliveries again under the same job ids (BullMQ ignores the ones that exist).
 */
export async function triggerAlerts(
  candidates: TriggerCandidate[],
  firingKeys: FiringKey[],
  cache: AlertIndexCache,
  context: JobContext,
): Promise<TriggerResult> {
  const { dataSource, clock, logger } = context;
  const result: TriggerResult = { candidates: candidates.length, fired: 0, requeued: 0, published: 0, pushTargets: 0, emails: 0, webhooks: 0 };
  const now = clock.now();
  const changes: IndexChanges = { remove: [], disarm: [], upsert: [] };
  const deactivated: number[] = [];
  let firings: Firing[] = [];

  if (candidates.length) {
    const byAlert = new Map<number, TriggerCandidate>();
    for (const candidate of candidates) if (!byAlert.has(candidate.alertId)) byAlert.set(candidate.alertId, candidate);
    const ids = [...byAlert.keys()].sort((a, b) => a - b);

    firings = await dataSource.transaction(async (manager) => {
      const locked: LockedAlert[] = await manager.query(
        `SELECT ${LOCKED_ALERT_COLUMNS} FROM alerts a JOIN markets m ON m.id = a.market_id
         WHERE a.id = ANY($1::int[]) ORDER BY a.id FOR UPDATE OF a`,
        [ids],
      );
      const lockedById = new Map(locked.map((row) => [row.id, row]));
      const pending: PendingFiring[] = [];
      for (const id of ids) {
        const candidate = byAlert.get(id)!;
        const alert = lockedById.get(id);
        if (!alert || !alert.is_active) {
          changes.remove.push(id);
          continue;
        }
        const state = triggerState(alert);
        if (isExpired(state, now)) {
          deactivated.push(id);
          changes.remove.push(id);
          continue;
        }
        const parsed = alertConditionSchema.safeParse(alert.params);
        if (!parsed.success) {
          logger.warn({ alertId: id }, 'alert with an invalid condition skipped');
          changes.remove.push(id);
          continue;
        }
        const indexed: CachedAlert = { id, symbol: alert.symbol, condition: parsed.data, interval: alert.interval };
        // Already fired on this tick or a later one (another worker, an earlier attempt): not again.
        if (alert.last_triggered && alert.last_triggered.getTime() >= candidate.at.getTime()) {
          disarmOrRemove(changes, id, state, now);
          continue;
        }
        const message = alert.symbol === candidate.symbol ? candidate.check(parsed.data, alert) : null;
        if (message === null) {
          // The index held an older version of this alert: take the stored one.
          changes.upsert.push(indexed);
          continue;
        }
        const decision = decideTrigger(id, state, candidate.at);
        if (!decision.fire) {
          if (decision.deactivate) deactivated.push(id);
          disarmOrRemove(changes, id, state, now);
          continue;
        }
        pending.push({ candidate, alert, condition: parsed.data, key: decision.key, deactivate: decision.deactivate, message });
      }
      if (deactivated.length) await manager.query(`UPDATE alerts SET is_active = false WHERE id = ANY($1::int[])`, [deactivated]);
      if (!pending.length) return [];
      return writeFirings(manager, pending, now, changes, deactivated);
    });
    result.fired = firings.length;
  }

  // A retry: this job's earlier attempt may have committed firings and died before their deliveries.
  if ((context.job?.attemptsMade ?? 0) > 0 && firingKeys.length) {
    const earlier = await firingsOfKeys(context, firingKeys);
    const seen = new Set(firings.map((f) => f.logId));
    const again = earlier.filter((f) => !seen.has(f.logId));
    result.requeued = again.length;
    firings = [...firings, ...again];
  }

  if (firings.length) Object.assign(result, await deliverFirings(firings, context));
  if (deactivated.length) await publishAlertChanges(await queuesRedis(context.queues, 'alerts'), context.queues.prefix, deactivated);

  for (const id of changes.remove) cache.remove(id);
  for (const alert of changes.upsert) cache.upsert(alert);
  for (const [id, until] of changes.disarm) cache.index.disarm(id, until);
  return result;
}

/** Once alerts (and those that will never fire again) leave the index; the others wait until they may fire. */
function disarmOrRemove(changes: IndexChanges, id: number, state: TriggerState, now: Date): void {
  if (state.frequency === 'once') {
    changes.remove.push(id);
    return;
  }
  const until = rearmAt(state);
  if (until !== null && until > now.getTime()) changes.disarm.push([id, until]);
}

async function writeFirings(manager: EntityManager, pending: PendingFiring[], now: Date, changes: IndexChanges, deactivated: number[]): Promise<Firing[]> {
  const logs: { id: string; alert_id: number }[] = await manager.query(
    `INSERT INTO alert_logs (alert_id, triggered_at, value, was_notified, dedupe_key, message, webhook_status)
     SELECT u.alert_id, u.triggered_at, u.value, false, u.dedupe_key, u.message, u.webhook_status
     FROM unnest($1::int[], $2::timestamptz[], $3::numeric[], $4::varchar[], $5::varchar[], $6::varchar[])
       AS u(alert_id, triggered_at, value, dedupe_key, message, webhook_status)
     ON CONFLICT ON CONSTRAINT uq_alert_logs_alert_dedupe_key DO NOTHING
     RETURNING id, alert_id`,
    [
      pending.map((p) => p.alert.id),
      pending.map((p) => p.candidate.at),
      pending.map((p) => p.candidate.price),
      pending.map((p) => p.key),
      pending.map((p) => p.message.slice(0, 2000)),
      pending.map((p) => (p.alert.webhook_url ? 'pending' : null)),
    ],
  );
  const logByAlert = new Map(logs.map((l) => [l.alert_id, String(l.id)]));
  const written = pending.filter((p) => logByAlert.has(p.alert.id));
  if (!written.length) return [];

  await manager.query(
    `UPDATE alerts a SET last_triggered = u.at, is_active = a.is_active AND NOT u.deactivate
     FROM unnest($1::int[], $2::timestamptz[], $3::boolean[]) AS u(id, at, deactivate) WHERE a.id = u.id`,
    [written.map((p) => p.alert.id), written.map((p) => p.candidate.at), written.map((p) => p.deactivate)],
  );

  const notifications = written.map((p) => {
    const technical = isTechnicalCondition(p.condition);
    const logId = logByAlert.get(p.alert.id)!;
    return {
      userId: p.alert.user_id,
      title: alertTitle(p.alert.name).slice(0, 200),
      message: p.message,
      activityType: technical ? 'MARKET_ALERT_TECHNICAL' : 'MARKET_ALERT_PRICE',
      symbolId: p.alert.symbol,
      details: {
        alertId: p.alert.id,
        alertLogId: logId,
        condition: p.condition.type,
        value: new ExactDecimal(p.alert.value).toFixed(),
        currentPrice: p.candidate.price,
        interval: p.alert.interval,
        useAudio: p.alert.use_audio,
        audioMessage: p.alert.audio_message,
        audioVoiceId: p.alert.audio_voice_id,
        importance: importanceOf('warning'),
      },
      dedupeKey: alertNotificationDedupeKey(p.alert.id, p.key),
    };
  });
  const inserted: (NotificationRow & { dedupe_key: string })[] = await manager.query(
    `INSERT INTO notifications (user_id, title, message, type, activity_type, exchange_id, symbol_id, details, dedupe_key, created_at)
     SELECT u.user_id, u.title, u.message, 'warning', u.activity_type, NULL, u.symbol_id, u.details, u.dedupe_key, $7
     FROM unnest($1::int[], $2::varchar[], $3::text[], $4::varchar[], $5::varchar[], $6::jsonb[], $8::varchar[])
       AS u(user_id, title, message, activity_type, symbol_id, details, dedupe_key)
     ON CONFLICT ON CONSTRAINT uq_notifications_user_dedupe_key DO NOTHING
     RETURNING ${NOTIFICATION_COLUMNS}, dedupe_key`,
    [
      notifications.map((n) => n.userId),
      notifications.map((n) => n.title),
      notifications.map((n) => n.message),
      notifications.map((n) => n.activityType),
      notifications.map((n) => n.symbolId),
      notifications.map((n) => JSON.stringify(n.details)),
      now,
      notifications.map((n) => n.dedupeKey),
    ],
  );
  const byKey = new Map(inserted.map((row) => [`${row.user_id}|${row.dedupe_key}`, row]));
  const missing = notifications.filter((n) => !byKey.has(`${n.userId}|${n.dedupeKey}`));
  if (missing.length) {
    // Written before with this key (a log deleted by hand, say): link the existing row.
    const existing: (NotificationRow & { dedupe_key: string })[] = await manager.query(
      `SELECT ${NOTIFICATION_COLUMNS}, n.dedupe_key FROM notifications n
       JOIN unnest($1::int[], $2::varchar[]) AS u(user_id, dedupe_key) ON n.user_id = u.user_id AND n.dedupe_key = u.dedupe_key`,
      [missing.map((n) => n.userId), missing.map((n) => n.dedupeKey)],
    );
    for (const row of existing) byKey.set(`${row.user_id}|${row.dedupe_key}`, row);
  }

  const firings: Firing[] = [];
  written.forEach((p, i) => {
    const notification = byKey.get(`${notifications[i].userId}|${notifications[i].dedupeKey}`);
    if (!notification) return;
    firings.push({
      logId: logByAlert.get(p.alert.id)!,
      alertId: p.alert.id,
      name: p.alert.name,
      userId: p.alert.user_id,
      notifyPush: p.alert.notify_push,
      notifyEmail: p.alert.notify_email,
      webhook: !!p.alert.webhook_url,
      notification,
    });
    // The local index: once alerts are gone, the others wait until they may fire again.
    const state = { ...triggerState(p.alert), lastTriggered: p.candidate.at };
    if (p.deactivate) {
      changes.remove.push(p.alert.id);
      deactivated.push(p.alert.id);
    } else disarmOrRemove(changes, p.alert.id, state, now);
  });
  await manager.query(
    `UPDATE alert_logs l SET notification_id = u.notification_id, was_notified = true
     FROM unnest($1::bigint[], $2::bigint[]) AS u(id, notification_id) WHERE l.id = u.id`,
    [firings.map((f) => f.logId), firings.map((f) => f.notification.id)],
  );
  return firings;
}

/** The firings already written for these (symbol, instant) keys: what a retried job delivers again. */
async function firingsOfKeys(context: JobContext, keys: FiringKey[]): Promise<Firing[]> {
  const rows: (NotificationRow & {
    log_id: string;
    alert_id: number;
    name: string;
    notify_push: boolean;
    notify_email: boolean;
    webhook_url: string | null;
  })[] = await context.dataSource.query(
    `SELECT l.id AS log_id, l.alert_id, a.name, a.notify_push, a.notify_email, a.webhook_url,
       n.id, n.user_id, n.title, n.message, n.type, n.activity_type, n.exchange_id, n.symbol_id, n.details, n.read_at, n.created_at
     FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[]) AS k(symbol, at, interval)
     JOIN markets m ON m.symbol = k.symbol
     JOIN alerts a ON a.market_id = m.id AND (CASE WHEN k.interval IS NULL THEN a.condition <> ALL($4::varchar[]) ELSE a.interval = k.interval END)
     JOIN alert_logs l ON l.alert_id = a.id AND l.triggered_at = k.at
     JOIN notifications n ON n.id = l.notification_id
     ORDER BY l.id`,
    [keys.map((k) => k.symbol), keys.map((k) => k.at), keys.map((k) => k.interval), [...TECHNICAL_CONDITIONS]],
  );
  return rows.map((row) => ({
    logId: String(row.log_id),
    alertId: row.alert_id,
    name: row.name,
    userId: row.user_id,
    notifyPush: row.notify_push,
    notifyEmail: row.notify_email,
    webhook: !!row.webhook_url,
    notification: row,
  }));
}

/** Live stream, web pushes, emails and webhooks of written firings, under deterministic job ids. */
async function deliverFirings(firings: Firing[], context: JobContext): Promise<Pick<TriggerResult, 'published' | 'pushTargets' | 'emails' | 'webhooks'>> {
  const { dataSource, queues } = context;
  const redis = await queuesRedis(queues, 'alerts');
  const published = await publishNotifications(
    redis,
    queues.prefix,
    firings.map((f) => ({ userId: f.userId, notification: toClientNotification(f.notification) })),
  );

  const jobs: Parameters<typeof queues.addBulk>[0] = [];
  const pushFirings = firings.filter((f) => f.notifyPush);
  let pushTargets = 0;
  if (pushFirings.length) {
    // The user's push preference is the kill switch over every alert's own setting.
    const subscriptions: { id: number; user_id: number }[] = await dataSource.query(
      `SELECT s.id, s.user_id FROM push_subscriptions s LEFT JOIN user_preferences p ON p.user_id = s.user_id
       WHERE s.user_id = ANY($1::int[]) AND COALESCE(p.push_notifications, true) ORDER BY s.id`,
      [[...new Set(pushFirings.map((f) => f.userId))]],
    );
    const byUser = new Map<number, number[]>();
    for (const s of subscriptions) byUser.set(s.user_id, [...(byUser.get(s.user_id) ?? []), s.id]);
    const targets = [...pushFirings]
      .sort((a, b) => Number(a.notification.id) - Number(b.notification.id))
      .flatMap((f) => (byUser.get(f.userId) ?? []).map((subscriptionId) => ({ notificationId: String(f.notification.id), subscriptionId })));
    // Batched (a firing burst is one job per 1,000 browsers); the ids follow from the rows, so a retry re-adds the same jobs.
    for (let i = 0; i < targets.length; i += MAX_PUSH_TARGETS) {
      const chunk = targets.slice(i, i + MAX_PUSH_TARGETS);
      jobs.push({
        name: 'notifications.push',
        data: { targets: chunk, push: ALERT_PUSH_OPTIONS, attempt: 1 },
        options: { jobId: `alert-push-${chunk[0].notificationId}-${chunk[chunk.length - 1].notificationId}-${chunk.length}` },
      });
    }
    pushTargets = targets.length;
  }

  const emailFirings = firings.filter((f) => f.notifyEmail);
  let emails = 0;
  if (emailFirings.length) {
    const users: { id: number; email: string }[] = await dataSource.query(
      `SELECT id, email FROM users WHERE id = ANY($1::int[]) AND deleted_at IS NULL`,
      [[...new Set(emailFirings.map((f) => f.userId))]],
    );
    const emailOf = new Map(users.map((u) => [u.id, u.email]));
    for (const firing of emailFirings) {
      const to = emailOf.get(firing.userId);
      if (!to) continue;
      jobs.push({
        name: 'mail.send',
        data: { to, subject: firing.notification.title, text: alertEmailText(firing) },
        options: { jobId: `alert-mail-${firing.logId}` },
      });
      emails++;
    }
  }

  const webhookFirings = firings.filter((f) => f.webhook);
  for (const firing of webhookFirings) {
    jobs.push({ name: 'alerts.webhook', data: { alertLogId: firing.logId }, options: { jobId: `webhook-${firing.logId}` } });
  }
  if (jobs.length) await queues.addBulk(jobs);
  return { published, pushTargets, emails, webhooks: webhookFirings.length };
}

function alertEmailText(firing: Firing): string {
  return [
    `${firing.notification.message}.`,
    '',
    `You receive this email because your alert "${firing.name}" has email notifications on. Manage your alerts in Tickerbell under Alerts.`,
  ].join('\n');
}
