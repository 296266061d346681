import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { InsiderTradingCompany } from './insider-trading-company.entity';
import { InsiderTradingFiling } from './insider-trading-filing.entity';
import { InsiderTradingInsider } from './insider-trading-insider.entity';

/** One transaction line of an SEC Form 4 (or 144) filing. */
@Entity({ name: 'insider_trading_transactions' })
// A line is its filing's table and its position in that table: re-importing a filing is a no-op,
// and two identical lines of one filing (the same trade reported twice the same day) both stay.
@Unique('uq_insider_trading_transactions_line', ['secAccessionNumber', 'tableKind', 'lineNumber'])
@Index('ix_insider_trading_transactions_company_date', ['companyId', 'transactionDate'])
// The screener's default orders: newest filings first, newest trades first.
@Index('ix_insider_trading_transactions_filing_date', ['secFilingDate', 'id'])
@Index('ix_insider_trading_transactions_trade_date', ['transactionDate', 'id'])
@Index('ix_insider_trading_transactions_code_date', ['transactionType', 'transactionDate'])
// The screener's "largest first" orders (by value, by shares).
@Index('ix_insider_trading_transactions_value', ['totalValue', 'id'])
@Index('ix_insider_trading_transactions_shares', ['sharesTraded', 'id'])
// Open-market purchases, read index-only by the cluster-buys screen (a few percent of all lines).
@Index('ix_insider_trading_transactions_purchases', ['companyId', 'transactionDate', 'secFilingDate', 'id'], { where: "transaction_type = 'P'" })
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

  // The filing the line came from; its rows go with it (an amendment replaces them).
  @Index('ix_insider_trading_transactions_filing_id')
  @Column({ type: 'integer', nullable: true })
  filingId: number | null;

  @ManyToOne(() => InsiderTradingFiling, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'filing_id' })
  filing?: InsiderTradingFiling;

  // The reporting owner's relationship as filed on this line's filing (the first owner's, under whom
  // the line is stored): the screener's role filter reads these instead of a lookup per line.
  @Column({ type: 'boolean', default: false })
  filedAsOfficer: boolean;

  @Column({ type: 'boolean', default: false })
  filedAsDirector: boolean;

  @Column({ type: 'boolean', default: false })
  filedAsTenPercentOwner: boolean;

  @Column({ type: 'boolean', default: false })
  filedAsOther: boolean;

  // 'non-derivative' (Table I) or 'derivative' (Table II).
  @Column({ type: 'varchar', length: 14, default: 'non-derivative' })
  tableKind: string;

  // 1-based position of the line in its table (holdings are not counted).
  @Column({ type: 'smallint', default: 1 })
  lineNumber: number;

  @Column({ type: 'varchar', length: 200, nullable: true })
  securityTitle: string | null;

  @Column({ type: 'date' })
  transactionDate: string;

  // SEC transaction code (P purchase, S sale, A grant, M exercise ...) or buy/sell.
  @Column({ type: 'varchar', length: 20 })
  transactionType: string;

  @Column({ type: 'numeric', precision: 20, scale: 4 })
  sharesTraded: string;

  // As filed; null when the line gives no price (or only a footnote).
  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  pricePerShare: string | null;

  // A acquired, D disposed.
  @Column({ type: 'char', length: 1, nullable: true })
  acquiredDisposed: string | null;

  // True when the price is a weighted average of several trades (its range is in priceFootnote).
  @Column({ type: 'boolean', default: false })
  isWeightedPrice: boolean;

  // The footnote(s) attached to the price, e.g. the range of a weighted-average price.
  @Column({ type: 'text', nullable: true })
  priceFootnote: string | null;

  // USD: shares x price; null without a price.
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  totalValue: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 4, nullable: true })
  sharesOwnedAfter: string | null;

  // D direct, I indirect (natureOfOwnership says how, e.g. "By Spouse").
  @Column({ type: 'char', length: 1, nullable: true })
  directOrIndirect: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  natureOfOwnership: string | null;

  // Derivative lines: exercise or conversion price, underlying security and shares.
  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  exercisePrice: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  underlyingTitle: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 4, nullable: true })
  underlyingShares: string | null;

  // Made under a Rule 10b5-1 plan: true / false / null (unknown: a schema without the checkbox and no footnote saying so).
  @Column({ type: 'boolean', nullable: true })
  rule10b5One: boolean | null;

  // Cohen-Malloy-Pomorski, set by the analytics: 'routine' | 'opportunistic', null while unknown (under 3 years of history).
  @Column({ type: 'varchar', length: 13, nullable: true })
  traderPattern: string | null;

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
