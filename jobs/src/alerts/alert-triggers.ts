import type { EntityManager } from 'typeorm';
import { importanceOf, type PushOptions } from '../notifications/notification-content';
import { dispatchNotifications, writeNotifications, type DispatchResult, type NotificationRequest, type WrittenNotification } from '../notifications/notify';
import type { JobContext } from '../runtime/job-handler';
import { alertConditionSchema, ExactDecimal, isTechnicalCondition, isVolatilityCondition, TECHNICAL_CONDITIONS, type AlertCondition } from './alert-conditions';
import { publishAlertChanges } from './alert-changes';
import { decideTrigger, isExpired, TRIGGER_FREQUENCIES, type TriggerFrequency, type TriggerState } from './alert-frequency';
import type { AlertIndexCache, CachedAlert } from './alert-index-cache';
import { alertTitle } from './alert-message';
import {
  deactivateAlerts,
  firingRowsOfKeys,
  insertAlertLogs,
  linkAlertLogNotifications,
  lockAlertsForTrigger,
  markAlertsTriggered,
  type LockedAlert,
} from './alert-firings.store';
import { alertsJobIds } from './alerts.jobs';

export type { LockedAlert };

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

/** A written firing with what its deliveries need: its notification (with its channels) and webhook. */
export interface Firing {
  logId: string;
  alertId: number;
  webhook: boolean;
  notification: WrittenNotification;
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

/** The spec's activity kind of a firing: news, volatility conditions, other bar conditions, price conditions. */
export function activityTypeOf(
  condition: AlertCondition,
): 'MARKET_ALERT_NEWS' | 'MARKET_ALERT_VOLATILITY' | 'MARKET_ALERT_TECHNICAL' | 'MARKET_ALERT_PRICE' {
  if (condition.type === 'news') return 'MARKET_ALERT_NEWS';
  if (isVolatilityCondition(condition)) return 'MARKET_ALERT_VOLATILITY';
  return isTechnicalCondition(condition) ? 'MARKET_ALERT_TECHNICAL' : 'MARKET_ALERT_PRICE';
}

export function triggerState(alert: LockedAlert): TriggerState {
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
      const locked = await lockAlertsForTrigger(manager, ids);
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
      if (deactivated.length) await deactivateAlerts(manager, deactivated);
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
  if (deactivated.length) await publishAlertChanges(context.redis, context.queues.prefix, deactivated);

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
  const logs = await insertAlertLogs(
    manager,
    pending.map((p) => ({
      alertId: p.alert.id,
      triggeredAt: p.candidate.at,
      value: p.candidate.price,
      dedupeKey: p.key,
      message: p.message.slice(0, 2000),
      webhookStatus: p.alert.webhook_url ? 'pending' : null,
    })),
  );
  const logByAlert = new Map(logs.map((l) => [l.alert_id, String(l.id)]));
  const written = pending.filter((p) => logByAlert.has(p.alert.id));
  if (!written.length) return [];

  await markAlertsTriggered(
    manager,
    written.map((p) => ({ id: p.alert.id, at: p.candidate.at, deactivate: p.deactivate })),
  );

  // One notification per firing, written in this transaction by the notifications domain. A key
  // written before (a log deleted by hand, say) links the existing row.
  const requests: NotificationRequest[] = written.map((p) => ({
    recipients: [p.alert.user_id],
    content: {
      title: alertTitle(p.alert.name).slice(0, 200),
      message: p.message,
      type: 'warning',
      activityType: activityTypeOf(p.condition),
      symbolId: p.alert.symbol,
      details: {
        alertId: p.alert.id,
        alertLogId: logByAlert.get(p.alert.id)!,
        condition: p.condition.type,
        value: new ExactDecimal(p.alert.value).toFixed(),
        currentPrice: p.candidate.price,
        interval: p.alert.interval,
        useAudio: p.alert.use_audio,
        audioMessage: p.alert.audio_message,
        audioVoiceId: p.alert.audio_voice_id,
        importance: importanceOf('warning'),
      },
    },
    dedupeKey: alertNotificationDedupeKey(p.alert.id, p.key),
    channels: alertChannels(p.alert, p.message),
  }));
  const notifications = await writeNotifications(manager, requests, { now, existing: 'include' });
  const byKey = new Map(notifications.map((n) => [`${n.row.user_id}|${n.dedupeKey}`, n]));

  const firings: Firing[] = [];
  written.forEach((p, i) => {
    const notification = byKey.get(`${p.alert.user_id}|${requests[i].dedupeKey}`);
    if (!notification) return;
    firings.push({ logId: logByAlert.get(p.alert.id)!, alertId: p.alert.id, webhook: !!p.alert.webhook_url, notification });
    // The local index: once alerts are gone, the others wait until they may fire again.
    const state = { ...triggerState(p.alert), lastTriggered: p.candidate.at };
    if (p.deactivate) {
      changes.remove.push(p.alert.id);
      deactivated.push(p.alert.id);
    } else disarmOrRemove(changes, p.alert.id, state, now);
  });
  await linkAlertLogNotifications(
    manager,
    firings.map((f) => ({ logId: f.logId, notificationId: f.notification.row.id })),
  );
  return firings;
}

/** The firings already written for these (symbol, instant) keys: what a retried job delivers again. */
async function firingsOfKeys(context: JobContext, keys: FiringKey[]): Promise<Firing[]> {
  const rows = await firingRowsOfKeys<WrittenNotification['row']>(context.dataSource, keys, TECHNICAL_CONDITIONS);
  return rows.map(({ log_id, alert_id, name, notify_push, notify_email, webhook_url, dedupe_key, ...row }) => ({
    logId: String(log_id),
    alertId: alert_id,
    webhook: !!webhook_url,
    notification: { row, dedupeKey: dedupe_key, channels: alertChannels({ name, notify_push, notify_email }, row.message), inserted: false },
  }));
}

/**
 * An alert's own channels: a push when notifyPush is on (the user's push preference still rules),
 * an email to the owner when notifyEmail is on (the alert's setting asked for it).
 */
export function alertChannels(alert: Pick<LockedAlert, 'name' | 'notify_push' | 'notify_email'>, message: string): NotificationRequest['channels'] {
  return {
    push: alert.notify_push ? ALERT_PUSH_OPTIONS : null,
    email: alert.notify_email ? { to: 'all', text: alertEmailText(alert.name, message) } : null,
    telegram: null,
  };
}

/** Live stream, web pushes and emails (the notifications domain) and webhooks of written firings, under deterministic job ids. */
export async function deliverFirings(firings: Firing[], context: JobContext): Promise<DispatchResult & Pick<TriggerResult, 'webhooks'>> {
  const delivered = await dispatchNotifications(context, firings.map((f) => f.notification));
  const webhookFirings = firings.filter((f) => f.webhook);
  if (webhookFirings.length) {
    await context.queues.addBulk(
      webhookFirings.map((firing) => ({ name: 'alerts.webhook' as const, data: { alertLogId: firing.logId }, options: { jobId: alertsJobIds.webhook(firing.logId) } })),
    );
  }
  return { ...delivered, webhooks: webhookFirings.length };
}

function alertEmailText(name: string, message: string): string {
  return [
    `${message}.`,
    '',
    `You receive this email because your alert "${name}" has email notifications on. Manage your alerts in Tickerbell under Alerts.`,
  ].join('\n');
}
