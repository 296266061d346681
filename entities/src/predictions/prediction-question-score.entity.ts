import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { PredictionMarket } from './prediction-market.entity';

/**
 * A user's score on one resolved question (a market resolved YES or NO), written when the market
 * resolves: the time-weighted probabilities of the user and of the market over the user's forecast
 * rows, and the time-weighted points. A question's forecasts cannot change after its close, so the
 * scorecard is recomputed from these rows (one per question) instead of every forecast row.
 * Exact definitions in docs/predictions.md.
 */
@Entity({ name: 'prediction_question_scores' })
export class PredictionQuestionScore {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @PrimaryColumn({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => PredictionMarket, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: PredictionMarket;

  @Column({ type: 'varchar', length: 100, nullable: true })
  category: string | null;

  /** 1 when the market resolved YES, 0 when NO. */
  @Column({ type: 'smallint' })
  outcome: number;

  @Column({ type: 'timestamptz' })
  resolvedAt: Date;

  /** Time-weighted probability of the user (full precision: the scorecard is computed from it). */
  @Column({ type: 'double precision' })
  p: number;

  /** Time-weighted market price at the moments the user forecast. */
  @Column({ type: 'double precision' })
  m: number;

  /** Time-weighted points of the rows. */
  @Column({ type: 'double precision' })
  points: number;

  /** Forecast rows the score was computed from. */
  @Column({ type: 'integer' })
  forecasts: number;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
