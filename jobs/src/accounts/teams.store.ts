import type { DataSource, EntityManager } from 'typeorm';
import { ActivityLog, Invitation, Team, TeamMember, User, type ActivityAction, type InvitationStatus, type TeamRole } from '@tickerbell/entities';
import type { Entitlements } from '../billing/entitlements';
import { AccountsError } from './accounts-error';
import { logActivity } from './accounts.store';
import { normalizeEmail } from './account-tokens';
import { canActOnMember, canGrantRole, canManageMembers, checkOwnerRemains, invitationExpired } from './team-rules';

/** Every query of teams, their members, invitations and activity log. Refusals: AccountsError. */

type Db = DataSource | EntityManager;

const teamNotFound = () => new AccountsError('not_found', 'Team not found');
const memberNotFound = () => new AccountsError('not_found', 'Member not found');
const forbidden = (message: string) => new AccountsError('forbidden', message);
const lastOwner = () => new AccountsError('last_owner', 'A team keeps at least one owner: make someone else owner first');

/**
 * The caller's membership of a team. Not a member: `not_found`, the same as a team that does not
 * exist, so ids reveal nothing. `lock` takes a row lock on the team, serialising member changes.
 */
async function membershipOf(db: Db, teamId: number, userId: number, lock = false): Promise<TeamMember> {
  if (lock) await db.query('SELECT id FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
  const member = await db.getRepository(TeamMember).findOne({ where: { teamId, userId } });
  if (!member) throw teamNotFound();
  return member;
}

export interface TeamSummary {
  id: number;
  name: string;
  role: TeamRole;
  planName: string | null;
  subscriptionStatus: string;
}

export interface TeamMemberView {
  userId: number;
  role: TeamRole;
  joinedAt: string;
  name: string | null;
  email: string;
  image: string | null;
}

export interface TeamView {
  id: number;
  name: string;
  /** The caller's role. */
  role: TeamRole;
  members: TeamMemberView[];
}

export interface InvitationView {
  id: number;
  teamId: number;
  email: string;
  role: TeamRole;
  status: InvitationStatus;
  invitedBy: number | null;
  invitedAt: string;
}

export interface TeamActivityItem {
  id: number;
  action: ActivityAction;
  userId: number | null;
  timestamp: string;
  ipAddress: string | null;
  details: Record<string, unknown> | null;
}

async function membersOf(db: Db, teamId: number): Promise<TeamMemberView[]> {
  const rows = await db
    .getRepository(TeamMember)
    .createQueryBuilder('m')
    .innerJoin(User, 'u', 'u.id = m.userId')
    .select(['m.userId AS "userId"', 'm.role AS role', 'm.joinedAt AS "joinedAt"', 'u.name AS name', 'u.email AS email', 'u.image AS image'])
    .where('m.teamId = :teamId', { teamId })
    .orderBy('m.joinedAt', 'ASC')
    .getRawMany<{ userId: number; role: TeamRole; joinedAt: Date; name: string | null; email: string; image: string | null }>();
  return rows.map((row) => ({ ...row, joinedAt: new Date(row.joinedAt).toISOString() }));
}

function invitationView(invitation: Invitation, status: InvitationStatus = invitation.status): InvitationView {
  return {
    id: invitation.id,
    teamId: invitation.teamId,
    email: invitation.email,
    role: invitation.role,
    status,
    invitedBy: invitation.invitedBy,
    invitedAt: invitation.invitedAt.toISOString(),
  };
}

/** A pending invitation past its time shows as `expired` before housekeeping marks it. */
function statusAt(invitation: Invitation, now: Date): InvitationStatus {
  return invitation.status === 'pending' && invitationExpired(invitation.invitedAt, now) ? 'expired' : invitation.status;
}

// ---- teams and members ----------------------------------------------------------------------

/** A new team owned by its creator (CREATE_TEAM logged). */
export function createTeam(dataSource: DataSource, userId: number, name: string, ipAddress: string | null): Promise<Team> {
  return dataSource.transaction(async (manager) => {
    const created = await manager.getRepository(Team).save(manager.getRepository(Team).create({ name }));
    await manager.getRepository(TeamMember).insert({ teamId: created.id, userId, role: 'owner' });
    await logActivity(manager, { teamId: created.id, userId, action: 'CREATE_TEAM', ipAddress, details: { name } });
    return created;
  });
}

/** The user's teams with their role, oldest membership first. */
export function listTeams(db: Db, userId: number): Promise<TeamSummary[]> {
  return db
    .getRepository(TeamMember)
    .createQueryBuilder('m')
    .innerJoin(Team, 't', 't.id = m.teamId')
    .select(['t.id AS id', 't.name AS name', 'm.role AS role', 't.planName AS "planName"', 't.subscriptionStatus AS "subscriptionStatus"'])
    .where('m.userId = :userId', { userId })
    .orderBy('m.joinedAt', 'ASC')
    .getRawMany<TeamSummary>();
}

/** A team the user belongs to, with its members. */
export async function getTeam(db: Db, teamId: number, userId: number): Promise<TeamView> {
  const member = await membershipOf(db, teamId, userId);
  const team = await db.getRepository(Team).findOneByOrFail({ id: teamId });
  return { id: team.id, name: team.name, role: member.role, members: await membersOf(db, teamId) };
}

/** The members of a team the user belongs to. */
export async function listMembers(db: Db, teamId: number, userId: number): Promise<TeamMemberView[]> {
  await membershipOf(db, teamId, userId);
  return membersOf(db, teamId);
}

/** An owner or admin changes a member's role; the team always keeps an owner. */
export async function changeMemberRole(dataSource: DataSource, teamId: number, actorId: number, targetId: number, role: TeamRole): Promise<void> {
  await dataSource.transaction(async (manager) => {
    const actor = await membershipOf(manager, teamId, actorId, true);
    if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins manage members');
    const target = await manager.getRepository(TeamMember).findOne({ where: { teamId, userId: targetId } });
    if (!target) throw memberNotFound();
    if (!canActOnMember(actor.role, target.role) || !canGrantRole(actor.role, role)) throw forbidden('Your role cannot make this change');
    const owners = await manager.getRepository(TeamMember).count({ where: { teamId, role: 'owner' } });
    if (checkOwnerRemains(target.role, role, owners)) throw lastOwner();
    await manager.getRepository(TeamMember).update({ id: target.id }, { role });
  });
}

/**
 * A member leaves, or a manager whose role is not below theirs removes them (REMOVE_TEAM_MEMBER
 * logged). Answers the members left: the caller requests the subscription's seat sync.
 */
export async function removeMember(dataSource: DataSource, teamId: number, actorId: number, targetId: number, ipAddress: string | null): Promise<{ members: number }> {
  return dataSource.transaction(async (manager) => {
    const actor = await membershipOf(manager, teamId, actorId, true);
    const target = await manager.getRepository(TeamMember).findOne({ where: { teamId, userId: targetId } });
    if (!target) throw memberNotFound();
    if (targetId !== actorId && !canActOnMember(actor.role, target.role)) throw forbidden('Your role cannot remove this member');
    const owners = await manager.getRepository(TeamMember).count({ where: { teamId, role: 'owner' } });
    if (checkOwnerRemains(target.role, null, owners)) throw lastOwner();
    await manager.getRepository(TeamMember).delete({ id: target.id });
    await logActivity(manager, { teamId, userId: actorId, action: 'REMOVE_TEAM_MEMBER', ipAddress, details: { removedUserId: targetId, left: targetId === actorId } });
    // The seats now taken, for the caller's seat sync (billing).
    return { members: await manager.getRepository(TeamMember).count({ where: { teamId } }) };
  });
}

// ---- invitations ----------------------------------------------------------------------------

export interface NewInvitation {
  teamId: number;
  inviterId: number;
  /** Normalised (normalizeEmail). */
  email: string;
  role: TeamRole;
  /** The hash of the token sent in the email (createAccountToken). */
  tokenHash: string;
  ipAddress: string | null;
  now: Date;
}

/**
 * An owner or admin invites an address with a role up to their own; a new invitation replaces a
 * pending one to the same address (INVITE_TEAM_MEMBER logged). The team's name is for the email.
 */
export function inviteMember(dataSource: DataSource, input: NewInvitation): Promise<{ invitation: InvitationView; teamName: string }> {
  const { teamId, email, role } = input;
  return dataSource.transaction(async (manager) => {
    const actor = await membershipOf(manager, teamId, input.inviterId, true);
    if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins invite members');
    if (!canGrantRole(actor.role, role)) throw forbidden('Your role cannot invite with this role');
    const alreadyMember = await manager
      .getRepository(TeamMember)
      .createQueryBuilder('m')
      .innerJoin(User, 'u', 'u.id = m.userId AND u.deletedAt IS NULL')
      .where('m.teamId = :teamId AND lower(u.email) = :email', { teamId, email })
      .getExists();
    if (alreadyMember) throw new AccountsError('already_member', 'This person is already a member of the team');
    await manager.getRepository(Invitation).update({ teamId, email, status: 'pending' }, { status: 'revoked', respondedAt: input.now });
    const created = await manager.getRepository(Invitation).save(
      manager.getRepository(Invitation).create({ teamId, email, role, invitedBy: input.inviterId, status: 'pending', tokenHash: input.tokenHash }),
    );
    await logActivity(manager, { teamId, userId: input.inviterId, action: 'INVITE_TEAM_MEMBER', ipAddress: input.ipAddress, details: { email, role } });
    const team = await manager.getRepository(Team).findOneByOrFail({ id: teamId });
    return { invitation: invitationView(created), teamName: team.name };
  });
}

/** A team's invitations, newest first, for its owners and admins. */
export async function listInvitations(db: Db, teamId: number, userId: number, now: Date): Promise<InvitationView[]> {
  const actor = await membershipOf(db, teamId, userId);
  if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins see invitations');
  const rows = await db.getRepository(Invitation).find({ where: { teamId }, order: { invitedAt: 'DESC' } });
  return rows.map((row) => invitationView(row, statusAt(row, now)));
}

/** An owner or admin revokes a pending invitation. */
export async function revokeInvitation(dataSource: DataSource, teamId: number, invitationId: number, userId: number, now: Date): Promise<void> {
  const actor = await membershipOf(dataSource, teamId, userId);
  if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins revoke invitations');
  const result = await dataSource.getRepository(Invitation).update({ id: invitationId, teamId, status: 'pending' }, { status: 'revoked', respondedAt: now });
  if (!result.affected) throw new AccountsError('not_found', 'Invitation not found or no longer pending');
}

export interface InvitationOffer {
  teamName: string | undefined;
  email: string;
  role: TeamRole;
  status: InvitationStatus;
}

/** What an invitation offers, by the hash of its token (the token is the authority). */
export async function lookupInvitation(db: Db, tokenHash: string, now: Date): Promise<InvitationOffer> {
  const invitation = await db.getRepository(Invitation).findOne({ where: { tokenHash }, relations: { team: true } });
  if (!invitation) throw new AccountsError('not_found', 'Invitation not found');
  return { teamName: invitation.team?.name, email: invitation.email, role: invitation.role, status: statusAt(invitation, now) };
}

/**
 * The signed-in user accepts an invitation sent to their address (ACCEPT_INVITATION logged).
 * A pending one past its time is marked expired (that is kept) and refused: `invitation_expired`.
 * A new member takes a seat of the team's plan: checked with the team row locked, so two accepts
 * for the last seat cannot both pass (the entitlements' EntitlementError, nothing written). The
 * caller requests the subscription's seat sync after the commit (`joined`, `members` after it).
 */
export async function acceptInvitation(
  dataSource: DataSource,
  input: { tokenHash: string; userId: number; userEmail: string; ipAddress: string | null; now: Date },
  entitlements: Entitlements,
): Promise<{ teamId: number; role: TeamRole; joined: boolean; members: number }> {
  const result = await dataSource.transaction(async (manager) => {
    const invitation = await manager
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.tokenHash = :hash', { hash: input.tokenHash })
      .getOne();
    if (!invitation) throw new AccountsError('not_found', 'Invitation not found');
    // The link is for one address: someone else signed in cannot use it.
    if (normalizeEmail(invitation.email) !== normalizeEmail(input.userEmail)) {
      throw forbidden('This invitation was sent to another email address');
    }
    if (invitation.status === 'pending' && invitationExpired(invitation.invitedAt, input.now)) {
      await manager.getRepository(Invitation).update({ id: invitation.id }, { status: 'expired' });
      return { expired: true as const };
    }
    if (invitation.status !== 'pending') throw new AccountsError('invitation_not_pending', `This invitation is ${invitation.status}`);
    // Member changes of the team are serialised by its row lock (as everywhere in this file).
    await manager.query('SELECT id FROM teams WHERE id = $1 FOR UPDATE', [invitation.teamId]);
    const alreadyMember = await manager.getRepository(TeamMember).exists({ where: { teamId: invitation.teamId, userId: input.userId } });
    if (!alreadyMember) await entitlements.checkSeat(manager, invitation.teamId, input.now);
    await manager
      .createQueryBuilder()
      .insert()
      .into(TeamMember)
      .values({ teamId: invitation.teamId, userId: input.userId, role: invitation.role })
      .orIgnore()
      .execute();
    await manager.getRepository(Invitation).update({ id: invitation.id }, { status: 'accepted', respondedAt: input.now });
    await logActivity(manager, {
      teamId: invitation.teamId,
      userId: input.userId,
      action: 'ACCEPT_INVITATION',
      ipAddress: input.ipAddress,
      details: { invitationId: invitation.id },
    });
    const members = await manager.getRepository(TeamMember).count({ where: { teamId: invitation.teamId } });
    return { teamId: invitation.teamId, role: invitation.role, joined: !alreadyMember, members };
  });
  // Outside the transaction: the expiry it recorded stays.
  if ('expired' in result) throw new AccountsError('invitation_expired', 'This invitation has expired');
  return result;
}

// ---- activity -------------------------------------------------------------------------------

/** A page of a team's activity log, newest first, for its members. */
export async function teamActivity(
  db: Db,
  teamId: number,
  userId: number,
  page: { page: number; pageSize: number },
): Promise<{ total: number; items: TeamActivityItem[] }> {
  await membershipOf(db, teamId, userId);
  const [rows, total] = await db.getRepository(ActivityLog).findAndCount({
    where: { teamId },
    order: { timestamp: 'DESC', id: 'DESC' },
    skip: (page.page - 1) * page.pageSize,
    take: page.pageSize,
  });
  return {
    total,
    items: rows.map((row) => ({
      id: Number(row.id),
      action: row.action,
      userId: row.userId,
      timestamp: row.timestamp.toISOString(),
      ipAddress: row.ipAddress,
      details: row.details,
    })),
  };
}
