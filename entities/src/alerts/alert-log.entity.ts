import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Alert } from './alert.entity';

/** One firing of an alert. */
@Entity({ name: 'alert_logs' })
@Index('ix_alert_logs_alert_triggered_at', ['alertId', 'triggeredAt'])
export class AlertLog {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  alertId: number;

  @ManyToOne(() => Alert, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alert_id' })
  alert?: Alert;

  @CreateDateColumn({ type: 'timestamptz' })
  triggeredAt: Date;

  // The market value that triggered the alert.
  @Column({ type: 'numeric', precision: 30, scale: 10 })
  value: string;

  @Column({ type: 'boolean', default: false })
  wasNotified: boolean;
}
