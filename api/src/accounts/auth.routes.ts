import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_PROBLEM_MESSAGES,
  RESET_TOKEN_TTL_MS,
  VERIFICATION_TOKEN_TTL_MS,
  createAccountToken,
  createUser,
  emailTaken,
  findLiveUserByEmail,
  findUserByResetToken,
  hashAccountToken,
  logUserActivity,
  normalizeEmail,
  passwordProblems,
  passwordResetEmail,
  recordSignIn,
  resetPassword,
  sameOriginUrl,
  setResetToken,
  setVerificationToken,
  updateProfile,
  verificationEmail,
  verifyEmail,
} from '@tickerbell/jobs/accounts';
import { HttpError, badRequest } from '../http/errors';
import { googleEnabled } from './accounts.config';
import { publicLink, destroySession, saveSession, type AccountsContext } from './accounts.context';
import { clientIp, enqueueMail, notAuthenticated } from './accounts.service';
import { hashPassword } from './password-hash';
import type { SignInErrorCode, SignInFailure } from './passport';
import { rateLimit, signInLimits } from './rate-limit';
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
const csrfField = z.string().optional();
/** Where to land afterwards: a URL on this site (checked against PUBLIC_URL by the route), or the default page. */
const callbackUrlField = z.string().max(2048).optional();

