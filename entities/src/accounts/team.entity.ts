import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'teams' })
@Unique('uq_teams_stripe_customer_id', ['stripeCustomerId'])
@Unique('uq_teams_stripe_subscription_id', ['stripeSubscriptionId'])
export class Team {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripeCustomerId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripeSubscriptionId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripeProductId: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  planName: string | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  subscriptionStatus: string | null;

  // Billing (issue 19): the latest state of the team's subscription, re-fetched from Stripe.
  @Column({ type: 'varchar', length: 255, nullable: true })
  stripePriceId: string | null;

  /** Seats paid for (the subscription's quantity); null without a subscription. */
  @Column({ type: 'integer', nullable: true })
  seatQuantity: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  trialEnd: Date | null;

  @Column({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  /** When the subscription became past_due (the grace period counts from here); null otherwise. */
  @Column({ type: 'timestamptz', nullable: true })
  pastDueSince: Date | null;

  /** When the billing fields were last written from Stripe. */
  @Column({ type: 'timestamptz', nullable: true })
  billingUpdatedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
