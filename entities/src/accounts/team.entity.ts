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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
