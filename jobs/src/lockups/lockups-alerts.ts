// lockups.notify: the day's notices to followers (14, 7 or 1 days before an expiry, their choice,
// and on the day), through the notifications pipeline, never twice (lockup_notices).
import type { Clock } from '../runtime/clock';
import type { JobContext } from '../runtime/job-handler';
import { dispatchNotifications, writeNotifications, type NotificationRequest } from '../notifications/notify';
import { importanceOf } from '../notifications/notification-content';
import { dueLockupNotices, recordLockupNotices, type DueLockupNotice } from './lockups-follows.store';
import { lockupEventViews, lockupsToday } from './lockups-read.store';
import type { LockupEventView } from './lockups.shapes';

/** notifications.activity_type of every lock-up notice. */
export const LOCKUP_ACTIVITY_TYPE = 'LOCKUP_EXPIRY';

export function lockupNoticeDedupeKey(eventId: number, daysBefore: number): string {
  return `lockups:${eventId}:${daysBefore}`;
}

/** The dashboard event page. */
export function lockupEventPath(eventId: number): string {
  return `/dashboard/lockups/${eventId}`;
}

/** 40000000 -> "40,000,000". */
function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The notice of one event, n days before its expiry (0: the day): title and a message naming the shares, the float share and the top factors. */
export function lockupNoticeContent(event: LockupEventView, daysBefore: number): { title: string; message: string } {
  const who = event.ticker ? `${event.companyName} (${event.ticker})` : event.companyName;
  const short = event.ticker || event.companyName;
  const when = daysBefore === 0 ? 'today' : daysBefore === 1 ? 'tomorrow' : `in ${daysBefore} days`;
  const title = `${short}: IPO lock-up expires ${when} (${event.lockupExpirationDate})`;
  const shares = event.sharesLockedUp ? `${grouped(event.sharesLockedUp)} shares` : 'An undisclosed number of shares';
  const float = event.floatShare === null ? 'share of the float unknown' : `${(event.floatShare * 100).toFixed(1)} % of the shares outstanding`;
  const tranche = event.tranches > 1 ? ` (release ${event.tranche} of ${event.tranches}${event.trancheLabel ? `, ${event.trancheLabel}` : ''})` : '';
  const factors = event.topFactors.length
    ? `; top factors: ${event.topFactors.map((f) => `${f.label.toLowerCase()} +${f.points}${f.input ? ` (${f.input})` : ''}`).join(', ')}`
    : '';
  const early = event.status === 'released_early' ? ' An early-release trigger was already met.' : '';
  const message = `${shares} of ${who} unlock ${daysBefore === 0 ? 'today' : `on ${event.lockupExpirationDate}`}${tranche}: ${float}. Risk score ${event.riskScore.toFixed(1)}/100${factors}.${early}`;
  return { title: title.slice(0, 200), message: message.slice(0, 2000) };
}

export interface LockupNotifyOutcome {
  due: number;
  /** Notification rows written by this run (a retried run writes none again). */
  inserted: number;
  users: number;
  events: number;
}

/**
 * lockups.notify: the notices due today, one notification per (user, event, days before), written
 * with their lockup_notices rows in one transaction, then published and queued (push, email to those
 * who opted in). Safe to retry: a notice recorded earlier today is dispatched again under the same
 * job ids, never written twice; one recorded on an earlier day is never sent again.
 */
export async function notifyLockupFollowers(deps: Pick<JobContext, 'dataSource' | 'queues' | 'redis'> & { clock: Clock }): Promise<LockupNotifyOutcome> {
  const now = deps.clock.now();
  const today = lockupsToday(now);
  const due = await dueLockupNotices(deps.dataSource, today);
  if (!due.length) return { due: 0, inserted: 0, users: 0, events: 0 };
  const events = new Map((await lockupEventViews(deps.dataSource, [...new Set(due.map((d) => d.eventId))])).map((e) => [e.id, e]));
  const groups = new Map<string, DueLockupNotice[]>();
  for (const d of due) {
    const key = lockupNoticeDedupeKey(d.eventId, d.daysBefore);
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const requests: NotificationRequest[] = [];
  for (const [dedupeKey, notices] of groups) {
    const event = events.get(notices[0].eventId);
    if (!event) continue;
    const { title, message } = lockupNoticeContent(event, notices[0].daysBefore);
    const type = notices[0].daysBefore <= 1 ? 'warning' : 'info';
    requests.push({
      recipients: notices.map((n) => n.userId),
      dedupeKey,
      content: {
        title,
        message,
        type,
        activityType: LOCKUP_ACTIVITY_TYPE,
        exchangeId: null,
        symbolId: event.ticker || null,
        details: {
          eventId: event.id,
          ticker: event.ticker || null,
          lockupExpirationDate: event.lockupExpirationDate,
          daysBefore: notices[0].daysBefore,
          sharesLockedUp: event.sharesLockedUp,
          floatShare: event.floatShare,
          riskScore: event.riskScore,
          topFactors: event.topFactors.map((f) => ({ name: f.name, points: f.points })),
          url: lockupEventPath(event.id),
          importance: importanceOf(type),
        },
      },
      channels: {
        push: { ttlSeconds: 86_400, urgency: 'normal', topic: null, url: lockupEventPath(event.id) },
        email: { to: 'opted-in' },
        telegram: null,
      },
    });
  }
  const written = await deps.dataSource.transaction(async (manager) => {
    const rows = await writeNotifications(manager, requests, { now, existing: 'include' });
    await recordLockupNotices(manager, due.filter((d) => !d.recorded), today);
    return rows;
  });
  await dispatchNotifications(deps, written);
  return { due: due.length, inserted: written.filter((w) => w.inserted).length, users: new Set(due.map((d) => d.userId)).size, events: events.size };
}
