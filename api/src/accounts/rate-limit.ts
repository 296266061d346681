import type { RequestHandler, Request } from 'express';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors';

export interface AccountsRateLimiters {
  signIn: RateLimiterRedis;
  signUp: RateLimiterRedis;
  reset: RateLimiterRedis;
  log: RateLimiterRedis;
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
  };
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
      if (error instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        next(
          new HttpError(429, 'rate_limited', 'Too many attempts: try again later', { retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) }),
        );
        return;
      }
      next(error);
    }
  };
}
