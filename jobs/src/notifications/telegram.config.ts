import { z } from 'zod';

/** The Bot API's public address (TELEGRAM_API_URL's default). */
export const TELEGRAM_PUBLIC_API_URL = 'https://api.telegram.org';

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * The Telegram channel's variables (docs/notifications.md, "Telegram"). Without a bot token the
 * channel is off: nothing is sent, no updates are polled, and the settings screen says so.
 */
export const telegramEnvSchema = z.object({
  /** The bot's token from @BotFather (`123456789:AA...`). Unset: Telegram is off. It is never logged. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{30,100}$/, 'must be a bot token as @BotFather gives it: <digits>:<35 characters>')
    .optional(),
  /**
   * The bot's username without the @ (shown in settings, and the t.me link the code opens). Required
   * with TELEGRAM_BOT_TOKEN: it is read from configuration, not asked of Telegram (getMe).
   */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{3,31}$/, 'must be a bot username without the @ (5-32 letters, digits, _)')
    .optional(),
  /** The Bot API's address; tests point it at the local fake (telegram-replay.ts). */
  TELEGRAM_API_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').default(TELEGRAM_PUBLIC_API_URL),
  /** Milliseconds before a Bot API request is given up (always set). */
  TELEGRAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
});

export type TelegramEnv = z.infer<typeof telegramEnvSchema>;

/** Whether the deployment has a Telegram bot (the channel is on). */
export function telegramConfigured(env: Pick<TelegramEnv, 'TELEGRAM_BOT_TOKEN'>): boolean {
  return Boolean(env.TELEGRAM_BOT_TOKEN);
}
