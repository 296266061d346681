// The chat domain's entry (@tickerbell/jobs/chat): what the api, the workers, bench and tests may use.
export { CHAT_ERROR_CODES, ChatError, isChatError, vanishedTarget, type ChatErrorCode, type ChatErrorOptions } from './chat.errors';
export { chatEnvSchema, defaultChatConfig, loadChatConfig, type ChatConfig } from './chat.config';
export { chatDomain } from './chat.domain';
export { chatEventsChannel, parseChatEvent, publishChatEvent, type ChatRelayEvent } from './chat-events';
export { chatDisplayName, chatHandle, extractCashtags, mentionedHandles, normalizeMessageText, normalizeReaction } from './chat-text';
export {
  CHAT_UNREAD_CAP,
  compareRooms,
  effectiveNotifyLevel,
  getChatPreferences,
  getRoom,
  joinRoom,
  leaveRoom,
  listRooms,
  memberRoomIds,
  requireMember,
  requireReader,
  roomSentiment,
  setRoomPreferences,
  updateChatPreferences,
  type ChatDeps,
} from './chat-rooms.store';
export {
  CHAT_THREAD_MAX_REPLIES,
  addReaction,
  deleteOwnMessage,
  editMessage,
  followThread,
  getThread,
  loadMessageViews,
  postMessage,
  removeReaction,
  roomHistory,
  sendTyping,
  softDeleteMessage,
  unfollowThread,
  type HistoryQuery,
  type PostInput,
} from './chat-messages.store';
export { listMentions, markMentionsRead, markRoomRead, type MentionsQuery, type ReadState } from './chat-reads.store';
export { chatPresenceView, heartbeat, onlineUserIds, presenceKey, refreshPresence, removePresence, roomPresence, touchPresence } from './chat-presence';
// Moderation and abuse (C2's modules).
export * from './chat-limits';
export * from './chat-blocks.store';
export * from './chat-moderation.store';
export { CHAT_MEMBERS_MAX_LIMIT, listMembers } from './chat-members.store';
// User-made rooms, their settings and invite links (issue 18).
export { countRoomsCreated, createRoom, deleteRoom, normalizeRoomDescription, normalizeRoomName, normalizeSlowMode, updateRoom } from './chat-room-settings.store';
export {
  CHAT_INVITES_LIST_MAX,
  CHAT_INVITE_CODE_BYTES,
  UNKNOWN_INVITE_MESSAGE,
  acceptInvite,
  createInvite,
  inviteCodeHash,
  listInvites,
  newInviteCode,
  previewInvite,
  revokeInvite,
} from './chat-invites.store';
