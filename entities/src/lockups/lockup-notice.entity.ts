import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity';
import { LockupEvent } from './lockup-event.entity';

/**
 * A notice sent: one user, one event, one "days before" (14, 7, 1, or 0 on the day). Its primary
 * key is the never-twice rule, even when the user clears their notifications.
 */
@Entity({ name: 'lockup_notices' })
export class LockupNotice {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_lockup_notices_event_id')
  @PrimaryColumn({ type: 'integer' })
  eventId: number;

  @ManyToOne(() => LockupEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: LockupEvent;

  @PrimaryColumn({ type: 'smallint' })
  daysBefore: number;

  // The day of the notify run that sent it (a retry the same day dispatches it again, safely).
  @Column({ type: 'date' })
  notifiedOn: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
