import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import {
  CHAT_HISTORY_DEFAULT_LIMIT,
  type ChatAuditEntry,
  type ChatMessageView,
  type ChatModerationAction,
  type ChatModerationInput,
  type ChatReportView,
  type ChatRole,
  type ChatRule,
  type ChatStreamEvent,
} from './chat.shapes';

// Moderation of a room: who may post (bans, mutes), reports, the moderators' actions and their
// audit log. Every action is one transaction with its chat_moderation_actions row; a deleted
// message's event is published after the commit. Rules in docs/chat.md ("Moderation and abuse").

type Db = DataSource | EntityManager;

/** Longest temporary ban (360 days; longer is a permanent ban), in minutes. */
export const CHAT_SANCTION_MAX_MINUTES = 43_200 * 12;
/** Longest mute (30 days), in minutes. */
export const CHAT_MUTE_MAX_MINUTES = 43_200;
export const CHAT_AUDIT_PAGE = CHAT_HISTORY_DEFAULT_LIMIT;
export const CHAT_REPORTS_PAGE = 100;
export type ChatReportStatus = ChatReportView['status'];

/** A user as the chat shows them (chatDisplayName): the name, else "User <id>" (never the e-mail address). */
const USER_NAME_SQL = (alias: string) => `coalesce(nullif(btrim(${alias}.name), ''), 'User ' || ${alias}.id)`;

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

// ---- standing ----------------------------------------------------------------------------------

/** What a poster's membership and account say about posting in a room now. */
export interface ChatStanding {
  role: ChatRole | null;
  /** Owners and moderators: the slow mode does not apply to them. */
  exempt: boolean;
  banned: boolean;
  /** ISO end of a temporary ban; null when permanent or not banned. */
  bannedUntil: string | null;
  banReason: string | null;
  /** ISO end of a moderator's mute in force, else null. */
  mutedUntil: string | null;
  slowModeSeconds: number;
  accountCreatedAt: Date | null;
}

/** The poster's standing in the room (unknown_room if there is no such room). */
export async function posterStanding(db: Db, roomId: number, userId: number, now: Date): Promise<ChatStanding> {
  const rows: {
    role: ChatRole | null;
    banned: boolean;
    permanent: boolean;
    banned_until: Date | null;
    ban_reason: string | null;
    muted_until: Date | null;
    slow_mode_seconds: number;
    account_created_at: Date | null;
  }[] = await db.query(
    `SELECT m.role,
            coalesce(m.banned_until > $3, false) AS banned,
            coalesce(m.banned_until = 'infinity', false) AS permanent,
            CASE WHEN m.banned_until > $3 AND m.banned_until <> 'infinity' THEN m.banned_until END AS banned_until,
            m.ban_reason,
            CASE WHEN m.muted_until > $3 THEN m.muted_until END AS muted_until,
            r.slow_mode_seconds,
            (SELECT u.created_at FROM users u WHERE u.id = $2) AS account_created_at
       FROM chat_rooms r
       LEFT JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $2
      WHERE r.id = $1`,
    [roomId, userId, now],
  );
  const row = rows[0];
  if (!row) throw new ChatError('unknown_room', 'No such room');
  return {
    role: row.role,
    exempt: row.role === 'owner' || row.role === 'moderator',
    banned: row.banned,
    bannedUntil: row.permanent ? null : iso(row.banned_until),
    banReason: row.banned ? row.ban_reason : null,
    mutedUntil: iso(row.muted_until),
    slowModeSeconds: row.slow_mode_seconds,
    accountCreatedAt: row.account_created_at,
  };
}

export function bannedError(standing: Pick<ChatStanding, 'bannedUntil' | 'banReason'>): ChatError {
  const until = standing.bannedUntil ? ` until ${standing.bannedUntil}` : '';
  return new ChatError('banned', `You are banned from this room${until}${standing.banReason ? ` (${standing.banReason})` : ''}`, { until: standing.bannedUntil });
}

/** Throws 'banned' while the user is banned from the room (reading, joining, posting, reacting). */
export async function assertNotBanned(db: Db, roomId: number, userId: number, now: Date): Promise<void> {
  const standing = await posterStanding(db, roomId, userId, now);
  if (standing.banned) throw bannedError(standing);
}

