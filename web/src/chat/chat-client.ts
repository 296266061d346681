// The chat api (/api/chat/...): rooms with unread and mention counts, history by cursor, posting,
// edits, deletes, reactions, threads, mentions, presence, typing, preferences, and the moderation
// routes (reports, moderation actions, audit, blocks). Shaped as @tickerbell/jobs/chat/shapes
// (types only: nothing of the jobs package is bundled). Also user-created rooms (create, the owner's
// settings), private rooms' invite links and the owner's moderator appointments. And the pure
// helpers of the screens: the text split into plain text, cashtags and mentions (rendered as text,
// never as HTML), the live events' parser and how an event changes a loaded page.
import type {
  ChatAuditEntry,
  ChatCreateRoomInput,
  ChatInviteCreatedView,
  ChatMembersPage,
  ChatInviteInput,
  ChatInvitePreview,
  ChatInviteView,
  ChatMentionView,
  ChatMentionsPage,
  ChatMessageType,
  ChatMessageView,
  ChatMessagesPage,
  ChatModerationAction,
  ChatModerationInput,
  ChatNotifyLevel,
  ChatPostInput,
  ChatPreferencesView,
  ChatPresenceView,
  ChatReactionView,
  ChatReportView,
  ChatRole,
  ChatRoomType,
  ChatRoomView,
  ChatRoomsResponse,
  ChatRule,
  ChatSentiment,
  ChatSentimentView,
  ChatStreamEvent,
  ChatThreadView,
  ChatUpdateRoomInput,
  ChatUserRef,
} from '@tickerbell/jobs/chat/shapes';
import { sendWithCsrf } from '../accounts/auth-client';
import { ApiError, apiRequest, isRecord } from '../api/client';
import { bool, count, countOrNull, fail, list, oneOf, record, text, textOrNull } from '../api/answer';

// The shapes' constants, repeated here as values: the client imports the shapes for their types
// only. `every` fails the typecheck when a list misses (or adds) a value of the shapes' union.
const every =
  <T extends string>() =>
  <const A extends readonly T[]>(values: A & ([T] extends [A[number]] ? unknown : 'lists every value of the union')): A =>
    values;
export const ROOM_TYPES = every<ChatRoomType>()(['trading_pair', 'chat', 'announcement']);
export const ROLES = every<ChatRole>()(['owner', 'moderator', 'member']);
export const NOTIFY_LEVELS = every<ChatNotifyLevel>()(['all', 'mentions', 'mute']);
export const SENTIMENTS = every<ChatSentiment>()(['bullish', 'bearish']);
export const MESSAGE_TYPES = every<ChatMessageType>()(['user_message', 'system']);
export const RULES = every<ChatRule>()(['spam', 'harassment', 'scam', 'off_topic', 'pump_and_dump', 'other']);
export const MODERATION_ACTIONS = every<ChatModerationAction>()(['delete_message', 'mute', 'unmute', 'ban', 'unban', 'dismiss_report', 'promote', 'demote', 'transfer_ownership']);
/** CHAT_MESSAGE_MAX, CHAT_REACTION_MAX and CHAT_HISTORY_DEFAULT_LIMIT of the shapes. */
export const MESSAGE_MAX = 2000;
export const REACTION_MAX = 10;
export const HISTORY_LIMIT = 50;
export const REASON_MAX = 500;
/** CHAT_ROOM_NAME_MIN / _MAX and CHAT_ROOM_DESCRIPTION_MAX of the shapes (a room's name is trimmed, unique whatever the case). */
export const ROOM_NAME_MIN = 3;
export const ROOM_NAME_MAX = 60;
export const ROOM_DESCRIPTION_MAX = 280;

export const CHAT_PATH = '/dashboard/chat';
export const CHAT_MENTIONS_PATH = '/dashboard/chat/mentions';
export const chatRoomPath = (roomId: number): string => `${CHAT_PATH}/${roomId}`;

export const RULE_LABELS: Readonly<Record<ChatRule, string>> = {
  spam: 'Spam or flooding',
  harassment: 'Harassment',
  scam: 'Scam or phishing',
  off_topic: 'Off topic',
  pump_and_dump: 'Pump and dump',
  other: 'Other',
};

export const ACTION_LABELS: Readonly<Record<ChatModerationAction, string>> = {
  delete_message: 'Deleted a message',
  mute: 'Muted',
  unmute: 'Unmuted',
  ban: 'Banned',
  unban: 'Unbanned',
  dismiss_report: 'Dismissed a report',
  promote: 'Appointed moderator',
  demote: 'Removed moderator',
  transfer_ownership: 'Handed the room over to',
};

/** The room form's slow modes (the api takes any whole number of seconds up to 3,600). */
export const SLOW_MODE_CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'Off' },
  { seconds: 10, label: '10 s' },
  { seconds: 30, label: '30 s' },
  { seconds: 60, label: '1 min' },
  { seconds: 300, label: '5 min' },
];
/** An invite link's life, in hours (the api's default is 7 days, its maximum 30). */
export const INVITE_EXPIRY_CHOICES: readonly { hours: number; label: string }[] = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
];
export const INVITE_DEFAULT_HOURS = 168;
export const INVITE_USES_CHOICES: readonly { uses: number | null; label: string }[] = [
  { uses: null, label: 'No limit' },
  { uses: 1, label: '1 use' },
  { uses: 10, label: '10 uses' },
  { uses: 100, label: '100 uses' },
];

