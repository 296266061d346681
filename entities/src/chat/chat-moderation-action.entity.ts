import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { ChatRoom } from './chat-room.entity';

/** The audit log of a room's moderation: one row per action, written in the action's transaction. */
@Entity({ name: 'chat_moderation_actions' })
@Index('ix_chat_moderation_actions_room_id_id', ['roomId', 'id'])
export class ChatModerationAction {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  roomId: number;

  @ManyToOne(() => ChatRoom, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'room_id' })
  room?: ChatRoom;

  @Index('ix_chat_moderation_actions_moderator_id')
  @Column({ type: 'integer' })
  moderatorId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'moderator_id' })
  moderator?: User;

  @Index('ix_chat_moderation_actions_target_user_id')
  @Column({ type: 'integer', nullable: true })
  targetUserId: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'target_user_id' })
  targetUser?: User | null;

  // The message or report acted on (no foreign key: the audit keeps its ids).
  @Column({ type: 'bigint', nullable: true })
  messageId: string | null;

  @Column({ type: 'integer', nullable: true })
  reportId: number | null;

  // delete_message | mute | unmute | ban | unban | dismiss_report | promote | demote.
  @Column({ type: 'varchar', length: 20 })
  action: string;

  // The rule cited (spam, harassment, ...).
  @Column({ type: 'varchar', length: 20, nullable: true })
  rule: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason: string | null;

  // mute / ban: until when ('infinity' for a permanent ban).
  @Column({ type: 'timestamptz', nullable: true })
  until: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
