import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '../accounts/user.entity';
import { ChatRoom } from './chat-room.entity';

@Entity({ name: 'chat_messages' })
// A room's history, newest first.
@Index('ix_chat_messages_room_created_at', ['roomId', 'createdAt'])
export class ChatMessage {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  roomId: number;

  @ManyToOne(() => ChatRoom, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'room_id' })
  room?: ChatRoom;

  // Null for system messages.
  @Index('ix_chat_messages_user_id')
  @Column({ type: 'integer', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User | null;

  @Column({ type: 'text' })
  message: string;

  // user_message | system | bot ...
  @Column({ type: 'varchar', length: 20, default: 'user_message' })
  messageType: string;

  // A reply outlives the message it answered.
  @Index('ix_chat_messages_reply_to_message_id')
  @Column({ type: 'bigint', nullable: true })
  replyToMessageId: string | null;

  @ManyToOne(() => ChatMessage, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'reply_to_message_id' })
  replyToMessage?: ChatMessage | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