/** CHAT_INVITE_PATH of the shapes: where an invite link opens. */
export const CHAT_JOIN_PATH = '/dashboard/chat/join';
export const chatJoinPath = (code: string): string => `${CHAT_JOIN_PATH}/${encodeURIComponent(code)}`;
/** An invite code as the api accepts one (base64url, 16..64 characters): anything else is not worth asking about. */
export const isInviteCode = (code: string): boolean => /^[A-Za-z0-9_-]{16,64}$/.test(code);
/** The api's one sentence for an unknown, expired, revoked or used-up link. */
export const INVALID_INVITE = 'This invite link is not valid (expired, revoked or used up).';

// ---- Parsing ----

const at = (where: string, key: string) => `${where}.${key}`;

function id(value: unknown, where: string): string {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value)) fail(where, 'an id');
  return value;
}

function idOrNull(value: unknown, where: string): string | null {
  return value === null || value === undefined ? null : id(value, where);
}

function parseUser(value: unknown, where: string): ChatUserRef {
  const s = record(value, where);
  return { id: count(s.id, at(where, 'id')), name: text(s.name ?? '', at(where, 'name')) };
}

export function parseRoom(value: unknown, where = 'room'): ChatRoomView {
  const s = record(value, where);
  const m = s.membership === null || s.membership === undefined ? null : record(s.membership, at(where, 'membership'));
  return {
    id: count(s.id, at(where, 'id')),
    name: text(s.name, at(where, 'name')),
    // An older seed's "trading" is a pair's room too.
    type: s.type === 'trading' ? 'trading_pair' : oneOf(s.type, ROOM_TYPES, at(where, 'type')),
    description: textOrNull(s.description, at(where, 'description')),
    tradingPair: textOrNull(s.tradingPair, at(where, 'tradingPair')),
    isPrivate: bool(s.isPrivate ?? false, at(where, 'isPrivate')),
    slowModeSeconds: count(s.slowModeSeconds ?? 0, at(where, 'slowModeSeconds')),
    members: count(s.members ?? 0, at(where, 'members')),
    membership: m && {
      role: oneOf(m.role, ROLES, at(where, 'membership.role')),
      notifyLevel: oneOf(m.notifyLevel ?? 'all', NOTIFY_LEVELS, at(where, 'membership.notifyLevel')),
      mutedUntil: textOrNull(m.mutedUntil, at(where, 'membership.mutedUntil')),
      moderationMutedUntil: textOrNull(m.moderationMutedUntil, at(where, 'membership.moderationMutedUntil')),
      lastReadMessageId: idOrNull(m.lastReadMessageId, at(where, 'membership.lastReadMessageId')),
    },
    unread: count(s.unread ?? 0, at(where, 'unread')),
    mentions: count(s.mentions ?? 0, at(where, 'mentions')),
    lastMessageAt: textOrNull(s.lastMessageAt, at(where, 'lastMessageAt')),
    openReports: countOrNull(s.openReports, at(where, 'openReports')),
  };
}

export function parseRooms(body: unknown): ChatRoomsResponse {
  const s = record(body, 'rooms');
  return { rooms: list(s.rooms, 'rooms.rooms', parseRoom) };
}

/** A room as creating, updating or accepting an invite answers it (the view itself; `{ room }` read too). */
export function parseOneRoom(body: unknown): ChatRoomView {
  return parseRoom(isRecord(body) && isRecord(body.room) ? body.room : body);
}

export function parseInviteCreated(body: unknown): ChatInviteCreatedView {
  const s = record(isRecord(body) && isRecord(body.invite) ? body.invite : body, 'invite');
  return {
    id: count(s.id, 'invite.id'),
    code: text(s.code, 'invite.code'),
    url: text(s.url, 'invite.url'),
    expiresAt: text(s.expiresAt, 'invite.expiresAt'),
    maxUses: countOrNull(s.maxUses, 'invite.maxUses'),
    uses: count(s.uses ?? 0, 'invite.uses'),
  };
}

function parseInvite(value: unknown, where: string): ChatInviteView {
  const s = record(value, where);
  return {
    id: count(s.id, at(where, 'id')),
    createdBy: s.createdBy === null || s.createdBy === undefined ? null : parseUser(s.createdBy, at(where, 'createdBy')),
    createdAt: text(s.createdAt, at(where, 'createdAt')),
    expiresAt: text(s.expiresAt, at(where, 'expiresAt')),
    maxUses: countOrNull(s.maxUses, at(where, 'maxUses')),
    uses: count(s.uses ?? 0, at(where, 'uses')),
    revokedAt: textOrNull(s.revokedAt, at(where, 'revokedAt')),
    active: bool(s.active, at(where, 'active')),
  };
}

