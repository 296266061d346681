import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '../accounts/user.entity';
import { Market } from '../markets/market.entity';

/** A user's price or technical alert on a market, optionally spoken aloud. */
@Entity({ name: 'alerts' })
// The evaluator loads the active alerts of a market on every price update.
@Index('ix_alerts_market_active', ['marketId', 'isActive'])
export class Alert {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_alerts_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => Market, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'market_id' })
  market?: Market;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  // The condition type (jobs/src/alerts/alert-conditions.ts): crossing_up, greater_than, rsi_above ...
  @Column({ type: 'varchar', length: 30 })
  condition: string;

  // The condition's main threshold (value, channel low, amount, percent, RSI level or period).
  @Column({ type: 'numeric', precision: 30, scale: 10 })
  value: string;

  // The whole validated condition, type included (channel bounds, windows, periods, direction).
  @Column({ type: 'jsonb', default: {} })
  params: Record<string, unknown>;

  // Bar interval of a technical condition (1m, 5m, 15m, 1h, 4h, 1d); null for price conditions.
  @Column({ type: 'varchar', length: 4, nullable: true })
  interval: string | null;

  // once | once_per_day | every_time (jobs/src/alerts/alert-frequency.ts).
  @Column({ type: 'varchar', length: 20, default: 'once' })
  frequency: string;

  // every_time: no new firing within this many seconds of the last one.
  @Column({ type: 'integer', default: 60 })
  cooldownSeconds: number;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  // Delivery channels besides in-app + live stream (always on).
  @Column({ type: 'boolean', default: true })
  notifyPush: boolean;

  @Column({ type: 'boolean', default: false })
  notifyEmail: boolean;

  // Webhook: POST JSON signed with HMAC-SHA256 of the body under webhookSecret.
  @Column({ type: 'varchar', length: 2000, nullable: true })
  webhookUrl: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  webhookSecret: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'boolean', default: false })
  useAudio: boolean;

  @Column({ type: 'varchar', length: 500, nullable: true })
  audioMessage: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  audioVoiceId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastTriggered: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
