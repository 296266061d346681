import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { inList } from '../sql';

/** Where an event came from (jobs/src/lockups/lockups.shapes.ts LOCKUP_DATA_SOURCES). */
export const LOCKUP_EVENT_DATA_SOURCES = ['sec', 'sec-replay', 'simulated', 'csv'] as const;
/** scheduled | needs_review (no date: the wording was not read) | released_early | expired (lockups.shapes.ts LOCKUP_STATUSES). */
export const LOCKUP_EVENT_STATUSES = ['scheduled', 'needs_review', 'released_early', 'expired'] as const;

/**
 * One release step (tranche) of an IPO's (or follow-on's) lock-up: the day insiders may start
 * selling that part of their shares. One row per tranche of an offering; the offering is its
 * prospectus's accession number (or `csv:<TICKER>:<ipoDate>` for an operator's CSV row).
 */
@Entity({ name: 'lockup_events' })
// A re-parse of the same prospectus (or a re-import of the same CSV row) updates its rows, never duplicates them.
@Unique('uq_lockup_events_offering_tranche', ['offeringKey', 'tranche'])
@Index('ix_lockup_events_ticker', ['ticker'])
@Check('chk_lockup_events_status', inList('status', LOCKUP_EVENT_STATUSES))
@Check('chk_lockup_events_data_source', inList('data_source', LOCKUP_EVENT_DATA_SOURCES))
// Only a needs_review event has no date (never a guessed one).
@Check('chk_lockup_events_date', `"lockup_expiration_date" IS NOT NULL OR "status" = 'needs_review'`)
export class LockupEvent {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // Null only while the issuer's trading symbol is unknown (the event then needs review).
  @Column({ type: 'varchar', length: 20, nullable: true })
  ticker: string | null;

  @Column({ type: 'varchar', length: 200 })
  companyName: string;

  // The prospectus date (pricing); the filing date when the prospectus does not state one (reviewReason says so).
  @Column({ type: 'date' })
  ipoDate: string;

  // Null when the lock-up's wording was not read (status needs_review).
  @Index('ix_lockup_events_lockup_expiration_date')
  @Column({ type: 'date', nullable: true })
  lockupExpirationDate: string | null;

  // Shares released by this tranche.
  @Column({ type: 'numeric', precision: 20, scale: 0, nullable: true })
  sharesLockedUp: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 0, nullable: true })
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

  // 0..100, the sum of riskFactors' points.
  @Column({ type: 'numeric', precision: 5, scale: 1, default: 0 })
  riskScore: string;

  // SEC Central Index Key (10 digits) of the issuer.
  @Column({ type: 'varchar', length: 10, nullable: true })
  cik: string | null;

  // The prospectus's accession number, or csv:<TICKER>:<ipoDate>.
  @Column({ type: 'varchar', length: 60 })
  offeringKey: string;

  // 1-based step of the offering's lock-up, of `tranches`.
  @Column({ type: 'smallint', default: 1 })
  tranche: number;

  @Column({ type: 'smallint', default: 1 })
  tranches: number;

  // e.g. "180 days", "Day 1 (first trading day)".
  @Column({ type: 'varchar', length: 300, nullable: true })
  trancheLabel: string | null;

  // USD a share.
  @Column({ type: 'numeric', precision: 20, scale: 4, nullable: true })
  ipoPrice: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 0, nullable: true })
  sharesOffered: string | null;

  // Bookrunners as written in the prospectus.
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  underwriters: string[];

  // The headline lock-up period (180, 90 ...), null when event-based only.
  @Column({ type: 'integer', nullable: true })
  lockupDays: number | null;

  // Who is bound, in the clause's words.
  @Column({ type: 'text', nullable: true })
  boundParties: string | null;

  // The lock-up clause quoted (plain text).
  @Column({ type: 'text', nullable: true })
  clause: string | null;

  @Column({ type: 'varchar', length: 25, nullable: true })
  sourceAccession: string | null;

  @Column({ type: 'text', nullable: true })
  sourceUrl: string | null;

  // The date EDGAR filed the prospectus under (the review list's order).
  @Column({ type: 'date', nullable: true })
  filingDate: string | null;

  // sec | sec-replay | simulated | csv.
  @Column({ type: 'varchar', length: 12, default: 'sec' })
  dataSource: string;

  @Column({ type: 'varchar', length: 15, default: 'scheduled' })
  status: string;

  // Why the lock-up was not fully read (status needs_review), or what was assumed.
  @Column({ type: 'text', nullable: true })
  reviewReason: string | null;

  // The early-release triggers read from the clause (LockupEarlyReleaseView[]).
  @Column({ type: 'jsonb', default: () => "'[]'" })
  earlyRelease: unknown[];

  // The first day an early-release price trigger was met.
  @Column({ type: 'date', nullable: true })
  earlyReleaseMetOn: string | null;

  // The score's breakdown (LockupRiskFactorView[]).
  @Column({ type: 'jsonb', default: () => "'[]'" })
  riskFactors: unknown[];

  // Last close / IPO price - 1.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  runUp: string | null;

  // Average daily volume of the last 30 trading days / of the first 30 after the IPO.
  @Column({ type: 'numeric', precision: 12, scale: 4, nullable: true })
  avgVolumeRatio: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
