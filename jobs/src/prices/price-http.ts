import { RateLimiterMemory, RateLimiterQueue } from 'rate-limiter-flexible';
import { PriceFetchError, PriceSourceError } from './price-source';

export const DEFAULT_PRICES_USER_AGENT = 'Tickerbell/0.1 (self-hosted market analytics; price alerts)';

export interface PriceHttpOptions {
  /** The provider, for error messages. */
  provider: string;
  userAgent?: string;
  timeoutMs?: number;
  /** Request budget: `points` per `durationSeconds` (each request costs its weight). */
  rateLimit: { points: number; durationSeconds: number };
  /** Extra headers on every request (API keys). Never logged. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/**
 * The one HTTP client of the price providers: User-Agent, timeout, an in-process weighted token
 * bucket (rate-limiter-flexible) that makes callers wait instead of exceeding the provider's
 * budget, and Retry-After honoured on 429/418 by pausing every later request.
 */
export class PriceHttpClient {
  private readonly limiter: RateLimiterMemory;
  private readonly queue: RateLimiterQueue;
  private readonly fetchImpl: typeof fetch;
  private pausedUntil = 0;

  constructor(private readonly options: PriceHttpOptions) {
    this.limiter = new RateLimiterMemory({ points: options.rateLimit.points, duration: options.rateLimit.durationSeconds });
    this.queue = new RateLimiterQueue(this.limiter, { maxQueueSize: 1000 });
    this.fetchImpl = options.fetch ?? fetch;
  }

  async getJson(url: URL, weight = 1): Promise<unknown> {
    const waitMs = this.pausedUntil - Date.now();
    if (waitMs > 0) throw new PriceFetchError(`${this.options.provider}: rate limited, retry in ${Math.ceil(waitMs / 1000)} s`, 429, waitMs);
    await this.queue.removeTokens(weight);
    const timeoutMs = this.options.timeoutMs ?? 5000;
    // The query string may carry symbols but never keys (those travel in headers).
    const shown = `${url.origin}${url.pathname}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { 'User-Agent': this.options.userAgent ?? DEFAULT_PRICES_USER_AGENT, Accept: 'application/json', ...this.options.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      throw new PriceFetchError(`GET ${shown}: ${name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (message ?? String(error))}`);
    }
    if (response.status === 429 || response.status === 418) {
      await response.body?.cancel();
      const retryAfterMs = retryAfter(response.headers.get('retry-after'));
      this.pausedUntil = Date.now() + retryAfterMs;
      throw new PriceFetchError(`GET ${shown}: HTTP ${response.status} (rate limited, retry in ${Math.ceil(retryAfterMs / 1000)} s)`, response.status, retryAfterMs);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new PriceFetchError(`GET ${shown}: HTTP ${response.status}`, response.status);
    }
    if (!response.ok) {
      // A rejected request (bad symbol, bad key): retrying the same request will not help.
      const text = (await response.text()).slice(0, 300);
      throw new PriceSourceError(`GET ${shown}: HTTP ${response.status} ${text}`, response.status);
    }
    try {
      return await response.json();
    } catch {
      throw new PriceSourceError(`GET ${shown}: the answer is not JSON`);
    }
  }
}

/** Retry-After in seconds (or an HTTP date); 60 s when absent or unreadable. */
function retryAfter(header: string | null): number {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(header);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  return 60_000;
}
