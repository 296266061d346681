import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';

/** A user's prediction track record, recomputed from user_predictions on each resolution (formulas in docs/predictions.md). */
@Entity({ name: 'prediction_performance' })
@Unique('uq_prediction_performance_user_id', ['userId'])
export class PredictionPerformance {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // Resolved questions scored (void ones excluded).
  @Column({ type: 'integer', default: 0 })
  totalPredictions: number;

  @Column({ type: 'integer', default: 0 })
  correctPredictions: number;

  // Share of correct predictions, 0..1.
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  accuracy: string | null;

  // Mean squared error of the probabilities, 0..1 (lower is better).
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  brierScore: string | null;

  // Mean natural log of the probability given to what happened (<= 0, higher is better).
  @Column({ type: 'numeric', precision: 9, scale: 6, nullable: true })
  logScore: string | null;

  // Calibration error: the reliability term of the Brier decomposition, 0..1 (lower is better).
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  calibration: string | null;

  // The rest of the scorecard (PredictionPerformanceView in the shapes): market scores and skill,
  // the decomposition, calibration bins with Wilson intervals, monthly trend.
  @Column({ type: 'jsonb', nullable: true })
  details: unknown;

  @Column({ type: 'numeric', precision: 12, scale: 4, default: 0 })
  totalPoints: string;

  @Column({ type: 'jsonb', nullable: true })
  bestCategories: unknown;

  @Column({ type: 'jsonb', nullable: true })
  improvementAreas: unknown;

  @Column({ type: 'timestamptz', nullable: true })
  lastCalculated: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
