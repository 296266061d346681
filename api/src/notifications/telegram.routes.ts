import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { systemClock, type Clock } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import { createTelegramLinkCode, telegramConfigured, telegramLinkOf, unlinkTelegram, type TelegramEnv } from '@tickerbell/jobs/notifications';
import type { NotificationChannelsResponse, TelegramCodeResponse, TelegramStatusResponse } from '@tickerbell/jobs/notifications/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';

export interface TelegramRouteDeps {
  /** The Telegram variables and SMTP_URL (whether mail is really sent), validated at start with the rest. */
  config: Pick<TelegramEnv, 'TELEGRAM_BOT_TOKEN' | 'TELEGRAM_BOT_USERNAME'> & { SMTP_URL?: string };
  dataSource: DataSource;
  clock?: Clock;
  /** Linking a chat needs a plan with Telegram (feature `telegram`; 403 feature_off otherwise). */
  entitlements: Entitlements;
}

/** 409 when the server has no bot: the settings screen says so instead of offering a code. */
function notConfigured(): HttpError {
  return new HttpError(409, 'telegram_not_configured', 'Telegram is not configured on this server');
}

/**
 * The delivery channels this server has (settings), and the signed-in user's Telegram link: its
 * state, a one-time code to send the bot, and unlinking. Linking itself happens in the workers
 * (notifications.telegram-updates) when the bot receives the code.
 */
export function telegramRoutes(deps: TelegramRouteDeps): Router {
  const { dataSource, config } = deps;
  const clock = deps.clock ?? systemClock;
  const router = Router();
  const configured = telegramConfigured(config);
  const botUsername = configured ? (config.TELEGRAM_BOT_USERNAME ?? null) : null;

  const status = async (userId: number): Promise<TelegramStatusResponse> => {
    const link = configured ? await telegramLinkOf(dataSource, userId) : null;
    return {
      configured,
      botUsername,
      linked: link !== null,
      chatUsername: link?.username ?? null,
      linkedAt: link ? link.linkedAt.toISOString() : null,
    };
  };

  router.get('/notifications/channels', requireUser, (_req, res) => {
    const body: NotificationChannelsResponse = { email: { configured: Boolean(config.SMTP_URL) }, telegram: { configured } };
    res.set('Cache-Control', 'no-store').json(body);
  });

  router.get('/notifications/telegram', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await status(sessionUser(req).id));
  });

  router.post('/notifications/telegram/code', requireUser, async (req, res) => {
    if (!configured || !botUsername) throw notConfigured();
    const userId = sessionUser(req).id;
    const now = clock.now();
    await deps.entitlements.checkFeature(dataSource, userId, 'telegram', now);
    const { code, expiresAt } = await createTelegramLinkCode(dataSource, userId, now);
    const body: TelegramCodeResponse = {
      code,
      expiresAt: expiresAt.toISOString(),
      botUsername,
      link: `https://t.me/${botUsername}?start=${code}`,
    };
    res.status(201).set('Cache-Control', 'no-store').json(body);
  });

  router.delete('/notifications/telegram', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    await unlinkTelegram(dataSource, userId);
    res.json(await status(userId));
  });

  return router;
}
