import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A large on-chain transfer seen from or to a tracked address. */
@Entity({ name: 'whale_transactions' })
@Unique('uq_whale_transactions_hash', ['hash'])
@Index('ix_whale_transactions_from_timestamp', ['fromAddress', 'timestamp'])
@Index('ix_whale_transactions_to_timestamp', ['toAddress', 'timestamp'])
// Hex strings are stored lowercase so they compare equal to whale_addresses.address.
@Check(
  'chk_whale_transactions_lowercase',
  `"hash" = lower("hash") AND "from_address" = lower("from_address") AND "to_address" = lower("to_address") AND "token_address" = lower("token_address")`,
)
export class WhaleTransaction {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  // 0x + 64 hex digits.
  @Column({ type: 'varchar', length: 66 })
  hash: string;

  @Column({ type: 'varchar', length: 42 })
  fromAddress: string;

  // Null for contract creation.
  @Column({ type: 'varchar', length: 42, nullable: true })
  toAddress: string | null;

  // Token base units (wei for ETH).
  @Column({ type: 'numeric', precision: 78, scale: 0 })
  value: string;

  @Column({ type: 'varchar', length: 20, default: 'ETH' })
  tokenSymbol: string;

  // Null for the chain's native coin.
  @Column({ type: 'varchar', length: 42, nullable: true })
  tokenAddress: string | null;

  @Index('ix_whale_transactions_block_number')
  @Column({ type: 'bigint' })
  blockNumber: string;

  @Column({ type: 'timestamptz' })
  timestamp: Date;

  // Wei per gas unit.
  @Column({ type: 'numeric', precision: 78, scale: 0, nullable: true })
  gasPrice: string | null;

  @Column({ type: 'bigint', nullable: true })
  gasUsed: string | null;

  @Column({ type: 'varchar', length: 20, default: 'ethereum' })
  chain: string;

  // transfer | exchange_deposit | exchange_withdrawal | swap ...
  @Column({ type: 'varchar', length: 30, nullable: true })
  transactionType: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
