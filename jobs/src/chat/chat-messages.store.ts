// Messages: history by cursor, posting (mentions, replies, thread counters, chat notifications and
// the notifications pipeline), edit and delete of one's own, reactions, threads and their follows.
// Every write publishes its ChatStreamEvent after the commit.
import { latestPrices } from '../prices/latest-prices.store';
import { notify, type NotificationRequest } from '../notifications/notify';
import { ChatError } from './chat.errors';
import { publishChatEvent } from './chat-events';
import { assertCanPost, assertCanTyping } from './chat-limits';
import { hiddenAuthorIds } from './chat-blocks.store';
import { USER_NAME_SQL, effectiveNotifyLevel, iso, postingStanding, returned, requireMember, requireReader, type ChatDeps, type Db } from './chat-rooms.store';
import { chatDisplayName, extractCashtags, mentionedHandles, normalizeMessageText, normalizeReaction } from './chat-text';
import {
  CHAT_HISTORY_DEFAULT_LIMIT,
  CHAT_HISTORY_MAX_LIMIT,
  type ChatMessageType,
  type ChatMessageView,
  type ChatMessagesPage,
  type ChatReactionView,
  type ChatSentiment,
  type ChatStreamEvent,
  type ChatThreadView,
  type ChatUserRef,
} from './chat.shapes';

/** Replies a thread view lists at most (the oldest first). */
export const CHAT_THREAD_MAX_REPLIES = 500;
/** The quote of a message in a notification. */
const NOTIFICATION_QUOTE = 140;

// ---- views -------------------------------------------------------------------------------------

const MESSAGE_COLUMNS = `m.id::text AS id, m.room_id, m.user_id, ${USER_NAME_SQL('u')} AS author_name, m.message, m.message_type, m.sentiment,
  m.cashtags, m.mention_user_ids, m.reply_to_message_id::text AS reply_to, m.reply_count, m.last_reply_at, m.created_at, m.edited_at,
  m.deleted_at, m.deleted_by`;
const MESSAGE_FROM = `chat_messages m LEFT JOIN users u ON u.id = m.user_id`;

type MessageRow = Record<string, unknown> & { id: string; room_id: number; user_id: number | null; mention_user_ids: number[] };

async function reactionsOf(db: Db, viewerId: number, ids: readonly string[]): Promise<Map<string, ChatReactionView[]>> {
  const out = new Map<string, ChatReactionView[]>();
  if (!ids.length) return out;
  const rows: { message_id: string; reaction: string; count: number; mine: boolean }[] = await db.query(
    `SELECT message_id::text AS message_id, reaction, count(*)::int AS count, bool_or(user_id = $2) AS mine
       FROM message_reactions WHERE message_id = ANY($1::bigint[])
      GROUP BY message_id, reaction ORDER BY message_id, min(id)`,
    [ids, viewerId],
  );
  for (const row of rows) {
    const list = out.get(row.message_id) ?? [];
    list.push({ reaction: row.reaction, count: row.count, mine: row.mine });
    out.set(row.message_id, list);
  }
  return out;
}

async function usersById(db: Db, ids: readonly number[]): Promise<Map<number, ChatUserRef>> {
  const out = new Map<number, ChatUserRef>();
  if (!ids.length) return out;
  const rows: { id: number; name: string }[] = await db.query(`SELECT u.id, ${USER_NAME_SQL('u')} AS name FROM users u WHERE u.id = ANY($1::int[])`, [[...new Set(ids)]]);
  for (const row of rows) out.set(row.id, { id: row.id, name: row.name });
  return out;
}

