export * from './chat-room.entity';
export * from './chat-message.entity';
export * from './message-reaction.entity';
export * from './chat-room-member.entity';
export * from './chat-notification.entity';
export * from './user-chat-preferences.entity';
