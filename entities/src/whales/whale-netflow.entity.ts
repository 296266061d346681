import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * Flows into and out of one exchange's labelled wallets, per token and hour or day (UTC). Derived
 * from whale_transactions: the buckets a recorded or rolled-back block touches are recomputed in
 * that block's transaction (jobs/src/whales/whales-netflow.store.ts), so the rows stay exact.
 */
@Entity({ name: 'whale_netflows' })
@Unique('uq_whale_netflows_bucket', ['chain', 'exchangeName', 'tokenKey', 'bucket', 'bucketStart'])
@Index('ix_whale_netflows_bucket_start', ['chain', 'bucket', 'bucketStart'])
@Check('chk_whale_netflows_bucket', `"bucket" IN ('hour', 'day')`)
export class WhaleNetflow {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 20, default: 'ethereum' })
  chain: string;

  // whale_addresses.exchange_name of the exchange's wallets.
  @Column({ type: 'varchar', length: 100 })
  exchangeName: string;

  // 'eth' or the token contract (lowercase).
  @Column({ type: 'varchar', length: 42 })
  tokenKey: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  tokenSymbol: string | null;

  // hour | day
  @Column({ type: 'varchar', length: 4 })
  bucket: string;

  // Start of the UTC hour or day.
  @Column({ type: 'timestamptz' })
  bucketStart: Date;

  // Token units.
  @Column({ type: 'numeric', default: 0 })
  inflowAmount: string;

  @Column({ type: 'numeric', default: 0 })
  outflowAmount: string;

  // Sum of the priced transfers' USD values (unpriced ones are counted in unpricedTransfers).
  @Column({ type: 'numeric', precision: 24, scale: 2, default: 0 })
  inflowUsd: string;

  @Column({ type: 'numeric', precision: 24, scale: 2, default: 0 })
  outflowUsd: string;

  @Column({ type: 'integer', default: 0 })
  transfers: number;

  @Column({ type: 'integer', default: 0 })
  unpricedTransfers: number;
}
