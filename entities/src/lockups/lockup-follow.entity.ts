import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../accounts/user.entity';

/**
 * A user following lock-up expiries: of one ticker (kind 'ticker'), or of every event at or above
 * a risk score (kind 'risk', one per user), told noticeDays before (14, 7, 1) and on the day.
 */
@Entity({ name: 'lockup_follows' })
@Index('uq_lockup_follows_ticker', ['userId', 'ticker'], { unique: true, where: "kind = 'ticker'" })
@Index('uq_lockup_follows_risk', ['userId'], { unique: true, where: "kind = 'risk'" })
@Index('ix_lockup_follows_ticker', ['ticker'])
@Check('chk_lockup_follows_kind', `("kind" = 'ticker' AND "ticker" IS NOT NULL AND "min_risk_score" IS NULL) OR ("kind" = 'risk' AND "ticker" IS NULL AND "min_risk_score" IS NOT NULL)`)
export class LockupFollow {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_lockup_follows_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // ticker | risk.
  @Column({ type: 'varchar', length: 10 })
  kind: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  ticker: string | null;

  // 0..100 (kind 'risk').
  @Column({ type: 'numeric', precision: 5, scale: 1, nullable: true })
  minRiskScore: string | null;

  // Days before the expiry to notify (subset of 14, 7, 1); the day itself always.
  @Column({ type: 'smallint', array: true, default: () => "'{14,7,1}'" })
  noticeDays: number[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