/** Rows as views: authors, resolved mentions and the viewer's reactions (deleted messages blanked). */
async function toViews(db: Db, viewerId: number, rows: readonly MessageRow[]): Promise<ChatMessageView[]> {
  const [reactions, mentioned] = await Promise.all([
    reactionsOf(db, viewerId, rows.filter((r) => r.deleted_at === null).map((r) => r.id)),
    usersById(db, rows.flatMap((r) => (r.deleted_at === null ? r.mention_user_ids : []))),
  ]);
  return rows.map((r): ChatMessageView => {
    const deleted = r.deleted_at !== null;
    return {
      id: r.id,
      roomId: Number(r.room_id),
      author: r.user_id === null ? null : { id: r.user_id, name: r.author_name as string },
      messageType: r.message_type as ChatMessageType,
      text: deleted ? '' : (r.message as string),
      sentiment: deleted ? null : ((r.sentiment as ChatSentiment | null) ?? null),
      cashtags: deleted ? [] : ((r.cashtags as string[]) ?? []),
      mentions: deleted ? [] : r.mention_user_ids.map((id) => mentioned.get(id)).filter((u): u is ChatUserRef => !!u),
      replyToMessageId: (r.reply_to as string | null) ?? null,
      replyCount: Number(r.reply_count),
      lastReplyAt: iso(r.last_reply_at as Date | null),
      reactions: deleted ? [] : (reactions.get(r.id) ?? []),
      createdAt: iso(r.created_at as Date)!,
      editedAt: iso(r.edited_at as Date | null),
      deleted,
      deletedBy: (r.deleted_by as 'author' | 'moderator' | null) ?? null,
    };
  });
}

/** Messages by id as the viewer sees them, in the order asked (missing ones left out). */
export async function loadMessageViews(db: Db, viewerId: number, ids: readonly string[]): Promise<ChatMessageView[]> {
  if (!ids.length) return [];
  const rows: MessageRow[] = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM} WHERE m.id = ANY($1::bigint[])`, [ids]);
  const views = new Map((await toViews(db, viewerId, rows)).map((v) => [v.id, v]));
  return ids.map((id) => views.get(id)).filter((v): v is ChatMessageView => !!v);
}

interface MessageHead {
  id: string;
  roomId: number;
  userId: number | null;
  replyTo: string | null;
  deleted: boolean;
}

async function messageHead(db: Db, messageId: string, lock = false): Promise<MessageHead> {
  const rows: { id: string; room_id: number; user_id: number | null; reply_to: string | null; deleted_at: Date | null }[] = await db.query(
    `SELECT id::text AS id, room_id, user_id, reply_to_message_id::text AS reply_to, deleted_at FROM chat_messages WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [messageId],
  );
  const row = rows[0];
  if (!row) throw new ChatError('unknown_message', 'No such message');
  return { id: row.id, roomId: row.room_id, userId: row.user_id, replyTo: row.reply_to, deleted: row.deleted_at !== null };
}

/** A message the viewer may read (its room readable by them): unknown_message, private_room, banned. */
async function readableMessage(deps: ChatDeps, viewerId: number, messageId: string): Promise<MessageHead> {
  const head = await messageHead(deps.dataSource, messageId);
  await requireReader(deps.dataSource, viewerId, head.roomId, deps.now);
  return head;
}

// ---- history -----------------------------------------------------------------------------------

export interface HistoryQuery {
  before?: string;
  after?: string;
  /** 'unread': around the viewer's first unread message; a message id: around it. */
  around?: string;
  limit?: number;
}

const PAGE_SQL = (where: string, order: 'ASC' | 'DESC') =>
  `SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM}
    WHERE m.room_id = $1 AND ${where} AND (m.user_id IS NULL OR m.user_id <> ALL($2::int[]))
    ORDER BY m.id ${order} LIMIT $4`;

/**
 * A page of the room's history, oldest first: the latest `limit` messages, those before or after
 * a message id, or around the viewer's first unread message (half before, half from it) or around
 * a message. Deleted messages stay as "deleted"; authors the viewer blocked are left out. The
 * prices of the page's cashtags (the `<SYMBOL>USDT` pair of the prices feature) come along.
 */
