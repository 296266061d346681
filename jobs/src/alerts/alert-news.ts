import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { NewsLinked } from '../news/news-poll';
import type { NewsConsumer } from '../news/news.processor';
import { importanceOf } from '../notifications/notification-content';
import { writeNotifications, type NotificationRequest, type WrittenNotification } from '../notifications/notify';
import type { JobPayload } from '../registry';
import { jobId } from '../runtime/job-definition';
import { NEWS_PAIRS_PER_JOB } from './alerts.jobs';
import type { JobContext } from '../runtime/job-handler';
import { alertConditionSchema } from './alert-conditions';
import { publishAlertChanges } from './alert-changes';
import { deactivateAlerts, insertAlertLogs, linkAlertLogNotifications, lockAlertsForTrigger, markAlertsTriggered, type LockedAlert } from './alert-firings.store';
import { decideTrigger, isExpired } from './alert-frequency';
import { alertTitle } from './alert-message';
import { newsAlertMessage, newsDigestMessage, newsItemAdmitted, newsSourceLabel, type NewsAlertItem } from './alert-news-match';
import { digestNewsAlerts, firingRowsOfAlertsAt, newsAlertsOfMarkets, newsItemsById, newsItemsFetchedBetween } from './alert-news.store';
import { activityTypeOf, alertChannels, alertNotificationDedupeKey, deliverFirings, triggerState, type Firing } from './alert-triggers';
import type { NewsCondition } from './alerts.shapes';

/**
 * News alerts (docs/alerts.md, "News conditions"). A news poll tells the alerts (through the
 * NewsConsumer wired in domains.ts) which new items it linked to which markets; `alerts.evaluate-news`
 * fires the news alerts of those markets whose scope admits an item, and `alerts.news-digest` sends
 * the digest alerts one notification per UTC hour. Both write through the usual firing rows
 * (alert_logs under its unique dedupe key, last_triggered, one notification) in one transaction.
 */

const HOUR_MS = 3_600_000;

/** The id of an evaluate-news job: the digest of its pairs (a second queueing of the same links is one job). */
export function evaluateNewsJobId(pairs: readonly { newsItemId: number; marketId: number }[]): string {
  const key = pairs
    .map((p) => `${p.newsItemId}:${p.marketId}`)
    .sort()
    .join(',');
  return jobId('alerts.evaluate-news', createHash('sha256').update(key).digest('hex').slice(0, 32));
}

/** The news alerts as a news consumer: each poll's links become evaluate-news jobs (it only queues). */
export const alertsNewsConsumer: NewsConsumer = {
  async newsLinked(linked: NewsLinked, context: JobContext) {
    const jobs = [];
    for (let i = 0; i < linked.links.length; i += NEWS_PAIRS_PER_JOB) {
      const pairs = linked.links.slice(i, i + NEWS_PAIRS_PER_JOB);
      jobs.push({ name: 'alerts.evaluate-news' as const, data: { at: linked.at.toISOString(), pairs }, options: { jobId: evaluateNewsJobId(pairs) } });
    }
    await context.queues.addBulk(jobs);
  },
};

function newsConditionOf(params: unknown): NewsCondition | null {
  const parsed = alertConditionSchema.safeParse(params);
  return parsed.success && parsed.data.type === 'news' ? parsed.data : null;
}

/** What one firing writes. */
interface NewsFiring {
  alert: LockedAlert;
  condition: NewsCondition;
  key: string;
  at: Date;
  deactivate: boolean;
  message: string;
  details: Record<string, unknown>;
}

export interface NewsAlertsResult {
  candidates: number;
  fired: number;
  requeued: number;
}

function itemDetails(item: NewsAlertItem): Record<string, unknown> {
  return {
    newsItemId: item.id,
    title: item.title,
    link: item.link,
    source: newsSourceLabel(item.source),
    publishedAt: item.publishedAt.toISOString(),
    formType: item.formType,
  };
}

/**
 * Writes the firings (logs, last trigger, notifications, their links) in the caller's transaction;
 * a dedupe key written before (another worker, an earlier attempt) writes nothing.
 */
