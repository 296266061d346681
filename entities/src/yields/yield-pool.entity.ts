import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** A liquidity pool whose yield is tracked. Reference data. */
@Entity({ name: 'yield_pools' })
@Unique('uq_yield_pools_pool_id', ['poolId'])
export class YieldPool {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // The source's pool id: a pool contract address (Uniswap v3), a 32-byte id (v4) or a DefiLlama UUID.
  @Column({ type: 'varchar', length: 100 })
  poolId: string;

  // e.g. USDC-WETH.
  @Column({ type: 'varchar', length: 50 })
  symbol: string;

  @Column({ type: 'varchar', length: 42 })
  token0: string;

  @Column({ type: 'varchar', length: 42 })
  token1: string;

  @Column({ type: 'varchar', length: 20 })
  token0Symbol: string;

  @Column({ type: 'varchar', length: 20 })
  token1Symbol: string;

  // In hundredths of a basis point, as Uniswap has it (3000 = 0.3%).
  @Column({ type: 'integer' })
  feeTier: number;

  @Column({ type: 'varchar', length: 30, default: 'uniswap-v3' })
  dex: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
