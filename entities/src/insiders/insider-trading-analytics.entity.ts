import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { InsiderTradingCompany } from './insider-trading-company.entity';

/** A company's insider activity over the 30 days up to analysisDate. */
@Entity({ name: 'insider_trading_analytics' })
@Unique('uq_insider_trading_analytics_company_date', ['companyId', 'analysisDate'])
// Peer scores read one day across companies; the cluster-buy screens read the few cluster rows.
@Index('ix_insider_trading_analytics_date', ['analysisDate'])
@Index('ix_insider_trading_analytics_cluster_date', ['analysisDate'], { where: 'is_cluster_buy' })
@Index('ix_insider_trading_analytics_cluster_company_date', ['companyId', 'analysisDate'], { where: 'is_cluster_buy' })
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

  // Open-market purchases and sales (P/S) not under a 10b5-1 plan, USD: the sentiment's inputs.
  @Column({ type: 'numeric', precision: 24, scale: 2, default: 0 })
  discretionaryBuyValue: string;

  @Column({ type: 'numeric', precision: 24, scale: 2, default: 0 })
  discretionarySellValue: string;

  // Distinct insiders with an open-market purchase or sale in the window.
  @Column({ type: 'integer', default: 0 })
  distinctInsiders: number;

  // At least 3 distinct insiders bought on the open market in the window (clusterInsiders of them).
  @Column({ type: 'boolean', default: false })
  isClusterBuy: boolean;

  @Column({ type: 'integer', default: 0 })
  clusterInsiders: number;

  // 0..100: the score against the company's own history.
  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  historyPercentile: string | null;

  // The transaction ids the alertReason names.
  @Column({ type: 'jsonb', nullable: true })
  reasonTransactionIds: string[] | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  alertLevel: string | null;

  @Column({ type: 'text', nullable: true })
  alertReason: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
