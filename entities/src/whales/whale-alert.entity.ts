import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, CreateDateColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { WhaleAddress } from './whale-address.entity';
import { WhaleTransaction } from './whale-transaction.entity';

/**
 * A whale movement reported to a user who watches the address: written once per user, address and
 * transfer (tx hash + log index) by the whales.alerts job, sent at once (frequency 'immediate') or
 * collected into an hourly / daily digest, retracted when a chain reorganisation removes its block.
 */
@Entity({ name: 'whale_alerts' })
@Index('ix_whale_alerts_user_read', ['userId', 'isRead'])
// Never twice for the same transfer, across retries and workers. Partial: a retracted alert (its
// block was orphaned) does not stop an alert for the same transaction mined again in the new chain.
@Index('uq_whale_alerts_user_address_transfer', ['userId', 'addressId', 'txHash', 'logIndex'], { unique: true, where: `"status" <> 'retracted'` })
// The digests' query: pending alerts of one frequency, oldest first.
@Index('ix_whale_alerts_pending', ['frequency', 'sentAt'], { where: `"status" = 'pending'` })
@Index('ix_whale_alerts_chain_block', ['chain', 'blockNumber'])
@Check('chk_whale_alerts_status', `"status" IN ('pending', 'sent', 'retracted')`)
@Check('chk_whale_alerts_frequency', `"frequency" IN ('immediate', 'hourly', 'daily')`)
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

  // Kept when old transactions are pruned (and when a reorg removes the transfer: the alert is retracted).
  @Index('ix_whale_alerts_transaction_id')
  @Column({ type: 'bigint', nullable: true })
  transactionId: string | null;

  @ManyToOne(() => WhaleTransaction, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'transaction_id' })
  transaction?: WhaleTransaction | null;

  // large_transfer | exchange_inflow | exchange_outflow | mint | burn (the transfer's type; 'transfer' is large_transfer)
  @Column({ type: 'varchar', length: 30 })
  alertType: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'boolean', default: false })
  isRead: boolean;

  // When the alert was written (the job's clock); delivery time is deliveredAt.
  @CreateDateColumn({ type: 'timestamptz' })
  sentAt: Date;

  @Column({ type: 'varchar', length: 20, default: 'ethereum' })
  chain: string;

  // pending (waiting for its digest) | sent | retracted (its block was orphaned after it was sent)
  @Column({ type: 'varchar', length: 12, default: 'pending' })
  status: string;

  // The watch's alertFrequency when the alert was written: immediate | hourly | daily
  @Column({ type: 'varchar', length: 20 })
  frequency: string;

  @Column({ type: 'varchar', length: 66 })
  txHash: string;

  // -1 for native ETH, as whale_transactions.log_index (NULL would break the uniqueness).
  @Column({ type: 'integer' })
  logIndex: number;

  @Column({ type: 'bigint' })
  blockNumber: string;

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  usdValue: string | null;

  // Relative to the watched address: incoming | outgoing | self
  @Column({ type: 'varchar', length: 20 })
  direction: string;

  // The digest that carried it: hourly:<user>:<hour> or daily:<user>:<zone>:<local date>
  @Column({ type: 'varchar', length: 80, nullable: true })
  digestKey: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