export function parseMembersPage(body: unknown): ChatMembersPage {
  const s = record(body, 'members');
  return {
    members: list(s.members, 'members.members', (entry, where) => {
      const m = record(entry, where);
      return {
        user: parseUser(m.user, at(where, 'user')),
        role: oneOf(m.role, ROLES, at(where, 'role')),
        joinedAt: text(m.joinedAt, at(where, 'joinedAt')),
        ...('mutedUntil' in m ? { mutedUntil: textOrNull(m.mutedUntil, at(where, 'mutedUntil')) } : {}),
        ...('bannedUntil' in m ? { bannedUntil: textOrNull(m.bannedUntil, at(where, 'bannedUntil')) } : {}),
      };
    }),
    nextCursor: textOrNull(s.nextCursor, 'members.nextCursor'),
  };
}

/** A page of the room's members (owner, moderators, then members by name). */
export function getMembers(roomId: number, cursor: string | null, signal?: AbortSignal): Promise<ChatMembersPage> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiRequest(`${BASE}/rooms/${roomId}/members${query}`, { signal, parse: parseMembersPage });
}

export function parseInvites(body: unknown): ChatInviteView[] {
  const s = record(body, 'invites');
  return list(s.invites, 'invites.invites', parseInvite);
}

export function parseInvitePreview(body: unknown): ChatInvitePreview {
  const s = record(body, 'preview');
  const room = record(s.room, 'preview.room');
  return {
    room: {
      id: count(room.id, 'preview.room.id'),
      name: text(room.name, 'preview.room.name'),
      description: textOrNull(room.description, 'preview.room.description'),
      members: count(room.members ?? 0, 'preview.room.members'),
    },
    expiresAt: text(s.expiresAt, 'preview.expiresAt'),
    alreadyMember: bool(s.alreadyMember, 'preview.alreadyMember'),
  };
}

function parseReaction(value: unknown, where: string): ChatReactionView {
  const s = record(value, where);
  return { reaction: text(s.reaction, at(where, 'reaction')), count: count(s.count, at(where, 'count')), mine: bool(s.mine ?? false, at(where, 'mine')) };
}

export function parseMessage(value: unknown, where = 'message'): ChatMessageView {
  const s = record(value, where);
  const sentiment = s.sentiment ?? null;
  const deletedBy = s.deletedBy ?? null;
  return {
    id: id(s.id, at(where, 'id')),
    roomId: count(s.roomId, at(where, 'roomId')),
    author: s.author === null || s.author === undefined ? null : parseUser(s.author, at(where, 'author')),
    messageType: oneOf(s.messageType ?? 'user_message', MESSAGE_TYPES, at(where, 'messageType')),
    text: text(s.text ?? '', at(where, 'text')),
    sentiment: sentiment === null ? null : oneOf(sentiment, SENTIMENTS, at(where, 'sentiment')),
    cashtags: list(s.cashtags ?? [], at(where, 'cashtags'), (entry, w) => text(entry, w)),
    mentions: list(s.mentions ?? [], at(where, 'mentions'), parseUser),
    replyToMessageId: idOrNull(s.replyToMessageId, at(where, 'replyToMessageId')),
    replyCount: count(s.replyCount ?? 0, at(where, 'replyCount')),
    lastReplyAt: textOrNull(s.lastReplyAt, at(where, 'lastReplyAt')),
    reactions: list(s.reactions ?? [], at(where, 'reactions'), parseReaction),
    createdAt: text(s.createdAt, at(where, 'createdAt')),
    editedAt: textOrNull(s.editedAt, at(where, 'editedAt')),
    deleted: bool(s.deleted ?? false, at(where, 'deleted')),
    deletedBy: deletedBy === null ? null : oneOf(deletedBy, ['author', 'moderator'] as const, at(where, 'deletedBy')),
  };
}

/** A cashtag's latest price, as the api attaches them to a page (`prices`, optional). */
export interface CashtagPrice {
  price: string;
  change24hPercent: string | null;
}

export type MessagesPage = Omit<ChatMessagesPage, 'prices'> & { prices?: Record<string, CashtagPrice> };

function parsePrices(value: unknown, where: string): Record<string, CashtagPrice> {
  const s = record(value, where);
  const prices: Record<string, CashtagPrice> = {};
  for (const [symbol, entry] of Object.entries(s)) {
    if (!isRecord(entry)) continue;
    const price = typeof entry.price === 'number' ? String(entry.price) : entry.price;
    const change = typeof entry.change24hPercent === 'number' ? String(entry.change24hPercent) : entry.change24hPercent;
    if (typeof price !== 'string' || !Number.isFinite(Number(price))) continue;
    prices[symbol] = { price, change24hPercent: typeof change === 'string' && Number.isFinite(Number(change)) ? change : null };
  }
  return prices;
}

