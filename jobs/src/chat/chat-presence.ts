// Presence: who is online in a room. One Redis sorted set per room, member = user id, score = when
// the presence expires (ms); a heartbeat (POST /api/chat/rooms/:id/presence) or the user's open live
// stream pushes it CHAT_PRESENCE_TTL_SECONDS ahead. Reading drops the expired entries. Users who turned
// showOnlineStatus off are still tracked but never shown (chatPresenceView filters them).
import type Redis from 'ioredis';
import { publishChatEvent } from './chat-events';
import { USER_NAME_SQL, requireMember, requireReader, type ChatDeps, type Db } from './chat-rooms.store';
import type { ChatPresenceView } from './chat.shapes';

export function presenceKey(prefix: string, roomId: number): string {
  return `${prefix}:chat:presence:${roomId}`;
}

/**
 * Marks the user online in each room until now + ttl; answers the rooms where they were not online
 * before (their presence changed: worth an event).
 */
export async function touchPresence(redis: Redis, prefix: string, roomIds: readonly number[], userId: number, ttlSeconds: number, now: Date): Promise<number[]> {
  if (!roomIds.length) return [];
  const ms = now.getTime();
  const multi = redis.multi();
  for (const roomId of roomIds) {
    const key = presenceKey(prefix, roomId);
    multi.zremrangebyscore(key, '-inf', ms);
    multi.zadd(key, ms + ttlSeconds * 1000, String(userId));
    multi.pexpire(key, ttlSeconds * 2000);
  }
  const results = (await multi.exec()) ?? [];
  const failed = results.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
  return roomIds.filter((_, i) => Number(results[i * 3 + 1]?.[1]) === 1);
}

export async function removePresence(redis: Redis, prefix: string, roomId: number, userId: number): Promise<void> {
  await redis.zrem(presenceKey(prefix, roomId), String(userId));
}

/** Ids of the users online in the room now (not yet filtered by their showOnlineStatus). */
export async function onlineUserIds(redis: Redis, prefix: string, roomId: number, now: Date): Promise<number[]> {
  const ids = await redis.zrangebyscore(presenceKey(prefix, roomId), now.getTime() + 1, '+inf');
  return ids.map(Number).filter(Number.isInteger);
}

/** The online users to show: live accounts, members of the room (not banned), showOnlineStatus not off; by name. */
export async function chatPresenceView(db: Db, redis: Redis, prefix: string, roomId: number, now: Date): Promise<ChatPresenceView> {
  const ids = await onlineUserIds(redis, prefix, roomId, now);
  if (!ids.length) return { online: [] };
  const rows: { id: number; name: string }[] = await db.query(
    `SELECT u.id, ${USER_NAME_SQL('u')} AS name
       FROM users u
       JOIN chat_room_members m ON m.user_id = u.id AND m.room_id = $2 AND (m.banned_until IS NULL OR m.banned_until <= $3)
       LEFT JOIN user_chat_preferences p ON p.user_id = u.id
      WHERE u.id = ANY($1::int[]) AND u.deleted_at IS NULL AND coalesce(p.show_online_status, true)
      ORDER BY 2, 1`,
    [ids, roomId, now],
  );
  return { online: rows.map((row) => ({ id: row.id, name: row.name })) };
}

/** GET /api/chat/rooms/:id/presence */
export async function roomPresence(deps: ChatDeps, viewerId: number, roomId: number): Promise<ChatPresenceView> {
  await requireReader(deps.dataSource, viewerId, roomId, deps.now);
  return chatPresenceView(deps.dataSource, deps.redis, deps.prefix, roomId, deps.now);
}

/**
 * The user is online in these rooms for CHAT_PRESENCE_TTL_SECONDS more; where they just came online,
 * the room's `presence` event is published (the new online list).
 */
export async function refreshPresence(deps: ChatDeps, userId: number, roomIds: readonly number[]): Promise<void> {
  const arrived = await touchPresence(deps.redis, deps.prefix, roomIds, userId, deps.config.CHAT_PRESENCE_TTL_SECONDS, deps.now);
  for (const roomId of arrived) {
    const view = await chatPresenceView(deps.dataSource, deps.redis, deps.prefix, roomId, deps.now);
    await publishChatEvent(deps.redis, deps.prefix, { kind: 'presence', roomId, online: view.online });
  }
}

/** POST /api/chat/rooms/:id/presence: a member's heartbeat; answers who is online. */
export async function heartbeat(deps: ChatDeps, userId: number, roomId: number): Promise<ChatPresenceView> {
  await requireMember(deps.dataSource, userId, roomId, deps.now);
  await refreshPresence(deps, userId, [roomId]);
  return chatPresenceView(deps.dataSource, deps.redis, deps.prefix, roomId, deps.now);
}
