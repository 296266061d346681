import { defineDomain } from '../runtime/domain';
import { notificationsEnvSchema } from './notifications.config';
import { createNotificationsHandlers } from './notifications.processor';
import { lazyPushSender, type LazyPushSender } from './push-delivery';

/**
 * Notifications in the workers: delivery batches and web push. One push sender per start (its
 * keep-alive sockets and VAPID JWTs are reused by every job), built by the first push job, which
 * has the connection the VAPID keys live on, and closed with the domain.
 */
export const notificationsDomain = defineDomain({
  name: 'notifications',
  env: notificationsEnvSchema,
  start(config) {
    let push: LazyPushSender | undefined;
    const handlers = createNotificationsHandlers({
      pushSender: (context) =>
        (push ??= lazyPushSender({ redis: context.redis, prefix: context.queues.prefix, clock: context.clock, logger: context.logger }, config)).get(),
    });
    return { handlers, close: async () => push?.close() };
  },
});
