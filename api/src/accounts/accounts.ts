import type { Request, RequestHandler } from 'express';
import { Router } from 'express';
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import type { Pool } from 'pg';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { systemClock, type Clock, type JobQueues, type Logger } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import type { ApiConfig } from '../config';
import { activityRoutes } from './activity.routes';
import { publicLink, type AccountsContext } from './accounts.context';
import { accountsErrors } from './accounts.errors';
import { authRoutes } from './auth.routes';
import { createCsrf } from './csrf';
import { createPassport } from './passport';
import { createRateLimiters } from './rate-limit';
import { teamsRoutes } from './teams.routes';
import { userRoutes } from './user.routes';

export const SESSION_COOKIE = 'tb.sid';
// Only for development and tests: production refuses to start without SESSION_SECRET.
const DEVELOPMENT_SESSION_SECRET = 'tickerbell-development-session-secret-not-for-production';

export interface Accounts {
  /** express-session + passport: req.session and req.user on every request. Mount before any route. */
  session: RequestHandler[];
  /** CSRF check of state-changing signed-in requests. Mount after the body parsers, before the routes. */
  csrf: RequestHandler;
  /** /auth, /user, /teams, /invitations, /notifications/log: mount under /api. */
  routes: Router;
}

export function createAccounts(deps: { config: ApiConfig; dataSource: DataSource; redis: Redis; queues: JobQueues; logger: Logger; clock?: Clock; entitlements: Entitlements }): Accounts {
  const { config, dataSource, logger } = deps;
  if (!config.SESSION_SECRET) logger.warn('SESSION_SECRET is not set: using the development secret (never do this in production)');

  const PgStore = connectPgSimple(session);
  const store = throttledTouch(new PgStore({
    // TypeORM's own pg pool: no second pool to size and close.
    pool: (dataSource.driver as unknown as { master: Pool }).master,
    tableName: 'sessions',
    createTableIfMissing: false,
    // housekeeping.purge-expired deletes expired sessions cluster-wide.
    pruneSessionInterval: false,
    errorLog: (...args: unknown[]) => logger.error({ err: String(args[args.length - 1]) }, 'session store error'),
  }));

  const passport = createPassport({ config, dataSource });
  const csrf = createCsrf();
  const ctx: AccountsContext = {
    config,
    dataSource,
    queues: deps.queues,
    logger,
    clock: deps.clock ?? systemClock,
    entitlements: deps.entitlements,
    passport,
    csrf,
    limiters: createRateLimiters(deps.redis, {
      prefix: config.RATE_LIMIT_PREFIX ?? `${config.QUEUE_PREFIX}:rl`,
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      signIn: config.RATE_LIMIT_SIGNIN_MAX,
      signUp: config.RATE_LIMIT_SIGNUP_MAX,
      reset: config.RATE_LIMIT_RESET_MAX,
      log: config.RATE_LIMIT_LOG_MAX,
    }),
    sessionCookieName: SESSION_COOKIE,
  };

  const routes = Router();
  routes.use(authRoutes(ctx), userRoutes(ctx), teamsRoutes(ctx), activityRoutes(ctx), accountsErrors);

  return {
    session: [
      session({
        name: SESSION_COOKIE,
        secret: config.SESSION_SECRET ?? DEVELOPMENT_SESSION_SECRET,
        store,
        resave: false,
        saveUninitialized: false,
        rolling: true,
        // Secure whenever the request came over TLS (req.secure honours TRUST_PROXY).
        cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', path: '/', maxAge: config.SESSION_MAX_AGE_DAYS * 24 * 3600 * 1000 },
      }),
      passport.initialize(),
      passport.session(),
      requirePageSession(config),
    ],
    // Exempt: neither records anything in the signed-in user's name, so a forger gains nothing.
    csrf: csrf.protectSession((req) => req.path === '/api/auth/_log' || req.path === '/api/contact'),
    routes,
  };
}

/** How often one api process pushes back a session's expiry in the database (see throttledTouch). */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
/** Sessions whose last touch one process remembers (the oldest are forgotten first). */
const SESSION_TOUCH_MEMORY = 50_000;

/**
 * Rolling sessions without a database write per request: express-session touches the store on
 * every request (`rolling`), and connect-pg-simple's touch is an UPDATE of the session row. Here a
 * process touches a session at most once a SESSION_TOUCH_INTERVAL_MS; the cookie still rolls on
 * every answer, and the stored expiry trails it by at most that interval (of a 30-day session).
 * A session row is written as before when its content changes (sign-in, CSRF token, sign-out).
 */
export function throttledTouch<S extends session.Store>(store: S): S {
  const touch = store.touch?.bind(store);
  const destroy = store.destroy.bind(store);
  if (!touch) return store;
  const touchedAt = new Map<string, number>();
  store.touch = (sid, sess, callback) => {
    const now = Date.now();
    const last = touchedAt.get(sid);
    if (last !== undefined && now - last < SESSION_TOUCH_INTERVAL_MS) {
      callback?.();
      return;
    }
    // Re-inserted so that the map's order stays oldest touch first.
    touchedAt.delete(sid);
    touchedAt.set(sid, now);
    if (touchedAt.size > SESSION_TOUCH_MEMORY) touchedAt.delete(touchedAt.keys().next().value as string);
    touch(sid, sess, callback);
  };
  store.destroy = (sid, callback) => {
    touchedAt.delete(sid);
    destroy(sid, callback);
  };
  return store;
}

/** Client pages that need a session: a signed-out visitor goes to the sign-in page and comes back. */
function requirePageSession(config: ApiConfig): RequestHandler {
  const guarded = (req: Request) =>
    req.method === 'GET' && /^\/dashboard(\/|$)/.test(req.path) && !/^\/dashboard\/demo(\/|$)/.test(req.path) && (req.get('accept') ?? '').includes('text/html');
  return (req, res, next) => {
    if (!guarded(req) || req.user) {
      next();
      return;
    }
    res.redirect(302, publicLink(config, '/sign-in', { error: 'SessionRequired', callbackUrl: publicLink(config, req.originalUrl) }));
  };
}
