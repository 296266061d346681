import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, CreateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { WhaleAddress } from './whale-address.entity';
import { WhaleTransaction } from './whale-transaction.entity';

/** A whale movement reported to a user who follows the address. */
@Entity({ name: 'whale_alerts' })
@Index('ix_whale_alerts_user_read', ['userId', 'isRead'])
// One alert per user, address and transaction, so a retried detection job cannot alert twice.
@Unique('uq_whale_alerts_user_address_transaction', ['userId', 'addressId', 'transactionId'])
export class WhaleAlert {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_whale_alerts_address_id')
  @Column({ type: 'integer' })
  addressId: number;

  @ManyToOne(() => WhaleAddress, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'address_id' })
  address?: WhaleAddress;

  // Kept when old transactions are pruned.
  @Index('ix_whale_alerts_transaction_id')
  @Column({ type: 'bigint', nullable: true })
  transactionId: string | null;

  @ManyToOne(() => WhaleTransaction, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'transaction_id' })
  transaction?: WhaleTransaction | null;

  // large_transfer | exchange_inflow | exchange_outflow ...
  @Column({ type: 'varchar', length: 30 })
  alertType: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'boolean', default: false })
  isRead: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  sentAt: Date;
}
