import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { YieldPool } from './yield-pool.entity';

/** One snapshot of a pool's liquidity, volume and yield. */
@Entity({ name: 'yield_data' })
// One snapshot per pool and time; also serves a pool's time-series reads.
@Unique('uq_yield_data_pool_timestamp', ['poolId', 'timestamp'])
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

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  volumeUsd: string | null;

  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  feesUsd: string | null;

  // Percent per year.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  apr: string | null;

  // Volume-to-TVL ratio.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  vtr: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  yieldScore: string | null;

  // Percent per year, as DefiLlama reports it.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  defillamaApy: string | null;

  @Column({ type: 'varchar', length: 30, default: 'uniswap-subgraph' })
  dataSource: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
