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

  // above | below | crosses_above | crosses_below | percent_change ...
  @Column({ type: 'varchar', length: 30 })
  condition: string;

  @Column({ type: 'numeric', precision: 30, scale: 10 })
  value: string;

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