export async function roomHistory(deps: ChatDeps, viewerId: number, roomId: number, query: HistoryQuery): Promise<ChatMessagesPage> {
  const db = deps.dataSource;
  const access = await requireReader(db, viewerId, roomId, deps.now);
  const limit = Math.min(Math.max(query.limit ?? CHAT_HISTORY_DEFAULT_LIMIT, 1), CHAT_HISTORY_MAX_LIMIT);
  const hidden = [...(await hiddenAuthorIds(db, viewerId))];
  const lastRead = access.member?.lastReadMessageId ?? null;
  const older = async (below: string, n: number, inclusive = false): Promise<MessageRow[]> =>
    ((await db.query(PAGE_SQL(`m.id ${inclusive ? '<=' : '<'} $3`, 'DESC'), [roomId, hidden, below, n])) as MessageRow[]).reverse();
  const newer = async (above: string, n: number, inclusive = false): Promise<MessageRow[]> =>
    (await db.query(PAGE_SQL(`m.id ${inclusive ? '>=' : '>'} $3`, 'ASC'), [roomId, hidden, above, n])) as MessageRow[];

  let rows: MessageRow[];
  let hasOlder: boolean;
  let hasNewer: boolean;
  const around = query.around === 'unread' ? (member(access) ? (lastRead ?? '0') : null) : (query.around ?? null);
  if (query.before) {
    const page = await older(query.before, limit + 1);
    hasOlder = page.length > limit;
    rows = hasOlder ? page.slice(1) : page;
    hasNewer = (await newer(query.before, 1, true)).length > 0;
  } else if (query.after) {
    const page = await newer(query.after, limit + 1);
    hasNewer = page.length > limit;
    rows = hasNewer ? page.slice(0, limit) : page;
    hasOlder = (await older(query.after, 1, true)).length > 0;
  } else if (around !== null) {
    // around=unread: the last read message and those before it, then the unread ones.
    // around=<id>: that message and those before it, then those after.
    const after = await newer(around, limit - Math.floor(limit / 2) + 1);
    hasNewer = after.length > limit - Math.floor(limit / 2);
    const newerPart = after.slice(0, limit - Math.floor(limit / 2));
    const before = await older(around, limit - newerPart.length + 1, true);
    hasOlder = before.length > limit - newerPart.length;
    rows = [...(hasOlder ? before.slice(1) : before), ...newerPart];
  } else {
    const page = await older('9223372036854775807', limit + 1, true);
    hasOlder = page.length > limit;
    rows = hasOlder ? page.slice(1) : page;
    hasNewer = false;
  }
  const messages = await toViews(db, viewerId, rows);
  const firstUnread = member(access) ? messages.find((m) => BigInt(m.id) > BigInt(lastRead ?? '0') && m.author?.id !== viewerId && !m.deleted) : undefined;
  const page: ChatMessagesPage = { messages, hasOlder, hasNewer, firstUnreadId: firstUnread?.id ?? null };
  const symbols = [...new Set(messages.flatMap((m) => m.cashtags))];
  if (symbols.length) {
    try {
      const prices = await latestPrices(deps.redis, deps.prefix, symbols.map((s) => `${s}USDT`));
      page.prices = {};
      for (const symbol of symbols) {
        const latest = prices.get(`${symbol}USDT`);
        if (latest) page.prices[symbol] = { price: latest.price, change24hPercent: latest.change24hPercent === null ? null : Number(latest.change24hPercent) };
      }
    } catch (error) {
      deps.logger?.warn({ err: (error as Error).message }, 'chat: cashtag prices not loaded');
    }
  }
  return page;
}

const member = (access: { member: unknown }) => access.member !== null;

// ---- posting -----------------------------------------------------------------------------------

export interface PostInput {
  userId: number;
  roomId: number;
  text: string;
  replyToMessageId?: string;
  sentiment?: ChatSentiment;
}

interface Recipient {
  userId: number;
  type: 'mention' | 'reply';
  /** Notified through the pipeline at 'mentions' level too (a mention, a reply to the user's own message). */
  direct: boolean;
}

/** Members of the room mentioned by handle (see chatHandle), live accounts, not banned. */
async function resolveMentions(m: Db, roomId: number, handles: readonly string[], now: Date): Promise<number[]> {
  if (!handles.length) return [];
  const rows: { id: number }[] = await m.query(
    `SELECT u.id FROM chat_room_members x JOIN users u ON u.id = x.user_id
      WHERE x.room_id = $1 AND u.deleted_at IS NULL AND (x.banned_until IS NULL OR x.banned_until <= $3)
        AND lower(coalesce(nullif(regexp_replace(coalesce(u.name, ''), '\\s', '', 'g'), ''), 'user' || u.id)) = ANY($2::text[])
      ORDER BY u.id`,
    [roomId, handles, now],
  );
  return rows.map((r) => r.id);
}

