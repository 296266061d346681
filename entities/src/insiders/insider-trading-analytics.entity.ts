import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { InsiderTradingCompany } from './insider-trading-company.entity';

/** A company's insider activity over the 30 days up to analysisDate. */
@Entity({ name: 'insider_trading_analytics' })
@Unique('uq_insider_trading_analytics_company_date', ['companyId', 'analysisDate'])
export class InsiderTradingAnalytics {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  companyId: number;

  // Derived data: it goes with its company.
  @ManyToOne(() => InsiderTradingCompany, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: InsiderTradingCompany;

  @Column({ type: 'date' })
  analysisDate: string;

  @Column({ name: 'total_transactions_30d', type: 'integer', default: 0 })
  totalTransactions30d: number;

  @Column({ name: 'buy_transactions_30d', type: 'integer', default: 0 })
  buyTransactions30d: number;

  @Column({ name: 'sell_transactions_30d', type: 'integer', default: 0 })
  sellTransactions30d: number;

  // Shares bought minus shares sold.
  @Column({ name: 'net_shares_30d', type: 'numeric', precision: 20, scale: 4, default: 0 })
  netShares30d: string;

  // USD bought minus USD sold.
  @Column({ name: 'net_value_30d', type: 'numeric', precision: 24, scale: 2, default: 0 })
  netValue30d: string;

  // Shares traded either way.
  @Column({ name: 'total_volume_30d', type: 'numeric', precision: 20, scale: 4, default: 0 })
  totalVolume30d: string;

  // USD per transaction.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  avgTransactionSize: string | null;

  // bullish | bearish | neutral
  @Column({ type: 'varchar', length: 20, nullable: true })
  insiderSentiment: string | null;

  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  sentimentScore: string | null;

  // 0..1.
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true })
  confidenceLevel: string | null;

  // 0..100 among all companies on the same date.
  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  percentileRank: string | null;

  @Column({ type: 'boolean', default: false })
  isUnusualActivity: boolean;

  @Column({ type: 'varchar', length: 20, nullable: true })
  alertLevel: string | null;

  @Column({ type: 'text', nullable: true })
  alertReason: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
