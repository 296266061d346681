import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
