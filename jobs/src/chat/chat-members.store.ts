// A room's member list (issue 18): who is in it and with what role, owner first, then moderators,
// then members by name. Its moderators also see who is muted or banned and until when. Anyone who may
// read the room may read its members (a private room: its members only).
import { USER_NAME_SQL, requireReader, type Db } from './chat-rooms.store';
import type { ChatMemberView, ChatMembersPage, ChatRole } from './chat.shapes';

/** Members a page lists at most. */
export const CHAT_MEMBERS_MAX_LIMIT = 200;

/**
 * One page of the room's members (offset paging: `cursor` is the offset nextCursor gave). Banned
 * members are listed for the room's owner and moderators only, with their ban's end; so are mutes.
 */
export async function listMembers(db: Db, viewerId: number, roomId: number, now: Date, options: { cursor?: string | null; limit?: number } = {}): Promise<ChatMembersPage> {
  const access = await requireReader(db, viewerId, roomId, now);
  const moderatorView = access.member?.role === 'owner' || access.member?.role === 'moderator';
  const limit = Math.min(Math.max(1, options.limit ?? 100), CHAT_MEMBERS_MAX_LIMIT);
  const offset = options.cursor ? Number(options.cursor) : 0;
  const rows: { user_id: number; name: string; role: ChatRole; joined_at: Date; muted_until: Date | null; banned_forever: boolean; banned_until: Date | null }[] = await db.query(
    `SELECT m.user_id, ${USER_NAME_SQL('u')} AS name, m.role, m.joined_at, m.muted_until,
            coalesce(m.banned_until = 'infinity', false) AS banned_forever,
            CASE WHEN m.banned_until = 'infinity' THEN NULL ELSE m.banned_until END AS banned_until
       FROM chat_room_members m JOIN users u ON u.id = m.user_id
      WHERE m.room_id = $1 AND u.deleted_at IS NULL AND ($2 OR m.banned_until IS NULL OR m.banned_until <= $3)
      ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'moderator' THEN 1 ELSE 2 END, lower(${USER_NAME_SQL('u')}), m.user_id
      LIMIT $4 OFFSET $5`,
    [roomId, moderatorView, now, limit + 1, offset],
  );
  const page = rows.slice(0, limit);
  const members: ChatMemberView[] = page.map((row) => {
    const bannedUntil = row.banned_forever ? 'infinity' : row.banned_until && row.banned_until.getTime() > now.getTime() ? row.banned_until.toISOString() : null;
    return {
      user: { id: row.user_id, name: row.name },
      role: row.role,
      joinedAt: new Date(row.joined_at).toISOString(),
      ...(moderatorView
        ? {
            mutedUntil: row.muted_until && row.muted_until.getTime() > now.getTime() ? row.muted_until.toISOString() : null,
            bannedUntil,
          }
        : {}),
    };
  });
  return { members, nextCursor: rows.length > limit ? String(offset + limit) : null };
}
