import { defineHandler, type JobContext } from '../runtime/job-handler';
import { deliverNotifications } from './notification-delivery';
import { sendPushes } from './push-delivery';
import type { PushSender } from './push-sender';

export interface NotificationsHandlerDeps {
  /**
   * The process's web push sender (createPushSender), built once and reused by every push job;
   * asked for only when a job has something to send.
   */
  pushSender: (context: JobContext) => Promise<PushSender>;
}

export function createNotificationsHandlers(deps: NotificationsHandlerDeps) {
  return [
    defineHandler('notifications.deliver', async (payload, context) => {
      const result = await deliverNotifications(payload, context);
      context.logger.debug({ ...result, dedupeKey: payload.notification.dedupeKey }, 'notifications delivered');
      return result;
    }),
    defineHandler('notifications.push', async (payload, context) => {
      const result = await sendPushes(payload, context, () => deps.pushSender(context));
      if (result.removed || result.retried || result.rejected) context.logger.info({ ...result, attempt: payload.attempt }, 'web push results');
      return result;
    }),
  ];
}
