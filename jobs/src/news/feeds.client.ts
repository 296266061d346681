import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseNewsFeed, type ParsedFeed } from './news-feed.parse';

/** What one poll of a source brought back. */
export interface NewsFetch extends ParsedFeed {
  /** Where it came from (`replay:<file>` in replay mode). */
  url: string;
}

/** One news source: an RSS/Atom feed, or the SEC's current filings. Live clients and their replay twins pass one test suite. */
export interface NewsSource {
  /** Its name in source_health and on news_items (at most 50 characters). */
  readonly name: string;
  readonly kind: 'live' | 'replay';
  fetch(): Promise<NewsFetch>;
}

/** A transient failure reaching a feed (network, timeout, HTTP error): recorded and retried. */
export class NewsFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'NewsFetchError';
  }
}

export const DEFAULT_NEWS_USER_AGENT = 'Tickerbell/0.1 (self-hosted market analytics; news)';
// A feed is a few hundred kB at most; anything far larger is not a feed.
const MAX_FEED_BYTES = 5 * 1024 * 1024;

/** A feed's source name: `feed:` and its host and path, shortened with a hash when longer than source_health allows. */
export function feedSourceName(url: string): string {
  const parsed = new URL(url);
  const readable = `feed:${parsed.host}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  if (readable.length <= 50) return readable;
  const hash = createHash('sha1').update(url).digest('hex').slice(0, 8);
  return `feed:${parsed.host.slice(0, 35)}#${hash}`;
}

export interface FeedLiveOptions {
  userAgent?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** An RSS/Atom feed over HTTP. */
export class FeedLiveSource implements NewsSource {
  readonly kind = 'live';
  readonly name: string;
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly url: string,
    private readonly options: FeedLiveOptions = {},
  ) {
    this.name = feedSourceName(url);
    this.fetchImpl = options.fetch ?? fetch;
  }

  async fetch(): Promise<NewsFetch> {
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    let body: string;
    try {
      const response = await this.fetchImpl(this.url, {
        headers: {
          'User-Agent': this.options.userAgent ?? DEFAULT_NEWS_USER_AGENT,
          Accept: 'application/rss+xml, application/atom+xml, application/xml, text/xml;q=0.9, */*;q=0.1',
        },
        redirect: 'follow',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new NewsFetchError(`GET ${this.url}: HTTP ${response.status}`, response.status);
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_FEED_BYTES) {
        await response.body?.cancel();
        throw new NewsFetchError(`GET ${this.url}: ${declared} bytes, more than a feed`);
      }
      body = await response.text();
    } catch (error) {
      if (error instanceof NewsFetchError) throw error;
      // AbortSignal.timeout rejects with a DOMException named TimeoutError (also while reading the body).
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      throw new NewsFetchError(`GET ${this.url}: ${name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (message ?? String(error))}`);
    }
    return { ...parseNewsFeed(body, { baseUrl: this.url }), url: this.url };
  }
}

/** A recorded feed file served as if live, under the name of the feed it was recorded from. */
export class FeedReplaySource implements NewsSource {
  readonly kind = 'replay';
  readonly name: string;

  constructor(
    readonly originUrl: string,
    private readonly file: string,
  ) {
    this.name = feedSourceName(originUrl);
  }

  async fetch(): Promise<NewsFetch> {
    const body = await readFile(this.file, 'utf8');
    return { ...parseNewsFeed(body, { baseUrl: this.originUrl }), url: `replay:${basename(this.file)}` };
  }
}
