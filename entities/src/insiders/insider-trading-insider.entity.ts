import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** A reporting owner (officer, director, 10% holder) as identified by the SEC. */
@Entity({ name: 'insider_trading_insiders' })
@Unique('uq_insider_trading_insiders_cik', ['cik'])
export class InsiderTradingInsider {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  // SEC Central Index Key, 10 digits zero-padded.
  @Column({ type: 'varchar', length: 10 })
  cik: string;

  @Column({ type: 'boolean', default: false })
  isOfficer: boolean;

  @Column({ type: 'boolean', default: false })
  isDirector: boolean;

  @Column({ type: 'boolean', default: false })
  isTenPercentOwner: boolean;

  @Column({ type: 'boolean', default: false })
  isOther: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
