import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { CotInstrument } from './cot-instrument.entity';
import { CotReport } from './cot-report.entity';

/**
 * Positions of one instrument in one report, by trader group: contract counts and their weekly
 * changes, percent of open interest (numeric(5,2)) and number of traders.
 */
@Entity({ name: 'cot_positions' })
@Unique('uq_cot_positions_report_instrument', ['reportId', 'instrumentId'])
// An instrument's history across reports.
@Index('ix_cot_positions_instrument_report', ['instrumentId', 'reportId'])
export class CotPosition {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  reportId: number;

  @ManyToOne(() => CotReport, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'report_id' })
  report?: CotReport;

  @Column({ type: 'integer' })
  instrumentId: number;

  @ManyToOne(() => CotInstrument, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'instrument_id' })
  instrument?: CotInstrument;

  @Column({ type: 'integer' })
  openInterest: number;

  // Dealer/intermediary.
  @Column({ type: 'integer', default: 0 })
  dealerLong: number;

  @Column({ type: 'integer', default: 0 })
  dealerShort: number;

  @Column({ type: 'integer', default: 0 })
  dealerSpreading: number;

  @Column({ type: 'integer', nullable: true })
  dealerLongChange: number | null;

  @Column({ type: 'integer', nullable: true })
  dealerShortChange: number | null;

  @Column({ type: 'integer', nullable: true })
  dealerSpreadingChange: number | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  dealerLongPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  dealerShortPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  dealerSpreadingPercent: string | null;

  @Column({ type: 'integer', nullable: true })
  dealerLongTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  dealerShortTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  dealerSpreadingTraders: number | null;

  // Asset manager/institutional.
  @Column({ type: 'integer', default: 0 })
  assetManagerLong: number;

  @Column({ type: 'integer', default: 0 })
  assetManagerShort: number;

  @Column({ type: 'integer', default: 0 })
  assetManagerSpreading: number;

  @Column({ type: 'integer', nullable: true })
  assetManagerLongChange: number | null;

  @Column({ type: 'integer', nullable: true })
  assetManagerShortChange: number | null;

  @Column({ type: 'integer', nullable: true })
  assetManagerSpreadingChange: number | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  assetManagerLongPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  assetManagerShortPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  assetManagerSpreadingPercent: string | null;

  @Column({ type: 'integer', nullable: true })
  assetManagerLongTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  assetManagerShortTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  assetManagerSpreadingTraders: number | null;

  // Leveraged funds.
  @Column({ type: 'integer', default: 0 })
  leveragedLong: number;

  @Column({ type: 'integer', default: 0 })
  leveragedShort: number;

  @Column({ type: 'integer', default: 0 })
  leveragedSpreading: number;

  @Column({ type: 'integer', nullable: true })
  leveragedLongChange: number | null;

  @Column({ type: 'integer', nullable: true })
  leveragedShortChange: number | null;

  @Column({ type: 'integer', nullable: true })
  leveragedSpreadingChange: number | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  leveragedLongPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  leveragedShortPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  leveragedSpreadingPercent: string | null;

  @Column({ type: 'integer', nullable: true })
  leveragedLongTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  leveragedShortTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  leveragedSpreadingTraders: number | null;

  // Other reportables.
  @Column({ type: 'integer', default: 0 })
  otherLong: number;

  @Column({ type: 'integer', default: 0 })
  otherShort: number;

  @Column({ type: 'integer', default: 0 })
  otherSpreading: number;

  @Column({ type: 'integer', nullable: true })
  otherLongChange: number | null;

  @Column({ type: 'integer', nullable: true })
  otherShortChange: number | null;

  @Column({ type: 'integer', nullable: true })
  otherSpreadingChange: number | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  otherLongPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  otherShortPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  otherSpreadingPercent: string | null;

  @Column({ type: 'integer', nullable: true })
  otherLongTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  otherShortTraders: number | null;

  @Column({ type: 'integer', nullable: true })
  otherSpreadingTraders: number | null;

  // Non-reportable positions: long and short only, and the CFTC does not count these traders.
  @Column({ type: 'integer', default: 0 })
  nonReportableLong: number;

  @Column({ type: 'integer', default: 0 })
  nonReportableShort: number;

  @Column({ type: 'integer', nullable: true })
  nonReportableLongChange: number | null;

  @Column({ type: 'integer', nullable: true })
  nonReportableShortChange: number | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  nonReportableLongPercent: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  nonReportableShortPercent: string | null;

  @Column({ type: 'integer', nullable: true })
  totalTraders: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
