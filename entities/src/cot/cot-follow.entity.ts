import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { CotInstrument } from './cot-instrument.entity';

/** A user following a COT instrument's alerts (new extremes, divergence changes). */
@Entity({ name: 'cot_follows' })
export class CotFollow {
  // The primary key (user_id, instrument_id) is the one-follow-per-user-and-instrument rule.
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // The alert fan-out reads the followers of one instrument.
  @Index('ix_cot_follows_instrument_id')
  @PrimaryColumn({ type: 'integer' })
  instrumentId: number;

  @ManyToOne(() => CotInstrument, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'instrument_id' })
  instrument?: CotInstrument;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