export function parseMessagesPage(body: unknown): MessagesPage {
  const s = record(body, 'page');
  return {
    messages: list(s.messages, 'page.messages', parseMessage),
    hasOlder: bool(s.hasOlder, 'page.hasOlder'),
    hasNewer: bool(s.hasNewer, 'page.hasNewer'),
    firstUnreadId: idOrNull(s.firstUnreadId, 'page.firstUnreadId'),
    ...(s.prices === undefined || s.prices === null ? {} : { prices: parsePrices(s.prices, 'page.prices') }),
  };
}

export function parseThread(body: unknown): ChatThreadView {
  const s = record(body, 'thread');
  return { root: parseMessage(s.root, 'thread.root'), replies: list(s.replies, 'thread.replies', parseMessage), following: bool(s.following, 'thread.following') };
}

function parseMention(value: unknown, where: string): ChatMentionView {
  const s = record(value, where);
  const room = record(s.room, at(where, 'room'));
  return {
    id: count(s.id, at(where, 'id')),
    type: oneOf(s.type, ['mention', 'reply'] as const, at(where, 'type')),
    isRead: bool(s.isRead, at(where, 'isRead')),
    createdAt: text(s.createdAt, at(where, 'createdAt')),
    room: { id: count(room.id, at(where, 'room.id')), name: text(room.name, at(where, 'room.name')) },
    message: parseMessage(s.message, at(where, 'message')),
  };
}

export function parseMentionsPage(body: unknown): ChatMentionsPage {
  const s = record(body, 'mentions');
  return { mentions: list(s.mentions, 'mentions.mentions', parseMention), nextCursor: textOrNull(s.nextCursor, 'mentions.nextCursor'), unread: count(s.unread ?? 0, 'mentions.unread') };
}

export function parsePreferences(body: unknown): ChatPreferencesView {
  const s = record(isRecord(body) && isRecord(body.preferences) ? body.preferences : body, 'preferences');
  return {
    soundNotifications: bool(s.soundNotifications, 'preferences.soundNotifications'),
    desktopNotifications: bool(s.desktopNotifications, 'preferences.desktopNotifications'),
    showOnlineStatus: bool(s.showOnlineStatus, 'preferences.showOnlineStatus'),
  };
}

export function parsePresence(body: unknown): ChatPresenceView {
  const s = record(body, 'presence');
  return { online: list(s.online, 'presence.online', parseUser) };
}

export function parseSentiment(body: unknown): ChatSentimentView {
  const s = record(body, 'sentiment');
  return { bullish: count(s.bullish, 'sentiment.bullish'), bearish: count(s.bearish, 'sentiment.bearish'), since: text(s.since, 'sentiment.since') };
}

function parseReport(value: unknown, where: string): ChatReportView {
  const s = record(value, where);
  return {
    id: count(s.id, at(where, 'id')),
    message: parseMessage(s.message, at(where, 'message')),
    reporter: parseUser(s.reporter, at(where, 'reporter')),
    reason: text(s.reason ?? '', at(where, 'reason')),
    status: oneOf(s.status, ['open', 'resolved', 'dismissed'] as const, at(where, 'status')),
    createdAt: text(s.createdAt, at(where, 'createdAt')),
  };
}

export function parseReports(body: unknown): ChatReportView[] {
  const s = record(body, 'reports');
  return list(s.reports, 'reports.reports', parseReport);
}

function parseAuditEntry(value: unknown, where: string): ChatAuditEntry {
  const s = record(value, where);
  const rule = s.rule ?? null;
  return {
    id: count(s.id, at(where, 'id')),
    action: oneOf(s.action, MODERATION_ACTIONS, at(where, 'action')),
    moderator: parseUser(s.moderator, at(where, 'moderator')),
    target: s.target === null || s.target === undefined ? null : parseUser(s.target, at(where, 'target')),
    messageId: idOrNull(s.messageId, at(where, 'messageId')),
    rule: rule === null ? null : oneOf(rule, RULES, at(where, 'rule')),
    reason: textOrNull(s.reason, at(where, 'reason')),
    until: textOrNull(s.until, at(where, 'until')),
    createdAt: text(s.createdAt, at(where, 'createdAt')),
  };
}

export function parseAudit(body: unknown): { entries: ChatAuditEntry[]; nextCursor: string | null } {
  const s = record(body, 'audit');
  return { entries: list(s.entries ?? s.actions, 'audit.entries', parseAuditEntry), nextCursor: textOrNull(s.nextCursor, 'audit.nextCursor') };
}

export function parseBlocks(body: unknown): ChatUserRef[] {
  const s = record(body, 'blocks');
  return list(s.blocks ?? s.users, 'blocks.blocks', (entry, where) => {
    const e = record(entry, where);
    // A block row may carry the user inline or under `user`.
    return parseUser(isRecord(e.user) ? e.user : e, where);
  });
}

