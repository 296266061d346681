import 'express-session';
import type { Request } from 'express';
import type passport from 'passport';
import type { DataSource } from 'typeorm';
import type { Clock, JobQueues, Logger } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import type { ApiConfig } from '../config';
import type { Csrf } from './csrf';
import type { AccountsRateLimiters } from './rate-limit';

declare module 'express-session' {
  interface SessionData {
    /** Where to go after the Google dance, validated when it started. */
    oauthCallbackUrl?: string;
  }
}

/** What every accounts router shares. */
export interface AccountsContext {
  config: ApiConfig;
  dataSource: DataSource;
  queues: JobQueues;
  logger: Logger;
  clock: Clock;
  /** Seats of a team's plan (accepting an invitation). */
  entitlements: Entitlements;
  passport: passport.Authenticator;
  csrf: Csrf;
  limiters: AccountsRateLimiters;
  sessionCookieName: string;
}

export function publicLink(config: ApiConfig, pathname: string, query: Record<string, string> = {}): string {
  const url = new URL(pathname, config.PUBLIC_URL);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

export function saveSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
}

export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}
