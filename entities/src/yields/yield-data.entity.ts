import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { YieldPool } from './yield-pool.entity';

/** One snapshot of a pool's liquidity, volume and yield (formulas in docs/yields.md). */
@Entity({ name: 'yield_data' })
// One snapshot per pool and time; also serves a pool's time-series reads.
@Unique('uq_yield_data_pool_timestamp', ['poolId', 'timestamp'])
// The prune job and the latest-snapshot reads.
@Index('ix_yield_data_timestamp', ['timestamp'])
export class YieldData {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  poolId: number;

  @ManyToOne(() => YieldPool, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pool_id' })
  pool?: YieldPool;

  @Column({ type: 'timestamptz' })
  timestamp: Date;

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  tvlUsd: string | null;

  // 24 h volume.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  volumeUsd: string | null;

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  volumeUsd7d: string | null;

  // 24 h fees.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  feesUsd: string | null;

  // Percent per year: our fee APR 24 h + DefiLlama's reward APY (aprSource 'computed'), else DefiLlama's apy ('defillama').
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  apr: string | null;

  // computed | defillama.
  @Column({ type: 'varchar', length: 10, nullable: true })
  aprSource: string | null;

  // Fee APR = fees over the window x 365 / average TVL over the window x 100.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  feeApr24h: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  feeApr7d: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  feeApr30d: string | null;

  // Volume-to-TVL ratio (24 h volume / TVL).
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  vtr: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  yieldScore: string | null;

  // The named parts of yieldScore ([{ name, weight, input, score, points, ... }]).
  @Column({ type: 'jsonb', nullable: true })
  scoreComponents: unknown[] | null;

  // Percent per year, as DefiLlama reports it.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  defillamaApy: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  apyBase: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  apyReward: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  apyMean30d: string | null;

  // The spike detection's 30-day baseline of apr (mean and standard deviation).
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  aprMean30d: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  aprSigma30d: string | null;

  // DefiLlama's mu / sigma and its outlier flag.
  @Column({ type: 'numeric', precision: 16, scale: 6, nullable: true })
  mu: string | null;

  @Column({ type: 'numeric', precision: 16, scale: 6, nullable: true })
  sigma: string | null;

  @Column({ type: 'boolean', nullable: true })
  outlier: boolean | null;

  // DefiLlama's 7-day impermanent loss, percent.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  il7d: string | null;

  // Our APR and DefiLlama's differ beyond the stated tolerance (null when either is missing).
  @Column({ type: 'boolean', nullable: true })
  aprDisagrees: boolean | null;

  // DefiLlama's { predictedClass, predictedProbability, binnedConfidence }.
  @Column({ type: 'jsonb', nullable: true })
  predictions: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 30, default: 'uniswap-subgraph' })
  dataSource: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
