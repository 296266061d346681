import type Redis from 'ioredis';
import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';

/** The SEC's fair-access ceiling: at most 10 requests per second from one user, whatever the number of machines. */
export const SEC_MAX_REQUESTS_PER_SECOND = 10;
/** How long every EDGAR request waits after a 403/429 without Retry-After (the SEC blocks for about 10 minutes). */
export const SEC_DEFAULT_BACKOFF_MS = 10 * 60_000;
/** After a 5xx: a short pause, the job's own retries do the rest. */
export const SEC_SERVER_ERROR_BACKOFF_MS = 30_000;

/** A failed EDGAR request. `retryAfterMs` is set when EDGAR asked the whole cluster to back off. */
export class EdgarFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'EdgarFetchError';
  }
}

export interface EdgarHttpOptions {
  /** Sent on every request; the SEC asks for "Company Name admin@example.com" and blocks requests without one. */
  userAgent: string;
  redis: Redis;
  /** The Redis key prefix (the queue prefix): the budget is shared by every process of one deployment. */
  keyPrefix: string;
  /** Requests per second for the whole cluster (at most SEC_MAX_REQUESTS_PER_SECOND). */
  requestsPerSecond?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The one HTTP client for sec.gov (news filings now, insiders and lockups later). Every request
 * carries the operator's User-Agent and takes a token from a bucket in Redis, so all workers
 * together stay under the SEC's 10 requests/s. A 403 or 429 (EDGAR's answer to too many requests)
 * or a 5xx pauses every process's requests through a shared Redis key until the backoff ends.
 */
export class EdgarHttpClient {
  private readonly queue: RateLimiterQueue;
  private readonly fetchImpl: typeof fetch;
  private readonly pauseKey: string;
  private readonly now: () => number;

  constructor(private readonly options: EdgarHttpOptions) {
    const perSecond = Math.min(options.requestsPerSecond ?? SEC_MAX_REQUESTS_PER_SECOND, SEC_MAX_REQUESTS_PER_SECOND);
    // A fixed window can pass its points at the end of one window and again at the start of the
    // next: half the budget per window keeps any rolling second under the ceiling.
    const limiter = new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: `${options.keyPrefix}:sec-edgar:rate`,
      points: Math.max(1, Math.floor(perSecond / 2)),
      duration: 1,
    });
    this.queue = new RateLimiterQueue(limiter, { maxQueueSize: 1000 });
    this.fetchImpl = options.fetch ?? fetch;
    this.pauseKey = `${options.keyPrefix}:sec-edgar:paused-until`;
    this.now = options.now ?? Date.now;
  }

  /** GETs a sec.gov URL and answers its body as text. */
  async getText(url: string, accept = 'application/atom+xml, application/xml, text/xml, */*'): Promise<string> {
    const pausedUntil = Number((await this.options.redis.get(this.pauseKey)) ?? 0);
    const waitMs = pausedUntil - this.now();
    if (waitMs > 0) throw new EdgarFetchError(`sec-edgar: backing off, retry in ${Math.ceil(waitMs / 1000)} s`, undefined, waitMs);
    await this.queue.removeTokens(1);
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    const shown = new URL(url).pathname;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { 'User-Agent': this.options.userAgent, Accept: accept },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      throw new EdgarFetchError(`GET ${shown}: ${name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (message ?? String(error))}`);
    }
    if (response.status === 403 || response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      const backoffMs =
        retryAfterMs(response.headers.get('retry-after')) ?? (response.status >= 500 ? SEC_SERVER_ERROR_BACKOFF_MS : SEC_DEFAULT_BACKOFF_MS);
      await this.options.redis.set(this.pauseKey, String(this.now() + backoffMs), 'PX', backoffMs);
      throw new EdgarFetchError(`GET ${shown}: HTTP ${response.status} (backing off ${Math.ceil(backoffMs / 1000)} s)`, response.status, backoffMs);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new EdgarFetchError(`GET ${shown}: HTTP ${response.status}`, response.status);
    }
    return response.text();
  }
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
