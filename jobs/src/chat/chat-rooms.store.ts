// Rooms and memberships: the room list with unread and mention counts, join and leave, the
// member's notify level, who may read a room, user chat preferences and the 24 h sentiment split.
// Every query of these subjects; the api calls these functions and never SQL.
import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import type { Logger } from '../runtime/logger';
import type { JobQueues } from '../runtime/job-queues';
import type { ChatConfig } from './chat.config';
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import { removePresence } from './chat-presence';
import { hiddenAuthorIds } from './chat-blocks.store';
import { bannedError, type ChatStanding } from './chat-moderation.store';
import type { ChatNotifyLevel, ChatPreferencesView, ChatRole, ChatRoomType, ChatRoomView, ChatSentimentView } from './chat.shapes';

export type Db = DataSource | EntityManager;

/** What the chat's writes need: the database, Redis (events, presence, limits), the notifications pipeline's queues. */
export interface ChatDeps {
  dataSource: DataSource;
  redis: Redis;
  queues: JobQueues;
  /** The deployment's Redis prefix (QUEUE_PREFIX). */
  prefix: string;
  config: ChatConfig;
  /** "Now" of the request. */
  now: Date;
  logger?: Logger;
}

/** Unread counts stop at this many (the list shows "999+"): counting a million unread messages is not worth its time. */
export const CHAT_UNREAD_CAP = 1000;

/** A user as the chat shows them: the name, else "User <id>" (never the e-mail address). */
export const USER_NAME_SQL = (alias: string) => `coalesce(nullif(btrim(${alias}.name), ''), 'User ' || ${alias}.id)`;

export const iso = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());
/** A timestamp column that may hold 'infinity' (a permanent ban) as ISO, null for infinity. */
const isoOrNull = (value: Date | string | null): string | null => {
  if (value === null) return null;
  const date = new Date(value);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
};

/** The rows of an UPDATE / DELETE ... RETURNING (TypeORM answers them as [rows, affected count]). */
export function returned<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

/** The notify level in force: a mute that ended is 'all' again. */
export function effectiveNotifyLevel(level: string, mutedUntil: Date | null, now: Date): ChatNotifyLevel {
  if (level === 'mute') return mutedUntil && mutedUntil.getTime() <= now.getTime() ? 'all' : 'mute';
  return level === 'mentions' ? 'mentions' : 'all';
}

// ---- access ------------------------------------------------------------------------------------

export interface RoomAccess {
  roomId: number;
  name: string;
  isPrivate: boolean;
  /** The membership row (also for a banned member, whose row stays). */
  member: {
    role: ChatRole;
    lastReadMessageId: string | null;
    notifyLevel: string;
    notifyMutedUntil: Date | null;
    mutedUntil: Date | null;
  } | null;
  banned: boolean;
  bannedUntil: string | null;
  banReason: string | null;
  /** The room's slow mode and the account's age: with the membership, the poster's standing (postingStanding). */
  slowModeSeconds: number;
  accountCreatedAt: Date | null;
}

/** The room and the user's membership (unknown_room when there is no such room). */
export async function roomAccess(db: Db, userId: number, roomId: number, now: Date): Promise<RoomAccess> {
  const rows: Record<string, unknown>[] = await db.query(
    `SELECT r.id, r.name, r.is_private, m.id AS member_id, m.role, m.last_read_message_id::text AS last_read, m.notify_level,
            m.notify_muted_until, m.muted_until, coalesce(m.banned_until > $3, false) AS banned, m.banned_until, m.ban_reason,
            r.slow_mode_seconds, (SELECT u.created_at FROM users u WHERE u.id = $2) AS account_created_at
       FROM chat_rooms r LEFT JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $2
      WHERE r.id = $1`,
    [roomId, userId, now],
  );
  const row = rows[0];
  if (!row) throw new ChatError('unknown_room', 'No such room');
  return {
    roomId,
    name: row.name as string,
    isPrivate: row.is_private as boolean,
    member:
      row.member_id === null
        ? null
        : {
            role: row.role as ChatRole,
            lastReadMessageId: (row.last_read as string | null) ?? null,
            notifyLevel: row.notify_level as string,
            notifyMutedUntil: (row.notify_muted_until as Date | null) ?? null,
            mutedUntil: (row.muted_until as Date | null) ?? null,
          },
    banned: row.banned as boolean,
    bannedUntil: isoOrNull(row.banned_until as Date | null),
    banReason: (row.ban_reason as string | null) ?? null,
    slowModeSeconds: Number(row.slow_mode_seconds),
    accountCreatedAt: (row.account_created_at as Date | null) ?? null,
  };
}

