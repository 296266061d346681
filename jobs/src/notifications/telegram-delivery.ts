import { DelayedError, UnrecoverableError } from 'bullmq';
import type { JobPayload } from '../registry';
import type { JobContext } from '../runtime/job-handler';
import { countDeliveries, failedDeliveryOutcome } from '../runtime/metrics';
import { isDelivered, setDeliveryReceipt } from './delivery-receipts';
import { MAX_TELEGRAM_RATE_LIMIT_DELAYS } from './notifications.jobs';
import { notificationTelegramText } from './notify';
import type { TelegramBot } from './telegram.client';
import { moveTelegramChat, telegramDeliveryOf, unlinkTelegramChat } from './telegram.store';

/** A retry_after beyond this is capped: the message would be stale anyway. */
export const MAX_TELEGRAM_RETRY_AFTER_S = 3600;

export interface TelegramDeliveryOptions {
  /**
   * Milliseconds per second of Telegram's retry_after: 1000 in production; tests pass 1 so a
   * `retry_after: 30` waits 30 ms of BullMQ's real delay instead of 30 s.
   */
  retryAfterUnitMs: number;
}

export type TelegramDeliveryResult =
  | { sent: true; messageId: number; receiptSet: boolean; migratedTo?: string }
  | { unlinked: number }
  | { skipped: 'not-configured' | 'already-sent' | 'not-linked' };

/** Telegram asked us to wait (429) and this job cannot be put back (no BullMQ job: a direct call). */
export class TelegramRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`Telegram flood control: retry after ${retryAfterMs} ms`);
    this.name = 'TelegramRateLimitedError';
  }
}

/**
 * notifications.telegram: one notification to its user's linked chat. The chat is read when the
 * job runs (unlinked, cleared or deleted meanwhile: nothing is sent). Outcomes:
 * - sent: the receipt (if any) is set; a receipt already set means an earlier run sent it, so nothing is sent again;
 * - 429: the job goes back to BullMQ's delayed set for retry_after (× retryAfterUnitMs) with
 *   `moveToDelayed` + DelayedError, which does not use one of its attempts (at most
 *   MAX_TELEGRAM_RATE_LIMIT_DELAYS times, then it fails an attempt like any error);
 * - 403 (bot blocked, removed from the group) or "chat not found": the chat is unlinked;
 * - 400 with migrate_to_chat_id: the link follows the supergroup and the message is sent there;
 * - other refusals fail for good (UnrecoverableError); no answer or 5xx throws, so BullMQ retries with backoff.
 */
export async function deliverTelegram(
  payload: JobPayload<'notifications.telegram'>,
  context: JobContext,
  bot: TelegramBot | null,
  options: TelegramDeliveryOptions,
): Promise<TelegramDeliveryResult> {
  if (!bot) return { skipped: 'not-configured' };
  const { dataSource, job, logger } = context;
  if (payload.receipt && (await isDelivered(dataSource, payload.receipt))) return { skipped: 'already-sent' };
  const target = await telegramDeliveryOf(dataSource, payload.notificationId);
  if (!target) return { skipped: 'not-linked' };
  const text = payload.text ?? notificationTelegramText(target.notification);

  let chatId = target.chatId;
  let migratedTo: string | undefined;
  let outcome = await bot.sendMessage(chatId, text);
  if (outcome.kind === 'migrated') {
    await moveTelegramChat(dataSource, chatId, outcome.chatId);
    chatId = migratedTo = outcome.chatId;
    outcome = await bot.sendMessage(chatId, text);
  }

  switch (outcome.kind) {
    case 'sent': {
      countDeliveries('telegram', 'sent');
      const receiptSet = payload.receipt ? await setDeliveryReceipt(dataSource, payload.receipt) : false;
      return { sent: true, messageId: outcome.messageId, receiptSet, ...(migratedTo ? { migratedTo } : {}) };
    }
    case 'rate-limited': {
      countDeliveries('telegram', 'retry');
      const delayMs = Math.min(Math.max(outcome.retryAfterSeconds, 1), MAX_TELEGRAM_RETRY_AFTER_S) * options.retryAfterUnitMs;
      if (!job?.token || payload.rateLimitDelays >= MAX_TELEGRAM_RATE_LIMIT_DELAYS) throw new TelegramRateLimitedError(delayMs);
      logger.info({ notificationId: payload.notificationId, delayMs, delays: payload.rateLimitDelays + 1 }, 'telegram: flood control, message put back');
      await job.updateData({ ...payload, rateLimitDelays: payload.rateLimitDelays + 1 });
      // BullMQ's delayed set runs on wall time: Date.now(), not the injected clock.
      await job.moveToDelayed(Date.now() + delayMs, job.token);
      throw new DelayedError();
    }
    case 'blocked': {
      countDeliveries('telegram', 'gone');
      const unlinked = await unlinkTelegramChat(dataSource, chatId);
      logger.info({ notificationId: payload.notificationId, status: outcome.status, description: outcome.description, unlinked }, 'telegram: chat gone, unlinked');
      return { unlinked };
    }
    case 'migrated':
      // Migrated twice in a row: not something Telegram does; try again later.
      countDeliveries('telegram', failedDeliveryOutcome(job));
      throw new Error('telegram: the chat moved twice');
    case 'rejected':
      countDeliveries('telegram', 'failed');
      throw new UnrecoverableError(`telegram refused the message: HTTP ${outcome.status} ${outcome.description}`);
    case 'unavailable':
      countDeliveries('telegram', failedDeliveryOutcome(job));
      throw new Error(`telegram unavailable: ${outcome.reason}`);
  }
}