/**
 * Posts a message. The text is checked (empty_message, message_too_long), the room and membership
 * (unknown_room, private_room, banned, not_member), the replied-to message (unknown_message,
 * wrong_room, message_deleted), then C2's assertCanPost (muted, links_not_allowed, slow_mode,
 * rate_limited). One transaction writes the message (a reply joins the thread of the message it
 * answers: its root), the root's reply counter, the replier's thread follow (and the root
 * author's, at the first reply), and the chat_notifications of the mentioned members and of the
 * thread's author and followers. After the commit: the `message` (and `thread`) events, then the
 * notifications pipeline for the recipients whose notify level asks for it ('mute' nothing,
 * 'mentions' mentions and replies to their own messages, 'all' also replies in threads they follow).
 */
export async function postMessage(deps: ChatDeps, input: PostInput): Promise<ChatMessageView> {
  const { now } = deps;
  const text = normalizeMessageText(input.text);
  const access = await requireMember(deps.dataSource, input.userId, input.roomId, now);
  let root: MessageHead | null = null;
  let answered: MessageHead | null = null;
  if (input.replyToMessageId) {
    const target = await messageHead(deps.dataSource, input.replyToMessageId).catch((error: unknown) => {
      if (error instanceof ChatError) throw new ChatError(error.code, error.message, { field: 'replyToMessageId' });
      throw error;
    });
    if (target.roomId !== input.roomId) throw new ChatError('wrong_room', 'A reply must answer a message of the same room', { field: 'replyToMessageId' });
    answered = target;
    root = target.replyTo ? await messageHead(deps.dataSource, target.replyTo).catch(() => target) : target;
    if (target.deleted && root.id === target.id) throw new ChatError('message_deleted', 'That message was deleted', { field: 'replyToMessageId' });
  }
  await assertCanPost(
    { dataSource: deps.dataSource, redis: deps.redis, prefix: deps.prefix, config: deps.config, now },
    { userId: input.userId, roomId: input.roomId, text },
    postingStanding(access, now),
  );

  const cashtags = extractCashtags(text);
  const handles = mentionedHandles(text);
  const write = async (m: Db) => {
    const mentionIds = await resolveMentions(m, input.roomId, handles, now);
    // The author's name comes back with the id (the event's view needs it).
    const [row]: { id: string; author_name: string }[] = await m.query(
      `INSERT INTO chat_messages (room_id, user_id, message, message_type, reply_to_message_id, sentiment, cashtags, mention_user_ids, created_at, updated_at)
       VALUES ($1, $2, $3, 'user_message', $4, $5, $6, $7, $8, $8)
       RETURNING id::text AS id, (SELECT ${USER_NAME_SQL('u')} FROM users u WHERE u.id = $2) AS author_name`,
      [input.roomId, input.userId, text, root?.id ?? null, input.sentiment ?? null, cashtags, mentionIds, now],
    );
    const recipients = new Map<number, Recipient>();
    for (const userId of mentionIds) if (userId !== input.userId) recipients.set(userId, { userId, type: 'mention', direct: true });
    let rootCounter: { replyCount: number; lastReplyAt: string } | null = null;
    if (root) {
      const [counter] = returned<{ reply_count: number; first: boolean }>(await m.query(
        `UPDATE chat_messages SET reply_count = reply_count + 1, last_reply_at = $2 WHERE id = $1 RETURNING reply_count, reply_count = 1 AS first`,
        [root.id, now],
      ));
      rootCounter = { replyCount: counter.reply_count, lastReplyAt: now.toISOString() };
      const follow = `INSERT INTO chat_thread_follows (user_id, message_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`;
      if (counter.first && root.userId !== null) await m.query(follow, [root.userId, root.id, now]);
      const followers: { user_id: number }[] = await m.query(
        `SELECT f.user_id FROM chat_thread_follows f JOIN chat_room_members x ON x.user_id = f.user_id AND x.room_id = $2
          WHERE f.message_id = $1 AND (x.banned_until IS NULL OR x.banned_until <= $3)`,
        [root.id, input.roomId, now],
      );
      // The author of the message answered (a reply inside the thread) is told too, as a reply to their message.
      if (answered && answered.userId !== null && answered.userId !== input.userId && !recipients.has(answered.userId)) {
        const stillMember: unknown[] = await m.query(`SELECT 1 FROM chat_room_members WHERE room_id = $1 AND user_id = $2 AND (banned_until IS NULL OR banned_until <= $3)`, [input.roomId, answered.userId, now]);
        if (stillMember.length) recipients.set(answered.userId, { userId: answered.userId, type: 'reply', direct: true });
      }
      for (const { user_id } of followers) {
        if (user_id === input.userId || recipients.has(user_id)) continue;
        recipients.set(user_id, { userId: user_id, type: 'reply', direct: user_id === root.userId });
      }
      await m.query(follow, [input.userId, root.id, now]);
    }
    // Those who blocked the author are not told.
    const list = [...recipients.values()];
    const blockers: { blocker_id: number }[] = list.length
      ? await m.query(`SELECT blocker_id FROM chat_blocks WHERE blocked_id = $1 AND blocker_id = ANY($2::int[])`, [input.userId, list.map((r) => r.userId)])
      : [];
    const blocked = new Set(blockers.map((b) => b.blocker_id));
    const kept = list.filter((r) => !blocked.has(r.userId));
    if (kept.length) {
      await m.query(
        `INSERT INTO chat_notifications (user_id, message_id, type, is_read, created_at)
         SELECT u, $2, t, false, $4 FROM unnest($1::int[], $3::text[]) AS x(u, t)`,
        [kept.map((r) => r.userId), row.id, kept.map((r) => r.type), now],
      );
    }
    return { id: row.id, authorName: row.author_name, recipients: kept, rootCounter, mentionIds };
  };
  // A plain message (no mention, not a reply) is one INSERT: no transaction around it.
  const { id, authorName, recipients, rootCounter, mentionIds } = handles.length || root ? await deps.dataSource.transaction(write) : await write(deps.dataSource);

  // A new message has no reactions yet: its view needs the author's and the mentioned members' names only.
  const names = await usersById(deps.dataSource, mentionIds);
  const view: ChatMessageView = {
    id,
    roomId: input.roomId,
    author: { id: input.userId, name: authorName ?? `User ${input.userId}` },
    messageType: 'user_message',
    text,
    sentiment: input.sentiment ?? null,
    cashtags,
    mentions: mentionIds.map((userId) => names.get(userId)).filter((u): u is ChatUserRef => !!u),
    replyToMessageId: root?.id ?? null,
    replyCount: 0,
    lastReplyAt: null,
    reactions: [],
    createdAt: now.toISOString(),
    editedAt: null,
    deleted: false,
    deletedBy: null,
  };
  const events: ChatStreamEvent[] = [{ kind: 'message', roomId: input.roomId, message: view }];
  if (root && rootCounter) events.push({ kind: 'thread', roomId: input.roomId, messageId: root.id, ...rootCounter });
  for (const event of events) await publishChatEvent(deps.redis, deps.prefix, event);
  await notifyRecipients(deps, access.name, view, recipients).catch((error: unknown) => {
    deps.logger?.warn({ err: (error as Error).message, messageId: id }, 'chat: notifications not sent');
  });
  return view;
}