async function writeNewsFirings(manager: EntityManager, firings: NewsFiring[], now: Date): Promise<Firing[]> {
  if (!firings.length) return [];
  const logs = await insertAlertLogs(
    manager,
    firings.map((f) => ({
      alertId: f.alert.id,
      triggeredAt: f.at,
      // No price: the column is NOT NULL.
      value: '0',
      dedupeKey: f.key,
      message: f.message.slice(0, 2000),
      webhookStatus: f.alert.webhook_url ? 'pending' : null,
    })),
  );
  const logOf = new Map(logs.map((l) => [`${l.alert_id}|${l.dedupe_key}`, String(l.id)]));
  const written = firings.filter((f) => logOf.has(`${f.alert.id}|${f.key}`));
  if (!written.length) return [];

  const last = new Map<number, { id: number; at: Date; deactivate: boolean }>();
  for (const f of written) {
    const seen = last.get(f.alert.id);
    if (!seen || seen.at < f.at) last.set(f.alert.id, { id: f.alert.id, at: f.at, deactivate: f.deactivate || !!seen?.deactivate });
    else if (f.deactivate) seen.deactivate = true;
  }
  await markAlertsTriggered(manager, [...last.values()]);

  const requests: NotificationRequest[] = written.map((f) => ({
    recipients: [f.alert.user_id],
    content: {
      title: alertTitle(f.alert.name).slice(0, 200),
      message: f.message,
      type: 'warning',
      activityType: activityTypeOf(f.condition),
      symbolId: f.alert.symbol,
      details: {
        alertId: f.alert.id,
        alertLogId: logOf.get(`${f.alert.id}|${f.key}`)!,
        condition: 'news',
        ...f.details,
        useAudio: f.alert.use_audio,
        audioMessage: f.alert.audio_message,
        audioVoiceId: f.alert.audio_voice_id,
        importance: importanceOf('warning'),
      },
    },
    dedupeKey: alertNotificationDedupeKey(f.alert.id, f.key),
    channels: alertChannels(f.alert, f.message),
  }));
  const notifications = await writeNotifications(manager, requests, { now, existing: 'include' });
  const byKey = new Map(notifications.map((n) => [`${n.row.user_id}|${n.dedupeKey}`, n]));
  const out: Firing[] = [];
  written.forEach((f, i) => {
    const notification = byKey.get(`${f.alert.user_id}|${requests[i].dedupeKey}`);
    if (notification) out.push({ logId: logOf.get(`${f.alert.id}|${f.key}`)!, alertId: f.alert.id, webhook: !!f.alert.webhook_url, notification });
  });
  await linkAlertLogNotifications(
    manager,
    out.map((f) => ({ logId: f.logId, notificationId: f.notification.row.id })),
  );
  return out;
}

/** After the commit: deliveries (a retry re-queues its earlier attempt's under the same job ids) and the deactivations. */
async function finish(
  context: JobContext,
  firings: Firing[],
  deactivated: number[],
  retryKey: { alertIds: number[]; at: Date },
): Promise<number> {
  let requeued = 0;
  if ((context.job?.attemptsMade ?? 0) > 0) {
    const rows = await firingRowsOfAlertsAt<WrittenNotification['row']>(context.dataSource, retryKey.alertIds, retryKey.at);
    const seen = new Set(firings.map((f) => f.logId));
    const again: Firing[] = rows
      .filter((r) => !seen.has(String(r.log_id)))
      .map(({ log_id, alert_id, name, notify_push, notify_email, webhook_url, dedupe_key, ...row }) => ({
        logId: String(log_id),
        alertId: alert_id,
        webhook: !!webhook_url,
        notification: { row, dedupeKey: dedupe_key, channels: alertChannels({ name, notify_push, notify_email }, row.message), inserted: false },
      }));
    requeued = again.length;
    firings = [...firings, ...again];
  }
  if (firings.length) await deliverFirings(firings, context);
  if (deactivated.length) await publishAlertChanges(context.redis, context.queues.prefix, deactivated);
  return requeued;
}

/**
 * alerts.evaluate-news: the new (item, market) links of a poll against the news alerts of those
 * markets (digest alerts wait for their hour). The trigger instant is the poll's, so every worker
 * and retry derives the same keys: every_time `{id}:news:{itemId}` (one firing per item; no
 * cooldown), once and once_per_day as for prices (`{id}:once`, `{id}:day:{date}`).
 */
export async function evaluateNewsLinks(payload: JobPayload<'alerts.evaluate-news'>, context: JobContext): Promise<NewsAlertsResult> {
  const at = new Date(payload.at);
  const now = context.clock.now();
  const itemsByMarket = new Map<number, number[]>();
  for (const pair of payload.pairs) {
    const items = itemsByMarket.get(pair.marketId) ?? [];
    items.push(pair.newsItemId);
    itemsByMarket.set(pair.marketId, items);
  }
  const alerts = await newsAlertsOfMarkets(context.dataSource, [...itemsByMarket.keys()], now);
  const result: NewsAlertsResult = { candidates: alerts.length, fired: 0, requeued: 0 };
  if (!alerts.length) return result;
  const items = await newsItemsById(context.dataSource, [...new Set(payload.pairs.map((p) => p.newsItemId))]);
  const marketOf = new Map(alerts.map((a) => [a.id, a.market_id]));
  const deactivated: number[] = [];

  const firings = await context.dataSource.transaction(async (manager) => {
    const locked = await lockAlertsForTrigger(manager, alerts.map((a) => a.id));
    const pending: NewsFiring[] = [];
    for (const alert of locked) {
      const condition = newsConditionOf(alert.params);
      if (!condition || condition.digest || !alert.is_active) continue;
      const state = triggerState(alert);
      if (isExpired(state, now)) {
        deactivated.push(alert.id);
        continue;
      }
      const ids = [...(itemsByMarket.get(marketOf.get(alert.id)!) ?? [])].sort((a, b) => a - b);
      for (const id of ids) {
        const item = items.get(id);
        if (!item || !newsItemAdmitted(condition, item)) continue;
        let key: string;
        let deactivate = false;
        if (state.frequency === 'every_time') key = `${alert.id}:news:${item.id}`;
        else {
          const decision = decideTrigger(alert.id, state, at);
          if (!decision.fire) break;
          key = decision.key;
          deactivate = decision.deactivate;
        }
        pending.push({ alert, condition, key, at, deactivate, message: newsAlertMessage(alert.symbol, item), details: itemDetails(item) });
        // Later items of this job meet the state this firing leaves.
        state.lastTriggered = at;
        if (deactivate) state.isActive = false;
      }
    }
    if (deactivated.length) await deactivateAlerts(manager, deactivated);
    return writeNewsFirings(manager, pending, now);
  });
  result.fired = firings.length;
  result.requeued = await finish(context, firings, deactivated, { alertIds: alerts.map((a) => a.id), at });
  return result;
}

