import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { isHourMinute } from '../sql';

/** A stock exchange and its regular trading session, in exchange-local time. Reference data. */
@Entity({ name: 'exchanges' })
@Check('chk_exchanges_open_time', isHourMinute('open_time'))
@Check('chk_exchanges_close_time', isHourMinute('close_time'))
@Check('chk_exchanges_break_start', isHourMinute('break_start'))
@Check('chk_exchanges_break_end', isHourMinute('break_end'))
@Check('chk_exchanges_break_pair', `("break_start" IS NULL) = ("break_end" IS NULL)`)
@Check('chk_exchanges_weekdays', `"weekdays" <@ ARRAY[0, 1, 2, 3, 4, 5, 6]::smallint[]`)
export class Exchange {
  // ISO 10383 market identifier code, e.g. XNYS.
  @PrimaryColumn({ type: 'varchar', length: 10 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 100 })
  location: string;

  // IANA time zone, e.g. America/New_York.
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  // 'HH:MM' local time.
  @Column({ type: 'varchar', length: 5 })
  openTime: string;

  @Column({ type: 'varchar', length: 5 })
  closeTime: string;

  // Lunch break ('HH:MM' local), for exchanges that have one (XTKS, XHKG ...).
  @Column({ type: 'varchar', length: 5, nullable: true })
  breakStart: string | null;

  @Column({ type: 'varchar', length: 5, nullable: true })
  breakEnd: string | null;

  // Trading weekdays, 0 = Sunday.
  @Column({ type: 'smallint', array: true })
  weekdays: number[];

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
