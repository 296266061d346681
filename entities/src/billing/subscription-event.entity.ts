import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Team } from '../accounts/team.entity';
import { Subscription } from './subscription.entity';

/**
 * Every Stripe webhook event received, stored once (unique on Stripe's event id) before it is
 * processed: the history of a subscription and the ledger that makes processing idempotent.
 */
@Entity({ name: 'subscription_events' })
@Unique('uq_subscription_events_stripe_event_id', ['stripeEventId'])
export class SubscriptionEvent {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  stripeEventId: string;

  /** Known once the event is processed (events of products and prices have none). */
  @Index('ix_subscription_events_subscription_id')
  @Column({ type: 'integer', nullable: true })
  subscriptionId: number | null;

  @ManyToOne(() => Subscription, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id' })
  subscription?: Subscription;

  @Index('ix_subscription_events_team_id')
  @Column({ type: 'integer', nullable: true })
  teamId: number | null;

  @ManyToOne(() => Team, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Column({ type: 'varchar', length: 100 })
  eventType: string;

  /** The whole Stripe event as received. */
  @Column({ type: 'jsonb', nullable: true })
  eventData: Record<string, unknown> | null;

  /** Null until the processing job has written its effects (in the same transaction). */
  @Index('ix_subscription_events_unprocessed', { where: 'processed_at IS NULL' })
  @Column({ type: 'timestamptz', nullable: true })
  processedAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
