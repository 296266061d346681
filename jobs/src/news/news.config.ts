import { join } from 'node:path';
import { z } from 'zod';
import { secRequestsPerSecondSchema, secUserAgentSchema } from '../sources/sec-edgar.env';
import { parseEnv } from '../config/env';
import { EdgarHttpClient } from '../sources/sec-edgar.client';
import type Redis from 'ioredis';
import { DEFAULT_NEWS_USER_AGENT, FeedLiveSource, FeedReplaySource, type NewsSource } from './feeds.client';
import { EDGAR_BROWSE_URL, EdgarFilingsLiveSource, EdgarFilingsReplaySource } from './edgar-filings.client';

/** The recorded real payloads of the offline (replay) mode: copies of ../shared/fixtures/news and /sec (data/README.md). */
export const BUNDLED_NEWS_RECORDINGS_DIR = join(__dirname, 'data');

/** The feeds polled when NEWS_FEEDS is not set, and the recording of each that replay mode serves. */
export const DEFAULT_NEWS_FEEDS = [
  { url: 'https://www.coindesk.com/arc/outboundfeeds/rss', recording: 'coindesk-rss-2025-12-13.xml' },
  { url: 'https://cointelegraph.com/rss', recording: 'cointelegraph-rss-2025-12-12.xml' },
  { url: 'https://decrypt.co/feed', recording: 'decrypt-feed-2025-12-12.xml' },
] as const;

/** The recorded getcurrent pages replay mode serves as the SEC's current filings. */
export const EDGAR_RECORDINGS = ['edgar-getcurrent-all-forms-start0-2026-01-12.atom.xml', 'edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml'] as const;

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The news variables (docs/news.md describes each). */
export const newsEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** live: the feeds in NEWS_FEEDS and the SEC; replay: the recorded files (the offline mode). Default: live in production, replay otherwise. */
    NEWS_SOURCE: z.enum(['live', 'replay']).optional(),
    /** Comma-separated RSS/Atom feed URLs (default: CoinDesk, Cointelegraph, Decrypt). A URL that is not http(s) stops every process at start. */
    NEWS_FEEDS: z
      .string()
      .transform((value) => value.split(',').map((url) => url.trim()).filter(Boolean))
      .superRefine((urls, ctx) => {
        for (const url of urls) if (!isHttpUrl(url)) ctx.addIssue({ code: 'custom', message: `not an http(s) URL: "${url.slice(0, 200)}"` });
        if (!urls.length) ctx.addIssue({ code: 'custom', message: 'lists no feed' });
      })
      .optional(),
    /** Where replay mode reads its recordings (the names in DEFAULT_NEWS_FEEDS and EDGAR_RECORDINGS). */
    NEWS_REPLAY_DIR: z.string().default(BUNDLED_NEWS_RECORDINGS_DIR),
    /** Items kept per source; older ones are deleted with their market links. */
    NEWS_HISTORY_PER_SOURCE: z.coerce.number().int().min(10).max(100_000).default(500),
    NEWS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
    NEWS_USER_AGENT: z.string().min(3).default(DEFAULT_NEWS_USER_AGENT),
    /**
     * Whether the SEC's current filings are polled (with the feeds). Default: on with the
     * recordings, and live only once SEC_USER_AGENT is set (self-hosted first: a system without
     * it still starts, with the feeds live and the filings off).
     */
    NEWS_SEC_FILINGS: z.enum(['on', 'off']).optional(),
    SEC_USER_AGENT: secUserAgentSchema,
    SEC_EDGAR_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').default(EDGAR_BROWSE_URL),
    SEC_REQUESTS_PER_SECOND: secRequestsPerSecondSchema,
    /** getcurrent pages (100 filings each) read per poll. */
    SEC_CURRENT_PAGES: z.coerce.number().int().min(1).max(10).default(2),
  })
  .transform((env) => {
    const source = env.NEWS_SOURCE ?? (env.NODE_ENV === 'production' ? 'live' : 'replay');
    const filings = env.NEWS_SEC_FILINGS ?? (source === 'replay' || env.SEC_USER_AGENT ? 'on' : 'off');
    return { ...env, NEWS_SOURCE: source, NEWS_SEC_FILINGS: filings };
  })
  .superRefine((env, ctx) => {
    if (env.NEWS_SOURCE === 'live' && env.NEWS_SEC_FILINGS === 'on' && !env.SEC_USER_AGENT) {
      // Only when asked for explicitly: by default the live filings wait for SEC_USER_AGENT.
      ctx.addIssue({ code: 'custom', path: ['SEC_USER_AGENT'], message: 'required when NEWS_SOURCE is live and NEWS_SEC_FILINGS is on' });
    }
  });

export type NewsConfig = z.infer<typeof newsEnvSchema>;

export function loadNewsConfig(env: Record<string, string | undefined>): NewsConfig {
  return parseEnv(newsEnvSchema, env, 'news');
}

/** The feeds of a configuration (without the SEC). */
export function feedSourcesFromConfig(config: NewsConfig): NewsSource[] {
  if (config.NEWS_SOURCE === 'replay') {
    return DEFAULT_NEWS_FEEDS.map((feed) => new FeedReplaySource(feed.url, join(config.NEWS_REPLAY_DIR, feed.recording)));
  }
  const urls = config.NEWS_FEEDS ?? DEFAULT_NEWS_FEEDS.map((feed) => feed.url);
  return [...new Set(urls)].map((url) => new FeedLiveSource(url, { userAgent: config.NEWS_USER_AGENT, timeoutMs: config.NEWS_TIMEOUT_MS }));
}

/** The SEC's current filings for a configuration, or null when off. Live mode needs the cluster's Redis for the shared rate limit. */
export function edgarSourceFromConfig(config: NewsConfig, shared: { redis: Redis; keyPrefix: string }): NewsSource | null {
  if (config.NEWS_SEC_FILINGS === 'off') return null;
  if (config.NEWS_SOURCE === 'replay') return new EdgarFilingsReplaySource(EDGAR_RECORDINGS.map((file) => join(config.NEWS_REPLAY_DIR, file)));
  const http = new EdgarHttpClient({
    userAgent: config.SEC_USER_AGENT as string,
    redis: shared.redis,
    keyPrefix: shared.keyPrefix,
    requestsPerSecond: config.SEC_REQUESTS_PER_SECOND,
    timeoutMs: config.NEWS_TIMEOUT_MS,
  });
  return new EdgarFilingsLiveSource(http, { baseUrl: config.SEC_EDGAR_URL, pages: config.SEC_CURRENT_PAGES });
}