/** One live event; null (with a console error) when it does not fit, so a bad event is skipped. */
export function parseChatEvent(value: unknown): ChatStreamEvent | null {
  try {
    const s = record(value, 'event');
    const roomId = count(s.roomId, 'event.roomId');
    switch (s.kind) {
      case 'message':
      case 'edited':
        return { kind: s.kind, roomId, message: parseMessage(s.message, 'event.message') };
      case 'deleted':
        return { kind: 'deleted', roomId, messageId: id(s.messageId, 'event.messageId'), by: oneOf(s.by, ['author', 'moderator'] as const, 'event.by') };
      case 'reactions':
        return {
          kind: 'reactions',
          roomId,
          messageId: id(s.messageId, 'event.messageId'),
          reactions: list(s.reactions, 'event.reactions', (entry, where) => {
            const e = record(entry, where);
            return { reaction: text(e.reaction, `${where}.reaction`), count: count(e.count, `${where}.count`), userIds: list(e.userIds ?? [], `${where}.userIds`, count) };
          }),
        };
      case 'typing':
        return { kind: 'typing', roomId, user: parseUser(s.user, 'event.user') };
      case 'presence':
        return { kind: 'presence', roomId, online: list(s.online, 'event.online', parseUser) };
      case 'read':
        return { kind: 'read', roomId, userId: count(s.userId, 'event.userId'), lastReadMessageId: id(s.lastReadMessageId, 'event.lastReadMessageId') };
      case 'member':
        return { kind: 'member', roomId, userId: count(s.userId, 'event.userId'), joined: bool(s.joined, 'event.joined') };
      case 'standing':
        return { kind: 'standing', roomId, userId: count(s.userId, 'event.userId') };
      case 'room':
        return s.deleted === true ? { kind: 'room', roomId, deleted: true } : { kind: 'room', roomId };
      case 'thread':
        return { kind: 'thread', roomId, messageId: id(s.messageId, 'event.messageId'), replyCount: count(s.replyCount, 'event.replyCount'), lastReplyAt: textOrNull(s.lastReplyAt, 'event.lastReplyAt') };
      default:
        return fail('event.kind', 'a chat event kind');
    }
  } catch (error) {
    console.error('Ignoring a chat event that does not parse', error);
    return null;
  }
}

// ---- Requests ----

const BASE = '/api/chat';
const ok = (): void => undefined;

export function getRooms(signal?: AbortSignal): Promise<ChatRoomsResponse> {
  return apiRequest(`${BASE}/rooms`, { signal, parse: parseRooms });
}

/** Creates a room, the viewer its owner: 201 with the room; 409 room_name_taken, 403 plan_limit. */
export function createRoom(input: ChatCreateRoomInput): Promise<ChatRoomView> {
  return sendWithCsrf(`${BASE}/rooms`, { method: 'POST', body: input, parse: parseOneRoom });
}

/** The owner's room settings: name, description, slow mode. */
export function updateRoom(roomId: number, patch: ChatUpdateRoomInput): Promise<ChatRoomView> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}`, { method: 'PATCH', body: patch, parse: parseOneRoom });
}

/** The owner deletes the room with its history. */
export function deleteRoom(roomId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}`, { method: 'DELETE', parse: ok });
}

export function createInvite(roomId: number, input: ChatInviteInput): Promise<ChatInviteCreatedView> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/invites`, { method: 'POST', body: input, parse: parseInviteCreated });
}

export function getInvites(roomId: number, signal?: AbortSignal): Promise<ChatInviteView[]> {
  return apiRequest(`${BASE}/rooms/${roomId}/invites`, { signal, parse: parseInvites });
}

export function revokeInvite(roomId: number, inviteId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/invites/${inviteId}`, { method: 'DELETE', parse: ok });
}

export function previewInvite(code: string, signal?: AbortSignal): Promise<ChatInvitePreview> {
  return apiRequest(`${BASE}/invites/${encodeURIComponent(code)}`, { signal, parse: parseInvitePreview });
}

export function acceptInvite(code: string): Promise<ChatRoomView> {
  return sendWithCsrf(`${BASE}/invites/${encodeURIComponent(code)}/accept`, { method: 'POST', parse: parseOneRoom });
}

export function joinRoom(roomId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/join`, { method: 'POST', parse: ok });
}

export function leaveRoom(roomId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/leave`, { method: 'POST', parse: ok });
}

/** Per-room notifications: a level, and for `mute` an end (null: until unmuted). */
export function setRoomNotify(roomId: number, notifyLevel: ChatNotifyLevel, mutedUntil: string | null): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/preferences`, { method: 'PATCH', body: { notifyLevel, mutedUntil }, parse: ok });
}

export type HistoryCursor = { before: string } | { after: string } | { around: string } | Record<string, never>;

export function messagesPath(roomId: number, cursor: HistoryCursor, limit = HISTORY_LIMIT): string {
  const params = new URLSearchParams(cursor as Record<string, string>);
  params.set('limit', String(limit));
  return `${BASE}/rooms/${roomId}/messages?${params.toString()}`;
}

export function getMessages(roomId: number, cursor: HistoryCursor, signal?: AbortSignal): Promise<MessagesPage> {
  return apiRequest(messagesPath(roomId, cursor), { signal, parse: parseMessagesPage });
}

function parseOneMessage(body: unknown): ChatMessageView {
  return parseMessage(isRecord(body) && isRecord(body.message) ? body.message : body);
}

export function postMessage(roomId: number, input: ChatPostInput): Promise<ChatMessageView> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/messages`, { method: 'POST', body: input, parse: parseOneMessage });
}

