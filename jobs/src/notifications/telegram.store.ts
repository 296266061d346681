import { createHash, randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { NotificationRow } from './notification-content';
import { NOTIFICATION_COLUMNS } from './notifications.store';

/**
 * Every query of the Telegram channel: link codes (made, redeemed), the linked chats (read,
 * unlinked, moved), and what a delivery reads. Codes are stored as SHA-256 only.
 */
type Db = DataSource | EntityManager;

/** A code is good for this long after it is shown. */
export const TELEGRAM_CODE_TTL_MS = 15 * 60_000;
/** Letters and digits a person can copy without confusing them (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 10 characters of 31: about 49 bits, for a code that lives 15 minutes and works once. */
export const TELEGRAM_CODE_LENGTH = 10;

export function telegramCodeHash(code: string): string {
  return createHash('sha256').update(code.trim().toUpperCase()).digest('hex');
}

export function newTelegramCode(): string {
  let code = '';
  for (let i = 0; i < TELEGRAM_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export interface TelegramLinkRow {
  chatId: string;
  username: string | null;
  linkedAt: Date;
}

/** The user's linked chat, or null. */
export async function telegramLinkOf(db: Db, userId: number): Promise<TelegramLinkRow | null> {
  const rows: { chat_id: string; username: string | null; linked_at: Date }[] = await db.query(
    'SELECT chat_id, username, linked_at FROM telegram_links WHERE user_id = $1',
    [userId],
  );
  return rows[0] ? { chatId: String(rows[0].chat_id), username: rows[0].username, linkedAt: new Date(rows[0].linked_at) } : null;
}

/**
 * A new one-time code for the user, valid TELEGRAM_CODE_TTL_MS from `now`. The user's earlier
 * codes stop working (one live code per user), and codes that expired more than a day ago are
 * cleared on the way. The code itself is answered once and never stored.
 */
export async function createTelegramLinkCode(db: DataSource, userId: number, now: Date): Promise<{ code: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + TELEGRAM_CODE_TTL_MS);
  return db.transaction(async (manager) => {
    await manager.query(`DELETE FROM telegram_link_codes WHERE user_id = $1 OR expires_at < $2::timestamptz - interval '1 day'`, [userId, now]);
    for (;;) {
      const code = newTelegramCode();
      const inserted: unknown[] = await manager.query(
        `INSERT INTO telegram_link_codes (user_id, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT ON CONSTRAINT uq_telegram_link_codes_code_hash DO NOTHING RETURNING id`,
        [userId, telegramCodeHash(code), now, expiresAt],
      );
      // A clash of 49-bit codes is all but impossible; draw again if it happens.
      if (inserted.length) return { code, expiresAt };
    }
  });
}

export type RedeemResult =
  | { status: 'linked'; userId: number; userName: string }
  | { status: 'expired' }
  | { status: 'used' }
  | { status: 'unknown' };

/**
 * Redeems a code sent to the bot from `chat`: in one transaction the code (locked) is checked
 * (unknown, used, expired, or its account deleted: unknown), marked used, and the chat becomes
 * the user's link (replacing an earlier one).
 */
export async function redeemTelegramLinkCode(
  db: DataSource,
  code: string,
  chat: { chatId: string; username: string | null },
  now: Date,
): Promise<RedeemResult> {
  return db.transaction(async (manager) => {
    const rows: { id: number; user_id: number; expires_at: Date; used_at: Date | null; name: string | null; email: string }[] = await manager.query(
      `SELECT c.id, c.user_id, c.expires_at, c.used_at, u.name, u.email
       FROM telegram_link_codes c JOIN users u ON u.id = c.user_id AND u.deleted_at IS NULL
       WHERE c.code_hash = $1 FOR UPDATE OF c`,
      [telegramCodeHash(code)],
    );
    const row = rows[0];
    if (!row) return { status: 'unknown' };
    if (row.used_at) return { status: 'used' };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { status: 'expired' };
    await manager.query('UPDATE telegram_link_codes SET used_at = $2 WHERE id = $1', [row.id, now]);
    await manager.query(
      `INSERT INTO telegram_links (user_id, chat_id, username, linked_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT uq_telegram_links_user_id
       DO UPDATE SET chat_id = EXCLUDED.chat_id, username = EXCLUDED.username, linked_at = EXCLUDED.linked_at`,
      [row.user_id, chat.chatId, chat.username?.slice(0, 64) ?? null, now],
    );
    return { status: 'linked', userId: row.user_id, userName: row.name?.trim() || row.email };
  });
}

/** Removes the user's link; answers whether there was one. */
export async function unlinkTelegram(db: Db, userId: number): Promise<boolean> {
  const [, deleted]: [unknown, number] = await db.query('DELETE FROM telegram_links WHERE user_id = $1', [userId]);
  return deleted > 0;
}

/** Telegram said the chat is gone for the bot (403): every link to it goes. Answers how many. */
export async function unlinkTelegramChat(db: Db, chatId: string): Promise<number> {
  const [, deleted]: [unknown, number] = await db.query('DELETE FROM telegram_links WHERE chat_id = $1', [chatId]);
  return deleted;
}

/** A group became a supergroup with a new id: the links follow it. */
export async function moveTelegramChat(db: Db, fromChatId: string, toChatId: string): Promise<number> {
  const [, updated]: [unknown, number] = await db.query('UPDATE telegram_links SET chat_id = $2 WHERE chat_id = $1', [fromChatId, toChatId]);
  return updated;
}

/** Which of these users (accounts not deleted) have a linked chat. */
export async function telegramLinkedUsers(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows: { user_id: number }[] = await db.query(
    `SELECT l.user_id FROM telegram_links l JOIN users u ON u.id = l.user_id AND u.deleted_at IS NULL WHERE l.user_id = ANY($1::int[])`,
    [userIds],
  );
  return new Set(rows.map((r) => Number(r.user_id)));
}

/**
 * What a notifications.telegram job sends: the notification and its user's chat, read when the
 * job runs. Null when the notification was deleted (cleared list), its user unlinked Telegram,
 * or the account is deleted: nothing to send.
 */
export async function telegramDeliveryOf(db: Db, notificationId: string): Promise<{ notification: NotificationRow; chatId: string } | null> {
  const rows: (NotificationRow & { chat_id: string })[] = await db.query(
    `SELECT ${NOTIFICATION_COLUMNS.split(', ').map((c) => `n.${c}`).join(', ')}, l.chat_id
     FROM notifications n
     JOIN telegram_links l ON l.user_id = n.user_id
     JOIN users u ON u.id = n.user_id AND u.deleted_at IS NULL
     WHERE n.id = $1`,
    [notificationId],
  );
  if (!rows[0]) return null;
  const { chat_id, ...notification } = rows[0];
  return { notification, chatId: String(chat_id) };
}
