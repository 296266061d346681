import { Router } from 'express';
import { z } from 'zod';
import { TeamMember, User, UserPreferences } from '@tickerbell/entities';
import { VERIFICATION_TOKEN_TTL_MS, createAccountToken, normalizeEmail, siteLink, verificationEmail } from '@tickerbell/jobs';
import { HttpError } from '../http/errors';
import { destroySession, type AccountsContext } from './accounts.context';
import { clientIp, emailTaken, endUserSessions, enqueueMail, findLiveUserByEmail, logActivity, logUserActivity } from './accounts.service';
import { checkPassword } from './auth.routes';
import { hashPassword, verifyPassword } from './password-hash';
import { requireUser, sessionUser } from './require-user';

const PREFERENCE_FLAGS = [
  'marketOpenNotifications',
  'marketCloseNotifications',
  'marketOpeningSoonNotifications',
  'marketClosingSoonNotifications',
  'soundNotifications',
  'emailNotifications',
  'pushNotifications',
] as const;

type PreferenceFlags = Record<(typeof PREFERENCE_FLAGS)[number], boolean>;

const preferencesBody = z
  .object(Object.fromEntries(PREFERENCE_FLAGS.map((flag) => [flag, z.boolean().optional()])) as Record<(typeof PREFERENCE_FLAGS)[number], z.ZodOptional<z.ZodBoolean>>)
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'at least one preference flag');

function flags(preferences: UserPreferences): PreferenceFlags {
  return Object.fromEntries(PREFERENCE_FLAGS.map((flag) => [flag, preferences[flag]])) as PreferenceFlags;
}

