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
import { PredictionMarket } from './prediction-market.entity';

/** A user's probability estimate for a prediction market, scored when it resolves. */
@Entity({ name: 'user_predictions' })
export class UserPrediction {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_user_predictions_user_id')
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

  // Probabilities 0..1 (spec: precision 5, scale 4).
  @Column({ type: 'numeric', precision: 5, scale: 4 })
  userPrediction: string;

  @Column({ type: 'numeric', precision: 5, scale: 4 })
  marketPrice: string;

  // How sure the user is, 0..100.
  @Column({ type: 'smallint', nullable: true })
  confidence: number | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  dateMade: Date;

  // The resolved outcome (e.g. YES / NO); null while open.
  @Column({ type: 'varchar', length: 50, nullable: true })
  resolution: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  dateResolved: Date | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  points: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
