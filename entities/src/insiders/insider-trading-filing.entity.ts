import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { InsiderTradingCompany } from './insider-trading-company.entity';

/**
 * One Form 4 or 4/A as EDGAR published it: parsed (its lines are insider_trading_transactions) or
 * failed (with the reason, retried a bounded number of times). The raw document stays on sec.gov
 * (secUrl); the footnotes are kept because they explain values (weighted prices, 10b5-1 plans).
 */
@Entity({ name: 'insider_trading_filings' })
@Unique('uq_insider_trading_filings_accession', ['accessionNumber'])
@Check('chk_insider_trading_filings_status', `"status" IN ('pending', 'parsed', 'failed')`)
@Index('ix_insider_trading_filings_filed_at', ['filedAt', 'id'])
export class InsiderTradingFiling {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // e.g. 0001127602-25-001055.
  @Column({ type: 'varchar', length: 25 })
  accessionNumber: string;

  // '4' or '4/A' as filed (from the document when parsed, from the feed or index before).
  @Column({ type: 'varchar', length: 10, default: '4' })
  formType: string;

  // pending: discovered, not fetched yet; parsed; failed (failureReason says why).
  @Column({ type: 'varchar', length: 10, default: 'pending' })
  status: string;

  @Column({ type: 'text', nullable: true })
  failureReason: string | null;

  // Fetch-and-parse attempts; a failed filing is retried until INSIDERS_MAX_FILING_ATTEMPTS.
  @Column({ type: 'smallint', default: 0 })
  attempts: number;

  @Index('ix_insider_trading_filings_company_id')
  @Column({ type: 'integer', nullable: true })
  companyId: number | null;

  @ManyToOne(() => InsiderTradingCompany, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'company_id' })
  company?: InsiderTradingCompany;

  // The issuer's CIK (10 digits) as discovered, before the filing is parsed.
  @Column({ type: 'varchar', length: 10, nullable: true })
  issuerCik: string | null;

  // EDGAR's acceptance time (the feed's <updated>, or the index's date at 00:00 New York time).
  @Column({ type: 'timestamptz', nullable: true })
  filedAt: Date | null;

  // The business date EDGAR filed it under.
  @Column({ type: 'date', nullable: true })
  filingDate: string | null;

  @Column({ type: 'date', nullable: true })
  periodOfReport: string | null;

  // X0202 .. X0609.
  @Column({ type: 'varchar', length: 10, nullable: true })
  schemaVersion: string | null;

  // The filing's 10b5-1 answer: the checkbox (aff10b5One) where the schema has it, else a footnote; null unknown.
  @Column({ type: 'boolean', nullable: true })
  rule10b5One: boolean | null;

  // A 4/A: the original's date of submission, and the original filing whose rows it replaced.
  @Column({ type: 'date', nullable: true })
  dateOfOriginalSubmission: string | null;

  @Column({ type: 'integer', nullable: true })
  amendsFilingId: number | null;

  // Set on an original when an amendment replaced its rows.
  @Column({ type: 'integer', nullable: true })
  amendedByFilingId: number | null;

  // Footnote id -> text, as filed.
  @Column({ type: 'jsonb', nullable: true })
  footnotes: Record<string, string> | null;

  @Column({ type: 'text', nullable: true })
  remarks: string | null;

  // The filing's index page on sec.gov.
  @Column({ type: 'text', nullable: true })
  secUrl: string | null;

  // How it was found: feed | index | submissions | import.
  @Column({ type: 'varchar', length: 12, default: 'feed' })
  discoveredVia: string;

  @Column({ type: 'timestamptz', nullable: true })
  discoveredAt: Date | null;

  // When its rows were written (freshness: storedAt - discoveredAt).
  @Column({ type: 'timestamptz', nullable: true })
  storedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
