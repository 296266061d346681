import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { InsiderTradingCompany } from './insider-trading-company.entity';
import { InsiderTradingInsider } from './insider-trading-insider.entity';

/** One transaction line of an SEC Form 4 (or 144) filing. */
@Entity({ name: 'insider_trading_transactions' })
// A filing can hold several lines for one insider on one day; these together identify a line,
// so re-importing a filing is a no-op.
@Unique('uq_insider_trading_transactions_natural_key', [
  'secAccessionNumber',
  'insiderId',
  'transactionDate',
  'transactionType',
  'sharesTraded',
  'pricePerShare',
])
@Index('ix_insider_trading_transactions_company_date', ['companyId', 'transactionDate'])
export class InsiderTradingTransaction {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'integer' })
  companyId: number;

  @ManyToOne(() => InsiderTradingCompany, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'company_id' })
  company?: InsiderTradingCompany;

  @Index('ix_insider_trading_transactions_insider_id')
  @Column({ type: 'integer' })
  insiderId: number;

  @ManyToOne(() => InsiderTradingInsider, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'insider_id' })
  insider?: InsiderTradingInsider;

  @Column({ type: 'date' })
  transactionDate: string;

  // SEC transaction code (P purchase, S sale, A grant, M exercise ...) or buy/sell.
  @Column({ type: 'varchar', length: 20 })
  transactionType: string;

  @Column({ type: 'numeric', precision: 20, scale: 4 })
  sharesTraded: string;

  // 0 for grants and other transfers without a price (part of the unique key, so never null).
  @Column({ type: 'numeric', precision: 30, scale: 10, default: 0 })
  pricePerShare: string;

  // USD.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  totalValue: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 4, nullable: true })
  sharesOwnedAfter: string | null;

  // Percent of shares outstanding, 0..100.
  @Column({ type: 'numeric', precision: 7, scale: 4, nullable: true })
  ownershipPercent: string | null;

  @Column({ type: 'varchar', length: 10, default: '4' })
  secFormType: string;

  // e.g. 0001127602-24-012345.
  @Column({ type: 'varchar', length: 25 })
  secAccessionNumber: string;

  @Column({ type: 'date', nullable: true })
  secFilingDate: string | null;

  @Column({ type: 'text', nullable: true })
  secUrl: string | null;

  // The insider's title or relationship as filed (CEO, Director, 10% Owner ...).
  @Column({ type: 'varchar', length: 200, nullable: true })
  relationship: string | null;

  // Form 144 notices of proposed sales.
  @Column({ type: 'boolean', default: false })
  isProposed: boolean;

  @Column({ type: 'varchar', length: 20, default: 'sec' })
  dataSource: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
