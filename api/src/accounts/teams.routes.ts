import { Router, type Request } from 'express';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import { ActivityLog, Invitation, TEAM_ROLES, Team, TeamMember, User, type TeamRole } from '@tickerbell/entities';
import {
  INVITATION_TTL_DAYS,
  canActOnMember,
  canGrantRole,
  canManageMembers,
  checkOwnerRemains,
  createAccountToken,
  hashAccountToken,
  invitationEmail,
  normalizeEmail,
  siteLink,
} from '@tickerbell/jobs';
import { HttpError, notFound } from '../http/errors';
import type { AccountsContext } from './accounts.context';
import { clientIp, enqueueMail, logActivity } from './accounts.service';
import { requireUser, sessionUser } from './require-user';

const id = z.coerce.number().int().positive();
const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
const lastOwner = () => new HttpError(409, 'last_owner', 'A team keeps at least one owner: make someone else owner first');

/**
 * The caller's membership of a team. Not a member: 404, the same as a team that does not exist,
 * so ids reveal nothing. `lock` takes a row lock on the team, serialising member changes.
 */
async function membershipOf(manager: EntityManager, teamId: number, userId: number, lock = false): Promise<TeamMember> {
  if (lock) await manager.query('SELECT id FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
  const member = await manager.getRepository(TeamMember).findOne({ where: { teamId, userId } });
  if (!member) throw notFound('Team not found');
  return member;
}

async function membersOf(manager: EntityManager, teamId: number) {
  const rows = await manager
    .getRepository(TeamMember)
    .createQueryBuilder('m')
    .innerJoin(User, 'u', 'u.id = m.userId')
    .select(['m.userId AS "userId"', 'm.role AS role', 'm.joinedAt AS "joinedAt"', 'u.name AS name', 'u.email AS email', 'u.image AS image'])
    .where('m.teamId = :teamId', { teamId })
    .orderBy('m.joinedAt', 'ASC')
    .getRawMany<{ userId: number; role: TeamRole; joinedAt: Date; name: string | null; email: string; image: string | null }>();
  return rows.map((row) => ({ ...row, joinedAt: new Date(row.joinedAt).toISOString() }));
}

function invitationBody(invitation: Invitation) {
  return {
    id: invitation.id,
    teamId: invitation.teamId,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status,
    invitedBy: invitation.invitedBy,
    invitedAt: invitation.invitedAt.toISOString(),
  };
}

/** Teams, members, invitations and each team's activity log. */
export function teamsRoutes(ctx: AccountsContext): Router {
  const { dataSource, queues, config, clock } = ctx;
  const router = Router();
  const ip = (req: Request) => clientIp(req.ip);
  const teamParam = (req: Request) => id.parse(req.params.teamId);
  const invitationExpired = (invitation: Invitation) =>
    invitation.invitedAt.getTime() + INVITATION_TTL_DAYS * 24 * 3600 * 1000 <= clock.now().getTime();

  router.post('/teams', requireUser, async (req, res) => {
    const body = z.object({ name: z.string().trim().min(1).max(100), csrfToken: z.string().optional() }).strict().parse(req.body);
    const userId = sessionUser(req).id;
    const team = await dataSource.transaction(async (manager) => {
      const created = await manager.getRepository(Team).save(manager.getRepository(Team).create({ name: body.name }));
      await manager.getRepository(TeamMember).insert({ teamId: created.id, userId, role: 'owner' });
      await logActivity(manager, { teamId: created.id, userId, action: 'CREATE_TEAM', ipAddress: ip(req), details: { name: body.name } });
      return created;
    });
    res.status(201).json({ id: team.id, name: team.name, role: 'owner' });
  });

  router.get('/teams', requireUser, async (req, res) => {
    const rows = await dataSource
      .getRepository(TeamMember)
      .createQueryBuilder('m')
      .innerJoin(Team, 't', 't.id = m.teamId')
      .select(['t.id AS id', 't.name AS name', 'm.role AS role', 't.planName AS "planName"', 't.subscriptionStatus AS "subscriptionStatus"'])
      .where('m.userId = :userId', { userId: sessionUser(req).id })
      .orderBy('m.joinedAt', 'ASC')
      .getRawMany();
    res.json({ teams: rows });
  });

  router.get('/teams/:teamId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const member = await membershipOf(dataSource.manager, teamId, sessionUser(req).id);
    const team = await dataSource.getRepository(Team).findOneByOrFail({ id: teamId });
    res.json({ id: team.id, name: team.name, role: member.role, members: await membersOf(dataSource.manager, teamId) });
  });

  router.get('/teams/:teamId/members', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    await membershipOf(dataSource.manager, teamId, sessionUser(req).id);
    res.json({ members: await membersOf(dataSource.manager, teamId) });
  });

  router.patch('/teams/:teamId/members/:userId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const targetId = id.parse(req.params.userId);
    const { role } = z.object({ role: z.enum(TEAM_ROLES), csrfToken: z.string().optional() }).strict().parse(req.body);
    await dataSource.transaction(async (manager) => {
      const actor = await membershipOf(manager, teamId, sessionUser(req).id, true);
      if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins manage members');
      const target = await manager.getRepository(TeamMember).findOne({ where: { teamId, userId: targetId } });
      if (!target) throw notFound('Member not found');
      if (!canActOnMember(actor.role, target.role) || !canGrantRole(actor.role, role)) throw forbidden('Your role cannot make this change');
      const owners = await manager.getRepository(TeamMember).count({ where: { teamId, role: 'owner' } });
      if (checkOwnerRemains(target.role, role, owners)) throw lastOwner();
      await manager.getRepository(TeamMember).update({ id: target.id }, { role });
    });
    res.json({ teamId, userId: targetId, role });
  });

  router.delete('/teams/:teamId/members/:userId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const targetId = id.parse(req.params.userId);
    const actorId = sessionUser(req).id;
    await dataSource.transaction(async (manager) => {
      const actor = await membershipOf(manager, teamId, actorId, true);
      const target = await manager.getRepository(TeamMember).findOne({ where: { teamId, userId: targetId } });
      if (!target) throw notFound('Member not found');
      // Anyone may leave; removing someone else takes a manager whose role is not below theirs.
      if (targetId !== actorId && !canActOnMember(actor.role, target.role)) throw forbidden('Your role cannot remove this member');
      const owners = await manager.getRepository(TeamMember).count({ where: { teamId, role: 'owner' } });
      if (checkOwnerRemains(target.role, null, owners)) throw lastOwner();
      await manager.getRepository(TeamMember).delete({ id: target.id });
      await logActivity(manager, { teamId, userId: actorId, action: 'REMOVE_TEAM_MEMBER', ipAddress: ip(req), details: { removedUserId: targetId, left: targetId === actorId } });
    });
    res.status(204).end();
  });

  router.post('/teams/:teamId/invitations', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const body = z.object({ email: z.email().max(255), role: z.enum(TEAM_ROLES).default('member'), csrfToken: z.string().optional() }).strict().parse(req.body);
    const email = normalizeEmail(body.email);
    const inviter = sessionUser(req);
    const { token, hash } = createAccountToken();
    const { invitation, team } = await dataSource.transaction(async (manager) => {
      const actor = await membershipOf(manager, teamId, inviter.id, true);
      if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins invite members');
      if (!canGrantRole(actor.role, body.role)) throw forbidden('Your role cannot invite with this role');
      const alreadyMember = await manager
        .getRepository(TeamMember)
        .createQueryBuilder('m')
        .innerJoin(User, 'u', 'u.id = m.userId AND u.deletedAt IS NULL')
        .where('m.teamId = :teamId AND lower(u.email) = :email', { teamId, email })
        .getExists();
      if (alreadyMember) throw new HttpError(409, 'already_member', 'This person is already a member of the team');
      // A new invitation replaces a pending one to the same address.
      await manager.getRepository(Invitation).update({ teamId, email, status: 'pending' }, { status: 'revoked', respondedAt: clock.now() });
      const created = await manager.getRepository(Invitation).save(
        manager.getRepository(Invitation).create({ teamId, email, role: body.role, invitedBy: inviter.id, status: 'pending', tokenHash: hash }),
      );
      await logActivity(manager, { teamId, userId: inviter.id, action: 'INVITE_TEAM_MEMBER', ipAddress: ip(req), details: { email, role: body.role } });
      return { invitation: created, team: await manager.getRepository(Team).findOneByOrFail({ id: teamId }) };
    });
    await enqueueMail(
      queues,
      invitationEmail(email, team.name, body.role, inviter.name ?? inviter.email, siteLink(config.PUBLIC_URL, '/invitations/accept', { token })),
    );
    res.status(201).json(invitationBody(invitation));
  });

  router.get('/teams/:teamId/invitations', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const actor = await membershipOf(dataSource.manager, teamId, sessionUser(req).id);
    if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins see invitations');
    const rows = await dataSource.getRepository(Invitation).find({ where: { teamId }, order: { invitedAt: 'DESC' } });
    res.json({ invitations: rows.map((row) => invitationBody({ ...row, status: row.status === 'pending' && invitationExpired(row) ? 'expired' : row.status })) });
  });

  router.delete('/teams/:teamId/invitations/:invitationId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const invitationId = id.parse(req.params.invitationId);
    const actor = await membershipOf(dataSource.manager, teamId, sessionUser(req).id);
    if (!canManageMembers(actor.role)) throw forbidden('Only owners and admins revoke invitations');
    const result = await dataSource.getRepository(Invitation).update({ id: invitationId, teamId, status: 'pending' }, { status: 'revoked', respondedAt: clock.now() });
    if (!result.affected) throw notFound('Invitation not found or no longer pending');
    res.status(204).end();
  });

  const tokenQuery = z.object({ token: z.string().min(20).max(200) });

  /** For the accept page: what the invitation offers (the token is the authority, no session needed). */
  router.get('/invitations/lookup', async (req, res) => {
    const { token } = tokenQuery.parse(req.query);
    const invitation = await dataSource.getRepository(Invitation).findOne({ where: { tokenHash: hashAccountToken(token) }, relations: { team: true } });
    if (!invitation) throw notFound('Invitation not found');
    const status = invitation.status === 'pending' && invitationExpired(invitation) ? 'expired' : invitation.status;
    res.json({ teamName: invitation.team?.name, email: invitation.email, role: invitation.role, status });
  });

  router.post('/invitations/accept', requireUser, async (req, res) => {
    const { token } = tokenQuery.extend({ csrfToken: z.string().optional() }).strict().parse(req.body);
    const user = sessionUser(req);
    const result = await dataSource.transaction(async (manager) => {
      const invitation = await manager
        .getRepository(Invitation)
        .createQueryBuilder('i')
        .setLock('pessimistic_write')
        .where('i.tokenHash = :hash', { hash: hashAccountToken(token) })
        .getOne();
      if (!invitation) throw notFound('Invitation not found');
      // The link is for one address: someone else signed in cannot use it.
      if (normalizeEmail(invitation.email) !== normalizeEmail(user.email)) {
        throw forbidden('This invitation was sent to another email address');
      }
      if (invitation.status === 'pending' && invitationExpired(invitation)) {
        await manager.getRepository(Invitation).update({ id: invitation.id }, { status: 'expired' });
        return { expired: true as const };
      }
      if (invitation.status !== 'pending') throw new HttpError(409, 'invitation_not_pending', `This invitation is ${invitation.status}`);
      await manager.createQueryBuilder().insert().into(TeamMember).values({ teamId: invitation.teamId, userId: user.id, role: invitation.role }).orIgnore().execute();
      await manager.getRepository(Invitation).update({ id: invitation.id }, { status: 'accepted', respondedAt: clock.now() });
      await logActivity(manager, { teamId: invitation.teamId, userId: user.id, action: 'ACCEPT_INVITATION', ipAddress: clientIp(req.ip), details: { invitationId: invitation.id } });
      return { teamId: invitation.teamId, role: invitation.role };
    });
    if ('expired' in result) throw new HttpError(410, 'invitation_expired', 'This invitation has expired');
    res.json(result);
  });

  router.get('/teams/:teamId/activity', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    await membershipOf(dataSource.manager, teamId, sessionUser(req).id);
    const { page, pageSize } = z
      .object({ page: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(20) })
      .parse(req.query);
    const [rows, total] = await dataSource.getRepository(ActivityLog).findAndCount({
      where: { teamId },
      order: { timestamp: 'DESC', id: 'DESC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    res.json({
      page,
      pageSize,
      total,
      items: rows.map((row) => ({
        id: Number(row.id),
        action: row.action,
        userId: row.userId,
        timestamp: row.timestamp.toISOString(),
        ipAddress: row.ipAddress,
        details: row.details,
      })),
    });
  });

  return router;
}
