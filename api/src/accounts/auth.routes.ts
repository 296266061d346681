import { Router, type Request, type Response } from 'express';
import { IsNull, MoreThan } from 'typeorm';
import { z } from 'zod';
import { User } from '@tickerbell/entities';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_PROBLEM_MESSAGES,
  RESET_TOKEN_TTL_MS,
  VERIFICATION_TOKEN_TTL_MS,
  createAccountToken,
  hashAccountToken,
  normalizeEmail,
  passwordProblems,
  passwordResetEmail,
  sameOriginUrl,
  verificationEmail,
} from '@tickerbell/jobs';
import { HttpError, badRequest } from '../http/errors';
import { googleEnabled } from './accounts.config';
import { publicLink, destroySession, saveSession, type AccountsContext } from './accounts.context';
import {
  clientIp,
  createUserWithTeam,
  endUserSessions,
  enqueueMail,
  findLiveUserByEmail,
  isUniqueViolation,
  emailTaken,
  logUserActivity,
  notAuthenticated,
} from './accounts.service';
import { hashPassword } from './password-hash';
import type { SignInErrorCode, SignInFailure } from './passport';
import { rateLimit } from './rate-limit';
import { toSessionUser, type SessionUser } from './session-user';

/** `json=true` (form) or `json: true` (JSON): answer `{ url }` instead of redirecting. */
const jsonFlag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .optional()
  .transform((value) => value === true || value === 'true');

/** A password as the policy wants it; the message names what is wrong. */
export function checkPassword(password: string, email: string, field = 'password'): void {
  const problems = passwordProblems(password, email);
  if (problems.length) {
    throw badRequest(`Invalid input: ${field}`, problems.map((problem) => ({ field, code: problem, message: `Password ${PASSWORD_PROBLEM_MESSAGES[problem]}` })));
  }
}

const passwordInput = z.string().min(1).max(PASSWORD_MAX_LENGTH * 4);

