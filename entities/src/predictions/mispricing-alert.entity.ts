import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PredictionMarket } from './prediction-market.entity';

/** A detected gap between a prediction market's price and the estimated fair value. */
@Entity({ name: 'mispricing_alerts' })
@Index('ix_mispricing_alerts_market_active', ['marketId', 'isActive'])
export class MispricingAlert {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  marketId: number;

  // Derived data: it goes with its market.
  @ManyToOne(() => PredictionMarket, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: PredictionMarket;

  // Probabilities 0..1, like user_predictions.
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  currentPrice: string;

  @Column({ type: 'numeric', precision: 5, scale: 4 })
  fairValue: string;

  @Column({ type: 'numeric', precision: 5, scale: 4 })
  confidence: string;

  @Column({ type: 'text', nullable: true })
  reasoning: string | null;

  // fairValue - currentPrice, signed.
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  deviation: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  detectedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;
}
