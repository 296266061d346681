import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** A Polymarket market, synced from the source. */
@Entity({ name: 'prediction_markets' })
@Unique('uq_prediction_markets_polymarket_id', ['polymarketId'])
export class PredictionMarket {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  polymarketId: string;

  @Column({ type: 'text' })
  question: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  category: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  subcategory: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  endDate: Date | null;

  @Column({ type: 'text', nullable: true })
  resolutionSource: string | null;

  // Outcome name -> price (probability 0..1) as decimal strings, e.g. { "Yes": "0.6150" }.
  @Column({ type: 'jsonb', nullable: true })
  currentPrices: Record<string, string> | null;

  @Column({ name: 'volume_24h', type: 'numeric', precision: 24, scale: 2, nullable: true })
  volume24h: string | null;

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  liquidity: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'text', array: true, nullable: true })
  tags: string[] | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
