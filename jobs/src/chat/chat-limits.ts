import type Redis from 'ioredis';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChatConfig } from './chat.config';
import { ChatError } from './chat.errors';
import { bannedError, posterStanding, type ChatStanding } from './chat-moderation.store';

// Who may post, and how often: moderator sanctions (ban, mute), links from new accounts, the
// per-user rate limit and the per-room slow mode. The limits live in Redis (rate-limiter-flexible),
// so every api instance shares one budget per user. Rules in docs/chat.md ("Moderation and abuse").

export interface ChatLimitDeps {
  dataSource: DataSource | EntityManager;
  redis: Redis;
  /** The Redis key prefix of the deployment (QUEUE_PREFIX). */
  prefix: string;
  config: Pick<ChatConfig, 'CHAT_RATE_PER_SECOND' | 'CHAT_RATE_BURST' | 'CHAT_NEW_ACCOUNT_LINK_MINUTES'>;
  now: Date;
}

/**
 * The burst: a member may send CHAT_RATE_BURST messages at once; the ones beyond the steady rate
 * come from a second budget refilled every CHAT_BURST_WINDOW_SECONDS.
 */
export const CHAT_BURST_WINDOW_SECONDS = 10;
/** Typing events: at most this many per user and room per window (the client sends one every few seconds). */
export const CHAT_TYPING_POINTS = 5;
export const CHAT_TYPING_WINDOW_SECONDS = 10;

// ---- links (pure) ------------------------------------------------------------------------------

/**
 * Top-level domains that make a bare `name.tld` a link. A conservative list: the generic and
 * country domains scam and spam links use most, without those that collide with trading talk.
 */
const LINK_TLDS = new Set(
  (
    'com net org io co xyz app dev me gg ly to info biz link site online top club cc ru cn tk ml ga cf gq live pro ai us uk de fr eu ' +
    'so sh ws vip fun space shop store tech world click finance exchange money trade cash today news blog page website ' +
    'be nl ch es it pl br in jp kr tv fm im is la st su ua vc'
  ).split(' '),
);

// A scheme (https://, ftp://, tg://...), or www.<something>.
const SCHEME_OR_WWW = /(?:^|[^a-z0-9])(?:[a-z][a-z0-9+.-]{1,19}:\/\/\S|www\.[a-z0-9-])/i;
// Bare host names: labels of letters, digits and hyphens separated by dots (the last one is the TLD).
const BARE_HOST = /(?:^|[^a-z0-9@.$_-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,24}))(?![a-z0-9-])/gi;
// A dotted IPv4 address followed by a path or a port.
const IP_HOST = /(?:^|[^0-9.])(?:\d{1,3}\.){3}\d{1,3}(?:[:/]\d*)/;

/**
 * Whether a message holds a link, by a documented conservative rule (docs/chat.md): a URL with a
 * scheme (`https://`, `tg://`), anything starting with `www.`, an IPv4 address with a port or a
 * path, or a bare host name (`scam.xyz`, `t.me/group`) whose last label is a common top-level
 * domain (LINK_TLDS). Cashtags (`$BTC.X`), e-mail addresses' local parts and numbers (`1.5`) are
 * not links. Each candidate host is checked with the WHATWG URL parser.
 */
export function containsLink(text: string): boolean {
  if (SCHEME_OR_WWW.test(text) || IP_HOST.test(text)) return true;
  for (const match of text.matchAll(BARE_HOST)) {
    const [, host, tld] = match;
    if (!LINK_TLDS.has(tld.toLowerCase())) continue;
    try {
      if (new URL(`http://${host}`).hostname.includes('.')) return true;
    } catch {
      // Not a host name after all.
    }
  }
  return false;
}

// ---- limiters ----------------------------------------------------------------------------------

interface Limiters {
  post: BurstyRateLimiter | RateLimiterRedis;
  typing: RateLimiterRedis;
  slowMode: Map<number, RateLimiterRedis>;
}

// One set per Redis connection and settings: a RateLimiterRedis registers its script on the client.
const limiterCache = new WeakMap<Redis, Map<string, Limiters>>();