// The request schemas, named for the route table (api/src/accounts/accounts.route-table.ts).
/** `?error=` of /auth/error: a sign-in error code; anything else is `Default`. */
export const authErrorQuery = z.object({ error: z.string().regex(/^[A-Za-z_]{1,64}$/).optional().catch(undefined) });
export const credentialsBody = z.object({
  email: z.string().trim().min(1).max(255),
  password: passwordInput,
  callbackUrl: callbackUrlField,
  json: jsonFlag,
  csrfToken: csrfField,
});
export const signinBody = z.object({ callbackUrl: callbackUrlField, json: jsonFlag, csrfToken: csrfField });
export const signoutBody = z.object({ callbackUrl: callbackUrlField, json: jsonFlag, csrfToken: csrfField });
export const sessionUpdateBody = z
  .object({
    csrfToken: csrfField,
    data: z
      .object({
        name: z.string().trim().min(1).max(100).optional(),
        image: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export const clientLogBody = z.object({ level: z.enum(['error', 'warn', 'debug']), code: z.string().min(1).max(100), metadata: z.unknown().optional() });
export const signupBody = z.object({
  email: z.email().max(255),
  password: passwordInput,
  name: z.string().trim().min(1).max(100).optional(),
  csrfToken: csrfField,
});
export const verifyEmailQuery = z.object({ token: z.string().min(20).max(200) });
export const emailBody = z.object({ email: z.string().trim().min(1).max(255), csrfToken: csrfField });
export const resetPasswordBody = z.object({ token: z.string().min(20).max(200), password: passwordInput, csrfToken: csrfField });

export function authRoutes(ctx: AccountsContext): Router {
  const { config, dataSource, queues, logger, clock, csrf, limiters, passport } = ctx;
  const router = Router();
  const ip = (req: Request) => clientIp(req.ip) ?? 'unknown';
  /** A body's callbackUrl checked: a URL on this site (else 400 naming it), or the fallback page. */
  const callbackUrl = (value: string | undefined, fallback: string): string => {
    if (value === undefined || value === '') return publicLink(config, fallback);
    const url = sameOriginUrl(value, config.PUBLIC_URL);
    if (!url) throw new z.ZodError([{ code: 'custom', path: ['callbackUrl'], message: 'must be a URL on this site', input: value }]);
    return url;
  };
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
    await recordSignIn(dataSource, user.id, req.sessionID, clientIp(req.ip));
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
    const code = authErrorQuery.parse(req.query).error ?? 'Default';
    res.redirect(302, signInPage({ error: code }));
  });

  // ---- credentials ----------------------------------------------------------------------

  // Failed attempts per client and account, and per client across accounts (spraying): see signInLimits.
  const signInLimit = signInLimits({ perAccount: limiters.signIn, perClient: limiters.create('signin-ip', config.RATE_LIMIT_SIGNIN_IP_MAX) }, logger);

  router.post(
    '/auth/callback/credentials',
    csrf.require,
    async (req, res) => {
      const body = credentialsBody.parse(req.body);
      const landing = callbackUrl(body.callbackUrl, '/dashboard');
      // Only requests that get as far as checking a password take (and may keep) a point.
      const attempt = await signInLimit.begin(ip(req), normalizeEmail(body.email));
      let outcome: { user: SessionUser | false; failure?: SignInFailure };
      try {
        outcome = await new Promise((resolve, reject) => {
          passport.authenticate('credentials', { session: false }, (error: unknown, found: SessionUser | false, info?: SignInFailure) =>
            error ? reject(error) : resolve({ user: found, failure: info }),
          )(req, res, reject);
        });
      } catch (error) {
        await attempt.abandoned();
        throw error;
      }
      const { user, failure } = outcome;
      if (user || failure?.message === 'EmailNotVerified') await attempt.passwordAccepted();
      if (!user) {
        const code: SignInErrorCode = failure?.message === 'EmailNotVerified' ? 'EmailNotVerified' : 'CredentialsSignin';
        const url = signInPage({ error: code, provider: 'credentials' });
        if (!body.json) return void res.redirect(302, url);
        // The sign-in library's clients read `url`; every other client reads the api's error body.
        const message = code === 'EmailNotVerified' ? 'The email address is not verified yet' : 'Wrong email or password';
        res.status(401).json({ url, error: { code, message, requestId: String(res.locals.requestId ?? '') } });
        return;
      }
      await logIn(req, user);
      answer(res, body.json, landing);
    },
  );

  // ---- Google -----------------------------------------------------------------------------

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
        req.session.oauthCallbackUrl = callbackUrl(body.callbackUrl, '/dashboard');
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
    const body = signoutBody.parse(req.body ?? {});
    callbackUrl(body.callbackUrl, '/');
    if (req.user) await logUserActivity(dataSource, req.user.id, 'SIGN_OUT', clientIp(req.ip));
    await destroySession(req);
    res.clearCookie(ctx.sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax' });
    // Sign out always lands on the home page (spec section 4); callbackUrl is only checked.
    answer(res, body.json, publicLink(config, '/'));
  });

  router.post('/auth/session', csrf.require, async (req, res) => {
    if (!req.user) throw notAuthenticated();
    const { data } = sessionUpdateBody.parse(req.body ?? {});
    if (data && Object.keys(data).length) {
      req.user = toSessionUser(await updateProfile(dataSource, req.user.id, data));
    }
    res.json(sessionBody(req));
  });

  router.post('/auth/_log', rateLimit(limiters.log, (req) => [ip(req)]), (req, res) => {
    const body = clientLogBody.parse(req.body ?? {});
    const metadata = body.metadata === undefined ? undefined : JSON.stringify(body.metadata).slice(0, 2000);
    logger[body.level]({ client: true, code: body.code, metadata, ip: ip(req) }, 'client sign-in log');
    res.json({});
  });

  // ---- sign-up, verification, password reset ----------------------------------------------

  const sendVerification = async (to: string, token: string) =>
    enqueueMail(queues, verificationEmail(to, publicLink(config, '/api/auth/verify-email', { token })));

  router.post('/auth/signup', rateLimit(limiters.signUp, (req) => [ip(req)]), csrf.require, async (req, res) => {
    const body = signupBody.parse(req.body);
    const email = normalizeEmail(body.email);
    checkPassword(body.password, email);
    if (await findLiveUserByEmail(dataSource, email)) throw emailTaken();
    const passwordHash = await hashPassword(body.password);
    const { token, hash } = createAccountToken();
    const user = await createUser(
      dataSource,
      {
        email,
        name: body.name ?? null,
        passwordHash,
        isVerified: false,
        verificationToken: hash,
        verificationTokenExpiry: new Date(clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS),
      },
      clientIp(req.ip),
    );
    await sendVerification(email, token);
    res.status(201).json({ user: { id: user.id, email: user.email, name: user.name }, verificationRequired: true });
  });

  router.get('/auth/verify-email', async (req, res) => {
    const parsed = verifyEmailQuery.safeParse(req.query);
    const fail = () => res.redirect(302, signInPage({ error: 'Verification' }));
    if (!parsed.success) return fail();
    // Unknown or expired token, or the new address was taken by someone else meanwhile: refused.
    if (!(await verifyEmail(dataSource, hashAccountToken(parsed.data.token), clock.now(), clientIp(req.ip)))) return fail();
    return res.redirect(302, signInPage({ verified: '1' }));
  });

  const accepted = (res: Response) =>
    res.status(202).json({ ok: true, message: 'If an account exists for this address, we have sent it an email.' });
  const resetLimit = rateLimit(limiters.reset, (req) => {
    const email = typeof req.body?.email === 'string' ? normalizeEmail(req.body.email) : '';
    return [`ip:${ip(req)}`, ...(email ? [`email:${email}`] : [])];
  });

  router.post('/auth/verify-email/resend', resetLimit, csrf.require, async (req, res) => {
    const email = normalizeEmail(emailBody.parse(req.body).email);
    const user = await findLiveUserByEmail(dataSource, email);
    if (user && !user.isVerified) {
      const { token, hash } = createAccountToken();
      await setVerificationToken(dataSource, user.id, hash, new Date(clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS));
      await sendVerification(user.email, token);
    }
    accepted(res);
  });

  router.post('/auth/password/forgot', resetLimit, csrf.require, async (req, res) => {
    const email = normalizeEmail(emailBody.parse(req.body).email);
    const user = await findLiveUserByEmail(dataSource, email);
    if (user) {
      const { token, hash } = createAccountToken();
      await setResetToken(dataSource, user.id, hash, new Date(clock.now().getTime() + RESET_TOKEN_TTL_MS));
      await enqueueMail(queues, passwordResetEmail(user.email, publicLink(config, '/reset-password', { token })));
    }
    accepted(res);
  });

  router.post('/auth/password/reset', rateLimit(limiters.reset, (req) => [`ip:${ip(req)}`]), csrf.require, async (req, res) => {
    const body = resetPasswordBody.parse(req.body);
    const user = await findUserByResetToken(dataSource, hashAccountToken(body.token), clock.now());
    if (!user) throw new HttpError(400, 'invalid_token', 'This reset link is invalid or has expired');
    checkPassword(body.password, user.email);
    const passwordHash = await hashPassword(body.password);
    // Single use: the token goes with the change. Receiving the email also proves the address.
    await resetPassword(dataSource, user.id, passwordHash, clientIp(req.ip));
    res.json({ ok: true });
  });

  return router;
}
