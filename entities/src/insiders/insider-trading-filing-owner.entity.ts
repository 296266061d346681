import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InsiderTradingFiling } from './insider-trading-filing.entity';
import { InsiderTradingInsider } from './insider-trading-insider.entity';

/**
 * A reporting owner of a filing, with the relationship as filed. Joint filers (several owners of
 * one filing) each have a row here; the filing's transactions are stored once, under the first.
 */
@Entity({ name: 'insider_trading_filing_owners' })
export class InsiderTradingFilingOwner {
  @PrimaryColumn({ type: 'integer' })
  filingId: number;

  @ManyToOne(() => InsiderTradingFiling, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'filing_id' })
  filing?: InsiderTradingFiling;

  @Index('ix_insider_trading_filing_owners_insider_id')
  @PrimaryColumn({ type: 'integer' })
  insiderId: number;

  @ManyToOne(() => InsiderTradingInsider, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'insider_id' })
  insider?: InsiderTradingInsider;

  // 0 for the first owner listed (the one the transactions are stored under).
  @Column({ type: 'smallint', default: 0 })
  position: number;

  @Column({ type: 'boolean', default: false })
  isOfficer: boolean;

  @Column({ type: 'boolean', default: false })
  isDirector: boolean;

  @Column({ type: 'boolean', default: false })
  isTenPercentOwner: boolean;

  @Column({ type: 'boolean', default: false })
  isOther: boolean;

  @Column({ type: 'varchar', length: 200, nullable: true })
  officerTitle: string | null;
}
