import { Router, type Request } from 'express';
import { z } from 'zod';
import { TEAM_ROLES } from '@tickerbell/entities';
import {
  acceptInvitation,
  changeMemberRole,
  createAccountToken,
  createTeam,
  getTeam,
  hashAccountToken,
  invitationEmail,
  inviteMember,
  listInvitations,
  listMembers,
  listTeams,
  lookupInvitation,
  normalizeEmail,
  removeMember,
  revokeInvitation,
  siteLink,
  teamActivity,
} from '@tickerbell/jobs/accounts';
import { requestSeatSync } from '@tickerbell/jobs/billing';
import type { AccountsContext } from './accounts.context';
import { clientIp, enqueueMail } from './accounts.service';
import { requireUser, sessionUser } from './require-user';
import { idParam } from '../http/input';

export const createTeamBody = z.object({ name: z.string().trim().min(1).max(100), csrfToken: z.string().optional() }).strict();
export const memberRoleBody = z.object({ role: z.enum(TEAM_ROLES), csrfToken: z.string().optional() }).strict();
export const invitationBody = z.object({ email: z.email().max(255), role: z.enum(TEAM_ROLES).default('member'), csrfToken: z.string().optional() }).strict();
/** The emailed invitation token: the authority of the lookup (no session needed) and of the accept. */
export const invitationTokenQuery = z.object({ token: z.string().min(20).max(200) });
export const acceptInvitationBody = invitationTokenQuery.extend({ csrfToken: z.string().optional() }).strict();
export const teamActivityQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * Teams, members, invitations and each team's activity log. Who may do what is the store's
 * (jobs/src/accounts/teams.store.ts); its refusals become HTTP errors in accounts.errors.ts.
 */
export function teamsRoutes(ctx: AccountsContext): Router {
  const { dataSource, queues, config, clock, entitlements, logger } = ctx;
  const router = Router();

  /**
   * After a member joined or left (committed): the team's subscription quantity follows its member
   * count through billing's seat sync job (prorated). Billing off: nothing to sync. A Redis failure
   * is logged, not answered: the membership change is stored, and billing's daily resync catches up.
   */
  const seatsChanged = async (teamId: number, members: number): Promise<void> => {
    if (!entitlements.billingEnabled) return;
    try {
      await requestSeatSync(queues, teamId, members, clock.now());
    } catch (err) {
      logger.error({ err, teamId }, 'teams: could not request the seat sync');
    }
  };
  const ip = (req: Request) => clientIp(req.ip);
  const teamParam = (req: Request) => idParam(req.params.teamId, 'team');

  router.post('/teams', requireUser, async (req, res) => {
    const body = createTeamBody.parse(req.body);
    const team = await createTeam(dataSource, sessionUser(req).id, body.name, ip(req));
    res.status(201).json({ id: team.id, name: team.name, role: 'owner' });
  });

  router.get('/teams', requireUser, async (req, res) => {
    res.json({ teams: await listTeams(dataSource, sessionUser(req).id) });
  });

  router.get('/teams/:teamId', requireUser, async (req, res) => {
    res.json(await getTeam(dataSource, teamParam(req), sessionUser(req).id));
  });

  router.get('/teams/:teamId/members', requireUser, async (req, res) => {
    res.json({ members: await listMembers(dataSource, teamParam(req), sessionUser(req).id) });
  });

  router.patch('/teams/:teamId/members/:userId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const targetId = idParam(req.params.userId, 'team member');
    const { role } = memberRoleBody.parse(req.body);
    await changeMemberRole(dataSource, teamId, sessionUser(req).id, targetId, role);
    res.json({ teamId, userId: targetId, role });
  });

  router.delete('/teams/:teamId/members/:userId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const targetId = idParam(req.params.userId, 'team member');
    // Anyone may leave; removing someone else takes a manager whose role is not below theirs.
    const { members } = await removeMember(dataSource, teamId, sessionUser(req).id, targetId, ip(req));
    await seatsChanged(teamId, members);
    res.status(204).end();
  });

  router.post('/teams/:teamId/invitations', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const body = invitationBody.parse(req.body);
    const email = normalizeEmail(body.email);
    const inviter = sessionUser(req);
    const { token, hash } = createAccountToken();
    const { invitation, teamName } = await inviteMember(dataSource, {
      teamId,
      inviterId: inviter.id,
      email,
      role: body.role,
      tokenHash: hash,
      ipAddress: ip(req),
      now: clock.now(),
    });
    await enqueueMail(
      queues,
      invitationEmail(email, teamName, body.role, inviter.name ?? inviter.email, siteLink(config.PUBLIC_URL, '/invitations/accept', { token })),
    );
    res.status(201).json(invitation);
  });

  router.get('/teams/:teamId/invitations', requireUser, async (req, res) => {
    res.json({ invitations: await listInvitations(dataSource, teamParam(req), sessionUser(req).id, clock.now()) });
  });

  router.delete('/teams/:teamId/invitations/:invitationId', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const invitationId = idParam(req.params.invitationId, 'invitation');
    await revokeInvitation(dataSource, teamId, invitationId, sessionUser(req).id, clock.now());
    res.status(204).end();
  });

  /** For the accept page: what the invitation offers (the token is the authority, no session needed). */
  router.get('/invitations/lookup', async (req, res) => {
    const { token } = invitationTokenQuery.parse(req.query);
    res.json(await lookupInvitation(dataSource, hashAccountToken(token), clock.now()));
  });

  router.post('/invitations/accept', requireUser, async (req, res) => {
    const { token } = acceptInvitationBody.parse(req.body);
    const user = sessionUser(req);
    // A seat of the team's plan is checked inside the store's transaction (403 plan_limit when none is left).
    const { joined, members, ...accepted } = await acceptInvitation(
      dataSource,
      { tokenHash: hashAccountToken(token), userId: user.id, userEmail: user.email, ipAddress: clientIp(req.ip), now: clock.now() },
      entitlements,
    );
    if (joined) await seatsChanged(accepted.teamId, members);
    res.json(accepted);
  });

  router.get('/teams/:teamId/activity', requireUser, async (req, res) => {
    const teamId = teamParam(req);
    const { page, pageSize } = teamActivityQuery.parse(req.query);
    const { total, items } = await teamActivity(dataSource, teamId, sessionUser(req).id, { page, pageSize });
    res.json({ page, pageSize, total, items });
  });

  return router;
}
