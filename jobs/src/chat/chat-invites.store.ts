// Invite links to private rooms (issue 18): made, listed and revoked by the room's owner and
// moderators; previewed and accepted by anyone signed in who has the link. Only the SHA-256 of a
// code is stored; the code is shown once, to its maker. Rules in docs/chat.md ("Invite links").
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import { bannedError, requireModerator } from './chat-moderation.store';
import { getRoom, returned, roomAccess, USER_NAME_SQL, type ChatDeps, type Db } from './chat-rooms.store';
import {
  CHAT_INVITE_DEFAULT_HOURS,
  CHAT_INVITE_MAX_HOURS,
  CHAT_INVITE_MAX_USES,
  CHAT_INVITES_ACTIVE_MAX,
  CHAT_INVITE_PATH,
  type ChatInviteCreatedView,
  type ChatInviteInput,
  type ChatInvitePreview,
  type ChatInvitesResponse,
  type ChatInviteView,
  type ChatRoomView,
} from './chat.shapes';

/** Random bytes of a code (16: 128 bits, 22 base64url characters). */
export const CHAT_INVITE_CODE_BYTES = 16;
/** The newest invites a room's list shows. */
export const CHAT_INVITES_LIST_MAX = 200;

/** One answer for every invite that does not let anyone in (no hint which). */
export const UNKNOWN_INVITE_MESSAGE = 'This invite link is not valid (expired, revoked or used up)';

/** A new invite code: CHAT_INVITE_CODE_BYTES random bytes, base64url. */
export function newInviteCode(): string {
  return randomBytes(CHAT_INVITE_CODE_BYTES).toString('base64url');
}

/** What is stored of a code: its SHA-256, hex. */
export function inviteCodeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

/** The SQL condition of an invite that still lets people in (alias i, now = $n). */
const ACTIVE_SQL = (alias: string, now: string) =>
  `(${alias}.revoked_at IS NULL AND ${alias}.expires_at > ${now} AND (${alias}.max_uses IS NULL OR ${alias}.uses < ${alias}.max_uses))`;

function hoursOf(value: unknown): number {
  if (value === undefined) return CHAT_INVITE_DEFAULT_HOURS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > CHAT_INVITE_MAX_HOURS) {
    throw new ChatError('bad_invite', `An invite lasts 1 to ${CHAT_INVITE_MAX_HOURS} whole hours`, { field: 'expiresInHours' });
  }
  return value;
}

function maxUsesOf(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > CHAT_INVITE_MAX_USES) {
    throw new ChatError('bad_invite', `An invite's use limit is 1 to ${CHAT_INVITE_MAX_USES}, or none`, { field: 'maxUses' });
  }
  return value;
}

/**
 * A new invite link to a private room, by its owner or a moderator (not_moderator otherwise;
 * not_private, 409, for a public room: it is joined directly). Valid for `expiresInHours` (1..720,
 * default 168) and `maxUses` times (1..1,000; default none); at most CHAT_INVITES_ACTIVE_MAX
 * active links per room (too_many_invites, 409: the room's row is locked, so two creates at the
 * limit − 1 make one). The answer is the only time the code is shown.
 */
