import { fanOutToFollowers } from '../notifications/fan-out';
import { defineHandler } from '../runtime/job-handler';
import { runMarketClock } from './market-clock';
import { marketEventAudience } from './market-hours.store';
import { marketNotificationContent, marketPushOptions } from './market-notification';

/** The market-hours handlers need nothing beyond their JobContext today; the deps keep the factory's shape. */
export type MarketHoursHandlerDeps = Record<string, never>;

export function createMarketHoursHandlers(_deps: MarketHoursHandlerDeps = {}) {
  return [
    defineHandler('market-hours.clock', async (_payload, context) => {
      const result = await runMarketClock(context);
      if (result.emitted.length || result.dropped.length) context.logger.info(result, 'market clock');
      return result;
    }),
    /**
     * The event's followers (with the kind's preference on), through fanOutToFollowers: keyset
     * pages, one notifications.deliver job per page under a deterministic id, so a retried fan-out
     * re-adds the same jobs (and delivery is idempotent on the dedupe key).
     */
    defineHandler('market-hours.fan-out', async ({ event, batchSize }, context) => {
      const { batches, users } = await fanOutToFollowers(context, {
        audience: marketEventAudience(event.exchangeId, event.kind),
        notification: marketNotificationContent(event),
        push: marketPushOptions(event),
        email: true,
        batchSize,
      });
      return { key: event.key, batches, users };
    }),
  ];
}
