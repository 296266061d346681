import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Subscription } from './subscription.entity';

/** The history of a subscription (Stripe event type and payload). */
@Entity({ name: 'subscription_events' })
export class SubscriptionEvent {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_subscription_events_subscription_id')
  @Column({ type: 'integer' })
  subscriptionId: number;

  @ManyToOne(() => Subscription, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id' })
  subscription?: Subscription;

  @Column({ type: 'varchar', length: 100 })
  eventType: string;

  @Column({ type: 'jsonb', nullable: true })
  eventData: Record<string, unknown> | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
