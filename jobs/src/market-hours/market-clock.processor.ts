import { defineHandler } from '../runtime/job-handler';
import { marketNotificationContent, marketPushOptions } from './market-notification';
import { followerBatch } from './market-followers';
import { runMarketClock } from './market-clock';

export const marketHoursHandlers = [
  defineHandler('market-hours.clock', async (_payload, context) => {
    const result = await runMarketClock(context);
    if (result.emitted.length || result.dropped.length) context.logger.info(result, 'market clock');
    return result;
  }),
  /**
   * Keyset pages of followers, one notifications.deliver job per page. Job ids are the event and
   * the page's first user, so a retried fan-out re-adds the same jobs (BullMQ ignores a job id it
   * still holds, and delivery is idempotent on the dedupe key when it does not).
   */
  defineHandler('market-hours.fan-out', async ({ event, batchSize }, context) => {
    const notification = marketNotificationContent(event);
    const push = marketPushOptions(event);
    let afterUserId = 0;
    let batches = 0;
    let users = 0;
    for (;;) {
      const userIds = await followerBatch(context.dataSource, { exchangeId: event.exchangeId, kind: event.kind, afterUserId, limit: batchSize });
      if (!userIds.length) break;
      await context.queues.add(
        'notifications.deliver',
        { notification, push, email: true, userIds },
        { jobId: `deliver-${event.key.replace(/:/g, '-')}-${userIds[0]}` },
      );
      batches++;
      users += userIds.length;
      afterUserId = userIds[userIds.length - 1];
      if (userIds.length < batchSize) break;
    }
    return { key: event.key, batches, users };
  }),
];