/** The pipeline's notifications for the recipients whose notify level asks for them. */
async function notifyRecipients(deps: ChatDeps, roomName: string, message: ChatMessageView, recipients: readonly Recipient[]): Promise<void> {
  if (!recipients.length) return;
  const levels: { user_id: number; notify_level: string; notify_muted_until: Date | null }[] = await deps.dataSource.query(
    `SELECT user_id, notify_level, notify_muted_until FROM chat_room_members WHERE room_id = $1 AND user_id = ANY($2::int[])`,
    [message.roomId, recipients.map((r) => r.userId)],
  );
  const levelOf = new Map(levels.map((l) => [l.user_id, effectiveNotifyLevel(l.notify_level, l.notify_muted_until, deps.now)]));
  const author = message.author ? chatDisplayName(message.author) : 'Someone';
  const quote = message.text.length > NOTIFICATION_QUOTE ? `${message.text.slice(0, NOTIFICATION_QUOTE - 1)}…` : message.text;
  const requests: NotificationRequest[] = [];
  for (const type of ['mention', 'reply'] as const) {
    const to = recipients.filter((r) => {
      const level = levelOf.get(r.userId);
      return r.type === type && (level === 'all' || (level === 'mentions' && r.direct));
    });
    if (!to.length) continue;
    requests.push({
      recipients: to.map((r) => r.userId),
      content: {
        title: type === 'mention' ? `${author} mentioned you in ${roomName}` : `${author} replied in ${roomName}`,
        message: quote,
        type: 'info',
        activityType: type === 'mention' ? 'chat_mention' : 'chat_reply',
        details: { roomId: message.roomId, messageId: message.id, url: `/dashboard/chat/${message.roomId}?message=${message.id}` },
      },
      dedupeKey: `chat:${message.id}:${type}`,
      channels: { push: { ttlSeconds: 3600, urgency: 'normal', topic: null, url: `/dashboard/chat/${message.roomId}` }, email: null, telegram: null },
    });
  }
  if (requests.length) await notify({ dataSource: deps.dataSource, queues: deps.queues, redis: deps.redis }, requests, { now: deps.now });
}

