import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { YieldAlert } from './yield-alert.entity';
import { YieldData } from './yield-data.entity';

/** One firing of a yield alert and where it was delivered. */
@Entity({ name: 'yield_alert_logs' })
@Index('ix_yield_alert_logs_alert_triggered_at', ['alertId', 'triggeredAt'])
// An alert fires at most once per snapshot row, however many evaluations run.
@Unique('uq_yield_alert_logs_alert_data', ['alertId', 'yieldDataId'])
export class YieldAlertLog {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  alertId: number;

  @ManyToOne(() => YieldAlert, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alert_id' })
  alert?: YieldAlert;

  // Kept when old snapshots are pruned.
  @Index('ix_yield_alert_logs_yield_data_id')
  @Column({ type: 'bigint', nullable: true })
  yieldDataId: string | null;

  @ManyToOne(() => YieldData, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'yield_data_id' })
  yieldData?: YieldData | null;

  @CreateDateColumn({ type: 'timestamptz' })
  triggeredAt: Date;

  @Column({ type: 'numeric', precision: 24, scale: 4 })
  triggeredValue: string;

  // The alert's threshold at the time it fired.
  @Column({ type: 'numeric', precision: 24, scale: 4 })
  threshold: string;

  // What the notification said (one sentence).
  @Column({ type: 'varchar', length: 300, default: '' })
  message: string;

  // Set by the notifications domain's delivery receipts once the email / Telegram message went out.
  @Column({ type: 'boolean', default: false })
  emailSent: boolean;

  @Column({ type: 'boolean', default: false })
  telegramSent: boolean;
}
