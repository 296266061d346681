import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The scanner's checkpoint per chain: the last block fully recorded (its transfers and its
 * whale_blocks row were written in the same transaction as this row). After downtime the scan
 * resumes at checkpoint + 1.
 */
@Entity({ name: 'whale_scan_state' })
export class WhaleScanState {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  chain: string;

  @Column({ type: 'bigint' })
  checkpointNumber: string;

  @Column({ type: 'varchar', length: 66 })
  checkpointHash: string;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