// ---- edit, delete ------------------------------------------------------------------------------

async function ownMessage(deps: ChatDeps, userId: number, messageId: string): Promise<MessageHead> {
  const head = await readableMessage(deps, userId, messageId);
  if (head.userId !== userId) throw new ChatError('not_author', 'Only its author can change a message');
  if (head.deleted) throw new ChatError('message_deleted', 'That message was deleted');
  return head;
}

/** Edits one's own message: cashtags and mentions read again (no new notifications), marked edited. */
export async function editMessage(deps: ChatDeps, userId: number, messageId: string, rawText: string): Promise<ChatMessageView> {
  const text = normalizeMessageText(rawText);
  const head = await ownMessage(deps, userId, messageId);
  await deps.dataSource.transaction(async (m) => {
    const mentionIds = await resolveMentions(m, head.roomId, mentionedHandles(text), deps.now);
    const updated = returned(await m.query(
      `UPDATE chat_messages SET message = $2, cashtags = $3, mention_user_ids = $4, edited_at = $5, updated_at = $5 WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
      [messageId, text, extractCashtags(text), mentionIds, deps.now],
    ));
    if (!updated.length) throw new ChatError('message_deleted', 'That message was deleted');
  });
  const [view] = await loadMessageViews(deps.dataSource, userId, [messageId]);
  await publishChatEvent(deps.redis, deps.prefix, { kind: 'edited', roomId: head.roomId, message: view });
  return view;
}

/**
 * Marks a message deleted (text blanked, the row kept for its replies); false when it already was.
 * Its chat notifications go. For the author's delete here and the moderators' (chat-moderation.store.ts).
 */
export async function softDeleteMessage(db: Db, messageId: string, by: 'author' | 'moderator', now: Date): Promise<boolean> {
  const rows = returned(await db.query(
    `UPDATE chat_messages SET deleted_at = $2, deleted_by = $3, message = '', cashtags = '{}', mention_user_ids = '{}', sentiment = NULL, updated_at = $2
      WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
    [messageId, now, by],
  ));
  if (rows.length) await db.query(`DELETE FROM chat_notifications WHERE message_id = $1`, [messageId]);
  return rows.length > 0;
}

/** Deletes one's own message (kept as "deleted"); publishes `deleted`. */
export async function deleteOwnMessage(deps: ChatDeps, userId: number, messageId: string): Promise<void> {
  const head = await ownMessage(deps, userId, messageId);
  const deleted = await deps.dataSource.transaction((m) => softDeleteMessage(m, messageId, 'author', deps.now));
  if (deleted) await publishChatEvent(deps.redis, deps.prefix, { kind: 'deleted', roomId: head.roomId, messageId, by: 'author' });
}

// ---- reactions ---------------------------------------------------------------------------------

async function reactionEvent(deps: ChatDeps, roomId: number, messageId: string): Promise<void> {
  const rows: { reaction: string; count: number; user_ids: number[] }[] = await deps.dataSource.query(
    `SELECT reaction, count(*)::int AS count, array_agg(user_id ORDER BY id) AS user_ids FROM message_reactions WHERE message_id = $1 GROUP BY reaction ORDER BY min(id)`,
    [messageId],
  );
  await publishChatEvent(deps.redis, deps.prefix, {
    kind: 'reactions',
    roomId,
    messageId,
    reactions: rows.map((r) => ({ reaction: r.reaction, count: r.count, userIds: r.user_ids })),
  });
}

async function reactable(deps: ChatDeps, userId: number, messageId: string): Promise<MessageHead> {
  const head = await messageHead(deps.dataSource, messageId);
  await requireMember(deps.dataSource, userId, head.roomId, deps.now);
  if (head.deleted) throw new ChatError('message_deleted', 'That message was deleted');
  return head;
}

/** Adds a reaction (once per user, message and emoji: a repeat changes nothing); answers the message's reactions. */
export async function addReaction(deps: ChatDeps, userId: number, messageId: string, rawReaction: string): Promise<{ reactions: ChatReactionView[] }> {
  const reaction = normalizeReaction(rawReaction);
  const head = await reactable(deps, userId, messageId);
  const inserted: unknown[] = await deps.dataSource.query(
    `INSERT INTO message_reactions (message_id, user_id, reaction, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (message_id, user_id, reaction) DO NOTHING RETURNING id`,
    [messageId, userId, reaction, deps.now],
  );
  if (inserted.length) await reactionEvent(deps, head.roomId, messageId);
  return { reactions: (await reactionsOf(deps.dataSource, userId, [messageId])).get(messageId) ?? [] };
}

/** Removes the user's reaction (nothing when they had none). */
export async function removeReaction(deps: ChatDeps, userId: number, messageId: string, rawReaction: string): Promise<{ reactions: ChatReactionView[] }> {
  const reaction = normalizeReaction(rawReaction);
  const head = await reactable(deps, userId, messageId);
  const deleted = returned(await deps.dataSource.query(`DELETE FROM message_reactions WHERE message_id = $1 AND user_id = $2 AND reaction = $3 RETURNING id`, [messageId, userId, reaction]));
  if (deleted.length) await reactionEvent(deps, head.roomId, messageId);
  return { reactions: (await reactionsOf(deps.dataSource, userId, [messageId])).get(messageId) ?? [] };
}

// ---- threads -----------------------------------------------------------------------------------

/** A thread: the root (the message, or the root it replies to) and its replies, oldest first; blocked authors' replies left out. */
export async function getThread(deps: ChatDeps, viewerId: number, messageId: string): Promise<ChatThreadView> {
  const db = deps.dataSource;
  const head = await readableMessage(deps, viewerId, messageId);
  const rootId = head.replyTo ?? head.id;
  const hidden = [...(await hiddenAuthorIds(db, viewerId))];
  const rows: MessageRow[] = await db.query(
    `SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM}
      WHERE (m.id = $1 OR m.reply_to_message_id = $1) AND (m.id = $1 OR m.user_id IS NULL OR m.user_id <> ALL($2::int[]))
      ORDER BY m.id LIMIT $3`,
    [rootId, hidden, CHAT_THREAD_MAX_REPLIES + 1],
  );
  const views = await toViews(db, viewerId, rows);
  const root = views.find((v) => v.id === rootId);
  if (!root) throw new ChatError('unknown_message', 'No such message');
  const follows: unknown[] = await db.query(`SELECT 1 FROM chat_thread_follows WHERE user_id = $1 AND message_id = $2`, [viewerId, rootId]);
  return { root, replies: views.filter((v) => v.id !== rootId), following: follows.length > 0 };
}

/** Follows the thread of a message (its root): replies are notified. A member of the room only. */
export async function followThread(deps: ChatDeps, userId: number, messageId: string): Promise<void> {
  const head = await messageHead(deps.dataSource, messageId);
  await requireMember(deps.dataSource, userId, head.roomId, deps.now);
  await deps.dataSource.query(`INSERT INTO chat_thread_follows (user_id, message_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
    userId,
    head.replyTo ?? head.id,
    deps.now,
  ]);
}

export async function unfollowThread(deps: ChatDeps, userId: number, messageId: string): Promise<void> {
  const head = await readableMessage(deps, userId, messageId);
  await deps.dataSource.query(`DELETE FROM chat_thread_follows WHERE user_id = $1 AND message_id = $2`, [userId, head.replyTo ?? head.id]);
}

// ---- typing ------------------------------------------------------------------------------------

/** Publishes `typing` to the room (rate-limited by assertCanTyping; nothing stored). */
export async function sendTyping(deps: ChatDeps, userId: number, roomId: number): Promise<void> {
  await requireMember(deps.dataSource, userId, roomId, deps.now);
  await assertCanTyping({ redis: deps.redis, prefix: deps.prefix, config: deps.config }, { userId, roomId });
  const [user] = (await usersById(deps.dataSource, [userId])).values();
  await publishChatEvent(deps.redis, deps.prefix, { kind: 'typing', roomId, user });
}
