import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A block the scanner (or `import whales`) recorded, with its hash and parent hash: the next
 * block's parent hash is compared with it to find a reorg, and a rollback deletes from here.
 */
@Entity({ name: 'whale_blocks' })
// The alerts and live-feed jobs find their block by hash.
@Index('ix_whale_blocks_chain_hash', ['chain', 'hash'])
@Check('chk_whale_blocks_hash_lowercase', `"hash" = lower("hash") AND "parent_hash" = lower("parent_hash")`)
export class WhaleBlock {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  chain: string;

  @PrimaryColumn({ type: 'bigint' })
  number: string;

  // 0x + 64 hex digits.
  @Column({ type: 'varchar', length: 66 })
  hash: string;

  @Column({ type: 'varchar', length: 66 })
  parentHash: string;

  // Block time.
  @Column({ type: 'timestamptz' })
  timestamp: Date;

  // Transfers recorded from the block (native and ERC-20).
  @Column({ type: 'integer', default: 0 })
  transfersCount: number;

  @Column({ type: 'timestamptz' })
  scannedAt: Date;
}