function limitersOf(deps: Pick<ChatLimitDeps, 'redis' | 'prefix' | 'config'>): Limiters {
  const rate = deps.config.CHAT_RATE_PER_SECOND;
  const burst = deps.config.CHAT_RATE_BURST;
  const key = `${deps.prefix}|${rate}|${burst}`;
  let byKey = limiterCache.get(deps.redis);
  if (!byKey) limiterCache.set(deps.redis, (byKey = new Map()));
  let limiters = byKey.get(key);
  if (!limiters) {
    const base = `${deps.prefix}:chat:rl`;
    // The steady rate: `rate` messages per second; the burst adds `burst - rate` more per window.
    const steady = new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: `${base}:post`, points: rate, duration: 1 });
    const extra = burst - rate;
    limiters = {
      post:
        extra > 0
          ? new BurstyRateLimiter(steady, new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: `${base}:burst`, points: extra, duration: CHAT_BURST_WINDOW_SECONDS }))
          : steady,
      typing: new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: `${base}:typing`, points: CHAT_TYPING_POINTS, duration: CHAT_TYPING_WINDOW_SECONDS }),
      slowMode: new Map(),
    };
    byKey.set(key, limiters);
  }
  return limiters;
}

function slowModeLimiter(deps: Pick<ChatLimitDeps, 'redis' | 'prefix' | 'config'>, seconds: number): RateLimiterRedis {
  const limiters = limitersOf(deps);
  let limiter = limiters.slowMode.get(seconds);
  if (!limiter) {
    limiter = new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: `${deps.prefix}:chat:rl:slow:${seconds}`, points: 1, duration: seconds });
    limiters.slowMode.set(seconds, limiter);
  }
  return limiter;
}

const retryAfter = (refusal: RateLimiterRes) => Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));

// ---- checks ------------------------------------------------------------------------------------

/**
 * Throws the reason `userId` may not post `text` in the room now, else takes one point of the
 * member's budgets. In order: banned (until), muted (until), links from an account younger than
 * CHAT_NEW_ACCOUNT_LINK_MINUTES, the room's slow mode (one message per `slow_mode_seconds` per
 * member), the rate limit (CHAT_RATE_PER_SECOND sustained, CHAT_RATE_BURST at once; owners and
 * moderators skip the slow mode but not the rate limit). A refusal of the
 * rate limit gives the slow-mode point back. Call it after the text was validated and before the
 * message is written (a post failing later has used its points).
 * The room must exist (the caller resolved it); membership is the caller's check. `loaded`: the
 * standing the caller already read (postingStanding), else it is read here.
 */
export async function assertCanPost(deps: ChatLimitDeps, p: { userId: number; roomId: number; text: string }, loaded?: ChatStanding): Promise<void> {
  const standing = loaded ?? (await posterStanding(deps.dataSource, p.roomId, p.userId, deps.now));
  if (standing.banned) throw bannedError(standing);
  if (standing.mutedUntil) {
    throw new ChatError('muted', `A moderator muted you in this room until ${standing.mutedUntil}`, { until: standing.mutedUntil });
  }
  const accountMinutes = standing.accountCreatedAt ? (deps.now.getTime() - standing.accountCreatedAt.getTime()) / 60_000 : Infinity;
  if (accountMinutes < deps.config.CHAT_NEW_ACCOUNT_LINK_MINUTES && containsLink(p.text)) {
    throw new ChatError('links_not_allowed', `New accounts can post links ${deps.config.CHAT_NEW_ACCOUNT_LINK_MINUTES} minutes after signing up`, { field: 'text' });
  }

  const slowKey = `${p.roomId}:${p.userId}`;
  const slow = standing.slowModeSeconds > 0 && !standing.exempt ? slowModeLimiter(deps, standing.slowModeSeconds) : null;
  if (slow) {
    try {
      await slow.consume(slowKey);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new ChatError('slow_mode', `Slow mode: one message every ${standing.slowModeSeconds} seconds`, { retryAfterSeconds: retryAfter(error) });
    }
  }
  try {
    await limitersOf(deps).post.consume(String(p.userId));
  } catch (error) {
    if (slow) await slow.delete(slowKey);
    if (!(error instanceof RateLimiterRes)) throw error;
    throw new ChatError('rate_limited', 'You are sending messages too fast', { retryAfterSeconds: retryAfter(error) });
  }
}

/** Typing events: CHAT_TYPING_POINTS per CHAT_TYPING_WINDOW_SECONDS per user and room, else rate_limited. */
export async function assertCanTyping(deps: Pick<ChatLimitDeps, 'redis' | 'prefix' | 'config'>, p: { userId: number; roomId: number }): Promise<void> {
  try {
    await limitersOf(deps).typing.consume(`${p.roomId}:${p.userId}`);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw new ChatError('rate_limited', 'Too many typing events', { retryAfterSeconds: retryAfter(error) });
  }
}
