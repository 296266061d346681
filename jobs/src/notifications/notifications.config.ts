import { parseEnv } from '../config/env';
import { telegramEnvSchema, type TelegramEnv } from './telegram.config';
import { pushEnvSchema, type PushEnv } from './vapid-keys';

/**
 * The notifications variables: web push (VAPID keys, timeouts, outbound rule) and the Telegram
 * bot, checked together.
 */
export const notificationsEnvSchema = pushEnvSchema.extend(telegramEnvSchema.shape).superRefine((env, ctx) => {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
      message: 'set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together, or neither',
    });
  }
  if (Boolean(env.TELEGRAM_BOT_TOKEN) !== Boolean(env.TELEGRAM_BOT_USERNAME)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.TELEGRAM_BOT_TOKEN ? 'TELEGRAM_BOT_USERNAME' : 'TELEGRAM_BOT_TOKEN'],
      message: 'set TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_USERNAME together, or neither',
    });
  }
});

export type NotificationsConfig = PushEnv & TelegramEnv;

/** The push settings alone (tools and tests); processes get them with every other variable at start. */
export function readPushEnv(env: Record<string, string | undefined>, processName = 'push'): NotificationsConfig {
  return parseEnv(notificationsEnvSchema, env, processName);
}
