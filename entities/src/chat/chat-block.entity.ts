import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity';

/** blocker hides blocked's messages (for the blocker only). */
@Entity({ name: 'chat_blocks' })
@Index('ix_chat_blocks_blocked_id', ['blockedId'])
export class ChatBlock {
  @PrimaryColumn({ type: 'integer' })
  blockerId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'blocker_id' })
  blocker?: User;

  @PrimaryColumn({ type: 'integer' })
  blockedId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'blocked_id' })
  blocked?: User;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
