import type { DataSource } from 'typeorm';
import type { JobPayload } from '../registry';
import type { JobContext } from '../runtime/job-handler';
import { publishNotifications } from './notification-channel';
import { NOTIFICATION_COLUMNS, toClientNotification, type NotificationRow } from './notification-content';
import { MAX_PUSH_TARGETS } from './notifications.jobs';
import { queuesRedis } from './queues-redis';

export interface DeliveryResult {
  inserted: number;
  published: number;
  pushTargets: number;
  emails: number;
}

/**
 * notifications.deliver: one notification per user of the batch. The insert skips users who
 * already have the dedupe key, so a retried or duplicated job writes nothing twice. Rows written
 * by this attempt are published to the live streams and get their pushes and emails; a retry
 * (attemptsMade > 0) re-reads the whole batch's rows and queues them again under the same job
 * ids, so work lost by a crashed attempt is redone and BullMQ drops what is still queued.
 */
export async function deliverNotifications(payload: JobPayload<'notifications.deliver'>, context: JobContext): Promise<DeliveryResult> {
  const { dataSource, queues, clock } = context;
  const n = payload.notification;
  const inserted: NotificationRow[] = await dataSource.query(
    `INSERT INTO notifications (user_id, title, message, type, activity_type, exchange_id, symbol_id, details, dedupe_key, created_at)
     SELECT u.id, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10
     FROM users u WHERE u.id = ANY($1::int[]) AND u.deleted_at IS NULL
     ORDER BY u.id
     ON CONFLICT ON CONSTRAINT uq_notifications_user_dedupe_key DO NOTHING
     RETURNING ${NOTIFICATION_COLUMNS}`,
    [payload.userIds, n.title, n.message, n.type, n.activityType, n.exchangeId, n.symbolId, n.details ? JSON.stringify(n.details) : null, n.dedupeKey, clock.now()],
  );
  const retrying = (context.job?.attemptsMade ?? 0) > 0;
  const rows: NotificationRow[] =
    retrying && n.dedupeKey
      ? await dataSource.query(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE user_id = ANY($1::int[]) AND dedupe_key = $2 ORDER BY id`, [
          payload.userIds,
          n.dedupeKey,
        ])
      : inserted;
  if (!rows.length) return { inserted: 0, published: 0, pushTargets: 0, emails: 0 };

  const redis = await queuesRedis(queues, 'notifications');
  const published = await publishNotifications(
    redis,
    queues.prefix,
    rows.map((row) => ({ userId: row.user_id, notification: toClientNotification(row) })),
  );

  const byUser = new Map(rows.map((row) => [row.user_id, row]));
  const userIds = [...byUser.keys()];
  const targets = await pushTargetsOf(dataSource, userIds, byUser);
  const pushJobs = [];
  for (let i = 0; i < targets.length; i += MAX_PUSH_TARGETS) {
    const chunk = targets.slice(i, i + MAX_PUSH_TARGETS);
    pushJobs.push({
      name: 'notifications.push' as const,
      data: { targets: chunk, push: payload.push, attempt: 1 },
      options: { jobId: `push-${chunk[0].notificationId}-${chunk[chunk.length - 1].notificationId}-${chunk.length}` },
    });
  }
  if (pushJobs.length) await queues.addBulk(pushJobs);

  let emails = 0;
  if (payload.email) {
    const recipients: { user_id: number; email: string }[] = await dataSource.query(
      `SELECT u.id AS user_id, u.email FROM users u JOIN user_preferences p ON p.user_id = u.id
       WHERE u.id = ANY($1::int[]) AND p.email_notifications AND u.deleted_at IS NULL ORDER BY u.id`,
      [userIds],
    );
    const mails = recipients.map((r) => {
      const row = byUser.get(r.user_id) as NotificationRow;
      return {
        name: 'mail.send' as const,
        data: { to: r.email, subject: row.title, text: notificationEmailText(row) },
        options: { jobId: `notification-mail-${row.id}` },
      };
    });
    if (mails.length) await queues.addBulk(mails);
    emails = mails.length;
  }
  return { inserted: inserted.length, published, pushTargets: targets.length, emails };
}

async function pushTargetsOf(
  dataSource: DataSource,
  userIds: number[],
  byUser: Map<number, NotificationRow>,
): Promise<{ notificationId: string; subscriptionId: number }[]> {
  // Users without a preferences row have the defaults: push on.
  const subscriptions: { id: number; user_id: number }[] = await dataSource.query(
    `SELECT s.id, s.user_id FROM push_subscriptions s LEFT JOIN user_preferences p ON p.user_id = s.user_id
     WHERE s.user_id = ANY($1::int[]) AND COALESCE(p.push_notifications, true) ORDER BY s.id`,
    [userIds],
  );
  return subscriptions.map((s) => ({ notificationId: String((byUser.get(s.user_id) as NotificationRow).id), subscriptionId: s.id }));
}

/** The plain-text email of a notification: its message and, for market events, the local time. */
export function notificationEmailText(row: NotificationRow): string {
  const details = row.details ?? {};
  const lines = [`${row.message}.`];
  const local = typeof details.localExchangeTime === 'string' ? details.localExchangeTime : null;
  const date = typeof details.formattedDate === 'string' ? details.formattedDate : null;
  if (local && row.exchange_id) lines.push('', `Exchange local time: ${local}${date ? `, ${date}` : ''} (${row.exchange_id}).`);
  lines.push('', 'You receive this email because email notifications are on in your Tickerbell preferences.');
  return lines.join('\n');
}
