import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { inList, isHourMinute } from '../sql';
import { Exchange } from './exchange.entity';

export const CALENDAR_DAY_KINDS = ['holiday', 'early_close', 'late_open'] as const;
export type CalendarDayKind = (typeof CALENDAR_DAY_KINDS)[number];

/** A day on which an exchange deviates from its regular session. */
@Entity({ name: 'exchange_calendar_days' })
@Unique('uq_exchange_calendar_days_exchange_date', ['exchangeId', 'date'])
@Check('chk_exchange_calendar_days_kind', inList('kind', CALENDAR_DAY_KINDS))
@Check('chk_exchange_calendar_days_open_time', isHourMinute('open_time'))
@Check('chk_exchange_calendar_days_close_time', isHourMinute('close_time'))
export class ExchangeCalendarDay {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 10 })
  exchangeId: string;

  @ManyToOne(() => Exchange, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'exchange_id' })
  exchange?: Exchange;

  // Exchange-local calendar date.
  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'varchar', length: 20 })
  kind: CalendarDayKind;

  // The day's session ('HH:MM' local) for early_close / late_open; null on holidays.
  @Column({ type: 'varchar', length: 5, nullable: true })
  openTime: string | null;

  @Column({ type: 'varchar', length: 5, nullable: true })
  closeTime: string | null;

  // e.g. Independence Day.
  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  // Where the entry came from (the exchange's published calendar, a file ...).
  @Column({ type: 'varchar', length: 200, nullable: true })
  source: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
