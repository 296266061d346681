import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';
import { ChatMessage } from './chat-message.entity';

@Entity({ name: 'message_reactions' })
@Unique('uq_message_reactions_message_user_reaction', ['messageId', 'userId', 'reaction'])
export class MessageReaction {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'bigint' })
  messageId: string;

  @ManyToOne(() => ChatMessage, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: ChatMessage;

  @Index('ix_message_reactions_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // An emoji (may be several code points).
  @Column({ type: 'varchar', length: 10 })
  reaction: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
