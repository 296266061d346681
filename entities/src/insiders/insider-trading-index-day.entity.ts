import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A business day whose EDGAR daily form index (form.YYYYMMDD.idx) was read: the backstop that
 * finds every Form 4 the current-filings feed missed, and the checkpoint of the catch-up after an outage.
 */
@Entity({ name: 'insider_trading_index_days' })
export class InsiderTradingIndexDay {
  @PrimaryColumn({ type: 'date' })
  day: string;

  // Form 4 and 4/A rows the index listed, and how many of them were new to us.
  @Column({ type: 'integer', default: 0 })
  filingsListed: number;

  @Column({ type: 'integer', default: 0 })
  filingsNew: number;

  @Column({ type: 'timestamptz' })
  readAt: Date;
}
