import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** An SEC-registered issuer whose insiders' trades are tracked. Reference data. */
@Entity({ name: 'insider_trading_companies' })
@Unique('uq_insider_trading_companies_ticker', ['ticker'])
@Unique('uq_insider_trading_companies_cik', ['cik'])
export class InsiderTradingCompany {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // Null for an issuer without a trading symbol (funds, private issuers); unique when set. When a
  // ticker moves to another CIK (a reused symbol), the store clears it on the company that had it.
  @Column({ type: 'varchar', length: 20, nullable: true })
  ticker: string | null;

  @Column({ type: 'varchar', length: 200 })
  companyName: string;

  // SEC Central Index Key, 10 digits zero-padded.
  @Column({ type: 'varchar', length: 10 })
  cik: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  industry: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  sector: string | null;

  // USD.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  marketCap: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
