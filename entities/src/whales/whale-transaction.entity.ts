import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * One transfer recorded by the scanner or `import whales`: a native ETH value transfer or one
 * ERC-20 Transfer log. Every transfer of a scanned block is kept (detection reads them); `isWhale`
 * marks those that crossed a threshold.
 */
@Entity({ name: 'whale_transactions' })
// A transaction can move several tokens: one row per (chain, transaction, log).
@Unique('uq_whale_transactions_chain_hash_log_index', ['chain', 'hash', 'logIndex'])
@Index('ix_whale_transactions_from_timestamp', ['fromAddress', 'timestamp'])
@Index('ix_whale_transactions_to_timestamp', ['toAddress', 'timestamp'])
// A block's transfers by its hash (whales.alerts, the live feed).
@Index('ix_whale_transactions_chain_block_hash', ['chain', 'blockHash'])
// Hex strings are stored lowercase so they compare equal to whale_addresses.address.
@Check(
  'chk_whale_transactions_lowercase',
  `"hash" = lower("hash") AND "from_address" = lower("from_address") AND "to_address" = lower("to_address") AND "token_address" = lower("token_address")`,
)
@Check('chk_whale_transactions_block_hash_lowercase', `"block_hash" = lower("block_hash")`)
@Check('chk_whale_transactions_log_index', `"log_index" >= -1`)
@Check('chk_whale_transactions_price_status', `"price_status" IN ('priced', 'unknown')`)
@Check('chk_whale_transactions_price_source', `"price_source" IN ('prices', 'defillama', 'simulated')`)
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

  // Position of the Transfer log in its block; -1 for a native ETH transfer (a NULL would not be
  // unique), shown as null by the API and the CLI.
  @Column({ type: 'integer', default: -1 })
  logIndex: number;

  // Token units (value / 10^decimals), exact at any number of decimals; null while the token's decimals are unknown.
  @Column({ type: 'numeric', nullable: true })
  amount: string | null;

  // USD at block time; null when the price is unknown (priceStatus says so).
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  usdValue: string | null;

  // priced | unknown
  @Column({ type: 'varchar', length: 10, default: 'unknown' })
  priceStatus: string;

  // USD per token unit at block time (rounded to 10 decimals; usd_value is computed from the unrounded price).
  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  usdPrice: string | null;

  // prices (the stored ETHUSDT bars) | defillama (coins API) | simulated (replay or simulated bars); null when unpriced.
  @Column({ type: 'varchar', length: 20, nullable: true })
  priceSource: string | null;

  // DefiLlama's confidence in the price (0..1); below 0.9 the price is kept but worth discounting. Null for ETH.
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  priceConfidence: string | null;

  // Crossed a watched address's threshold or the global USD threshold.
  @Column({ type: 'boolean', default: false })
  isWhale: boolean;

  @Index('ix_whale_transactions_block_number')
  @Column({ type: 'bigint' })
  blockNumber: string;

  // The block the transfer was recorded from: a reorg removes the rows of orphaned blocks.
  @Column({ type: 'varchar', length: 66 })
  blockHash: string;

  // Block time.
  @Column({ type: 'timestamptz' })
  timestamp: Date;

  // Wei per gas unit.
  @Column({ type: 'numeric', precision: 78, scale: 0, nullable: true })
  gasPrice: string | null;

  @Column({ type: 'bigint', nullable: true })
  gasUsed: string | null;

  @Column({ type: 'varchar', length: 20, default: 'ethereum' })
  chain: string;

  // transfer | exchange_inflow | exchange_outflow | mint | burn
  @Column({ type: 'varchar', length: 30, nullable: true })
  transactionType: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
