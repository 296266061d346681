import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** The end of an IPO lock-up period, when insiders may start selling. */
@Entity({ name: 'lockup_events' })
// One lock-up per IPO: the natural key that makes the import idempotent.
@Unique('uq_lockup_events_ticker_ipo_date', ['ticker', 'ipoDate'])
export class LockupEvent {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 20 })
  ticker: string;

  @Column({ type: 'varchar', length: 200 })
  companyName: string;

  @Column({ type: 'date' })
  ipoDate: string;

  @Index('ix_lockup_events_lockup_expiration_date')
  @Column({ type: 'date' })
  lockupExpirationDate: string;

  @Column({ type: 'bigint', nullable: true })
  sharesLockedUp: string | null;

  @Column({ type: 'bigint', nullable: true })
  totalSharesOutstanding: string | null;

  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  currentPrice: string | null;

  // USD.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  marketCap: string | null;

  @Column({ type: 'boolean', default: false })
  vcBacked: boolean;

  @Column({ type: 'varchar', length: 100, nullable: true })
  industry: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, default: 0 })
  riskScore: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
