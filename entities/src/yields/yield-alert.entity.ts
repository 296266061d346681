import {
  Check,
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
import { YieldPool } from './yield-pool.entity';

@Entity({ name: 'yield_alerts' })
// The evaluator loads the active alerts of a pool after each snapshot.
@Index('ix_yield_alerts_pool_active', ['poolId', 'isActive'])
// The workers' alert index reads the rows changed since its last refresh.
@Index('ix_yield_alerts_updated_at', ['updatedAt'])
@Check('chk_yield_alerts_alert_type', `"alert_type" IN ('apr', 'apy_spike', 'tvl_drop', 'vtr')`)
@Check('chk_yield_alerts_condition', `"condition" IN ('greater_than', 'less_than')`)
@Check('chk_yield_alerts_spike_unit', `"spike_unit" IS NULL OR "spike_unit" IN ('sigma', 'percent')`)
export class YieldAlert {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_yield_alerts_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'integer' })
  poolId: number;

  @ManyToOne(() => YieldPool, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'pool_id' })
  pool?: YieldPool;

  // apr | apy_spike | tvl_drop | vtr (docs/yields.md, "Alerts").
  @Column({ type: 'varchar', length: 30 })
  alertType: string;

  // In the unit of alertType: percent per year (apr), sigmas or percent (apy_spike, see spikeUnit),
  // percent drop (tvl_drop), daily volume / TVL (vtr).
  @Column({ type: 'numeric', precision: 24, scale: 4 })
  threshold: string;

  // greater_than | less_than (less_than only for apr).
  @Column({ type: 'varchar', length: 20, default: 'greater_than' })
  condition: string;

  // apy_spike: sigma | percent; null for the other types.
  @Column({ type: 'varchar', length: 10, nullable: true })
  spikeUnit: string | null;

  // tvl_drop: the window the drop is measured over (from the highest TVL in it); null for the other types.
  @Column({ type: 'integer', nullable: true })
  windowHours: number | null;

  // At most one firing per cooldown.
  @Column({ type: 'integer', default: 360 })
  cooldownMinutes: number;

  // Hysteresis: false after firing until the value crosses back past the threshold by the margin.
  @Column({ type: 'boolean', default: true })
  armed: boolean;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'boolean', default: false })
  emailEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  telegramEnabled: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  lastTriggered: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
