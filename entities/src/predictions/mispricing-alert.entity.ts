import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PredictionMarket } from './prediction-market.entity';

/**
 * A gap between a market's executable price and a fair value beyond the threshold. One active alert
 * per market and fair-value source; it stays active until the gap closes or the market resolves.
 */
@Entity({ name: 'mispricing_alerts' })
@Index('ix_mispricing_alerts_market_active', ['marketId', 'isActive'])
@Index('uq_mispricing_alerts_active', ['marketId', 'fairValueSource'], { unique: true, where: 'is_active' })
@Index('ix_mispricing_alerts_detected_at', ['detectedAt'])
export class MispricingAlert {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  marketId: number;

  // Derived data: it goes with its market.
  @ManyToOne(() => PredictionMarket, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: PredictionMarket;

  // consensus | event_consistency: where the fair value comes from.
  @Column({ type: 'varchar', length: 30, default: 'consensus' })
  fairValueSource: string;

  // The executable YES price the gap is measured against (the ask to buy YES, the bid to sell it; the mid when no book is known).
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  currentPrice: string;

  @Column({ type: 'numeric', precision: 5, scale: 4 })
  fairValue: string;

  // 0..1
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  confidence: string;

  @Column({ type: 'text', nullable: true })
  reasoning: string | null;

  // fairValue - currentPrice after fees, signed: positive, YES looks cheap; negative, YES looks rich.
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  deviation: string;

  // The rule's inputs (forecasters and weights, the event's sum and spread, fees), shown with the alert.
  @Column({ type: 'jsonb', nullable: true })
  details: unknown;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  detectedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;
}