export function editMessage(messageId: string, textValue: string): Promise<ChatMessageView> {
  return sendWithCsrf(`${BASE}/messages/${messageId}`, { method: 'PATCH', body: { text: textValue }, parse: parseOneMessage });
}

export function deleteMessage(messageId: string): Promise<void> {
  return sendWithCsrf(`${BASE}/messages/${messageId}`, { method: 'DELETE', parse: ok });
}

export function addReaction(messageId: string, reaction: string): Promise<void> {
  return sendWithCsrf(`${BASE}/messages/${messageId}/reactions`, { method: 'POST', body: { reaction }, parse: ok });
}

export function removeReaction(messageId: string, reaction: string): Promise<void> {
  return sendWithCsrf(`${BASE}/messages/${messageId}/reactions?reaction=${encodeURIComponent(reaction)}`, { method: 'DELETE', parse: ok });
}

export function getThread(messageId: string, signal?: AbortSignal): Promise<ChatThreadView> {
  return apiRequest(`${BASE}/messages/${messageId}/thread`, { signal, parse: parseThread });
}

export function followThread(messageId: string, follow: boolean): Promise<void> {
  return sendWithCsrf(`${BASE}/messages/${messageId}/follow`, { method: follow ? 'POST' : 'DELETE', parse: ok });
}

export function markRead(roomId: number, messageId: string): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/read`, { method: 'POST', body: { messageId }, parse: ok });
}

export function getMentions(cursor: string | null, signal?: AbortSignal): Promise<ChatMentionsPage> {
  return apiRequest(`${BASE}/mentions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { signal, parse: parseMentionsPage });
}

/** Marks the viewer's mentions read: all of them, or one room's. */
export function markMentionsRead(roomId?: number): Promise<void> {
  return sendWithCsrf(`${BASE}/mentions/read`, { method: 'POST', body: roomId === undefined ? {} : { roomId }, parse: ok });
}

export function sendTyping(roomId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/typing`, { method: 'POST', parse: ok });
}

export function getPresence(roomId: number, signal?: AbortSignal): Promise<ChatPresenceView> {
  return apiRequest(`${BASE}/rooms/${roomId}/presence`, { signal, parse: parsePresence });
}

export function sendHeartbeat(roomId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/presence`, { method: 'POST', parse: ok });
}

export function getSentiment(roomId: number, signal?: AbortSignal): Promise<ChatSentimentView> {
  return apiRequest(`${BASE}/rooms/${roomId}/sentiment`, { signal, parse: parseSentiment });
}

export function getPreferences(signal?: AbortSignal): Promise<ChatPreferencesView> {
  return apiRequest(`${BASE}/preferences`, { signal, parse: parsePreferences });
}

export function savePreferences(preferences: Partial<ChatPreferencesView>): Promise<ChatPreferencesView> {
  return sendWithCsrf(`${BASE}/preferences`, { method: 'PATCH', body: preferences, parse: parsePreferences });
}

export function reportMessage(messageId: string, reason: string): Promise<void> {
  return sendWithCsrf(`${BASE}/messages/${messageId}/report`, { method: 'POST', body: { reason }, parse: ok });
}

export function getReports(roomId: number, status: 'open' | 'resolved' | 'dismissed', signal?: AbortSignal): Promise<ChatReportView[]> {
  return apiRequest(`${BASE}/rooms/${roomId}/reports?status=${status}`, { signal, parse: parseReports });
}

export function moderate(roomId: number, input: ChatModerationInput): Promise<void> {
  return sendWithCsrf(`${BASE}/rooms/${roomId}/moderation`, { method: 'POST', body: input, parse: ok });
}

export function getAudit(roomId: number, signal?: AbortSignal): Promise<{ entries: ChatAuditEntry[]; nextCursor: string | null }> {
  return apiRequest(`${BASE}/rooms/${roomId}/audit`, { signal, parse: parseAudit });
}

export function getBlocks(signal?: AbortSignal): Promise<ChatUserRef[]> {
  return apiRequest(`${BASE}/blocks`, { signal, parse: parseBlocks });
}

