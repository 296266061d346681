import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * The express-session store table, in the shape connect-pg-simple reads and writes
 * (sid, sess json, expire timestamp(6)). user_id is ours: the api sets it at sign-in so that
 * every session of a user can be ended at once (sign out everywhere, account deletion).
 */
@Entity({ name: 'sessions' })
export class Session {
  @PrimaryColumn({ type: 'varchar' })
  sid: string;

  @Column({ type: 'json' })
  sess: Record<string, unknown>;

  @Index('ix_sessions_expire')
  @Column({ type: 'timestamp', precision: 6 })
  expire: Date;

  @Index('ix_sessions_user_id')
  @Column({ type: 'integer', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User | null;
}
