import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/**
 * A Polymarket market as our last sync saw it (Gamma `/markets`, tags and negative risk from its
 * event). Prices are the YES (first) outcome's, 0..1, four decimals as the spec fixes.
 */
@Entity({ name: 'prediction_markets' })
@Unique('uq_prediction_markets_polymarket_id', ['polymarketId'])
@Index('ix_prediction_markets_active_volume', ['isActive', 'volume24h'])
export class PredictionMarket {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // Gamma's market id ("503051").
  @Column({ type: 'varchar', length: 100 })
  polymarketId: string;

  @Column({ type: 'varchar', length: 66, nullable: true })
  conditionId: string | null;

  @Column({ type: 'varchar', length: 300 })
  slug: string;

  @Column({ type: 'text' })
  question: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  // The event's first tag that is not a housekeeping tag (rule in predictions.parse.ts); null when none.
  @Index('ix_prediction_markets_category')
  @Column({ type: 'varchar', length: 50, nullable: true })
  category: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  subcategory: string | null;

  // Every tag label of the market's event.
  @Column({ type: 'text', array: true, nullable: true })
  tags: string[] | null;

  @Index('ix_prediction_markets_end_date')
  @Column({ type: 'timestamptz', nullable: true })
  endDate: Date | null;

  // When Polymarket closed the market (Gamma closedTime).
  @Column({ type: 'timestamptz', nullable: true })
  closedTime: Date | null;

  @Column({ type: 'text', nullable: true })
  resolutionSource: string | null;

  // Outcome names in Gamma's order (["Yes","No"], ["Long","Short"]).
  @Column({ type: 'jsonb', default: () => "'[]'" })
  outcomes: string[];

  // Outcome name -> price (probability 0..1) as Gamma's decimal strings, e.g. { "Yes": "0.615" }.
  @Column({ type: 'jsonb', nullable: true })
  currentPrices: Record<string, string> | null;

  // The first outcome's price (YES), rounded to 4 decimals; null when Gamma gave none.
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  yesPrice: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  bestBid: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  bestAsk: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  spread: string | null;

  @Column({ name: 'volume_24h', type: 'numeric', precision: 24, scale: 2, nullable: true })
  volume24h: string | null;

  // All-time volume.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  volume: string | null;

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  liquidity: string | null;

  // Gamma active and not closed.
  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'boolean', default: false })
  closed: boolean;

  @Column({ type: 'boolean', default: false })
  acceptingOrders: boolean;

  @Index('ix_prediction_markets_event_id')
  @Column({ type: 'varchar', length: 40, nullable: true })
  eventId: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  eventSlug: string | null;

  @Column({ type: 'text', nullable: true })
  eventTitle: string | null;

  @Column({ type: 'boolean', default: false })
  negRisk: boolean;

  // Augmented negative-risk events hold placeholder outcomes: their prices do not sum to 1 by design.
  @Column({ type: 'boolean', default: false })
  negRiskAugmented: boolean;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  clobTokenIds: string[];

  // yes | no | void (closed without a winning outcome at exactly 1); null while unresolved.
  @Column({ type: 'varchar', length: 10, nullable: true })
  resolution: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  // Gamma updatedAt.
  @Column({ type: 'timestamptz', nullable: true })
  sourceUpdatedAt: Date | null;

  // sha256 of the fields we keep: a sync writes a market only when it changed.
  @Column({ type: 'varchar', length: 64 })
  contentHash: string;

  // polymarket | replay | import
  @Column({ type: 'varchar', length: 20 })
  dataSource: string;

  @Column({ type: 'timestamptz' })
  syncedAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