export async function createInvite(deps: ChatDeps, userId: number, roomId: number, input: ChatInviteInput = {}): Promise<ChatInviteCreatedView> {
  const { now } = deps;
  const hours = hoursOf(input.expiresInHours);
  const maxUses = maxUsesOf(input.maxUses);
  const code = newInviteCode();
  const expiresAt = new Date(now.getTime() + hours * 3_600_000);
  const id = await deps.dataSource.transaction(async (m) => {
    await requireModerator(m, userId, roomId, now);
    const [room]: { is_private: boolean }[] = await m.query(`SELECT is_private FROM chat_rooms WHERE id = $1 FOR NO KEY UPDATE`, [roomId]);
    if (!room?.is_private) throw new ChatError('not_private', 'Invite links are for private rooms: anyone can join a public room directly');
    const [active]: { n: number }[] = await m.query(
      `SELECT count(*)::int AS n FROM chat_room_invites i WHERE i.room_id = $1 AND ${ACTIVE_SQL('i', '$2')}`,
      [roomId, now],
    );
    if (active.n >= CHAT_INVITES_ACTIVE_MAX) {
      throw new ChatError('too_many_invites', `This room has ${CHAT_INVITES_ACTIVE_MAX} active invite links: revoke one before making another`);
    }
    const [row]: { id: number }[] = await m.query(
      `INSERT INTO chat_room_invites (room_id, code_hash, created_by, created_at, expires_at, max_uses) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [roomId, inviteCodeHash(code), userId, now, expiresAt, maxUses],
    );
    return row.id;
  });
  return { id, code, url: `${CHAT_INVITE_PATH}/${code}`, expiresAt: expiresAt.toISOString(), maxUses, uses: 0 };
}

/** The room's invites for its owner and moderators (not_moderator otherwise), newest first, without their codes. */
export async function listInvites(db: Db, userId: number, roomId: number, now = new Date()): Promise<ChatInvitesResponse> {
  await requireModerator(db, userId, roomId, now);
  const rows: {
    id: number;
    created_by: number | null;
    creator_name: string | null;
    created_at: Date;
    expires_at: Date;
    max_uses: number | null;
    uses: number;
    revoked_at: Date | null;
    active: boolean;
  }[] = await db.query(
    `SELECT i.id, i.created_by, CASE WHEN u.id IS NOT NULL AND u.deleted_at IS NULL THEN ${USER_NAME_SQL('u')} END AS creator_name,
            i.created_at, i.expires_at, i.max_uses, i.uses, i.revoked_at, ${ACTIVE_SQL('i', '$2')} AS active
       FROM chat_room_invites i LEFT JOIN users u ON u.id = i.created_by
      WHERE i.room_id = $1
      ORDER BY i.id DESC
      LIMIT ${CHAT_INVITES_LIST_MAX}`,
    [roomId, now],
  );
  return {
    invites: rows.map(
      (row): ChatInviteView => ({
        id: row.id,
        createdBy: row.created_by === null || row.creator_name === null ? null : { id: row.created_by, name: row.creator_name },
        createdAt: iso(row.created_at),
        expiresAt: iso(row.expires_at),
        maxUses: row.max_uses,
        uses: row.uses,
        revokedAt: isoOrNull(row.revoked_at),
        active: row.active,
      }),
    ),
  };
}

/** Revokes one of the room's invites (owner and moderators): unknown_invite (404, field inviteId) for another room's or no invite; revoking twice keeps the first time. */
export async function revokeInvite(db: Db, userId: number, roomId: number, inviteId: number, now = new Date()): Promise<void> {
  await requireModerator(db, userId, roomId, now);
  const updated = returned<{ id: number }>(
    await db.query(`UPDATE chat_room_invites SET revoked_at = coalesce(revoked_at, $3) WHERE id = $1 AND room_id = $2 RETURNING id`, [inviteId, roomId, now]),
  );
  if (!updated.length) throw new ChatError('unknown_invite', 'No such invite in this room', { field: 'inviteId' });
}

interface InviteRow {
  id: number;
  room_id: number;
  expires_at: Date;
  active: boolean;
}

/** The invite of a code if it still lets people in, else unknown_invite (one answer for unknown, expired, revoked and used up). */
async function validInvite(db: Db, code: string, now: Date, lock: boolean): Promise<InviteRow> {
  const rows: InviteRow[] = await db.query(
    `SELECT i.id, i.room_id, i.expires_at, ${ACTIVE_SQL('i', '$2')} AS active FROM chat_room_invites i WHERE i.code_hash = $1${lock ? ' FOR UPDATE' : ''}`,
    [inviteCodeHash(code), now],
  );
  const invite = rows[0];
  if (!invite?.active) throw new ChatError('unknown_invite', UNKNOWN_INVITE_MESSAGE, { field: 'code' });
  return invite;
}

/**
 * What an invite link opens, for anyone signed in who has it: the room's name, description and
 * member count, the link's expiry, and whether the viewer is a member already. unknown_invite
 * (404) for a link that lets no one in; banned (403) for a member banned from the room.
 */
export async function previewInvite(db: Db, userId: number, code: string, now = new Date()): Promise<ChatInvitePreview> {
  const invite = await validInvite(db, code, now, false);
  const access = await roomAccess(db, userId, invite.room_id, now);
  if (access.banned) throw bannedError(access);
  const [room]: { name: string; description: string | null; members: number }[] = await db.query(
    `SELECT r.name, r.description,
            (SELECT count(*)::int FROM chat_room_members x WHERE x.room_id = r.id AND (x.banned_until IS NULL OR x.banned_until <= $2)) AS members
       FROM chat_rooms r WHERE r.id = $1`,
    [invite.room_id, now],
  );
  return {
    room: { id: invite.room_id, name: room.name, description: room.description, members: room.members },
    expiresAt: iso(invite.expires_at),
    alreadyMember: access.member !== null,
  };
}

/**
 * Joins the room of an invite link. One transaction with the invite row locked (FOR UPDATE), so
 * two people accepting the last use of a link cannot both get in: the same validity as the
 * preview (unknown_invite), banned (403) for a banned member; a member already gets the room
 * without spending a use; else the membership (a member, read up to the latest message, as
 * joinRoom) and one use. Publishes `member` joined after the commit.
 */
export async function acceptInvite(deps: ChatDeps, userId: number, code: string): Promise<ChatRoomView> {
  const { now } = deps;
  const { roomId, joined } = await deps.dataSource.transaction(async (m: EntityManager) => {
    const invite = await validInvite(m, code, now, true);
    const access = await roomAccess(m, userId, invite.room_id, now);
    if (access.banned) throw bannedError(access);
    if (access.member) return { roomId: invite.room_id, joined: false };
    const inserted: unknown[] = await m.query(
      `INSERT INTO chat_room_members (room_id, user_id, role, joined_at, last_read_at, last_read_message_id)
       VALUES ($1, $2, 'member', $3, $3, (SELECT max(id) FROM chat_messages WHERE room_id = $1))
       ON CONFLICT (room_id, user_id) DO NOTHING RETURNING id`,
      [invite.room_id, userId, now],
    );
    if (inserted.length) await m.query(`UPDATE chat_room_invites SET uses = uses + 1 WHERE id = $1`, [invite.id]);
    return { roomId: invite.room_id, joined: inserted.length > 0 };
  });
  if (joined) await publishChatEvent(deps.redis, deps.prefix, { kind: 'member', roomId, userId, joined: true });
  return getRoom(deps.dataSource, userId, roomId, now);
}