/** The poster's standing (as posterStanding reads it) from a room access already loaded: posting reads the room once. */
export function postingStanding(access: RoomAccess, now: Date): ChatStanding {
  const role = access.member?.role ?? null;
  const muted = access.member?.mutedUntil ?? null;
  return {
    role,
    exempt: role === 'owner' || role === 'moderator',
    banned: access.banned,
    bannedUntil: access.banned ? access.bannedUntil : null,
    banReason: access.banned ? access.banReason : null,
    mutedUntil: muted && muted.getTime() > now.getTime() ? muted.toISOString() : null,
    slowModeSeconds: access.slowModeSeconds,
    accountCreatedAt: access.accountCreatedAt,
  };
}

/** Who may read a room: anyone signed in for a public room, members for a private one; never a banned member. */
export async function requireReader(db: Db, userId: number, roomId: number, now: Date): Promise<RoomAccess> {
  const access = await roomAccess(db, userId, roomId, now);
  if (access.banned) throw bannedError(access);
  if (access.isPrivate && !access.member) throw new ChatError('private_room', 'This room is private: its members only');
  return access;
}

/** A member of the room (not banned): who may post, react, mark read, type. */
export async function requireMember(db: Db, userId: number, roomId: number, now: Date): Promise<RoomAccess & { member: NonNullable<RoomAccess['member']> }> {
  const access = await requireReader(db, userId, roomId, now);
  if (!access.member) throw new ChatError('not_member', 'Join the room first');
  return access as RoomAccess & { member: NonNullable<RoomAccess['member']> };
}

/** The rooms the user is a member of and may read (the live relay delivers their events). */
export async function memberRoomIds(db: Db, userId: number, now = new Date()): Promise<number[]> {
  const rows: { room_id: number }[] = await db.query(
    `SELECT room_id FROM chat_room_members WHERE user_id = $1 AND (banned_until IS NULL OR banned_until <= $2)`,
    [userId, now],
  );
  return rows.map((row) => row.room_id);
}

// ---- the room list -----------------------------------------------------------------------------

function roomViewOf(row: Record<string, unknown>, now: Date): ChatRoomView {
  const member = row.member_id !== null && !row.banned;
  return {
    id: Number(row.id),
    name: row.name as string,
    type: row.type as ChatRoomType,
    description: (row.description as string | null) ?? null,
    tradingPair: (row.trading_pair as string | null) ?? null,
    isPrivate: row.is_private as boolean,
    slowModeSeconds: Number(row.slow_mode_seconds),
    members: Number(row.members),
    membership: member
      ? {
          role: row.role as ChatRole,
          notifyLevel: effectiveNotifyLevel(row.notify_level as string, (row.notify_muted_until as Date | null) ?? null, now),
          mutedUntil: row.notify_level === 'mute' ? iso(row.notify_muted_until as Date | null) : null,
          moderationMutedUntil: row.muted_until && (row.muted_until as Date).getTime() > now.getTime() ? iso(row.muted_until as Date) : null,
          lastReadMessageId: (row.last_read as string | null) ?? null,
        }
      : null,
    unread: member ? Number(row.unread) : 0,
    mentions: member ? Number(row.mentions) : 0,
    lastMessageAt: iso(row.last_message_at as Date | null),
    openReports: row.open_reports === null || row.open_reports === undefined ? null : Number(row.open_reports),
  };
}

/** Rooms with unread messages first, then those with mentions, then by the latest message, then by name. */
export function compareRooms(a: ChatRoomView, b: ChatRoomView): number {
  const unread = Number(b.unread > 0 || b.mentions > 0) - Number(a.unread > 0 || a.mentions > 0);
  if (unread) return unread;
  if (a.mentions !== b.mentions) return b.mentions - a.mentions;
  const at = (b.lastMessageAt ?? '').localeCompare(a.lastMessageAt ?? '');
  return at || a.name.localeCompare(b.name);
}

