// The chat screens' one lazy entry (the rooms, a room and the mentions load as one chunk).
export { ChatPage } from './chat-page';
export { ChatMentionsPage } from './chat-mentions-page';
