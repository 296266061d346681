import { randomUUID } from 'node:crypto';
import type { JobContext } from '../runtime/job-handler';
import type { TelegramBot } from './telegram.client';
import { linkCodeOf, type TelegramUpdate } from './telegram.parse';
import { redeemTelegramLinkCode, type RedeemResult } from './telegram.store';

/**
 * Linking a Telegram chat: the user sends the bot the one-time code shown in settings
 * (`/start <code>`, which the t.me link fills in, or the code alone). notifications.telegram-updates
 * reads the bot's new messages with getUpdates from an offset kept in Redis, one reader at a time
 * (a Redis lock: Telegram answers 409 to overlapping getUpdates), redeems each code and answers
 * in the chat.
 */

export function telegramUpdatesOffsetKey(prefix: string): string {
  return `${prefix}:telegram:updates-offset`;
}
export function telegramUpdatesLockKey(prefix: string): string {
  return `${prefix}:telegram:updates-lock`;
}
const LOCK_MS = 60_000;
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

const WHERE = 'Settings → Telegram in Tickerbell';

/** What the bot answers to a code. */
export function linkReply(result: RedeemResult | { status: 'no-code' }): string {
  switch (result.status) {
    case 'linked':
      return `Linked to Tickerbell as ${result.userName}. Notifications you send to Telegram arrive in this chat; unlink in ${WHERE}.`;
    case 'expired':
      return `This code has expired. Get a new one in ${WHERE}.`;
    case 'used':
      return `This code was already used. Get a new one in ${WHERE}.`;
    case 'unknown':
      return `This is not a Tickerbell code. Get one in ${WHERE}.`;
    case 'no-code':
      return `To link this chat, send the code shown in ${WHERE}, like this: /start ABCD2345EF`;
  }
}

export interface TelegramUpdatesResult {
  updates: number;
  linked: number;
  refused: number;
  status?: 'busy' | 'not-configured';
}

/**
 * One read of the bot's updates. Each update's offset is stored as soon as it is handled, so a
 * crash re-reads only the update it was on; a code is redeemed in one transaction, so reading it
 * again answers "already used" rather than linking twice.
 */
export async function pollTelegramUpdates(context: Pick<JobContext, 'dataSource' | 'redis' | 'queues' | 'clock' | 'logger'>, bot: TelegramBot | null): Promise<TelegramUpdatesResult> {
  const result: TelegramUpdatesResult = { updates: 0, linked: 0, refused: 0 };
  if (!bot) return { ...result, status: 'not-configured' };
  const { redis, queues } = context;
  const lockKey = telegramUpdatesLockKey(queues.prefix);
  const token = randomUUID();
  if ((await redis.set(lockKey, token, 'PX', LOCK_MS, 'NX')) !== 'OK') return { ...result, status: 'busy' };
  try {
    const offsetKey = telegramUpdatesOffsetKey(queues.prefix);
    const stored = await redis.get(offsetKey);
    const updates = await bot.getUpdates(stored === null ? null : Number(stored));
    for (const update of updates) {
      const outcome = await handleUpdate(context, bot, update);
      if (outcome === 'linked') result.linked++;
      else if (outcome === 'refused') result.refused++;
      result.updates++;
      await redis.set(offsetKey, String(update.update_id + 1));
    }
    return result;
  } finally {
    await redis.eval(RELEASE_LOCK, 1, lockKey, token);
  }
}

async function handleUpdate(
  context: Pick<JobContext, 'dataSource' | 'clock' | 'logger'>,
  bot: TelegramBot,
  update: TelegramUpdate | { update_id: number; message?: undefined },
): Promise<'linked' | 'refused' | 'ignored'> {
  const message = update.message;
  if (!message?.text) return 'ignored';
  const { command, code } = linkCodeOf(message.text);
  const chatId = message.chat.id;
  let reply: string | null;
  let outcome: 'linked' | 'refused' | 'ignored';
  if (code) {
    const redeemed = await redeemTelegramLinkCode(
      context.dataSource,
      code,
      { chatId, username: message.chat.username ?? message.from?.username ?? null },
      context.clock.now(),
    );
    reply = linkReply(redeemed);
    outcome = redeemed.status === 'linked' ? 'linked' : 'refused';
    context.logger.info({ chatId, status: redeemed.status }, 'telegram: link code');
  } else {
    // In groups the bot sees commands only; answer chatter in private chats alone.
    reply = command === 'start' || message.chat.type === 'private' ? linkReply({ status: 'no-code' }) : null;
    outcome = 'ignored';
  }
  if (reply) {
    // The link is stored already: a failed answer is logged, not retried.
    const sent = await bot.sendMessage(chatId, reply);
    if (sent.kind !== 'sent') context.logger.warn({ chatId, outcome: sent }, 'telegram: the answer to a link code was not sent');
  }
  return outcome;
}