async function roomViews(db: Db, viewerId: number, now: Date, roomId: number | null): Promise<ChatRoomView[]> {
  const hidden = [...(await hiddenAuthorIds(db, viewerId))];
  const rows: Record<string, unknown>[] = await db.query(
    `SELECT r.id, r.name, r.type, r.description, r.trading_pair, r.is_private, r.slow_mode_seconds,
            (SELECT count(*)::int FROM chat_room_members x WHERE x.room_id = r.id AND (x.banned_until IS NULL OR x.banned_until <= $2)) AS members,
            m.id AS member_id, m.role, m.notify_level, m.notify_muted_until, m.muted_until, coalesce(m.banned_until > $2, false) AS banned,
            m.last_read_message_id::text AS last_read,
            CASE WHEN m.id IS NULL THEN 0 ELSE (
              SELECT count(*)::int FROM (
                SELECT 1 FROM chat_messages c
                 WHERE c.room_id = r.id AND c.id > coalesce(m.last_read_message_id, 0) AND c.deleted_at IS NULL
                   AND c.user_id IS DISTINCT FROM $1 AND (c.user_id IS NULL OR c.user_id <> ALL($4::int[]))
                 LIMIT ${CHAT_UNREAD_CAP}) t) END AS unread,
            CASE WHEN m.id IS NULL THEN 0 ELSE (
              SELECT count(*)::int FROM chat_notifications n JOIN chat_messages c ON c.id = n.message_id
               WHERE n.user_id = $1 AND NOT n.is_read AND c.room_id = r.id AND c.deleted_at IS NULL) END AS mentions,
            (SELECT c.created_at FROM chat_messages c WHERE c.room_id = r.id ORDER BY c.id DESC LIMIT 1) AS last_message_at,
            CASE WHEN m.role IN ('owner', 'moderator') AND NOT coalesce(m.banned_until > $2, false) THEN (
              SELECT count(*)::int FROM chat_reports p JOIN chat_messages c ON c.id = p.message_id
               WHERE c.room_id = r.id AND p.status = 'open') END AS open_reports
       FROM chat_rooms r
       LEFT JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $1
      WHERE ($3::int IS NULL OR r.id = $3)
        AND (NOT r.is_private OR (m.id IS NOT NULL AND NOT coalesce(m.banned_until > $2, false)))`,
    [viewerId, now, roomId, hidden],
  );
  return rows.map((row) => roomViewOf(row, now));
}

/** GET /api/chat/rooms: the rooms the viewer may see (public ones, their private ones), unread first. */
export async function listRooms(db: Db, viewerId: number, now: Date): Promise<ChatRoomView[]> {
  return (await roomViews(db, viewerId, now, null)).sort(compareRooms);
}

/** One room as the viewer sees it (unknown_room, private_room, banned). */
export async function getRoom(db: Db, viewerId: number, roomId: number, now: Date): Promise<ChatRoomView> {
  await requireReader(db, viewerId, roomId, now);
  const [view] = await roomViews(db, viewerId, now, roomId);
  return view;
}

// ---- join, leave, notify level -----------------------------------------------------------------

/**
 * Joins a public room (idempotent), read up to its latest message so a newcomer does not start
 * with its whole history unread. private_room for a private room (its members come in by invite
 * link: chat-invites.store.ts), banned while banned. Publishes `member` joined.
 */
export async function joinRoom(deps: ChatDeps, userId: number, roomId: number): Promise<ChatRoomView> {
  const { now } = deps;
  const joined = await deps.dataSource.transaction(async (m) => {
    const access = await roomAccess(m, userId, roomId, now);
    if (access.banned) throw bannedError(access);
    if (access.member) return false;
    if (access.isPrivate) throw new ChatError('private_room', 'This room is private: its members only');
    const rows: unknown[] = await m.query(
      `INSERT INTO chat_room_members (room_id, user_id, role, joined_at, last_read_at, last_read_message_id)
       VALUES ($1, $2, 'member', $3, $3, (SELECT max(id) FROM chat_messages WHERE room_id = $1))
       ON CONFLICT (room_id, user_id) DO NOTHING RETURNING id`,
      [roomId, userId, now],
    );
    return rows.length > 0;
  });
  if (joined) await publishChatEvent(deps.redis, deps.prefix, { kind: 'member', roomId, userId, joined: true });
  return getRoom(deps.dataSource, userId, roomId, now);
}

/**
 * Leaves a room: the membership goes, with the user's presence there. A muted member cannot leave
 * until the mute ends ('muted': leaving and joining again must not end a sanction); a banned
 * member's row stays (the ban holds) and leaving is a no-op. not_member when not a member.
 */
