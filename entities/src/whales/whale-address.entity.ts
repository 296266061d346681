import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** A tracked large wallet (EVM address). Reference data. */
@Entity({ name: 'whale_addresses' })
@Unique('uq_whale_addresses_address', ['address'])
// Stored lowercase so uniqueness and joins with whale_transactions do not depend on checksum casing.
@Check('chk_whale_addresses_address_lowercase', `"address" = lower("address")`)
// Netflow and the exchanges page read the exchange wallets by name.
@Index('ix_whale_addresses_exchange_name', ['exchangeName'], { where: `"address_type" = 'exchange'` })
export class WhaleAddress {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // 0x + 40 hex digits.
  @Column({ type: 'varchar', length: 42 })
  address: string;

  @Column({ type: 'varchar', length: 20, default: 'ethereum' })
  chain: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  label: string | null;

  // exchange | fund | whale | bridge ...
  @Column({ type: 'varchar', length: 30, nullable: true })
  addressType: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  exchangeName: string | null;

  // 'system' for the curated list, otherwise who added it.
  @Column({ type: 'varchar', length: 50, default: 'system' })
  addedBy: string;

  // Where the label came from: the seeded list with its commit, or the file given to `whales import-labels`.
  @Column({ type: 'varchar', length: 200, nullable: true })
  labelSource: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  addedDate: Date;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  // Token base units (wei for ETH).
  @Column({ type: 'numeric', precision: 78, scale: 0, nullable: true })
  balanceThreshold: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