/** The viewer's role if they are an owner or moderator of the room (and not banned); else not_moderator (unknown_room). */
export async function requireModerator(db: Db, userId: number, roomId: number, now: Date): Promise<'owner' | 'moderator'> {
  const standing = await posterStanding(db, roomId, userId, now);
  if (standing.banned || (standing.role !== 'owner' && standing.role !== 'moderator')) {
    throw new ChatError('not_moderator', 'Only the owner and moderators of the room can do this');
  }
  return standing.role;
}

// ---- message views (reports) -------------------------------------------------------------------
// This module may not import chat-messages.store.ts (chat-rooms.store.ts imports it: a cycle), so
// the reports' message views and the moderator's delete are written here, matching that store's.

interface MessageRow {
  id: string;
  room_id: number;
  user_id: number | null;
  author_name: string | null;
  message: string;
  message_type: string;
  sentiment: string | null;
  cashtags: string[];
  mentions: { id: number; name: string }[] | null;
  reply_to_message_id: string | null;
  reply_count: number;
  last_reply_at: Date | null;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
  deleted_by: 'author' | 'moderator' | null;
  reactions: { reaction: string; count: number; mine: boolean }[] | null;
}

/** The messages as the chat shows them to `viewerId` (deleted ones blank), keyed by id. */
async function messageViews(db: Db, viewerId: number, ids: string[]): Promise<Map<string, ChatMessageView>> {
  if (!ids.length) return new Map();
  const rows: MessageRow[] = await db.query(
    `SELECT m.id::text, m.room_id, m.user_id, ${USER_NAME_SQL('u')} AS author_name, m.message, m.message_type, m.sentiment,
            m.cashtags, m.reply_to_message_id::text, m.reply_count, m.last_reply_at, m.created_at, m.edited_at,
            m.deleted_at, m.deleted_by,
            (SELECT json_agg(json_build_object('id', mu.id, 'name', ${USER_NAME_SQL('mu')}) ORDER BY array_position(m.mention_user_ids, mu.id))
               FROM users mu WHERE mu.id = ANY (m.mention_user_ids)) AS mentions,
            (SELECT json_agg(json_build_object('reaction', x.reaction, 'count', x.count, 'mine', x.mine) ORDER BY x.first)
               FROM (SELECT reaction, count(*)::int AS count, bool_or(user_id = $2) AS mine, min(id) AS first
                       FROM message_reactions WHERE message_id = m.id GROUP BY reaction) x) AS reactions
       FROM chat_messages m
       LEFT JOIN users u ON u.id = m.user_id
      WHERE m.id = ANY ($1::bigint[])`,
    [ids, viewerId],
  );
  return new Map(
    rows.map((row) => {
      const deleted = row.deleted_at !== null;
      const view: ChatMessageView = {
        id: row.id,
        roomId: row.room_id,
        author: row.user_id === null ? null : { id: row.user_id, name: row.author_name ?? `User ${row.user_id}` },
        messageType: row.message_type === 'system' ? 'system' : 'user_message',
        text: deleted ? '' : row.message,
        sentiment: row.sentiment === 'bullish' || row.sentiment === 'bearish' ? row.sentiment : null,
        cashtags: row.cashtags ?? [],
        mentions: row.mentions ?? [],
        replyToMessageId: row.reply_to_message_id,
        replyCount: row.reply_count,
        lastReplyAt: iso(row.last_reply_at),
        reactions: row.reactions ?? [],
        createdAt: new Date(row.created_at).toISOString(),
        editedAt: iso(row.edited_at),
        deleted,
        deletedBy: deleted ? row.deleted_by : null,
      };
      return [row.id, view];
    }),
  );
}

// ---- reports -----------------------------------------------------------------------------------

/**
 * A member reports a message to the room's moderators, once per message (already_reported on a
 * repeat). The reporter must be able to read the room (a member of a private room, not banned);
 * one's own and deleted messages cannot be reported.
 */
