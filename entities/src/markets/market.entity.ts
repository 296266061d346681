import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** A tradable symbol (stock, crypto pair, index, forex, commodity). Reference data. */
@Entity({ name: 'markets' })
@Unique('uq_markets_symbol', ['symbol'])
export class Market {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 30 })
  symbol: string;

  // stock | crypto | forex | index | commodity ...
  @Column({ type: 'varchar', length: 20 })
  type: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  // The exchange (MIC) whose session gates stock polling; null for 24/7 markets (crypto).
  @Column({ type: 'varchar', length: 10, nullable: true })
  exchangeId: string | null;

  // The SEC's Central Index Key of a US stock or ETF (10 digits, zero-padded): links filings to it.
  @Column({ type: 'varchar', length: 10, nullable: true })
  cik: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
