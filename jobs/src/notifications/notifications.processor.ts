import { defineHandler } from '../runtime/job-handler';
import { deliverNotifications } from './notification-delivery';
import { sendPushes } from './push-delivery';

export const notificationsHandlers = [
  defineHandler('notifications.deliver', async (payload, context) => {
    const result = await deliverNotifications(payload, context);
    context.logger.debug({ ...result, dedupeKey: payload.notification.dedupeKey }, 'notifications delivered');
    return result;
  }),
  defineHandler('notifications.push', async (payload, context) => {
    const result = await sendPushes(payload, context);
    if (result.removed || result.retried || result.rejected) context.logger.info({ ...result, attempt: payload.attempt }, 'web push results');
    return result;
  }),
];