export async function reportMessage(
  db: DataSource,
  userId: number,
  messageId: string,
  reason: string,
  now = new Date(),
  live?: Pick<ChatModerationDeps, 'redis' | 'prefix'>,
): Promise<{ id: number; status: 'open' }> {
  const found: { room_id: number; user_id: number | null; deleted: boolean; is_private: boolean; member: boolean }[] = await db.query(
    `SELECT m.room_id, m.user_id, m.deleted_at IS NOT NULL AS deleted, r.is_private,
            EXISTS (SELECT 1 FROM chat_room_members cm WHERE cm.room_id = m.room_id AND cm.user_id = $2 AND cm.role IS NOT NULL) AS member
       FROM chat_messages m JOIN chat_rooms r ON r.id = m.room_id
      WHERE m.id = $1`,
    [messageId, userId],
  );
  const message = found[0];
  // A private room's messages do not exist for non-members.
  if (!message || (message.is_private && !message.member)) throw new ChatError('unknown_message', 'No such message', { field: 'id' });
  await assertNotBanned(db, message.room_id, userId, now);
  if (message.deleted) throw new ChatError('message_deleted', 'The message was deleted', { field: 'id' });
  if (message.user_id === userId) throw new ChatError('cannot_target', 'You cannot report your own message', { field: 'id' });
  const inserted: { id: number }[] = await db.query(
    `INSERT INTO chat_reports (message_id, reporter_id, reason, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT ON CONSTRAINT uq_chat_reports_message_reporter DO NOTHING RETURNING id`,
    [messageId, userId, reason, now],
  );
  if (!inserted.length) throw new ChatError('already_reported', 'You already reported this message', { field: 'id' });
  if (live) await tellModerators(db, live, message.room_id, now);
  return { id: inserted[0].id, status: 'open' };
}

/**
 * The room's open reports changed: its owner's and moderators' own streams get a `standing` event,
 * so their pages read the room again (its openReports, the Moderation button's count).
 */
async function tellModerators(db: Db, live: Pick<ChatModerationDeps, 'redis' | 'prefix'>, roomId: number, now: Date): Promise<void> {
  const moderators: { user_id: number }[] = await db.query(
    `SELECT user_id FROM chat_room_members WHERE room_id = $1 AND role IN ('owner', 'moderator') AND (banned_until IS NULL OR banned_until <= $2)`,
    [roomId, now],
  );
  for (const { user_id } of moderators) await publishChatEvent(live.redis, live.prefix, { kind: 'standing', roomId, userId: user_id });
}

