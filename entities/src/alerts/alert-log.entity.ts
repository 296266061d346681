import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Alert } from './alert.entity';

/** One firing of an alert. */
@Entity({ name: 'alert_logs' })
@Index('ix_alert_logs_alert_triggered_at', ['alertId', 'triggeredAt'])
// Exactly one log per allowed firing (decideTrigger's key), whatever the retries and workers.
@Unique('uq_alert_logs_alert_dedupe_key', ['alertId', 'dedupeKey'])
// The crypto check compatibility endpoint reads what no client has picked up yet.
@Index('ix_alert_logs_unchecked', ['alertId'], { where: '"checked_at" IS NULL' })
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

  // decideTrigger's key: {alertId}:once, {alertId}:day:YYYY-MM-DD, {alertId}:at:{ms}.
  @Column({ type: 'varchar', length: 200 })
  dedupeKey: string;

  // The notification text as sent (the compatibility endpoint returns it).
  @Column({ type: 'varchar', length: 2000, nullable: true })
  message: string | null;

  @Column({ type: 'bigint', nullable: true })
  notificationId: string | null;

  // When POST /api/alerts/crypto/check handed this firing to a client (once).
  @Column({ type: 'timestamptz', nullable: true })
  checkedAt: Date | null;

  // Webhook delivery: null (no webhook), pending, delivered, failed.
  @Column({ type: 'varchar', length: 20, nullable: true })
  webhookStatus: string | null;

  @Column({ type: 'integer', default: 0 })
  webhookAttempts: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  webhookLastError: string | null;
}
