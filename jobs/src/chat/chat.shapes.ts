// HTTP and live-stream shapes of the chat domain: rooms with unread and mention counts, messages
// (threads, reactions, cashtags, mentions, bullish/bearish tags), moderation, blocks and
// preferences. Plain types and constants with no runtime imports: the web client imports this file
// as `@tickerbell/jobs/chat/shapes`; the api's zod schemas and the stores' row mapping come from it.
// Definitions in docs/chat.md.

/** Longest message (characters, after trimming). */
export const CHAT_MESSAGE_MAX = 2000;
/** Longest reaction: one emoji (it may be several code points), at most 10 characters. */
export const CHAT_REACTION_MAX = 10;
export const CHAT_HISTORY_DEFAULT_LIMIT = 50;
export const CHAT_HISTORY_MAX_LIMIT = 100;
export const CHAT_REASON_MAX = 500;

export const CHAT_ROOM_TYPES = ['trading_pair', 'chat', 'announcement'] as const;
export type ChatRoomType = (typeof CHAT_ROOM_TYPES)[number];

export const CHAT_ROLES = ['owner', 'moderator', 'member'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** all: unread counts and every mention/reply notified; mentions: only mentions and replies to me count as notifications; mute: nothing notified until `mutedUntil` (null: until unmuted). */
export const CHAT_NOTIFY_LEVELS = ['all', 'mentions', 'mute'] as const;
export type ChatNotifyLevel = (typeof CHAT_NOTIFY_LEVELS)[number];

export const CHAT_SENTIMENTS = ['bullish', 'bearish'] as const;
export type ChatSentiment = (typeof CHAT_SENTIMENTS)[number];

export const CHAT_MESSAGE_TYPES = ['user_message', 'system'] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];

/** The rules a moderation action cites (shown to the member; docs/chat.md words each). */
export const CHAT_RULES = ['spam', 'harassment', 'scam', 'off_topic', 'pump_and_dump', 'other'] as const;
export type ChatRule = (typeof CHAT_RULES)[number];

/** promote (member -> moderator) and demote (moderator -> member): the room's owner only. */
export const CHAT_MODERATION_ACTIONS = ['delete_message', 'mute', 'unmute', 'ban', 'unban', 'dismiss_report', 'promote', 'demote', 'transfer_ownership'] as const;
export type ChatModerationAction = (typeof CHAT_MODERATION_ACTIONS)[number];

/** A room's name: trimmed, 3..60 characters, unique among all rooms whatever the letter case. */
export const CHAT_ROOM_NAME_MIN = 3;
export const CHAT_ROOM_NAME_MAX = 60;
/** A room's description: trimmed, at most 280 characters (empty: none). */
export const CHAT_ROOM_DESCRIPTION_MAX = 280;
/** Slow mode: whole seconds between two messages of one member, 0 (off) to 3,600. */
export const CHAT_SLOW_MODE_MAX_SECONDS = 3600;
/** Invite links: hours until they expire (default 7 days, at most 30) and their use limit (none, or 1..1,000). */
export const CHAT_INVITE_DEFAULT_HOURS = 168;
export const CHAT_INVITE_MAX_HOURS = 720;
export const CHAT_INVITE_MAX_USES = 1000;
/** Active invite links a room may have at once (not expired, revoked or used up): the list shows them all. */
export const CHAT_INVITES_ACTIVE_MAX = 100;
/** Where an invite link opens in the web app: `${CHAT_INVITE_PATH}/<code>`. */
export const CHAT_INVITE_PATH = '/dashboard/chat/join';

export interface ChatUserRef {
  id: number;
  name: string;
}

export interface ChatRoomView {
  id: number;
  name: string;
  type: ChatRoomType;
  description: string | null;
  /** e.g. "BTC/USDT" for a pair's room. */
  tradingPair: string | null;
  isPrivate: boolean;
  /** Seconds between two messages of one member (0: off). */
  slowModeSeconds: number;
  members: number;
  /** The viewer's membership, null when not a member. */
  membership: {
    role: ChatRole;
    notifyLevel: ChatNotifyLevel;
    mutedUntil: string | null;
    /** The viewer is muted by a moderator until then (cannot post). */
    moderationMutedUntil: string | null;
    lastReadMessageId: string | null;
  } | null;
  /** Messages after lastReadMessageId by others (0 when not a member). */
  unread: number;
  /** Unread mentions of the viewer and replies to the viewer's messages in this room. */
  mentions: number;
  lastMessageAt: string | null;
  /** Open reports of the room's messages, for its owner and moderators (null for everyone else). */
  openReports: number | null;
}