function userBody(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: user.image,
    role: user.role,
    isVerified: user.isVerified,
    pendingEmail: user.pendingEmail,
    hasPassword: user.passwordHash !== null,
    googleLinked: user.googleId !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** /api/user: the signed-in user's own account, preferences and web-app install flag. */
export function userRoutes(ctx: AccountsContext): Router {
  const { dataSource, queues, config, clock } = ctx;
  const router = Router();
  const users = dataSource.getRepository(User);
  const currentUser = async (id: number) => users.findOneByOrFail({ id });

  router.get('/user', requireUser, async (req, res) => {
    res.json(userBody(await currentUser(sessionUser(req).id)));
  });

  router.patch('/user', requireUser, async (req, res) => {
    const body = z
      .object({ name: z.string().trim().min(1).max(100).nullable().optional(), email: z.email().max(255).optional(), csrfToken: z.string().optional() })
      .strict()
      .parse(req.body);
    const user = await currentUser(sessionUser(req).id);
    const changes: Partial<User> = {};
    if (body.name !== undefined) changes.name = body.name;
    let token: string | undefined;
    const email = body.email === undefined ? undefined : normalizeEmail(body.email);
    if (email !== undefined && email !== user.email) {
      const owner = await findLiveUserByEmail(dataSource.manager, email);
      if (owner && owner.id !== user.id) throw emailTaken();
      // The new address counts once its owner opens the link sent to it; until then sign-in uses the old one.
      const created = createAccountToken();
      token = created.token;
      Object.assign(changes, {
        pendingEmail: email,
        verificationToken: created.hash,
        verificationTokenExpiry: new Date(clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS),
      });
    }
    if (Object.keys(changes).length) {
      await users.update({ id: user.id }, changes);
      await logUserActivity(dataSource.manager, user.id, 'UPDATE_ACCOUNT', clientIp(req.ip), { fields: Object.keys(body).filter((k) => k !== 'csrfToken') });
    }
    if (token && email) await enqueueMail(queues, verificationEmail(email, siteLink(config.PUBLIC_URL, '/api/auth/verify-email', { token })));
    res.json(userBody(await currentUser(user.id)));
  });

  router.post('/user/password', requireUser, async (req, res) => {
    const body = z
      .object({ currentPassword: z.string().max(512).optional(), newPassword: z.string().min(1).max(512), csrfToken: z.string().optional() })
      .strict()
      .parse(req.body);
    const user = await currentUser(sessionUser(req).id);
    // An account made through Google has no password yet: it may set one without a current one.
    if (user.passwordHash !== null && !(await verifyPassword(user.passwordHash, body.currentPassword ?? ''))) {
      throw new HttpError(400, 'wrong_password', 'The current password is wrong', [{ field: 'currentPassword', message: 'is wrong' }]);
    }
    checkPassword(body.newPassword, user.email, 'newPassword');
    const passwordHash = await hashPassword(body.newPassword);
    await dataSource.transaction(async (manager) => {
      await manager.getRepository(User).update({ id: user.id }, { passwordHash });
      await logUserActivity(manager, user.id, 'UPDATE_PASSWORD', clientIp(req.ip));
      // Other devices sign in again; this one stays.
      await endUserSessions(manager, user.id, req.sessionID);
    });
    res.json({ ok: true });
  });

  router.delete('/user', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    await dataSource.transaction(async (manager) => {
      const memberships = await manager.getRepository(TeamMember).find({ where: { userId } });
      for (const membership of memberships) {
        const members = await manager.getRepository(TeamMember).find({ where: { teamId: membership.teamId } });
        const owners = members.filter((m) => m.role === 'owner');
        if (members.length > 1 && membership.role === 'owner' && owners.length === 1) {
          throw new HttpError(409, 'last_owner', 'You are the last owner of a team with other members: make someone else owner first', { teamId: membership.teamId });
        }
      }
      for (const membership of memberships) {
        const count = await manager.getRepository(TeamMember).count({ where: { teamId: membership.teamId } });
        // A team of one goes with its member; in a shared team only the membership goes.
        if (count === 1) await manager.query('DELETE FROM teams WHERE id = $1', [membership.teamId]);
        else await manager.getRepository(TeamMember).delete({ id: membership.id });
      }
      // Soft delete: the row stays for the records, the address and the Google account are freed.
      await manager.getRepository(User).update({ id: userId }, { deletedAt: clock.now(), googleId: null, verificationToken: null, resetToken: null });
      await manager.query('DELETE FROM accounts WHERE user_id = $1', [userId]);
      await logActivity(manager, { teamId: null, userId, action: 'DELETE_ACCOUNT', ipAddress: clientIp(req.ip) });
      await endUserSessions(manager, userId);
    });
    await destroySession(req);
    res.clearCookie(ctx.sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax' });
    res.status(204).end();
  });

  router.get('/user/preferences', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const repo = dataSource.getRepository(UserPreferences);
    // Accounts made before preferences existed get the defaults on first read.
    await repo.createQueryBuilder().insert().values({ userId }).orIgnore().execute();
    res.json(flags(await repo.findOneByOrFail({ userId })));
  });

  router.put('/user/preferences', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const { csrfToken: _csrf, ...rest } = (req.body ?? {}) as Record<string, unknown>;
    const body = preferencesBody.parse(rest);
    const repo = dataSource.getRepository(UserPreferences);
    await repo.createQueryBuilder().insert().values({ userId }).orIgnore().execute();
    await repo.update({ userId }, body);
    res.json(flags(await repo.findOneByOrFail({ userId })));
  });

  router.post('/user/pwa-install', requireUser, async (req, res) => {
    const body = z.object({ installSource: z.string().trim().min(1).max(50), csrfToken: z.string().optional() }).strict().parse(req.body);
    const userId = sessionUser(req).id;
    const user = await currentUser(userId);
    // The first install date stays; the source follows the latest install.
    await users.update({ id: userId }, { pwaInstalled: true, pwaInstallDate: user.pwaInstallDate ?? clock.now(), pwaInstallSource: body.installSource });
    const updated = await currentUser(userId);
    res.json({ pwaInstalled: true, pwaInstallDate: updated.pwaInstallDate?.toISOString() ?? null, pwaInstallSource: updated.pwaInstallSource });
  });

  router.get('/user/pwa-install', requireUser, async (req, res) => {
    res.json({ pwaInstalled: (await currentUser(sessionUser(req).id)).pwaInstalled });
  });

  return router;
}
