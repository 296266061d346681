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
import { YieldPool } from './yield-pool.entity';

@Entity({ name: 'yield_alerts' })
// The evaluator loads the active alerts of a pool after each snapshot.
@Index('ix_yield_alerts_pool_active', ['poolId', 'isActive'])
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

  // apr | tvl | volume | yield_score ...
  @Column({ type: 'varchar', length: 30 })
  alertType: string;

  // In the unit of alertType (percent for apr, USD for tvl and volume).
  @Column({ type: 'numeric', precision: 24, scale: 4 })
  threshold: string;

  @Column({ type: 'varchar', length: 20, default: 'greater_than' })
  condition: string;

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