export function blockUser(userId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/blocks`, { method: 'POST', body: { userId }, parse: ok });
}

export function unblockUser(userId: number): Promise<void> {
  return sendWithCsrf(`${BASE}/blocks/${userId}`, { method: 'DELETE', parse: ok });
}

// ---- Errors the composer explains ----

/** How long the api asks to wait (its details, else the message's "N seconds"), in whole seconds. */
export function retryAfterOf(error: unknown): number | null {
  if (!(error instanceof ApiError)) return null;
  const details = error.details;
  const fromDetails = isRecord(details) ? details.retryAfterSeconds : Array.isArray(details) ? details.find(isRecord)?.retryAfterSeconds : undefined;
  if (typeof fromDetails === 'number' && Number.isFinite(fromDetails)) return Math.max(1, Math.ceil(fromDetails));
  const said = /(\d+)\s*s(?:econds?)?\b/.exec(error.message);
  return said ? Number(said[1]) : error.status === 429 ? 1 : null;
}

/** The composer's sentence for a refused post. */
export function postErrorMessage(error: unknown, room: Pick<ChatRoomView, 'slowModeSeconds'>): { message: string; waitSeconds: number | null } {
  if (!(error instanceof ApiError)) return { message: error instanceof Error ? error.message : 'The message could not be sent.', waitSeconds: null };
  const wait = retryAfterOf(error);
  switch (error.code) {
    case 'rate_limited':
      return { message: 'You are sending messages faster than the room allows.', waitSeconds: wait };
    case 'slow_mode':
      return { message: `Slow mode is on: one message every ${room.slowModeSeconds || wait || 1} seconds.`, waitSeconds: wait };
    // The api's own sentence carries an ISO instant: the screen says it in the reader's time.
    case 'muted':
      return { message: `A moderator muted you in this room ${formatUntil(untilOf(error))}. You can still read it.`, waitSeconds: null };
    case 'banned':
      return { message: `You are banned from this room ${formatUntil(untilOf(error))}.`, waitSeconds: null };
    case 'links_not_allowed':
      return { message: 'New accounts cannot post links yet. Remove the link, or try again later.', waitSeconds: null };
    default:
      return { message: error.message, waitSeconds: error.status === 429 ? wait : null };
  }
}

/** The end of a mute or ban a refusal names (`details: [{ until }]`); null when it has none (until lifted). */
function untilOf(error: ApiError): string | null {
  const detail = Array.isArray(error.details) ? error.details.find((d) => isRecord(d) && typeof d.until === 'string') : undefined;
  return isRecord(detail) && typeof detail.until === 'string' ? detail.until : null;
}

export interface PlanRefusal {
  message: string;
  upgradeUrl: string;
  upgradeLabel: string;
}

/** A refusal by the plan (403 plan_limit or feature_off, 402 read_only): its sentence and where to upgrade. */
export function planRefusalOf(error: unknown): PlanRefusal | null {
  if (!(error instanceof ApiError) || !['plan_limit', 'feature_off', 'read_only'].includes(error.code)) return null;
  const given = isRecord(error.details) ? error.details.upgradeUrl : undefined;
  // Only a path of this site is followed.
  const upgradeUrl = typeof given === 'string' && /^\/(?!\/)/.test(given) ? given : '/pricing';
  const upgradeLabel = upgradeUrl.startsWith('/pricing') ? 'Compare plans' : upgradeUrl.startsWith('/contact') ? 'Contact the operator' : 'Open billing';
  return { message: error.message, upgradeUrl, upgradeLabel };
}

// ---- Text: plain text, cashtags and mentions ----

export type TextPart = { kind: 'text'; text: string } | { kind: 'cashtag'; text: string; symbol: string } | { kind: 'mention'; text: string; user: ChatUserRef | null };

/** The handle a member is mentioned by: the name without spaces (docs/chat.md). */
export const handleOf = (name: string): string => name.replace(/\s+/g, '');

/**
 * Splits a message into plain text, `$CASHTAG`s (the symbols the api found) and `@mentions` (the
 * users it resolved); everything is text, rendered by React as text, never as HTML.
 */
export function splitMessage(message: Pick<ChatMessageView, 'text' | 'cashtags' | 'mentions'>): TextPart[] {
  const symbols = new Set(message.cashtags.map((symbol) => symbol.toUpperCase()));
  const handles = new Map(message.mentions.map((user) => [handleOf(user.name).toLowerCase(), user]));
  const parts: TextPart[] = [];
  const pattern = /(^|[^\w$@])(\$[A-Za-z]{2,10}\b|@[\p{L}\p{N}_.-]+)/gu;
  let last = 0;
  for (const match of message.text.matchAll(pattern)) {
    const start = (match.index ?? 0) + match[1]!.length;
    const token = match[2]!;
    if (token.startsWith('$')) {
      const symbol = token.slice(1).toUpperCase();
      if (!symbols.has(symbol)) continue;
      if (start > last) parts.push({ kind: 'text', text: message.text.slice(last, start) });
      parts.push({ kind: 'cashtag', text: token, symbol });
    } else {
      const handle = token.slice(1).replace(/[.-]+$/, '');
      const user = handles.get(handle.toLowerCase());
      if (!user) continue;
      if (start > last) parts.push({ kind: 'text', text: message.text.slice(last, start) });
      parts.push({ kind: 'mention', text: `@${handle}`, user });
      last = start + handle.length + 1;
      continue;
    }
    last = start + token.length;
  }
  if (last < message.text.length) parts.push({ kind: 'text', text: message.text.slice(last) });
  return parts;
}

/** The symbol of a pair's live price: "BTC/USDT" and "BTCUSDT" are BTCUSDT; a cashtag's is its USDT pair. */
export function pairSymbol(tradingPair: string): string {
  return tradingPair.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}
export const cashtagQuoteSymbol = (symbol: string): string => `${symbol.toUpperCase()}USDT`;

// ---- Pages and events ----

const byId = (a: ChatMessageView, b: ChatMessageView): number => {
  const x = BigInt(a.id);
  const y = BigInt(b.id);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Merges messages into a list by id (a newer copy wins), oldest first: no duplicates, no gaps made. */
export function mergeMessages(current: readonly ChatMessageView[], incoming: readonly ChatMessageView[]): ChatMessageView[] {
  const map = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) map.set(message.id, message);
  return [...map.values()].sort(byId);
}

/** The viewer's reactions after a `reactions` event (which lists who reacted). */
export function reactionsFromEvent(reactions: { reaction: string; count: number; userIds: number[] }[], viewerId: number | null): ChatReactionView[] {
  return reactions.filter((entry) => entry.count > 0).map((entry) => ({ reaction: entry.reaction, count: entry.count, mine: viewerId !== null && entry.userIds.includes(viewerId) }));
}

/** A message after one event of its room (unchanged when the event is not about it). */
export function applyToMessage(message: ChatMessageView, event: ChatStreamEvent, viewerId: number | null): ChatMessageView {
  switch (event.kind) {
    case 'edited':
      return event.message.id === message.id ? event.message : message;
    case 'deleted':
      return event.messageId === message.id ? { ...message, deleted: true, deletedBy: event.by, text: '', cashtags: [], mentions: [], reactions: [] } : message;
    case 'reactions':
      return event.messageId === message.id ? { ...message, reactions: reactionsFromEvent(event.reactions, viewerId) } : message;
    case 'thread':
      // A reply was posted: its root's count and last reply move.
      return event.messageId === message.id ? { ...message, replyCount: event.replyCount, lastReplyAt: event.lastReplyAt } : message;
    default:
      return message;
  }
}

/** Toggles the viewer's reaction locally (the event that follows sets the true counts). */
export function toggleReaction(reactions: readonly ChatReactionView[], reaction: string): ChatReactionView[] {
  const found = reactions.find((entry) => entry.reaction === reaction);
  if (!found) return [...reactions, { reaction, count: 1, mine: true }];
  return reactions
    .map((entry) => (entry.reaction === reaction ? { ...entry, mine: !entry.mine, count: entry.count + (entry.mine ? -1 : 1) } : entry))
    .filter((entry) => entry.count > 0);
}

/** Whether a new message should ring for the viewer in a room at this level. */
export function shouldNotify(message: ChatMessageView, room: Pick<ChatRoomView, 'membership'>, viewerId: number | null, rootAuthorId: number | null, now = Date.now()): boolean {
  const membership = room.membership;
  if (!membership || viewerId === null || message.author?.id === viewerId || message.messageType === 'system') return false;
  const mentioned = message.mentions.some((user) => user.id === viewerId) || rootAuthorId === viewerId;
  if (membership.notifyLevel === 'mute') {
    if (membership.mutedUntil === null || Date.parse(membership.mutedUntil) > now) return false;
    return true;
  }
  if (membership.notifyLevel === 'mentions') return mentioned;
  return true;
}

// ---- Formatting ----

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const fullFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "14:05" today, "3 Mar 14:05" before. */
export function formatMessageTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? timeFormat.format(date) : `${dayFormat.format(date)} ${timeFormat.format(date)}`;
}

export function formatFull(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : fullFormat.format(date);
}

/** "until 14:05", "until 3 Mar 14:05", "permanently" (an 'infinity' or far-away end). */
export function formatUntil(iso: string | null, now = new Date()): string {
  if (iso === null) return 'until unmuted';
  const time = Date.parse(iso);
  if (!Number.isFinite(time) || time - now.getTime() > 50 * 365 * 86_400_000) return 'permanently';
  return `until ${formatMessageTime(iso, now)}`;
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}

/** The 24 h split as whole percentages (null when no message was tagged). */
export function sentimentSplit(view: ChatSentimentView): { bullish: number; bearish: number; total: number } | null {
  const total = view.bullish + view.bearish;
  if (total === 0) return null;
  const bullish = Math.round((view.bullish / total) * 100);
  return { bullish, bearish: 100 - bullish, total };
}

/** "Ada is typing…", "Ada and Grace are typing…", "3 people are typing…". */
export function typingSentence(names: readonly string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return `${names.length} people are typing…`;
}

/** The slow-mode choices, with a current value that is not among them (a seed's 15 s, say). */
export function slowModeChoices(current: number): { seconds: number; label: string }[] {
  const choices = [...SLOW_MODE_CHOICES];
  if (!choices.some((choice) => choice.seconds === current)) choices.push({ seconds: current, label: formatWait(current) });
  return choices.sort((a, b) => a.seconds - b.seconds);
}

/** "2 of 10 uses", "1 use" (no limit). */
export function formatUses(uses: number, maxUses: number | null): string {
  if (maxUses === null) return `${uses} ${uses === 1 ? 'use' : 'uses'}, no limit`;
  return `${uses} of ${maxUses} ${maxUses === 1 ? 'use' : 'uses'}`;
}
