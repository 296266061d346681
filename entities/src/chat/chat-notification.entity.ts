import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { ChatMessage } from './chat-message.entity';

@Entity({ name: 'chat_notifications' })
@Index('ix_chat_notifications_user_read', ['userId', 'isRead'])
export class ChatNotification {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_chat_notifications_message_id')
  @Column({ type: 'bigint' })
  messageId: string;

  @ManyToOne(() => ChatMessage, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: ChatMessage;

  // room_message | mention | reply ...
  @Column({ type: 'varchar', length: 20, default: 'room_message' })
  type: string;

  @Column({ type: 'boolean', default: false })
  isRead: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