/** The room's reports of one status, newest first (moderators only: the caller checks requireModerator). */
export async function listReports(db: Db, roomId: number, status: ChatReportStatus, viewerId = 0): Promise<ChatReportView[]> {
  const rows: { id: number; message_id: string; reporter_id: number; reporter_name: string; reason: string; status: ChatReportStatus; created_at: Date }[] =
    await db.query(
      `SELECT p.id, p.message_id::text, p.reporter_id, ${USER_NAME_SQL('u')} AS reporter_name, p.reason, p.status, p.created_at
         FROM chat_reports p
         JOIN chat_messages m ON m.id = p.message_id
         JOIN users u ON u.id = p.reporter_id
        WHERE m.room_id = $1 AND p.status = $2
        ORDER BY p.id DESC
        LIMIT ${CHAT_REPORTS_PAGE}`,
      [roomId, status],
    );
  const messages = await messageViews(db, viewerId, [...new Set(rows.map((r) => r.message_id))]);
  return rows.map((row) => ({
    id: row.id,
    message: messages.get(row.message_id)!,
    reporter: { id: row.reporter_id, name: row.reporter_name },
    reason: row.reason,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

// ---- moderation --------------------------------------------------------------------------------

export interface ChatModerationDeps {
  /** Where the live events go (publishChatEvent): the api's Redis and QUEUE_PREFIX. */
  redis: Redis;
  prefix: string;
  now: Date;
}

const TARGETED: ReadonlySet<ChatModerationAction> = new Set(['mute', 'unmute', 'ban', 'unban', 'promote', 'demote', 'transfer_ownership']);
/** Appointing and removing moderators, handing the room over: the room's owner only. */
const OWNER_ONLY: ReadonlySet<ChatModerationAction> = new Set(['promote', 'demote', 'transfer_ownership']);

interface AuditInsert {
  roomId: number;
  moderatorId: number;
  targetUserId: number | null;
  messageId: string | null;
  reportId: number | null;
  action: ChatModerationAction;
  rule: ChatRule | null;
  reason: string | null;
  /** A timestamp, or 'infinity'. */
  until: Date | 'infinity' | null;
  now: Date;
}

/** The member becomes the room's owner (a moderator's mute of theirs ends); the caller demotes or removes the one before. */
async function makeOwner(m: EntityManager, roomId: number, userId: number): Promise<void> {
  await m.query(`UPDATE chat_room_members SET role = 'owner', muted_until = NULL WHERE room_id = $1 AND user_id = $2`, [roomId, userId]);
}

async function insertAudit(m: EntityManager, a: AuditInsert): Promise<number> {
  const rows: { id: number }[] = await m.query(
    `INSERT INTO chat_moderation_actions (room_id, moderator_id, target_user_id, message_id, report_id, action, rule, reason, until, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [a.roomId, a.moderatorId, a.targetUserId, a.messageId, a.reportId, a.action, a.rule, a.reason, a.until, a.now],
  );
  return rows[0].id;
}

/** Locks the target's membership row; cannot_target for oneself, the owner, or a moderator acted on by a moderator. */
async function lockTarget(
  m: EntityManager,
  roomId: number,
  actorRole: 'owner' | 'moderator',
  actorId: number,
  targetId: number,
  field: string,
  now: Date,
): Promise<{ role: ChatRole; banned: boolean }> {
  if (targetId === actorId) throw new ChatError('cannot_target', 'You cannot moderate yourself', { field });
  const users: { id: number }[] = await m.query(`SELECT id FROM users WHERE id = $1 AND deleted_at IS NULL`, [targetId]);
  if (!users.length) throw new ChatError('unknown_user', 'No such user', { field });
  const rows: { role: ChatRole; banned: boolean }[] = await m.query(
    `SELECT role, coalesce(banned_until > $3, false) AS banned FROM chat_room_members WHERE room_id = $1 AND user_id = $2 FOR UPDATE`,
    [roomId, targetId, now],
  );
  const target = rows[0];
  if (!target) throw new ChatError('not_member', 'That user is not a member of the room', { field });
  assertCanTarget(actorRole, target.role, field);
  return target;
}

function assertCanTarget(actorRole: 'owner' | 'moderator', targetRole: ChatRole | null, field: string): void {
  if (targetRole === 'owner' || (targetRole === 'moderator' && actorRole !== 'owner')) {
    throw new ChatError('cannot_target', `A ${actorRole} cannot act on the room's ${targetRole}`, { field });
  }
}

/** A field the action needs (the api's schema refuses a request without it, naming the field). */
function required<T>(value: T | undefined, field: string): T {
  if (value === undefined || value === null) throw new TypeError(`moderation input: ${field} is required for this action`);
  return value;
}

/** The reason stored on a ban and shown to the member: the rule cited, then the moderator's words. */
export function banReasonOf(rule: ChatRule, reason: string | null): string {
  return reason ? `${rule}: ${reason}` : rule;
}

/**
 * A moderation action by `moderatorId` (an owner or moderator of the room, else not_moderator) in
 * one transaction with its audit row; returns the audit entry. A moderator cannot act on the owner
 * or another moderator, nor on themself (cannot_target).
 * - delete_message (messageId): the message is kept as deleted by a moderator (text blanked), its
 *   open reports resolved; the `deleted` event is published after the commit.
 * - mute (userId, minutes 1..CHAT_MUTE_MAX_MINUTES, rule): cannot post until now + minutes.
 * - unmute, unban (userId): the sanction ends now.
 * - ban (userId, rule, minutes or none for permanent): cannot read or post; a banned moderator
 *   becomes a member. The ban's reason cites the rule. Published: `member` left (ban) / joined
 *   (unban), so the live relay stops (resumes) sending the room to them.
 * - dismiss_report (reportId): the report is closed without action.
 * - promote (userId): a member becomes a moderator; demote (userId): a moderator a member again.
 *   The owner only (not_owner, 403, for a moderator); not the owner, not oneself (cannot_target),
 *   not a banned member (cannot_target); role_unchanged (409) when there is nothing to change.
 * - transfer_ownership (userId): the member becomes the room's one owner (a mute of theirs ends), the
 *   owner a moderator; the owner only, not a banned member. Published: `standing` to both.
 * Missing fields for the action: the store throws a ChatError naming the field (the api's schema
 * refuses them first).
 */
export async function moderate(db: DataSource, deps: ChatModerationDeps, moderatorId: number, roomId: number, input: ChatModerationInput): Promise<ChatAuditEntry> {
  const now = deps.now;
  const published: ChatStreamEvent[] = [];
  const auditId = await db.transaction(async (m) => {
    const actorRole = await requireModerator(m, moderatorId, roomId, now);
    const rule = input.rule ?? null;
    const reason = input.reason?.trim() || null;
    const base = { roomId, moderatorId, rule, reason, now, reportId: null, messageId: null, until: null } as const;

    if (OWNER_ONLY.has(input.action) && actorRole !== 'owner') {
      throw new ChatError('not_owner', "Only the room's owner can appoint or remove moderators, or hand the room over");
    }

    if (TARGETED.has(input.action)) {
      const targetId = required(input.userId, 'userId');
      const target = await lockTarget(m, roomId, actorRole, moderatorId, targetId, 'userId', now);
      switch (input.action) {
        case 'promote': {
          if (target.role === 'moderator') throw new ChatError('role_unchanged', 'That member is a moderator already', { field: 'userId' });
          if (target.banned) throw new ChatError('cannot_target', 'A banned member cannot be a moderator: unban them first', { field: 'userId' });
          await m.query(`UPDATE chat_room_members SET role = 'moderator' WHERE room_id = $1 AND user_id = $2`, [roomId, targetId]);
          published.push({ kind: 'standing', roomId, userId: targetId });
          return insertAudit(m, { ...base, action: 'promote', targetUserId: targetId });
        }
        case 'transfer_ownership': {
          // The room has one owner: the member becomes it, the owner a moderator (who may then leave).
          if (target.banned) throw new ChatError('cannot_target', 'A banned member cannot own the room: unban them first', { field: 'userId' });
          await makeOwner(m, roomId, targetId);
          await m.query(`UPDATE chat_room_members SET role = 'moderator' WHERE room_id = $1 AND user_id = $2`, [roomId, moderatorId]);
          published.push({ kind: 'standing', roomId, userId: targetId }, { kind: 'standing', roomId, userId: moderatorId });
          return insertAudit(m, { ...base, action: 'transfer_ownership', targetUserId: targetId });
        }
        case 'demote': {
          if (target.role !== 'moderator') throw new ChatError('role_unchanged', 'That member is not a moderator', { field: 'userId' });
          await m.query(`UPDATE chat_room_members SET role = 'member' WHERE room_id = $1 AND user_id = $2`, [roomId, targetId]);
          published.push({ kind: 'standing', roomId, userId: targetId });
          return insertAudit(m, { ...base, action: 'demote', targetUserId: targetId });
        }
        case 'mute': {
          const minutes = required(input.minutes, 'minutes');
          required(input.rule, 'rule');
          const until = new Date(now.getTime() + minutes * 60_000);
          await m.query(`UPDATE chat_room_members SET muted_until = $3 WHERE room_id = $1 AND user_id = $2`, [roomId, targetId, until]);
          // The muted member's open pages say so at once (not at their next post).
          published.push({ kind: 'standing', roomId, userId: targetId });
          return insertAudit(m, { ...base, action: 'mute', targetUserId: targetId, until });
        }
        case 'unmute':
          await m.query(`UPDATE chat_room_members SET muted_until = NULL WHERE room_id = $1 AND user_id = $2`, [roomId, targetId]);
          published.push({ kind: 'standing', roomId, userId: targetId });
          return insertAudit(m, { ...base, action: 'unmute', targetUserId: targetId });
        case 'ban': {
          const cited = required(input.rule, 'rule');
          const until = input.minutes === undefined ? 'infinity' : new Date(now.getTime() + input.minutes * 60_000);
          await m.query(
            `UPDATE chat_room_members SET banned_until = $3, ban_reason = $4, role = 'member' WHERE room_id = $1 AND user_id = $2`,
            [roomId, targetId, until, banReasonOf(cited, reason)],
          );
          // The live relay stops sending the room to a banned member (as if they left).
          published.push({ kind: 'member', roomId, userId: targetId, joined: false });
          return insertAudit(m, { ...base, action: 'ban', targetUserId: targetId, until });
        }
        case 'unban':
          await m.query(`UPDATE chat_room_members SET banned_until = NULL, ban_reason = NULL WHERE room_id = $1 AND user_id = $2`, [roomId, targetId]);
          published.push({ kind: 'member', roomId, userId: targetId, joined: true });
          return insertAudit(m, { ...base, action: 'unban', targetUserId: targetId });
      }
    }

    if (input.action === 'delete_message') {
      const messageId = required(input.messageId, 'messageId');
      const rows: { room_id: number; user_id: number | null; deleted: boolean; author_role: ChatRole | null }[] = await m.query(
        `SELECT c.room_id, c.user_id, c.deleted_at IS NOT NULL AS deleted,
                (SELECT role FROM chat_room_members WHERE room_id = c.room_id AND user_id = c.user_id) AS author_role
           FROM chat_messages c WHERE c.id = $1 FOR UPDATE OF c`,
        [messageId],
      );
      const message = rows[0];
      // Another room's message is no message of this room: the same answer as an unknown one.
      if (!message || message.room_id !== roomId) throw new ChatError('unknown_message', 'No such message in this room', { field: 'messageId' });
      if (message.deleted) throw new ChatError('message_deleted', 'The message is already deleted', { field: 'messageId' });
      if (message.user_id === moderatorId) throw new ChatError('cannot_target', 'Delete your own message as its author', { field: 'messageId' });
      assertCanTarget(actorRole, message.author_role, 'messageId');
      // As chat-messages.store.ts' softDeleteMessage: text and tags blanked, the row kept for its replies, its notifications gone.
      await m.query(
        `UPDATE chat_messages SET deleted_at = $2, deleted_by = 'moderator', message = '', cashtags = '{}', mention_user_ids = '{}', sentiment = NULL, updated_at = $2
          WHERE id = $1`,
        [messageId, now],
      );
      await m.query(`DELETE FROM chat_notifications WHERE message_id = $1`, [messageId]);
      await m.query(`UPDATE chat_reports SET status = 'resolved', resolved_by = $2, resolved_at = $3 WHERE message_id = $1 AND status = 'open'`, [messageId, moderatorId, now]);
      published.push({ kind: 'deleted', roomId, messageId, by: 'moderator' });
      return insertAudit(m, { ...base, action: 'delete_message', targetUserId: message.user_id, messageId });
    }

    // dismiss_report
    const reportId = required(input.reportId, 'reportId');
    const reports: { room_id: number; message_id: string; author_id: number | null; status: ChatReportStatus }[] = await m.query(
      `SELECT c.room_id, p.message_id::text, c.user_id AS author_id, p.status
         FROM chat_reports p JOIN chat_messages c ON c.id = p.message_id WHERE p.id = $1 FOR UPDATE OF p`,
      [reportId],
    );
    const report = reports[0];
    // Another room's report is no report of this room: the same answer as an unknown one.
    if (!report || report.room_id !== roomId) throw new ChatError('unknown_message', 'No such report in this room', { field: 'reportId' });
    await m.query(`UPDATE chat_reports SET status = 'dismissed', resolved_by = $2, resolved_at = $3 WHERE id = $1`, [reportId, moderatorId, now]);
    return insertAudit(m, { ...base, action: 'dismiss_report', targetUserId: report.author_id, messageId: report.message_id, reportId });
  });
  for (const event of published) await publishChatEvent(deps.redis, deps.prefix, event);
  // Deleting a message resolves its open reports; dismissing closes one.
  if (input.action === 'delete_message' || input.action === 'dismiss_report') await tellModerators(db, deps, roomId, now);
  const page = await auditLog(db, roomId, { ids: [auditId] });
  return page.entries[0];
}

// ---- account deletion --------------------------------------------------------------------------

export interface ChatRoomsOfDeletedOwner {
  /** Rooms handed to a remaining member (published as `standing` to the new owner by the caller). */
  handedOver: { roomId: number; ownerId: number }[];
  /** Rooms the deleted user made that had no other member: deleted with their history. */
  deleted: number[];
}

/**
 * Inside the account deletion's transaction, before the user's memberships go: every room they own
 * passes to its longest-standing moderator, else its longest-standing member (neither banned nor a
 * deleted account), as a transfer_ownership the audit log shows with the reason. A room they made
 * that has no other member is deleted (its messages were theirs, which go with the account anyway).
 * A room whose only other members are banned keeps no owner (said in docs/chat.md).
 */
export async function handOverRoomsOfDeletedOwner(m: EntityManager, userId: number, now: Date): Promise<ChatRoomsOfDeletedOwner> {
  const result: ChatRoomsOfDeletedOwner = { handedOver: [], deleted: [] };
  const owned: { room_id: number; created_by: number | null }[] = await m.query(
    `SELECT mb.room_id, r.created_by FROM chat_room_members mb JOIN chat_rooms r ON r.id = mb.room_id
      WHERE mb.user_id = $1 AND mb.role = 'owner' ORDER BY mb.room_id FOR UPDATE OF mb`,
    [userId],
  );
  for (const room of owned) {
    const successors: { user_id: number }[] = await m.query(
      `SELECT mb.user_id FROM chat_room_members mb JOIN users u ON u.id = mb.user_id AND u.deleted_at IS NULL
        WHERE mb.room_id = $1 AND mb.user_id <> $2 AND (mb.banned_until IS NULL OR mb.banned_until <= $3)
        ORDER BY (mb.role = 'moderator') DESC, mb.joined_at, mb.user_id LIMIT 1 FOR UPDATE OF mb`,
      [room.room_id, userId, now],
    );
    const successor = successors[0];
    if (successor) {
      await makeOwner(m, room.room_id, successor.user_id);
      await insertAudit(m, {
        roomId: room.room_id,
        moderatorId: userId,
        targetUserId: successor.user_id,
        messageId: null,
        reportId: null,
        action: 'transfer_ownership',
        rule: null,
        reason: 'The owner deleted their account',
        until: null,
        now,
      });
      result.handedOver.push({ roomId: room.room_id, ownerId: successor.user_id });
      continue;
    }
    const others: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM chat_room_members WHERE room_id = $1 AND user_id <> $2`, [room.room_id, userId]);
    if (room.created_by === userId && others[0].n === 0) {
      await m.query('DELETE FROM chat_rooms WHERE id = $1', [room.room_id]);
      result.deleted.push(room.room_id);
    }
  }
  return result;
}

// ---- audit -------------------------------------------------------------------------------------

export interface ChatAuditPage {
  entries: ChatAuditEntry[];
  nextCursor: string | null;
}

/**
 * The room's moderation actions, newest first, CHAT_AUDIT_PAGE a page (`cursor`: the nextCursor
 * of the previous page). `userId` keeps the actions on one member: the escalation history a
 * moderator reads before the next sanction.
 */
export async function auditLog(db: Db, roomId: number, options: { cursor?: string; userId?: number; ids?: number[]; limit?: number } = {}): Promise<ChatAuditPage> {
  const limit = options.limit ?? CHAT_AUDIT_PAGE;
  let before: number | null = null;
  if (options.cursor !== undefined) {
    if (!/^[1-9]\d{0,9}$/.test(options.cursor) || Number(options.cursor) > 2_147_483_647) throw new ChatError('bad_cursor', 'Not a cursor of this list', { field: 'cursor' });
    before = Number(options.cursor);
  }
  const rows: {
    id: number;
    action: ChatModerationAction;
    moderator_id: number;
    moderator_name: string;
    target_user_id: number | null;
    target_name: string | null;
    message_id: string | null;
    rule: ChatRule | null;
    reason: string | null;
    until: Date | null;
    permanent: boolean;
    created_at: Date;
  }[] = await db.query(
    `SELECT a.id, a.action, a.moderator_id, ${USER_NAME_SQL('mu')} AS moderator_name, a.target_user_id,
            CASE WHEN tu.id IS NOT NULL THEN ${USER_NAME_SQL('tu')} END AS target_name, a.message_id::text, a.rule, a.reason,
            CASE WHEN a.until <> 'infinity' THEN a.until END AS until, coalesce(a.until = 'infinity', false) AS permanent, a.created_at
       FROM chat_moderation_actions a
       JOIN users mu ON mu.id = a.moderator_id
       LEFT JOIN users tu ON tu.id = a.target_user_id
      WHERE a.room_id = $1
        AND ($2::int IS NULL OR a.id < $2)
        AND ($3::int IS NULL OR a.target_user_id = $3)
        AND ($4::int[] IS NULL OR a.id = ANY ($4))
      ORDER BY a.id DESC
      LIMIT $5`,
    [roomId, before, options.userId ?? null, options.ids ?? null, limit + 1],
  );
  const entries = rows.slice(0, limit).map(
    (row): ChatAuditEntry => ({
      id: row.id,
      action: row.action,
      moderator: { id: row.moderator_id, name: row.moderator_name },
      target: row.target_user_id === null ? null : { id: row.target_user_id, name: row.target_name ?? `User ${row.target_user_id}` },
      messageId: row.message_id,
      rule: row.rule,
      reason: row.reason,
      // A permanent ban has no end: 'infinity' in the answer.
      until: row.permanent ? 'infinity' : iso(row.until),
      createdAt: new Date(row.created_at).toISOString(),
    }),
  );
  return { entries, nextCursor: rows.length > limit ? String(entries[entries.length - 1].id) : null };
}
