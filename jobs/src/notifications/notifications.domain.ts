import { defineDomain } from '../runtime/domain';
import { notificationsEnvSchema } from './notifications.config';
import { createNotificationsHandlers } from './notifications.processor';
import { NOTIFICATIONS_SCHEDULES } from './notifications.schedules';
import { lazyPushSender, type LazyPushSender } from './push-delivery';
import { TelegramBotClient } from './telegram.client';

/**
 * Notifications in the workers: delivery batches, web push and Telegram. One push sender per
 * start (its keep-alive sockets and VAPID JWTs are reused by every job), built by the first push
 * job, which has the connection the VAPID keys live on, and closed with the domain. The Telegram
 * bot client is built at start when TELEGRAM_BOT_TOKEN is set; without it the Telegram jobs do nothing.
 */
export const notificationsDomain = defineDomain({
  name: 'notifications',
  env: notificationsEnvSchema,
  schedules: NOTIFICATIONS_SCHEDULES,
  start(config, deps) {
    let push: LazyPushSender | undefined;
    const telegram = config.TELEGRAM_BOT_TOKEN
      ? new TelegramBotClient({
          apiUrl: config.TELEGRAM_API_URL,
          token: config.TELEGRAM_BOT_TOKEN,
          timeoutMs: config.TELEGRAM_TIMEOUT_MS,
          health: { dataSource: deps.dataSource, clock: deps.clock },
        })
      : null;
    const handlers = createNotificationsHandlers({
      pushSender: (context) =>
        (push ??= lazyPushSender({ redis: context.redis, prefix: context.queues.prefix, clock: context.clock, logger: context.logger }, config)).get(),
      telegram,
    });
    return { handlers, close: async () => push?.close() };
  },
});
