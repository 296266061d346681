import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';

/** A user's prediction track record, recomputed from user_predictions. */
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

  // Calibration error, 0..1 (lower is better).
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  calibration: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, default: 0 })
  totalPoints: string;

  @Column({ type: 'jsonb', nullable: true })
  bestCategories: string[] | null;

  @Column({ type: 'jsonb', nullable: true })
  improvementAreas: string[] | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastCalculated: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
