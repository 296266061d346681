import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import type { ChatUserRef } from './chat.shapes';

// Blocks: a user hides another user's messages from themself (the blocked user is not told, and
// still sees the blocker). History, threads and mentions leave out the authors in hiddenAuthorIds;
// the live relay leaves their messages, edits and typing out of the blocker's streams (a `blocks`
// relay event, published by blockUser and unblockUser, has every api instance reload the set).

/** Where a change of blocks is announced to the live relay (the api's Redis and QUEUE_PREFIX). */
export interface ChatBlocksLive {
  redis: Redis;
  prefix: string;
}

type Db = DataSource | EntityManager;

/** Most users one user may block. */
export const CHAT_BLOCKS_MAX = 1000;

export interface ChatBlockView {
  user: ChatUserRef;
  createdAt: string;
}

/** GET /api/chat/blocks */
export interface ChatBlocksResponse {
  blocks: ChatBlockView[];
}

/** The users whose messages are hidden for the viewer (those the viewer blocked). */
export async function hiddenAuthorIds(db: Db, viewerId: number): Promise<Set<number>> {
  const rows: { blocked_id: number }[] = await db.query(`SELECT blocked_id FROM chat_blocks WHERE blocker_id = $1`, [viewerId]);
  return new Set(rows.map((row) => row.blocked_id));
}

/** The viewer's blocks, newest first. */
export async function listBlocks(db: Db, blockerId: number): Promise<ChatBlocksResponse> {
  const rows: { id: number; name: string; created_at: Date }[] = await db.query(
    `SELECT u.id, coalesce(nullif(btrim(u.name), ''), 'User ' || u.id) AS name, b.created_at
       FROM chat_blocks b JOIN users u ON u.id = b.blocked_id
      WHERE b.blocker_id = $1
      ORDER BY b.created_at DESC, u.id`,
    [blockerId],
  );
  return { blocks: rows.map((row) => ({ user: { id: row.id, name: row.name }, createdAt: new Date(row.created_at).toISOString() })) };
}

/**
 * Blocks a user (idempotent: blocking twice keeps the first). unknown_user for no such (or a
 * deleted) user, cannot_target for oneself or past CHAT_BLOCKS_MAX.
 */
export async function blockUser(db: DataSource, blockerId: number, blockedId: number, now = new Date(), live?: ChatBlocksLive): Promise<ChatBlockView> {
  if (blockerId === blockedId) throw new ChatError('cannot_target', 'You cannot block yourself', { field: 'userId' });
  const view = await db.transaction(async (m) => {
    const users: { id: number; name: string }[] = await m.query(
      `SELECT id, coalesce(nullif(btrim(name), ''), 'User ' || id) AS name FROM users WHERE id = $1 AND deleted_at IS NULL`,
      [blockedId],
    );
    if (!users.length) throw new ChatError('unknown_user', 'No such user', { field: 'userId' });
    // One blocker's blocks at a time, so the cap holds under concurrent requests.
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('chat_blocks'), $1)`, [blockerId]);
    const [{ count }]: { count: number }[] = await m.query(`SELECT count(*)::int AS count FROM chat_blocks WHERE blocker_id = $1`, [blockerId]);
    const inserted: { created_at: Date }[] = await m.query(
      `INSERT INTO chat_blocks (blocker_id, blocked_id, created_at) SELECT $1, $2, $3 WHERE $4::int < ${CHAT_BLOCKS_MAX}
       ON CONFLICT (blocker_id, blocked_id) DO NOTHING RETURNING created_at`,
      [blockerId, blockedId, now, count],
    );
    let createdAt = inserted[0]?.created_at;
    if (!createdAt) {
      const existing: { created_at: Date }[] = await m.query(`SELECT created_at FROM chat_blocks WHERE blocker_id = $1 AND blocked_id = $2`, [blockerId, blockedId]);
      if (!existing.length) throw new ChatError('cannot_target', `You can block at most ${CHAT_BLOCKS_MAX} users`, { field: 'userId' });
      createdAt = existing[0].created_at;
    }
    return { user: users[0], createdAt: new Date(createdAt).toISOString() };
  });
  if (live) await publishChatEvent(live.redis, live.prefix, { kind: 'blocks', userId: blockerId });
  return view;
}

/** Unblocks a user; nothing to do when they were not blocked. */
export async function unblockUser(db: Db, blockerId: number, blockedId: number, live?: ChatBlocksLive): Promise<void> {
  await db.query(`DELETE FROM chat_blocks WHERE blocker_id = $1 AND blocked_id = $2`, [blockerId, blockedId]);
  if (live) await publishChatEvent(live.redis, live.prefix, { kind: 'blocks', userId: blockerId });
}
