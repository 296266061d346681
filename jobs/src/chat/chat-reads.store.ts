// Reading: the member's read cursor (last_read_message_id) and their mentions (chat_notifications
// of type mention / reply). Unread and mention counts are computed from these on the server, so
// every tab and device of a user agrees.
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import { loadMessageViews } from './chat-messages.store';
import { getRoom, returned, requireMember, requireReader, type ChatDeps, type Db } from './chat-rooms.store';
import type { ChatMentionView, ChatMentionsPage } from './chat.shapes';

export interface ReadState {
  lastReadMessageId: string;
  unread: number;
  mentions: number;
}

/**
 * Marks the room read up to a message of it (never backwards: an older id keeps the newer mark) and
 * the member's mentions of the room up to it; publishes `read` (the user's other tabs update).
 * unknown_message, wrong_room (field messageId), not_member.
 */
export async function markRoomRead(deps: ChatDeps, userId: number, roomId: number, messageId: string): Promise<ReadState> {
  const db = deps.dataSource;
  await requireMember(db, userId, roomId, deps.now);
  const rows: { room_id: number }[] = await db.query(`SELECT room_id FROM chat_messages WHERE id = $1`, [messageId]);
  if (!rows.length) throw new ChatError('unknown_message', 'No such message', { field: 'messageId' });
  if (rows[0].room_id !== roomId) throw new ChatError('wrong_room', 'That message is in another room', { field: 'messageId' });
  const [mark] = await db.transaction(async (m) => {
    await m.query(
      `UPDATE chat_notifications n SET is_read = true FROM chat_messages c
        WHERE c.id = n.message_id AND n.user_id = $1 AND c.room_id = $2 AND n.message_id <= $3 AND NOT n.is_read`,
      [userId, roomId, messageId],
    );
    return returned<{ last: string }>(await m.query(
      `UPDATE chat_room_members SET last_read_message_id = greatest(coalesce(last_read_message_id, 0), $3::bigint), last_read_at = $4
        WHERE room_id = $1 AND user_id = $2 RETURNING last_read_message_id::text AS last`,
      [roomId, userId, messageId, deps.now],
    ));
  });
  const view = await getRoom(db, userId, roomId, deps.now);
  await publishChatEvent(deps.redis, deps.prefix, { kind: 'read', roomId, userId, lastReadMessageId: mark.last });
  return { lastReadMessageId: mark.last, unread: view.unread, mentions: view.mentions };
}

export interface MentionsQuery {
  /** nextCursor of the previous page (a chat_notifications id). */
  cursor: string | null;
  limit: number;
  unreadOnly: boolean;
}

/**
 * The user's mentions and replies to their messages, newest first, in rooms they may still read
 * (public, or private ones they are a member of; not banned), deleted messages and blocked authors
 * left out; with the unread count.
 */
export async function listMentions(db: Db, userId: number, query: MentionsQuery): Promise<ChatMentionsPage> {
  const visible = `FROM chat_notifications n
       JOIN chat_messages c ON c.id = n.message_id
       JOIN chat_rooms r ON r.id = c.room_id
       LEFT JOIN chat_room_members x ON x.room_id = r.id AND x.user_id = n.user_id
      WHERE n.user_id = $1 AND n.type IN ('mention', 'reply') AND c.deleted_at IS NULL
        AND (x.banned_until IS NULL OR x.banned_until <= now()) AND (NOT r.is_private OR x.id IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM chat_blocks b WHERE b.blocker_id = n.user_id AND b.blocked_id = c.user_id)`;
  const rows: { id: number; type: 'mention' | 'reply'; is_read: boolean; created_at: Date; message_id: string; room_id: number; room_name: string }[] = await db.query(
    `SELECT n.id, n.type, n.is_read, n.created_at, n.message_id::text AS message_id, r.id AS room_id, r.name AS room_name
       ${visible} AND ($2::int IS NULL OR n.id < $2) AND (NOT $3 OR NOT n.is_read)
      ORDER BY n.id DESC LIMIT $4`,
    [userId, query.cursor === null ? null : Number(query.cursor), query.unreadOnly, query.limit + 1],
  );
  const page = rows.slice(0, query.limit);
  const messages = new Map((await loadMessageViews(db, userId, page.map((r) => r.message_id))).map((m) => [m.id, m]));
  const [{ unread }]: { unread: number }[] = await db.query(`SELECT count(*)::int AS unread ${visible} AND NOT n.is_read`, [userId]);
  return {
    mentions: page
      .filter((r) => messages.has(r.message_id))
      .map(
        (r): ChatMentionView => ({
          id: r.id,
          type: r.type,
          isRead: r.is_read,
          createdAt: new Date(r.created_at).toISOString(),
          room: { id: r.room_id, name: r.room_name },
          message: messages.get(r.message_id)!,
        }),
      ),
    nextCursor: rows.length > query.limit ? String(page[page.length - 1].id) : null,
    unread,
  };
}

/** Marks the user's mentions read: all of them, or those of one room they may read. */
export async function markMentionsRead(deps: ChatDeps, userId: number, roomId: number | null): Promise<{ updated: number; unread: number }> {
  const db = deps.dataSource;
  if (roomId !== null) await requireReader(db, userId, roomId, deps.now);
  const updated: [unknown[], number] = await db.query(
    `UPDATE chat_notifications n SET is_read = true FROM chat_messages c
      WHERE c.id = n.message_id AND n.user_id = $1 AND NOT n.is_read AND ($2::int IS NULL OR c.room_id = $2)`,
    [userId, roomId],
  );
  const page = await listMentions(db, userId, { cursor: null, limit: 1, unreadOnly: true });
  return { updated: Array.isArray(updated) ? Number(updated[1] ?? 0) : 0, unread: page.unread };
}
