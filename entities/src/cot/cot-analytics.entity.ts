import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { CotPosition } from './cot-position.entity';

/** Analytics computed from one cot_positions row (net positioning, history ranks, divergence). */
@Entity({ name: 'cot_analytics' })
@Unique('uq_cot_analytics_position_id', ['positionId'])
export class CotAnalytics {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'bigint' })
  positionId: string;

  @ManyToOne(() => CotPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'position_id' })
  position?: CotPosition;

  // Net (long - short) as percent of open interest, -100..100.
  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  leveragedNetPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  commercialNetPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  assetManagerNetPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  dealerNetPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  otherNetPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  nonReportableNetPercent: string | null;

  // Percentile rank of the net position within its own history, 0..100.
  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  leveragedPercentileRank: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  commercialPercentileRank: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  assetManagerPercentileRank: string | null;

  @Column({ type: 'boolean', default: false })
  isLeveragedExtreme: boolean;

  @Column({ type: 'boolean', default: false })
  isCommercialExtreme: boolean;

  @Column({ type: 'boolean', default: false })
  isAssetManagerExtreme: boolean;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  divergenceScore: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  divergenceType: string | null;

  // none | low | medium | high ...
  @Column({ type: 'varchar', length: 20, nullable: true })
  alertLevel: string | null;

  // COT index of the net percent over the same window: 100 * (current - min) / (max - min), 0..100.
  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  leveragedCotIndex: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  commercialCotIndex: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  assetManagerCotIndex: string | null;

  // The lookback (in reports) the ranks were computed over, and how many reports the window held.
  @Column({ type: 'integer', default: 156 })
  lookback: number;

  @Column({ type: 'integer', default: 0 })
  historySize: number;

  // Fewer than 26 reports of history: the ranks are not yet meaningful.
  @Column({ type: 'boolean', default: false })
  isProvisional: boolean;

  // What changed since the instrument's previous report (new extremes, divergence changes):
  // what the alert fan-out reads. See docs/cot.md.
  @Column({ type: 'jsonb', default: () => "'[]'" })
  alertEvents: unknown[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
