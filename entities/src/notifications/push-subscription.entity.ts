import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from '../accounts/user.entity';

/** A browser's Web Push subscription (one per device and browser). */
@Entity({ name: 'push_subscriptions' })
@Unique('uq_push_subscriptions_endpoint', ['endpoint'])
export class PushSubscription {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_push_subscriptions_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // The push service URL; it identifies the subscription.
  @Column({ type: 'text' })
  endpoint: string;

  // Client keys, base64url.
  @Column({ type: 'varchar', length: 255 })
  p256dh: string;

  @Column({ type: 'varchar', length: 255 })
  auth: string;

  @Column({ type: 'text', nullable: true })
  userAgent: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastSuccessAt: Date | null;

  // Consecutive failed deliveries; the sender drops the subscription past a limit (or on 404/410).
  @Column({ type: 'integer', default: 0 })
  failureCount: number;
}
