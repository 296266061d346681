// Rooms made by users (issue 18): creating one (the plan's chatRoomsCreated limit, its creator
// its owner), the owner changing its name, description and slow mode, and deleting it. Invite links are
// chat-invites.store.ts; appointing moderators is a moderation action (chat-moderation.store.ts).
import type { EntityManager } from 'typeorm';
import type { Entitlements } from '../billing/entitlements';
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import { getRoom, roomAccess, type ChatDeps } from './chat-rooms.store';
import { presenceKey } from './chat-presence';
import {
  CHAT_ROOM_DESCRIPTION_MAX,
  CHAT_ROOM_NAME_MAX,
  CHAT_ROOM_NAME_MIN,
  CHAT_SLOW_MODE_MAX_SECONDS,
  type ChatCreateRoomInput,
  type ChatRoomView,
  type ChatUpdateRoomInput,
} from './chat.shapes';

/**
 * Serializes every write that takes a room name (creating a room, renaming one) and, with it, the
 * count of rooms a user created: the name check and the plan's count cannot race.
 */
const ROOMS_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtext('tickerbell:chat-rooms:create'))`;

// Control characters: a name is one line; a description may have line breaks and tabs, nothing else.
const NAME_CONTROL = /\p{Cc}/u;
const DESCRIPTION_CONTROL = /[^\P{Cc}\n\r\t]/u;

/** A room name as stored: trimmed, CHAT_ROOM_NAME_MIN..CHAT_ROOM_NAME_MAX characters, one line (bad_room, field name). */
export function normalizeRoomName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  const length = [...name].length;
  if (length < CHAT_ROOM_NAME_MIN || length > CHAT_ROOM_NAME_MAX) {
    throw new ChatError('bad_room', `A room name is ${CHAT_ROOM_NAME_MIN} to ${CHAT_ROOM_NAME_MAX} characters`, { field: 'name' });
  }
  if (NAME_CONTROL.test(name)) throw new ChatError('bad_room', 'A room name is one line of text', { field: 'name' });
  return name;
}

/** A description as stored: trimmed, at most CHAT_ROOM_DESCRIPTION_MAX characters; empty or null is none (bad_room, field description). */
export function normalizeRoomDescription(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new ChatError('bad_room', 'A description is text', { field: 'description' });
  const description = value.trim();
  if ([...description].length > CHAT_ROOM_DESCRIPTION_MAX) {
    throw new ChatError('bad_room', `A description is at most ${CHAT_ROOM_DESCRIPTION_MAX} characters`, { field: 'description' });
  }
  if (DESCRIPTION_CONTROL.test(description)) throw new ChatError('bad_room', 'A description is plain text', { field: 'description' });
  return description || null;
}

/** Slow mode: whole seconds, 0 (off) to CHAT_SLOW_MODE_MAX_SECONDS (bad_room, field slowModeSeconds). */
export function normalizeSlowMode(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > CHAT_SLOW_MODE_MAX_SECONDS) {
    throw new ChatError('bad_room', `Slow mode is whole seconds from 0 (off) to ${CHAT_SLOW_MODE_MAX_SECONDS}`, { field: 'slowModeSeconds' });
  }
  return value;
}

/** room_name_taken (field name) when another room has this name, letter case and surrounding spaces aside. Under ROOMS_LOCK_SQL. */
async function assertNameFree(m: EntityManager, name: string, exceptRoomId: number | null): Promise<void> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM chat_rooms WHERE lower(btrim(name)) = lower(btrim($1)) AND ($2::int IS NULL OR id <> $2) LIMIT 1`, [
    name,
    exceptRoomId,
  ]);
  if (rows.length) throw new ChatError('room_name_taken', `A room named “${name}” already exists: choose another name`, { field: 'name' });
}

