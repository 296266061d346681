import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { inList } from '../sql';
import { ACTIVITY_ACTIONS, type ActivityAction } from './activity-action';
import { Team } from './team.entity';
import { User } from './user.entity';

@Entity({ name: 'activity_logs' })
@Index('ix_activity_logs_team_timestamp', ['teamId', 'timestamp'])
@Check('chk_activity_logs_action', inList('action', ACTIVITY_ACTIONS))
export class ActivityLog {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  // Null for activity outside any team (a sign-up before the first team exists).
  @Column({ type: 'integer', nullable: true })
  teamId: number | null;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Team | null;

  // The log outlives the user who acted: deleting the user only clears the reference.
  @Index('ix_activity_logs_user_id')
  @Column({ type: 'integer', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: User | null;

  @Column({ type: 'varchar', length: 40 })
  action: ActivityAction;

  @CreateDateColumn({ type: 'timestamptz' })
  timestamp: Date;

  // Long enough for any IPv6 text form.
  @Column({ type: 'varchar', length: 45, nullable: true })
  ipAddress: string | null;

  @Column({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null;
}
