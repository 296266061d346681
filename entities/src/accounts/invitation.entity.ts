import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { inList } from '../sql';
import { Team } from './team.entity';
import { TEAM_ROLES, type TeamRole } from './team-role';
import { User } from './user.entity';

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

@Entity({ name: 'invitations' })
@Check('chk_invitations_role', inList('role', TEAM_ROLES))
@Check('chk_invitations_status', inList('status', INVITATION_STATUSES))
@Unique('uq_invitations_token_hash', ['tokenHash'])
export class Invitation {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_invitations_team_id')
  @Column({ type: 'integer' })
  teamId: number;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Index('ix_invitations_email')
  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 20, default: 'member' })
  role: TeamRole;

  // A team's pending invitations stay valid when the member who sent them leaves.
  @Index('ix_invitations_invited_by')
  @Column({ type: 'integer', nullable: true })
  invitedBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by' })
  inviter?: User | null;

  @CreateDateColumn({ type: 'timestamptz' })
  invitedAt: Date;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status: InvitationStatus;

  // SHA-256 of the token in the emailed accept link (the raw token is never stored).
  @Column({ type: 'varchar', length: 64, nullable: true })
  tokenHash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  respondedAt: Date | null;
}
