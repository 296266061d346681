// The chat screens' one lazy entry (the rooms, a room, the mentions and an invite link load as one chunk).
export { ChatPage } from './chat-page';
export { ChatMentionsPage } from './chat-mentions-page';
export { ChatJoinPage } from './chat-join-page';
