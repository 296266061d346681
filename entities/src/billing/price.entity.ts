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
import { Product } from './product.entity';

/** A price of a product, mirrored from Stripe. */
@Entity({ name: 'prices' })
@Unique('uq_prices_stripe_price_id', ['stripePriceId'])
export class Price {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_prices_product_id')
  @Column({ type: 'integer' })
  productId: number;

  // Prices are history that subscriptions point at: a product with prices cannot be deleted.
  @ManyToOne(() => Product, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id' })
  product?: Product;

  @Column({ type: 'varchar', length: 255 })
  stripePriceId: string;

  // In the currency's minor unit (cents), exactly as Stripe sends it; null for tiered prices.
  @Column({ type: 'numeric', precision: 20, scale: 0, nullable: true })
  unitAmount: string | null;

  @Column({ type: 'varchar', length: 3, default: 'usd' })
  currency: string;

  // day | week | month | year; null for one-time prices.
  @Column({ type: 'varchar', length: 10, nullable: true })
  interval: string | null;

  @Column({ type: 'integer', nullable: true })
  trialPeriodDays: number | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
