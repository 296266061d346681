import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { inList } from '../sql';
import { Team } from './team.entity';
import { TEAM_ROLES, type TeamRole } from './team-role';
import { User } from './user.entity';

@Entity({ name: 'team_members' })
@Unique('uq_team_members_team_user', ['teamId', 'userId'])
@Check('chk_team_members_role', inList('role', TEAM_ROLES))
export class TeamMember {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_team_members_user_id')
  @Column({ type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'integer' })
  teamId: number;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Column({ type: 'varchar', length: 20, default: 'member' })
  role: TeamRole;

  @CreateDateColumn({ type: 'timestamptz' })
  joinedAt: Date;
}
