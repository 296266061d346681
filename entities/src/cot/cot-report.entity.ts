import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** One weekly Commitments of Traders release (as of its Tuesday report date). */
@Entity({ name: 'cot_reports' })
// Also serves lookups by report date (leading column).
@Unique('uq_cot_reports_date_type', ['reportDate', 'reportType'])
export class CotReport {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'date' })
  reportDate: string;

  // financial (Traders in Financial Futures) | disaggregated | legacy
  @Column({ type: 'varchar', length: 30, default: 'financial' })
  reportType: string;

  @Column({ type: 'text', nullable: true })
  sourceUrl: string | null;

  @Column({ type: 'jsonb', nullable: true })
  rawData: unknown;

  @Column({ type: 'timestamptz', nullable: true })
  processedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