export async function leaveRoom(deps: ChatDeps, userId: number, roomId: number): Promise<void> {
  const { now } = deps;
  const left = await deps.dataSource.transaction(async (m) => {
    const access = await roomAccess(m, userId, roomId, now);
    if (access.banned) return false;
    if (!access.member) throw new ChatError('not_member', 'You are not a member of this room');
    // A room keeps its owner: they hand it over to a member first (the moderation action transfer_ownership).
    if (access.member.role === 'owner') throw new ChatError('owner_cannot_leave', 'You own this room: make another member its owner (Members), then leave');
    if (access.member.mutedUntil && access.member.mutedUntil.getTime() > now.getTime()) {
      const until = access.member.mutedUntil.toISOString();
      throw new ChatError('muted', `A moderator muted you in this room until ${until}: you can leave once it ends`, { until });
    }
    await m.query(`DELETE FROM chat_room_members WHERE room_id = $1 AND user_id = $2`, [roomId, userId]);
    await m.query(`DELETE FROM chat_thread_follows f USING chat_messages c WHERE c.id = f.message_id AND f.user_id = $1 AND c.room_id = $2`, [userId, roomId]);
    return true;
  });
  if (!left) return;
  await removePresence(deps.redis, deps.prefix, roomId, userId);
  await publishChatEvent(deps.redis, deps.prefix, { kind: 'member', roomId, userId, joined: false });
}

/**
 * The member's notify level: 'all', 'mentions', or 'mute' until `mutedUntil` (null: until
 * unmuted). mutedUntil alone mutes. A mute in the past is refused (field mutedUntil).
 */
export async function setRoomPreferences(
  db: DataSource,
  userId: number,
  roomId: number,
  input: { notifyLevel?: ChatNotifyLevel; mutedUntil?: Date | null },
  now: Date,
): Promise<ChatRoomView> {
  await requireMember(db, userId, roomId, now);
  const level: ChatNotifyLevel = input.notifyLevel ?? 'mute';
  const until = level === 'mute' ? (input.mutedUntil ?? null) : null;
  if (until && until.getTime() <= now.getTime()) throw new ChatError('bad_cursor', 'mutedUntil must be in the future', { field: 'mutedUntil' });
  await db.query(`UPDATE chat_room_members SET notify_level = $3, notify_muted_until = $4 WHERE room_id = $1 AND user_id = $2`, [roomId, userId, level, until]);
  return getRoom(db, userId, roomId, now);
}

// ---- user preferences, sentiment ---------------------------------------------------------------

const DEFAULT_PREFERENCES: ChatPreferencesView = { soundNotifications: true, desktopNotifications: true, showOnlineStatus: true };

export async function getChatPreferences(db: Db, userId: number): Promise<ChatPreferencesView> {
  const rows: { sound_notifications: boolean; desktop_notifications: boolean; show_online_status: boolean }[] = await db.query(
    `SELECT sound_notifications, desktop_notifications, show_online_status FROM user_chat_preferences WHERE user_id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) return { ...DEFAULT_PREFERENCES };
  return { soundNotifications: row.sound_notifications, desktopNotifications: row.desktop_notifications, showOnlineStatus: row.show_online_status };
}

export async function updateChatPreferences(db: Db, userId: number, patch: Partial<ChatPreferencesView>): Promise<ChatPreferencesView> {
  const next = { ...(await getChatPreferences(db, userId)), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  await db.query(
    `INSERT INTO user_chat_preferences (user_id, sound_notifications, desktop_notifications, show_online_status)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET sound_notifications = EXCLUDED.sound_notifications, desktop_notifications = EXCLUDED.desktop_notifications,
       show_online_status = EXCLUDED.show_online_status, updated_at = now()`,
    [userId, next.soundNotifications, next.desktopNotifications, next.showOnlineStatus],
  );
  return next;
}

/** The bullish/bearish split of the room's tagged, not deleted messages of the last 24 hours. */
export async function roomSentiment(db: Db, viewerId: number, roomId: number, now: Date): Promise<ChatSentimentView> {
  await requireReader(db, viewerId, roomId, now);
  const since = new Date(now.getTime() - 24 * 3600_000);
  const [row]: { bullish: number; bearish: number }[] = await db.query(
    `SELECT count(*) FILTER (WHERE sentiment = 'bullish')::int AS bullish, count(*) FILTER (WHERE sentiment = 'bearish')::int AS bearish
       FROM chat_messages WHERE room_id = $1 AND created_at > $2 AND sentiment IS NOT NULL AND deleted_at IS NULL`,
    [roomId, since],
  );
  return { bullish: row.bullish, bearish: row.bearish, since: since.toISOString() };
}
