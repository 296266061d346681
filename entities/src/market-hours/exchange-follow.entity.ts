import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { Exchange } from './exchange.entity';

/** A user following an exchange's open/close notifications. */
@Entity({ name: 'exchange_follows' })
export class ExchangeFollow {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  // Fan-out of a market-time event reads the followers of one exchange.
  @Index('ix_exchange_follows_exchange_id')
  @PrimaryColumn({ type: 'varchar', length: 10 })
  exchangeId: string;

  @ManyToOne(() => Exchange, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'exchange_id' })
  exchange?: Exchange;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