export function authRoutes(ctx: AccountsContext): Router {
  const { config, dataSource, queues, logger, clock, csrf, limiters, passport } = ctx;
  const router = Router();
  const ip = (req: Request) => clientIp(req.ip) ?? 'unknown';
  const callbackUrl = (fallback: string) =>
    z
      .string()
      .max(2048)
      .optional()
      .transform((value, issue) => {
        if (value === undefined || value === '') return publicLink(config, fallback);
        const url = sameOriginUrl(value, config.PUBLIC_URL);
        if (!url) {
          issue.addIssue({ code: 'custom', message: 'must be a URL on this site' });
          return z.NEVER;
        }
        return url;
      });
  const signInPage = (query: Record<string, string> = {}) => publicLink(config, '/sign-in', query);
  const answer = (res: Response, json: boolean, url: string, status = 200) => {
    if (json) res.status(status).json({ url });
    else res.redirect(302, url);
  };

  /** Signs a user in: a new session id (fixation), the owner recorded on the row, a new CSRF token. */
  const logIn = async (req: Request, user: SessionUser) => {
    await new Promise<void>((resolve, reject) => req.login(user, (error) => (error ? reject(error) : resolve())));
    csrf.rotate(req);
    await saveSession(req);
    await dataSource.query('UPDATE sessions SET user_id = $1 WHERE sid = $2', [user.id, req.sessionID]);
    await logUserActivity(dataSource.manager, user.id, 'SIGN_IN', clientIp(req.ip));
  };

  const sessionBody = (req: Request) =>
    req.user
      ? { user: { id: req.user.id, name: req.user.name, email: req.user.email, ...(req.user.image ? { image: req.user.image } : {}), role: req.user.role }, expires: req.session.cookie.expires?.toISOString() ?? null }
      : {};

  router.get('/auth/session', (req, res) => {
    res.json(sessionBody(req));
  });

  router.get('/auth/csrf', (req, res) => {
    res.json({ csrfToken: csrf.token(req) });
  });

  router.get('/auth/providers', (_req, res) => {
    const provider = (id: string, name: string, type: string) => ({
      id,
      name,
      type,
      signinUrl: publicLink(config, `/api/auth/signin/${id}`),
      callbackUrl: publicLink(config, `/api/auth/callback/${id}`),
    });
    res.json({
      credentials: provider('credentials', 'Credentials', 'credentials'),
      ...(googleEnabled(config) ? { google: provider('google', 'Google', 'oauth') } : {}),
    });
  });

  router.get('/auth/error', (req, res) => {
    const code = typeof req.query.error === 'string' && /^[A-Za-z_]{1,64}$/.test(req.query.error) ? req.query.error : 'Default';
    res.redirect(302, signInPage({ error: code }));
  });

  // ---- credentials ----------------------------------------------------------------------

  const credentialsBody = z.object({
    email: z.string().trim().min(1).max(255),
    password: passwordInput,
    callbackUrl: callbackUrl('/dashboard'),
    json: jsonFlag,
    csrfToken: z.string().optional(),
  });

  router.post(
    '/auth/callback/credentials',
    rateLimit(limiters.signIn, (req) => {
      const email = typeof req.body?.email === 'string' ? normalizeEmail(req.body.email) : '';
      return [`ip:${ip(req)}:${email}`];
    }),
    csrf.require,
    async (req, res) => {
      const body = credentialsBody.parse(req.body);
      const { user, failure } = await new Promise<{ user: SessionUser | false; failure?: SignInFailure }>((resolve, reject) => {
        passport.authenticate('credentials', { session: false }, (error: unknown, found: SessionUser | false, info?: SignInFailure) =>
          error ? reject(error) : resolve({ user: found, failure: info }),
        )(req, res, reject);
      });
      if (!user) {
        const code: SignInErrorCode = failure?.message === 'EmailNotVerified' ? 'EmailNotVerified' : 'CredentialsSignin';
        answer(res, body.json, signInPage({ error: code, provider: 'credentials' }), 401);
        return;
      }
      await logIn(req, user);
      answer(res, body.json, body.callbackUrl);
    },
  );

  // ---- Google -----------------------------------------------------------------------------

  const signinBody = z.object({ callbackUrl: callbackUrl('/dashboard'), json: jsonFlag, csrfToken: z.string().optional() });

  /** Runs passport's redirect to the provider and hands back where it pointed. */
  const providerRedirect = (req: Request) =>
    new Promise<string>((resolve, reject) => {
      const capture = {
        statusCode: 302,
        setHeader(name: string, value: unknown) {
          if (name.toLowerCase() === 'location') resolve(String(value));
        },
        end() {},
      };
      passport.authenticate('google', { session: false })(req, capture as unknown as Response, (error: unknown) =>
        reject(error ?? new Error('the Google strategy did not redirect')),
      );
    });

  router.post('/auth/signin/:provider', async (req, res, next) => {
    const provider = req.params.provider;
    if (provider !== 'google' || !googleEnabled(config)) {
      // Credentials sign in through callback/credentials; unknown providers: the sign-in page.
      const body = z.object({ json: jsonFlag }).safeParse(req.body ?? {});
      answer(res, body.success && body.data.json, signInPage());
      return;
    }
    csrf.require(req, res, async (error?: unknown) => {
      try {
        if (error) throw error;
        const body = signinBody.parse(req.body ?? {});
        req.session.oauthCallbackUrl = body.callbackUrl;
        answer(res, body.json, await providerRedirect(req));
      } catch (failure) {
        next(failure);
      }
    });
  });

  router.get(['/auth/signin', '/auth/signin/:provider'], (_req, res) => {
    res.redirect(302, signInPage());
  });

  router.get('/auth/callback/google', async (req, res) => {
    if (!googleEnabled(config)) {
      res.redirect(302, signInPage());
      return;
    }
    const target = req.session.oauthCallbackUrl ?? publicLink(config, '/dashboard');
    const outcome = await new Promise<{ user: SessionUser | false; failure?: SignInFailure; error?: unknown }>((resolve) => {
      passport.authenticate('google', { session: false }, (error: unknown, found: SessionUser | false, info?: SignInFailure) =>
        resolve({ user: error ? false : found, failure: info, error }),
      )(req, res, (error: unknown) => resolve({ user: false, error }));
    });
    if (!outcome.user) {
      if (outcome.error) logger.warn({ err: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) }, 'Google sign-in failed');
      const code: SignInErrorCode = outcome.failure?.message === 'AccountNotLinkedError' ? 'AccountNotLinkedError' : 'OAuthCallbackError';
      res.redirect(302, signInPage({ error: code }));
      return;
    }
    await logIn(req, outcome.user);
    res.redirect(302, target);
  });

  router.post(['/auth/callback', '/auth/callback/:provider'], (_req, res) => {
    res.redirect(302, signInPage());
  });

  // ---- session ----------------------------------------------------------------------------

  router.post('/auth/signout', csrf.require, async (req, res) => {
    const body = z.object({ callbackUrl: callbackUrl('/'), json: jsonFlag, csrfToken: z.string().optional() }).parse(req.body ?? {});
    if (req.user) await logUserActivity(dataSource.manager, req.user.id, 'SIGN_OUT', clientIp(req.ip));
    await destroySession(req);
    res.clearCookie(ctx.sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax' });
    // Sign out always lands on the home page (spec section 4); callbackUrl is only checked.
    answer(res, body.json, publicLink(config, '/'));
  });

  const sessionUpdate = z
    .object({
      csrfToken: z.string().optional(),
      data: z
        .object({
          name: z.string().trim().min(1).max(100).optional(),
          image: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
        })
        .strict()
        .optional(),
    })
    .strict();

  router.post('/auth/session', csrf.require, async (req, res) => {
    if (!req.user) throw notAuthenticated();
    const { data } = sessionUpdate.parse(req.body ?? {});
    if (data && Object.keys(data).length) {
      await dataSource.getRepository(User).update({ id: req.user.id }, data);
      const user = await dataSource.getRepository(User).findOneByOrFail({ id: req.user.id });
      req.user = toSessionUser(user);
    }
    res.json(sessionBody(req));
  });

  router.post('/auth/_log', rateLimit(limiters.log, (req) => [ip(req)]), (req, res) => {
    const body = z
      .object({ level: z.enum(['error', 'warn', 'debug']), code: z.string().min(1).max(100), metadata: z.unknown().optional() })
      .parse(req.body ?? {});
    const metadata = body.metadata === undefined ? undefined : JSON.stringify(body.metadata).slice(0, 2000);
    logger[body.level]({ client: true, code: body.code, metadata, ip: ip(req) }, 'client sign-in log');
    res.json({});
  });

  // ---- sign-up, verification, password reset ----------------------------------------------

  const signupBody = z.object({
    email: z.email().max(255),
    password: passwordInput,
    name: z.string().trim().min(1).max(100).optional(),
    csrfToken: z.string().optional(),
  });

  const sendVerification = async (to: string, token: string) =>
    enqueueMail(queues, verificationEmail(to, publicLink(config, '/api/auth/verify-email', { token })));

  router.post('/auth/signup', rateLimit(limiters.signUp, (req) => [ip(req)]), csrf.require, async (req, res) => {
    const body = signupBody.parse(req.body);
    const email = normalizeEmail(body.email);
    checkPassword(body.password, email);
    if (await findLiveUserByEmail(dataSource.manager, email)) throw emailTaken();
    const passwordHash = await hashPassword(body.password);
    const { token, hash } = createAccountToken();
    const { user } = await dataSource.transaction((manager) =>
      createUserWithTeam(
        manager,
        {
          email,
          name: body.name ?? null,
          passwordHash,
          isVerified: false,
          verificationToken: hash,
          verificationTokenExpiry: new Date(clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS),
        },
        clientIp(req.ip),
      ),
    );
    await sendVerification(email, token);
    res.status(201).json({ user: { id: user.id, email: user.email, name: user.name }, verificationRequired: true });
  });

  router.get('/auth/verify-email', async (req, res) => {
    const parsed = z.object({ token: z.string().min(20).max(200) }).safeParse(req.query);
    const fail = () => res.redirect(302, signInPage({ error: 'Verification' }));
    if (!parsed.success) return fail();
    const user = await dataSource.getRepository(User).findOne({
      where: { verificationToken: hashAccountToken(parsed.data.token), verificationTokenExpiry: MoreThan(clock.now()), deletedAt: IsNull() },
    });
    if (!user) return fail();
    const changes: Partial<User> = { isVerified: true, verificationToken: null, verificationTokenExpiry: null };
    if (user.pendingEmail) Object.assign(changes, { email: user.pendingEmail, pendingEmail: null });
    try {
      await dataSource.getRepository(User).update({ id: user.id }, changes);
    } catch (error) {
      // The new address was taken by someone else meanwhile.
      if (isUniqueViolation(error, 'uq_users_email_active')) return fail();
      throw error;
    }
    if (user.pendingEmail) await logUserActivity(dataSource.manager, user.id, 'UPDATE_ACCOUNT', clientIp(req.ip), { emailChanged: true });
    return res.redirect(302, signInPage({ verified: '1' }));
  });

  const emailBody = z.object({ email: z.string().trim().min(1).max(255), csrfToken: z.string().optional() });
  const accepted = (res: Response) =>
    res.status(202).json({ ok: true, message: 'If an account exists for this address, we have sent it an email.' });
  const resetLimit = rateLimit(limiters.reset, (req) => {
    const email = typeof req.body?.email === 'string' ? normalizeEmail(req.body.email) : '';
    return [`ip:${ip(req)}`, ...(email ? [`email:${email}`] : [])];
  });

  router.post('/auth/verify-email/resend', resetLimit, csrf.require, async (req, res) => {
    const email = normalizeEmail(emailBody.parse(req.body).email);
    const user = await findLiveUserByEmail(dataSource.manager, email);
    if (user && !user.isVerified) {
      const { token, hash } = createAccountToken();
      await dataSource.getRepository(User).update(
        { id: user.id },
        { verificationToken: hash, verificationTokenExpiry: new Date(clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS) },
      );
      await sendVerification(user.email, token);
    }
    accepted(res);
  });

  router.post('/auth/password/forgot', resetLimit, csrf.require, async (req, res) => {
    const email = normalizeEmail(emailBody.parse(req.body).email);
    const user = await findLiveUserByEmail(dataSource.manager, email);
    if (user) {
      const { token, hash } = createAccountToken();
      await dataSource.getRepository(User).update({ id: user.id }, { resetToken: hash, resetTokenExpiry: new Date(clock.now().getTime() + RESET_TOKEN_TTL_MS) });
      await enqueueMail(queues, passwordResetEmail(user.email, publicLink(config, '/reset-password', { token })));
    }
    accepted(res);
  });

  router.post('/auth/password/reset', rateLimit(limiters.reset, (req) => [`ip:${ip(req)}`]), csrf.require, async (req, res) => {
    const body = z.object({ token: z.string().min(20).max(200), password: passwordInput, csrfToken: z.string().optional() }).parse(req.body);
    const user = await dataSource.getRepository(User).findOne({
      where: { resetToken: hashAccountToken(body.token), resetTokenExpiry: MoreThan(clock.now()), deletedAt: IsNull() },
    });
    if (!user) throw new HttpError(400, 'invalid_token', 'This reset link is invalid or has expired');
    checkPassword(body.password, user.email);
    const passwordHash = await hashPassword(body.password);
    await dataSource.transaction(async (manager) => {
      // Single use: the token goes with the change. Receiving the email also proves the address.
      await manager.getRepository(User).update({ id: user.id }, { passwordHash, resetToken: null, resetTokenExpiry: null, isVerified: true });
      await logUserActivity(manager, user.id, 'UPDATE_PASSWORD', clientIp(req.ip), { via: 'reset' });
      await endUserSessions(manager, user.id);
    });
    res.json({ ok: true });
  });

  return router;
}