/** GET /api/chat/rooms: unread rooms first (then mentions, then the latest message). */
export interface ChatRoomsResponse {
  rooms: ChatRoomView[];
}

export interface ChatReactionView {
  reaction: string;
  count: number;
  /** The viewer reacted with it. */
  mine: boolean;
}

export interface ChatMessageView {
  /** bigint as a decimal string; increasing within the whole system. */
  id: string;
  roomId: number;
  /** Null for system messages. */
  author: ChatUserRef | null;
  messageType: ChatMessageType;
  /** Plain text (render as text, never HTML). "" when deleted. */
  text: string;
  sentiment: ChatSentiment | null;
  /** Upper-case symbols of the $CASHTAGS in the text, in order, without duplicates ("BTC"). */
  cashtags: string[];
  /** Users mentioned (resolved at posting). */
  mentions: ChatUserRef[];
  replyToMessageId: string | null;
  /** Replies to this message (a thread root). */
  replyCount: number;
  lastReplyAt: string | null;
  reactions: ChatReactionView[];
  createdAt: string;
  editedAt: string | null;
  /** Deleted messages stay (as "deleted") so replies keep their parent. */
  deleted: boolean;
  deletedBy: 'author' | 'moderator' | null;
}

/** GET /api/chat/rooms/:id/messages?before=&after=&around=&limit= : oldest first in `messages`. */
export interface ChatMessagesPage {
  messages: ChatMessageView[];
  /** Whether older / newer messages exist beyond this page. */
  hasOlder: boolean;
  hasNewer: boolean;
  /** The first message after the viewer's last read one, when in this page (open the room there). */
  firstUnreadId: string | null;
  /** The latest price of each cashtag of the page that the prices feature knows (symbol -> price, 24 h change). */
  prices?: Record<string, { price: string; change24hPercent: number | null }>;
}

/** POST /api/chat/rooms/:id/messages body. */
export interface ChatPostInput {
  text: string;
  replyToMessageId?: string;
  sentiment?: ChatSentiment;
}

/** GET /api/chat/messages/:id/thread */
export interface ChatThreadView {
  root: ChatMessageView;
  replies: ChatMessageView[];
  /** The viewer follows the thread (authored the root, replied, or followed it). */
  following: boolean;
}

/** GET /api/chat/mentions: mentions of the viewer and replies to their messages, newest first. */
export interface ChatMentionView {
  id: number;
  type: 'mention' | 'reply';
  isRead: boolean;
  createdAt: string;
  room: { id: number; name: string };
  message: ChatMessageView;
}
export interface ChatMentionsPage {
  mentions: ChatMentionView[];
  nextCursor: string | null;
  unread: number;
}

export interface ChatPreferencesView {
  soundNotifications: boolean;
  desktopNotifications: boolean;
  showOnlineStatus: boolean;
}

/** GET /api/chat/rooms/:id/presence: members online now (those hiding their status left out). */
export interface ChatPresenceView {
  online: ChatUserRef[];
}

/** GET /api/chat/rooms/:id/sentiment: the bullish/bearish split of the last 24 h of tagged messages. */
export interface ChatSentimentView {
  bullish: number;
  bearish: number;
  since: string;
}

export interface ChatReportView {
  id: number;
  message: ChatMessageView;
  reporter: ChatUserRef;
  reason: string;
  status: 'open' | 'resolved' | 'dismissed';
  createdAt: string;
}

export interface ChatModerationInput {
  action: ChatModerationAction;
  /** The member acted on (mute, unmute, ban, unban, promote, demote). */
  userId?: number;
  /** The message acted on (delete_message), or the report (dismiss_report: reportId). */
  messageId?: string;
  reportId?: number;
  rule?: ChatRule;
  reason?: string;
  /** mute: minutes (1..43,200); ban: minutes or omitted for a permanent ban. */
  minutes?: number;
}

export interface ChatAuditEntry {
  id: number;
  action: ChatModerationAction;
  moderator: ChatUserRef;
  target: ChatUserRef | null;
  messageId: string | null;
  rule: ChatRule | null;
  reason: string | null;
  until: string | null;
  createdAt: string;
}

