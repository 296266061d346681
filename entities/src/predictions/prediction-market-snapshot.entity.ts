import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PredictionMarket } from './prediction-market.entity';

/**
 * Our own price history of a market someone forecast or follows (Polymarket keeps little history
 * of resolved markets): the YES price, and the best bid/ask when the book was read.
 */
@Entity({ name: 'prediction_market_snapshots' })
export class PredictionMarketSnapshot {
  @PrimaryColumn({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => PredictionMarket, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: PredictionMarket;

  @PrimaryColumn({ type: 'timestamptz' })
  takenAt: Date;

  @Column({ type: 'numeric', precision: 5, scale: 4 })
  price: string;

  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  bestBid: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  bestAsk: string | null;

  // gamma | clob | replay | import
  @Column({ type: 'varchar', length: 20 })
  source: string;
}