/** How many rooms the user created (the plan's chatRoomsCreated; as billing's usageOfUser counts them). */
export async function countRoomsCreated(m: EntityManager, userId: number): Promise<number> {
  const [row]: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM chat_rooms WHERE created_by = $1`, [userId]);
  return row.n;
}

/**
 * Creates a room of type 'chat' (users never make trading-pair rooms: those are curated seeds),
 * its creator its owner, read up to date. One transaction under the rooms lock: the name is free
 * (room_name_taken, 409) and the plan allows one more (EntitlementError plan_limit, or read_only
 * for a read-only account), then the room and the owner's membership. Publishes `member` joined
 * after the commit.
 */
export async function createRoom(deps: ChatDeps & { entitlements: Entitlements }, userId: number, input: ChatCreateRoomInput): Promise<ChatRoomView> {
  const { now } = deps;
  const name = normalizeRoomName(input.name);
  const description = normalizeRoomDescription(input.description);
  const slowModeSeconds = normalizeSlowMode(input.slowModeSeconds);
  if (input.isPrivate !== undefined && typeof input.isPrivate !== 'boolean') throw new ChatError('bad_room', 'isPrivate is true or false', { field: 'isPrivate' });
  const isPrivate = input.isPrivate ?? false;
  const roomId = await deps.dataSource.transaction(async (m) => {
    await m.query(ROOMS_LOCK_SQL);
    await assertNameFree(m, name, null);
    await deps.entitlements.checkLimit(m, userId, 'chatRoomsCreated', () => countRoomsCreated(m, userId), now);
    const [room]: { id: number }[] = await m.query(
      `INSERT INTO chat_rooms (name, type, description, is_private, slow_mode_seconds, created_by, created_at, updated_at)
       VALUES ($1, 'chat', $2, $3, $4, $5, $6, $6) RETURNING id`,
      [name, description, isPrivate, slowModeSeconds, userId, now],
    );
    await m.query(
      `INSERT INTO chat_room_members (room_id, user_id, role, joined_at, last_read_at, last_read_message_id) VALUES ($1, $2, 'owner', $3, $3, NULL)`,
      [room.id, userId, now],
    );
    return room.id;
  });
  await publishChatEvent(deps.redis, deps.prefix, { kind: 'member', roomId, userId, joined: true });
  return getRoom(deps.dataSource, userId, roomId, now);
}

/** unknown_room (404) without the room; not_owner (403, `message`) for anyone but its owner, a banned owner included. */
async function requireOwner(m: EntityManager, userId: number, roomId: number, now: Date, message: string): Promise<void> {
  const access = await roomAccess(m, userId, roomId, now);
  if (access.banned || access.member?.role !== 'owner') throw new ChatError('not_owner', message);
}

/**
 * The owner changes the room's name, description (null or "" clears it), slow mode or privacy:
 * not_owner (403) for anyone else, including its moderators and a banned owner; the same rules as
 * createRoom (bad_room, room_name_taken). Made private, only its members read it from then on;
 * made public, anyone signed in reads and joins it, and its invite links are revoked (they have
 * nothing left to open). One transaction; an empty patch changes nothing.
 */
export async function updateRoom(deps: ChatDeps, userId: number, roomId: number, patch: ChatUpdateRoomInput): Promise<ChatRoomView> {
  const { now } = deps;
  const changed = await deps.dataSource.transaction(async (m) => {
    if (patch.name !== undefined) await m.query(ROOMS_LOCK_SQL);
    await requireOwner(m, userId, roomId, now, "Only the room's owner can change its settings");
    const sets: string[] = [];
    const values: unknown[] = [roomId];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (patch.name !== undefined) {
      const name = normalizeRoomName(patch.name);
      await assertNameFree(m, name, roomId);
      set('name', name);
    }
    if (patch.description !== undefined) set('description', normalizeRoomDescription(patch.description));
    if (patch.slowModeSeconds !== undefined) set('slow_mode_seconds', normalizeSlowMode(patch.slowModeSeconds));
    if (patch.isPrivate !== undefined) {
      if (typeof patch.isPrivate !== 'boolean') throw new ChatError('bad_room', 'isPrivate is true or false', { field: 'isPrivate' });
      set('is_private', patch.isPrivate);
    }
    if (!sets.length) return false;
    set('updated_at', now);
    await m.query(`UPDATE chat_rooms SET ${sets.join(', ')} WHERE id = $1`, values);
    // After the room's row is locked by the update: an invite being made meanwhile is either in
    // (and revoked here) or waits and then finds the room public (not_private).
    if (patch.isPrivate === false) await m.query(`UPDATE chat_room_invites SET revoked_at = $2 WHERE room_id = $1 AND revoked_at IS NULL`, [roomId, now]);
    return true;
  });
  if (changed) await publishChatEvent(deps.redis, deps.prefix, { kind: 'room', roomId });
  return getRoom(deps.dataSource, userId, roomId, now);
}

/**
 * The owner deletes the room with its history (messages, reactions, threads, reports, invites,
 * memberships and its audit log go with it, by the schema's cascades): not_owner (403) for anyone
 * else, its moderators and a banned owner included; unknown_room (404) when it is gone already.
 * The room's row is locked first, so a concurrent change or a second delete waits and then finds
 * nothing. After the commit its members' pages are told (`room` with `deleted`) and its presence
 * is cleared; a room of one's own frees a place of the plan's chatRoomsCreated.
 */
export async function deleteRoom(deps: ChatDeps, userId: number, roomId: number): Promise<void> {
  const { now } = deps;
  await deps.dataSource.transaction(async (m) => {
    await m.query('SELECT 1 FROM chat_rooms WHERE id = $1 FOR UPDATE', [roomId]);
    await requireOwner(m, userId, roomId, now, "Only the room's owner can delete it");
    await m.query('DELETE FROM chat_rooms WHERE id = $1', [roomId]);
  });
  await publishChatEvent(deps.redis, deps.prefix, { kind: 'room', roomId, deleted: true });
  await deps.redis.del(presenceKey(deps.prefix, roomId));
}