/** One member of a room in its member list. */
export interface ChatMemberView {
  user: ChatUserRef;
  role: ChatRole;
  joinedAt: string;
  /** For the room's owner and moderators only: a moderator's mute in force (its end), else null. */
  mutedUntil?: string | null;
  /** For the room's owner and moderators only: a ban in force ('infinity' when permanent), else null. */
  bannedUntil?: string | null;
}

/** GET /api/chat/rooms/:id/members: owner, moderators, then members by name; offset pages. */
export interface ChatMembersPage {
  members: ChatMemberView[];
  nextCursor: string | null;
}

/** POST /api/chat/rooms body: a room of type 'chat' whose creator is its owner (counted by the plan's chatRoomsCreated). */
export interface ChatCreateRoomInput {
  name: string;
  description?: string | null;
  /** Private: read and joined by its members only, who join by invite link. Default false. */
  isPrivate?: boolean;
  /** Default 0 (off). */
  slowModeSeconds?: number;
}

/** PATCH /api/chat/rooms/:id body (the owner only): at least one field. description null or "" clears it. */
export interface ChatUpdateRoomInput {
  name?: string;
  description?: string | null;
  slowModeSeconds?: number;
  /** Private: read and joined by members only (who come by invite link); turning a room public revokes its invite links. */
  isPrivate?: boolean;
}

/** POST /api/chat/rooms/:id/invites body (owner or moderator of a private room). */
export interface ChatInviteInput {
  /** 1..720, default 168 (7 days). */
  expiresInHours?: number;
  /** 1..1,000, or null / absent: no limit until it expires. */
  maxUses?: number | null;
}

/** The answer to creating an invite: the only time its code is shown. */
export interface ChatInviteCreatedView {
  id: number;
  /** The secret of the link (base64url). */
  code: string;
  /** The web app's path that opens it: '/dashboard/chat/join/<code>' (the client prefixes its origin). */
  url: string;
  expiresAt: string;
  maxUses: number | null;
  uses: number;
}

/** An invite as the room's owner and moderators list it (never with its code). */
export interface ChatInviteView {
  id: number;
  /** Null when the maker's account is gone. */
  createdBy: ChatUserRef | null;
  createdAt: string;
  expiresAt: string;
  maxUses: number | null;
  uses: number;
  revokedAt: string | null;
  /** Not revoked, not expired, not used up: the link still lets people in. */
  active: boolean;
}

/** GET /api/chat/rooms/:id/invites: newest first. */
export interface ChatInvitesResponse {
  invites: ChatInviteView[];
}

/** GET /api/chat/invites/:code: what the link opens, before joining. */
export interface ChatInvitePreview {
  room: { id: number; name: string; description: string | null; members: number };
  expiresAt: string;
  /** The viewer is a member already: "Open room" rather than "Join room" (accepting spends no use). */
  alreadyMember: boolean;
}

/** Events relayed over the live stream (SSE event `chat`) to the room's members with an open stream. */
export type ChatStreamEvent =
  | { kind: 'message'; roomId: number; message: ChatMessageView }
  | { kind: 'edited'; roomId: number; message: ChatMessageView }
  | { kind: 'deleted'; roomId: number; messageId: string; by: 'author' | 'moderator' }
  | { kind: 'reactions'; roomId: number; messageId: string; reactions: { reaction: string; count: number; userIds: number[] }[] }
  | { kind: 'typing'; roomId: number; user: ChatUserRef }
  | { kind: 'presence'; roomId: number; online: ChatUserRef[] }
  | { kind: 'read'; roomId: number; userId: number; lastReadMessageId: string }
  /** A member joined (or was unbanned) / left (or was banned): the relay's room membership follows it. */
  | { kind: 'member'; roomId: number; userId: number; joined: boolean }
  /**
   * This member's own view of the room changed (a moderator muted, unmuted, promoted or demoted them; for
   * its owner and moderators, its open reports changed): their own open pages read the room again.
   */
  | { kind: 'standing'; roomId: number; userId: number }
  /**
   * The room's name, description or slow mode changed: its members' open pages read it again; or its
   * owner deleted it (`deleted`): their pages leave it.
   */
  | { kind: 'room'; roomId: number; deleted?: true }
  /** A thread root's reply counter changed (a reply was posted). */
  | { kind: 'thread'; roomId: number; messageId: string; replyCount: number; lastReplyAt: string | null };
