import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { Team } from '../accounts/team.entity';
import { User } from '../accounts/user.entity';

@Entity({ name: 'subscriptions' })
@Unique('uq_subscriptions_stripe_subscription_id', ['stripeSubscriptionId'])
export class Subscription {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_subscriptions_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** The team the subscription pays for (user_id is the member who checked out). */
  @Index('ix_subscriptions_team_id')
  @Column({ type: 'integer', nullable: true })
  teamId: number | null;

  @ManyToOne(() => Team, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Column({ type: 'varchar', length: 255 })
  stripeSubscriptionId: string;

  /** Seats (the subscription item's quantity). */
  @Column({ type: 'integer', default: 1 })
  quantity: number;

  @Index('ix_subscriptions_stripe_customer_id')
  @Column({ type: 'varchar', length: 255 })
  stripeCustomerId: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripePriceId: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  planName: string | null;

  @Column({ type: 'varchar', length: 30, default: 'inactive' })
  status: string;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodStart: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  trialStart: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  trialEnd: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  canceledAt: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