/** The UTC hour a digest run at `now` covers: the last full hour before it. */
export function digestHour(now: Date): { start: Date; end: Date } {
  const end = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { start: new Date(end - HOUR_MS), end: new Date(end) };
}

/**
 * Full UTC hours a digest run looks back over. A run missed while the workers were down (or a run
 * that failed every attempt) is sent by a later one within this many hours; an hour already sent
 * is a no-op (its firing key exists).
 */
export const DIGEST_CATCH_UP_HOURS = 6;

/** The hours a digest run at `now` covers, oldest first: the last DIGEST_CATCH_UP_HOURS full hours. */
export function digestHours(now: Date): { start: Date; end: Date }[] {
  const newest = digestHour(now);
  return Array.from({ length: DIGEST_CATCH_UP_HOURS }, (_, i) => {
    const back = (DIGEST_CATCH_UP_HOURS - 1 - i) * HOUR_MS;
    return { start: new Date(newest.start.getTime() - back), end: new Date(newest.end.getTime() - back) };
  });
}

/**
 * alerts.news-digest (every hour at :00): the digest of every hour of digestHours(now), oldest
 * first, so a missed run's hour is still sent (late) by the next run. Answers the sums over the
 * hours, with the newest hour's start.
 */
export async function sendNewsDigests(context: JobContext): Promise<NewsAlertsResult & { hourStart: string; hoursSent: number }> {
  const total = { candidates: 0, fired: 0, requeued: 0, hourStart: '', hoursSent: 0 };
  for (const hour of digestHours(context.clock.now())) {
    const result = await sendNewsDigestOfHour(context, hour);
    total.candidates += result.candidates;
    total.fired += result.fired;
    total.requeued += result.requeued;
    if (result.fired) total.hoursSent++;
    total.hourStart = hour.start.toISOString();
  }
  return total;
}

/**
 * One hour's digests: for each active digest alert, the items linked to its market that were
 * fetched during the hour (and not before the alert existed) and that its scope admits; one firing
 * listing them, key `{id}:digest:{hour start ISO}`, at the hour's end. Frequency and cooldown do
 * not apply to digests; an hour without items sends nothing.
 */
async function sendNewsDigestOfHour(context: JobContext, hour: { start: Date; end: Date }): Promise<NewsAlertsResult> {
  const now = context.clock.now();
  const alerts = await digestNewsAlerts(context.dataSource, hour.end);
  const result: NewsAlertsResult = { candidates: 0, fired: 0, requeued: 0 };
  if (!alerts.length) return result;
  const itemsByMarket = await newsItemsFetchedBetween(context.dataSource, [...new Set(alerts.map((a) => a.market_id))], hour.start, hour.end);
  const withItems = alerts.filter((a) => itemsByMarket.has(a.market_id));
  result.candidates = withItems.length;
  if (!withItems.length) return result;
  const marketOf = new Map(withItems.map((a) => [a.id, a.market_id]));
  const createdOf = new Map(withItems.map((a) => [a.id, a.created_at]));
  const deactivated: number[] = [];

  const firings = await context.dataSource.transaction(async (manager) => {
    const locked = await lockAlertsForTrigger(manager, withItems.map((a) => a.id));
    const pending: NewsFiring[] = [];
    for (const alert of locked) {
      const condition = newsConditionOf(alert.params);
      if (!condition || !condition.digest || !alert.is_active) continue;
      if (isExpired(triggerState(alert), hour.end)) {
        deactivated.push(alert.id);
        continue;
      }
      const created = createdOf.get(alert.id)!;
      const items = (itemsByMarket.get(marketOf.get(alert.id)!) ?? []).filter((item) => item.fetchedAt >= created && newsItemAdmitted(condition, item));
      if (!items.length) continue;
      pending.push({
        alert,
        condition,
        key: `${alert.id}:digest:${hour.start.toISOString()}`,
        at: hour.end,
        deactivate: false,
        message: newsDigestMessage(alert.symbol, hour.start, items),
        details: { digest: true, hourStart: hour.start.toISOString(), items: items.map(itemDetails) },
      });
    }
    if (deactivated.length) await deactivateAlerts(manager, deactivated);
    return writeNewsFirings(manager, pending, now);
  });
  result.fired = firings.length;
  result.requeued = await finish(context, firings, deactivated, { alertIds: withItems.map((a) => a.id), at: hour.end });
  return result;
}
