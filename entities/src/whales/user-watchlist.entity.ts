import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '../accounts/user.entity';
import { WhaleAddress } from './whale-address.entity';

/** A user following a whale address. */
@Entity({ name: 'user_watchlists' })
@Unique('uq_user_watchlists_user_address', ['userId', 'addressId'])
export class UserWatchlist {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_user_watchlists_address_id')
  @Column({ type: 'integer' })
  addressId: number;

  @ManyToOne(() => WhaleAddress, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'address_id' })
  address?: WhaleAddress;

  @Column({ type: 'varchar', length: 100, nullable: true })
  customLabel: string | null;

  @Column({ type: 'boolean', default: true })
  alertEnabled: boolean;

  // USD at block time; null uses the global threshold (WHALES_GLOBAL_USD_THRESHOLD).
  @Column({ type: 'numeric', precision: 24, scale: 2, nullable: true })
  alertThreshold: string | null;

  // immediate | hourly | daily
  @Column({ type: 'varchar', length: 20, default: 'immediate' })
  alertFrequency: string;

  // IANA time zone: daily digests go out at its local midnight.
  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timeZone: string;

  // The last alert written for this watch (shown on the watchlist).
  @Column({ type: 'timestamptz', nullable: true })
  lastAlertAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
