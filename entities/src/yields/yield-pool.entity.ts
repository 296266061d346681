import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/**
 * A liquidity (or yield) pool. Reference data, refreshed from every DefiLlama /pools answer
 * (docs/yields.md, "Storage"); `tracked` pools also get a yield_data row per hourly snapshot.
 */
@Entity({ name: 'yield_pools' })
@Unique('uq_yield_pools_pool_id', ['poolId'])
// Top N by TVL per chain (the tracked set) and the pools table's TVL order.
@Index('ix_yield_pools_chain_tvl', ['chain', 'tvlUsd'])
export class YieldPool {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // The source's pool id: a pool contract address (Uniswap v3), a 32-byte id (v4) or a DefiLlama UUID.
  // Pools ingested from DefiLlama /pools are keyed by its UUID (the same value as defillamaPoolId).
  @Column({ type: 'varchar', length: 100 })
  poolId: string;

  // DefiLlama's pool UUID (its /chart/{pool} key); null for a pool known only from another source.
  @Index('uq_yield_pools_defillama_pool_id', { unique: true })
  @Column({ type: 'varchar', length: 36, nullable: true })
  defillamaPoolId: string | null;

  // e.g. USDC-WETH (DefiLlama's symbol, cut to 50 characters).
  @Column({ type: 'varchar', length: 50 })
  symbol: string;

  // The first two underlying tokens when they are EVM addresses (lowercase), else '' (underlyingTokens has every one).
  @Column({ type: 'varchar', length: 42 })
  token0: string;

  @Column({ type: 'varchar', length: 42 })
  token1: string;

  @Column({ type: 'varchar', length: 20 })
  token0Symbol: string;

  @Column({ type: 'varchar', length: 20 })
  token1Symbol: string;

  // In hundredths of a basis point, as Uniswap has it (3000 = 0.3%); 0 when the pool has no fee tier.
  @Column({ type: 'integer' })
  feeTier: number;

  // DefiLlama's project slug (uniswap-v3, curve-dex, lido, ...): the pools table's "dex" filter.
  @Column({ type: 'varchar', length: 30, default: 'uniswap-v3' })
  dex: string;

  // DefiLlama's chain name (Ethereum, Arbitrum, ...).
  @Column({ type: 'varchar', length: 40, default: 'Ethereum' })
  chain: string;

  // DefiLlama's project slug as published (dex keeps the spec's name for the same value, cut to 30).
  @Column({ type: 'varchar', length: 60, default: 'uniswap-v3' })
  project: string;

  // DefiLlama's poolMeta (e.g. "0.3%"), shown as is.
  @Column({ type: 'varchar', length: 100, nullable: true })
  poolMeta: string | null;

  // The on-chain pool contract, once matched in the Uniswap v3 subgraph (lowercase).
  @Column({ type: 'varchar', length: 66, nullable: true })
  poolAddress: string | null;

  // Every underlying token as DefiLlama lists them (any chain's address format).
  @Column({ type: 'jsonb', default: () => "'[]'" })
  underlyingTokens: string[];

  @Column({ type: 'boolean', default: false })
  stablecoin: boolean;

  // DefiLlama's impermanent-loss risk: yes | no.
  @Column({ type: 'varchar', length: 10, nullable: true })
  ilRisk: string | null;

  // single | multi.
  @Column({ type: 'varchar', length: 10, nullable: true })
  exposure: string | null;

  // Stored hourly: top YIELDS_TOP_POOLS_PER_CHAIN by TVL of its chain, or a pool with an active alert.
  @Column({ type: 'boolean', default: false })
  tracked: boolean;

  // The latest /pools values (every pool, tracked or not), for the tracked-set ranking and untracked rows.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  tvlUsd: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  apy: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastSeenAt: Date | null;

  // The pool's newest yield_data row (no foreign key: a pruned row reads as none).
  @Column({ type: 'bigint', nullable: true })
  latestDataId: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
