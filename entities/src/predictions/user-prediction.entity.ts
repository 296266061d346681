import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { PredictionMarket } from './prediction-market.entity';

/**
 * One forecast: a user's probability of YES at a moment. An edit is a new row; the row it replaces
 * gets `supersededAt` (a withdrawal sets it with no successor), so the history is kept for scoring.
 */
@Entity({ name: 'user_predictions' })
@Index('uq_user_predictions_current', ['userId', 'marketId'], { unique: true, where: 'superseded_at IS NULL' })
@Index('ix_user_predictions_user_made', ['userId', 'dateMade'])
@Check('ck_user_predictions_probability', 'user_prediction > 0 AND user_prediction < 1')
@Check('ck_user_predictions_confidence', 'confidence IS NULL OR (confidence BETWEEN 0 AND 100)')
export class UserPrediction {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_user_predictions_market_id')
  @Column({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => PredictionMarket, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'market_id' })
  market?: PredictionMarket;

  // The user's probability of YES, 0 < p < 1.
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  userPrediction: string;

  // The market's YES price at that moment, from our snapshot (never from the client).
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  marketPrice: string;

  // How sure the user is, 0..100; optional.
  @Column({ type: 'smallint', nullable: true })
  confidence: number | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  // probability | percent | odds: how the user entered it, and what they typed.
  @Column({ type: 'varchar', length: 12 })
  inputForm: string;

  @Column({ type: 'varchar', length: 40 })
  inputText: string;

  @Column({ type: 'timestamptz' })
  dateMade: Date;

  // Replaced by a later forecast (or withdrawn) at this time; null for the current forecast.
  @Column({ type: 'timestamptz', nullable: true })
  supersededAt: Date | null;

  // yes | no | void, copied from the market on resolution.
  @Column({ type: 'varchar', length: 50, nullable: true })
  resolution: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  dateResolved: Date | null;

  // Skill points against the market at this forecast's moment (docs/predictions.md).
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  points: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
