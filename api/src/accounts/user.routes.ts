import { Router } from 'express';
import { z } from 'zod';
import type { User, UserPreferences } from '@tickerbell/entities';
import {
  ACCOUNT_EMAIL_MAX,
  ACCOUNT_NAME_MAX,
  PREFERENCE_FLAGS,
  VERIFICATION_TOKEN_TTL_MS,
  changePassword,
  createAccountToken,
  deleteAccount,
  getPreferences,
  getUser,
  normalizeEmail,
  recordPwaInstall,
  siteLink,
  updateAccount,
  updatePreferences,
  verificationEmail,
  type AccountChanges,
  type AccountUserBody,
  type PreferenceFlag,
  type Preferences,
} from '@tickerbell/jobs/accounts';
import { HttpError } from '../http/errors';
import { destroySession, type AccountsContext } from './accounts.context';
import { clientIp, enqueueMail } from './accounts.service';
import { checkPassword } from './auth.routes';
import { hashPassword, verifyPassword } from './password-hash';
import { requireUser, sessionUser } from './require-user';

/** PATCH /api/user: a new email address counts once its owner opens the link sent to it. */
export const updateUserBody = z
  .object({ name: z.string().trim().min(1).max(ACCOUNT_NAME_MAX).nullable().optional(), email: z.email().max(ACCOUNT_EMAIL_MAX).optional(), csrfToken: z.string().optional() })
  .strict();

/** POST /api/user/password: the current password, unless the account has none yet (made through Google). */
export const changePasswordBody = z
  .object({ currentPassword: z.string().max(512).optional(), newPassword: z.string().min(1).max(512), csrfToken: z.string().optional() })
  .strict();

export const pwaInstallBody = z.object({ installSource: z.string().trim().min(1).max(50), csrfToken: z.string().optional() }).strict();

/** PUT /api/user/preferences (the CSRF token field is taken off first). */
export const preferencesBody = z
  .object(Object.fromEntries(PREFERENCE_FLAGS.map((flag) => [flag, z.boolean().optional()])) as Record<PreferenceFlag, z.ZodOptional<z.ZodBoolean>>)
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'at least one preference flag');

function flags(preferences: UserPreferences): Preferences {
  return Object.fromEntries(PREFERENCE_FLAGS.map((flag) => [flag, preferences[flag]])) as Preferences;
}

function userBody(user: User): AccountUserBody {
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
  const currentUser = (id: number) => getUser(dataSource, id);

  router.get('/user', requireUser, async (req, res) => {
    res.json(userBody(await currentUser(sessionUser(req).id)));
  });

  router.patch('/user', requireUser, async (req, res) => {
    const body = updateUserBody.parse(req.body);
    const user = await currentUser(sessionUser(req).id);
    const changes: AccountChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    let token: string | undefined;
    const email = body.email === undefined ? undefined : normalizeEmail(body.email);
    if (email !== undefined && email !== user.email) {
      // The new address counts once its owner opens the link sent to it; until then sign-in uses the old one.
      const created = createAccountToken();
      token = created.token;
      changes.pendingEmail = { email, tokenHash: created.hash, expiresAt: new Date(clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS) };
    }
    await updateAccount(dataSource, user.id, changes, clientIp(req.ip), Object.keys(body).filter((k) => k !== 'csrfToken'));
    if (token && email) await enqueueMail(queues, verificationEmail(email, siteLink(config.PUBLIC_URL, '/api/auth/verify-email', { token })));
    res.json(userBody(await currentUser(user.id)));
  });

  router.post('/user/password', requireUser, async (req, res) => {
    const body = changePasswordBody.parse(req.body);
    const user = await currentUser(sessionUser(req).id);
    // An account made through Google has no password yet: it may set one without a current one.
    if (user.passwordHash !== null && !(await verifyPassword(user.passwordHash, body.currentPassword ?? ''))) {
      throw new HttpError(400, 'wrong_password', 'The current password is wrong', [{ field: 'currentPassword', message: 'is wrong' }]);
    }
    checkPassword(body.newPassword, user.email, 'newPassword');
    const passwordHash = await hashPassword(body.newPassword);
    // Other devices sign in again; this one stays.
    await changePassword(dataSource, user.id, passwordHash, clientIp(req.ip), req.sessionID);
    res.json({ ok: true });
  });

  router.delete('/user', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    // The last owner of a shared team must hand it over first (409 last_owner). Everything the
    // user owns goes in the same transaction, and the workers' alert indexes are told.
    await deleteAccount({ dataSource, queues, logger: ctx.logger }, userId, clock.now(), clientIp(req.ip));
    await destroySession(req);
    res.clearCookie(ctx.sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax' });
    res.status(204).end();
  });

  router.get('/user/preferences', requireUser, async (req, res) => {
    res.json(flags(await getPreferences(dataSource, sessionUser(req).id)));
  });

  router.put('/user/preferences', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const { csrfToken: _csrf, ...rest } = (req.body ?? {}) as Record<string, unknown>;
    const body = preferencesBody.parse(rest);
    res.json(flags(await updatePreferences(dataSource, userId, body)));
  });

  router.post('/user/pwa-install', requireUser, async (req, res) => {
    const body = pwaInstallBody.parse(req.body);
    const userId = sessionUser(req).id;
    // The first install date stays; the source follows the latest install.
    const updated = await recordPwaInstall(dataSource, userId, body.installSource, clock.now());
    res.json({ pwaInstalled: true, pwaInstallDate: updated.pwaInstallDate?.toISOString() ?? null, pwaInstallSource: updated.pwaInstallSource });
  });

  router.get('/user/pwa-install', requireUser, async (req, res) => {
    res.json({ pwaInstalled: (await currentUser(sessionUser(req).id)).pwaInstalled });
  });

  return router;
}
