import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { ChatMessage } from './chat-message.entity';

/** A user following a thread (its root message): replies to it are notified to them. */
@Entity({ name: 'chat_thread_follows' })
@Index('ix_chat_thread_follows_message_id', ['messageId'])
export class ChatThreadFollow {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @PrimaryColumn({ type: 'bigint' })
  messageId: string;

  @ManyToOne(() => ChatMessage, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: ChatMessage;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
