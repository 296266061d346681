import { isIPv6 } from 'node:net';
import type { RequestHandler, Request } from 'express';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@tickerbell/jobs';
import { HttpError } from '../http/errors';

export interface AccountsRateLimiters {
  signIn: RateLimiterRedis;
  signUp: RateLimiterRedis;
  reset: RateLimiterRedis;
  log: RateLimiterRedis;
  /** Another limiter on the same Redis, prefix and window. */
  create(name: string, points: number): RateLimiterRedis;
}

export function createRateLimiters(
  redis: Redis,
  options: { prefix: string; windowSeconds: number; signIn: number; signUp: number; reset: number; log: number },
): AccountsRateLimiters {
  // Redis: one budget shared by every api instance.
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.prefix}:${name}`, points, duration: options.windowSeconds });
  return {
    signIn: limiter('signin', options.signIn),
    signUp: limiter('signup', options.signUp),
    reset: limiter('reset', options.reset),
    log: limiter('log', options.log),
    create: limiter,
  };
}

/** Over budget: 429 with Retry-After and the api's JSON error body. */
function tooManyAttempts(refusal: RateLimiterRes): HttpError {
  const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  return new HttpError(429, 'rate_limited', 'Too many attempts: try again later', { retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) });
}

/**
 * Takes one point per key; over budget: 429 with Retry-After. Several keys (per address, per
 * account) must all have room.
 */
export function rateLimit(limiter: RateLimiterRedis, keys: (req: Request) => string[]): RequestHandler {
  return async (req, _res, next) => {
    try {
      for (const key of keys(req)) await limiter.consume(key);
      next();
    } catch (error) {
      next(error instanceof RateLimiterRes ? tooManyAttempts(error) : error);
    }
  };
}

/**
 * The client a limit counts: an IPv4 address, or the /64 network of an IPv6 one (one subscriber
 * usually holds a whole /64, so single IPv6 addresses cost an attacker nothing).
 */
export function clientNetwork(ip: string): string {
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return ip;
  const [head, tail] = address.toLowerCase().split('::');
  const groups = (part: string | undefined) =>
    (part ? part.split(':') : []).flatMap((group) => {
      if (!group.includes('.')) return [group];
      // An IPv4 tail (::a.b.c.d) is the last two groups.
      const [a, b, c, d] = group.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${all.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** One credentials sign-in in progress, holding a point of each sign-in budget. */
export interface SignInAttempt {
  /**
   * The password was right (signed in, or refused only because the email is not verified): the
   * account's failures from this client start again from zero, and the attempt is given back to
   * the client's budget (signing in does not use it up).
   */
  passwordAccepted(): Promise<void>;
  /** The credentials were never checked (an error on the way): both points are given back. */
  abandoned(): Promise<void>;
  // Wrong credentials: nothing to call, the points stay taken until the window ends.
}

/**
 * Credentials sign-in limits (OWASP: limit per client and account and per client, never per
 * account alone, or anyone could lock an owner out by failing on purpose):
 * - per client (IP, IPv6 /64) and account: `perAccount.points` failed attempts per window;
 * - per client across accounts: `perClient.points` failed attempts per window (password spraying).
 * Only wrong credentials count; a right password resets its client-and-account count and gives
 * its point back. The owner elsewhere is never refused for someone else's failures, and a
 * client over a budget is refused (right password or not) until its window ends: a window is
 * fixed when its first point is taken, so retrying while refused does not extend it.
 *
 * Each attempt takes its points before the password is checked (atomically in Redis), so
 * concurrent attempts cannot overrun a budget.
 */
export function signInLimits(limits: { perAccount: RateLimiterRedis; perClient: RateLimiterRedis }, logger: Logger) {
  const giveBack = async (work: Promise<unknown>) => {
    // Best effort: a lost refund only leaves one attempt counted.
    await work.catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'sign-in limit refund failed'));
  };

  return {
    /** Takes a point of both budgets, or throws a 429 (Retry-After) when either is spent. */
    async begin(ip: string, email: string): Promise<SignInAttempt> {
      const client = clientNetwork(ip);
      const accountKey = `ip:${client}:${email}`;
      try {
        await limits.perClient.consume(client);
      } catch (error) {
        throw error instanceof RateLimiterRes ? tooManyAttempts(error) : error;
      }
      try {
        await limits.perAccount.consume(accountKey);
      } catch (error) {
        await giveBack(limits.perClient.reward(client));
        throw error instanceof RateLimiterRes ? tooManyAttempts(error) : error;
      }
      return {
        passwordAccepted: () => giveBack(Promise.all([limits.perClient.reward(client), limits.perAccount.delete(accountKey)])),
        abandoned: () => giveBack(Promise.all([limits.perClient.reward(client), limits.perAccount.reward(accountKey)])),
      };
    },
  };
}
