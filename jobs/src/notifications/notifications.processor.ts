import { defineHandler, type JobContext } from '../runtime/job-handler';
import { deliverNotifications } from './notification-delivery';
import { sendPushes } from './push-delivery';
import type { PushSender } from './push-sender';
import type { TelegramBot } from './telegram.client';
import { deliverTelegram } from './telegram-delivery';
import { pollTelegramUpdates } from './telegram-linking';

export interface NotificationsHandlerDeps {
  /**
   * The process's web push sender (createPushSender), built once and reused by every push job;
   * asked for only when a job has something to send.
   */
  pushSender: (context: JobContext) => Promise<PushSender>;
  /** The Telegram bot (TelegramBotClient), built once; null while TELEGRAM_BOT_TOKEN is unset (the channel is off). */
  telegram: TelegramBot | null;
  /** Milliseconds per second of a 429's retry_after (default 1000; tests use 1). */
  telegramRetryAfterUnitMs?: number;
}

export function createNotificationsHandlers(deps: NotificationsHandlerDeps) {
  const retryAfterUnitMs = deps.telegramRetryAfterUnitMs ?? 1000;
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
    defineHandler('notifications.telegram', (payload, context) => deliverTelegram(payload, context, deps.telegram, { retryAfterUnitMs })),
    defineHandler('notifications.telegram-updates', async (_payload, context) => {
      const result = await pollTelegramUpdates(context, deps.telegram);
      if (result.updates) context.logger.info(result, 'telegram updates read');
      return result;
    }),
  ];
}
