import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { PredictionMarket } from './prediction-market.entity';

/** A user following a market or a whole category (mispricing alerts and resolutions are sent to followers). */
@Entity({ name: 'prediction_follows' })
@Index('uq_prediction_follows_market', ['userId', 'marketId'], { unique: true, where: 'market_id IS NOT NULL' })
@Index('uq_prediction_follows_category', ['userId', 'category'], { unique: true, where: 'category IS NOT NULL' })
@Index('ix_prediction_follows_market', ['marketId'])
@Index('ix_prediction_follows_category', ['category'])
@Check('ck_prediction_follows_target', '(market_id IS NULL) <> (category IS NULL)')
export class PredictionFollow {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'integer', nullable: true })
  marketId: number | null;

  @ManyToOne(() => PredictionMarket, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: PredictionMarket;

  @Column({ type: 'varchar', length: 100, nullable: true })
  category: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
