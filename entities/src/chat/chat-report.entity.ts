import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';
import { inList } from '../sql';
import { ChatMessage } from './chat-message.entity';

export const CHAT_REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;

/** A member reporting a message to the room's moderators (once per message and reporter). */
@Entity({ name: 'chat_reports' })
@Unique('uq_chat_reports_message_reporter', ['messageId', 'reporterId'])
@Index('ix_chat_reports_status_id', ['status', 'id'])
@Check('chk_chat_reports_status', inList('status', CHAT_REPORT_STATUSES))
export class ChatReport {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'bigint' })
  messageId: string;

  @ManyToOne(() => ChatMessage, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: ChatMessage;

  @Index('ix_chat_reports_reporter_id')
  @Column({ type: 'integer' })
  reporterId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'reporter_id' })
  reporter?: User;

  @Column({ type: 'varchar', length: 500 })
  reason: string;

  // open | resolved | dismissed.
  @Column({ type: 'varchar', length: 10, default: 'open' })
  status: string;

  // The moderator who resolved or dismissed it.
  @Column({ type: 'integer', nullable: true })
  resolvedBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'resolved_by' })
  resolver?: User | null;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
