import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';
import { inList } from '../sql';

export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** A server-side in-app notification of one user. */
@Entity({ name: 'notifications' })
@Index('ix_notifications_user_created_at', ['userId', 'createdAt'])
// Unread count and "mark all read" touch only the unread rows.
@Index('ix_notifications_user_unread', ['userId'], { where: '"read_at" IS NULL' })
// "Once per day" rules insert with a dedupe key (e.g. market-open:XNYS:2025-01-02); null means no dedupe.
@Unique('uq_notifications_user_dedupe_key', ['userId', 'dedupeKey'])
@Check('chk_notifications_type', inList('type', NOTIFICATION_TYPES))
export class Notification {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'varchar', length: 10, default: 'info' })
  type: NotificationType;

  // An ActivityAction such as MARKET_OPEN, or another producer's kind.
  @Column({ type: 'varchar', length: 40, nullable: true })
  activityType: string | null;

  // Exchange MIC; not a foreign key so the notification outlives the exchange row.
  @Column({ type: 'varchar', length: 10, nullable: true })
  exchangeId: string | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  symbolId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  dedupeKey: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  readAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
