import type Redis from 'ioredis';
import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import {
  PredictionsSourceError,
  parseClobBook,
  parseClobMidpoint,
  parseGammaEvents,
  parseGammaMarket,
  parseGammaMarkets,
  type ClobBook,
  type GammaEvent,
  type GammaMarket,
} from './predictions.parse';
import { POLYMARKET_CLOB_SOURCE, POLYMARKET_GAMMA_SOURCE } from './predictions-markets.store';

export { PredictionsSourceError };

/** Polymarket's public Gamma (markets, events) and CLOB (order books) APIs; no key. */
export const POLYMARKET_GAMMA_DEFAULT_URL = 'https://gamma-api.polymarket.com';
export const POLYMARKET_CLOB_DEFAULT_URL = 'https://clob.polymarket.com';

/** Gamma's largest page of `/markets` and `/events`. */
export const GAMMA_MAX_PAGE = 500;

export type PolymarketSourceKind = 'live' | 'replay';

/**
 * Where markets and prices come from: Polymarket's APIs, or the replay twin (polymarket-replay.ts),
 * which serves the same paths. Every answer is parsed (predictions.parse.ts); a malformed one throws
 * PredictionsSourceError with reason 'malformed'.
 */
export interface PolymarketSource {
  readonly kind: PolymarketSourceKind;
  /** A page of active, open markets (`/markets?active=true&closed=false`), by id ascending. */
  marketsPage(offset: number, limit: number): Promise<GammaMarket[]>;
  /** A market by Gamma id (`/markets/{id}`); null when Gamma does not know it (404). */
  market(id: string): Promise<GammaMarket | null>;
  /**
   * A page of active, open events with their tags and markets (`/events?active=true&closed=false`), by
   * id ascending. `markets: false`: the events' markets are not parsed (their `markets` is empty).
   */
  eventsPage(offset: number, limit: number, opts?: { markets?: boolean }): Promise<GammaEvent[]>;
  /** The order book of an outcome token (CLOB `/book`); null when none exists (404). */
  book(tokenId: string): Promise<ClobBook | null>;
  /** The midpoint of an outcome token's book (CLOB `/midpoint`); null when no book exists (404). */
  midpoint(tokenId: string): Promise<string | null>;
}

export interface PolymarketClientOptions {
  gammaUrl?: string;
  clobUrl?: string;
  kind?: PolymarketSourceKind;
  /** Per HTTP request (default 15 s). A timeout is not retried inside the call (it already waited): it fails the step, which BullMQ retries. */
  timeoutMs?: number;
  /** Awaited before every Gamma request (the cluster-wide rate limit, polymarketRateLimit). */
  acquireGamma?: () => Promise<void>;
  /** Awaited before every CLOB request. */
  acquireClob?: () => Promise<void>;
  /** Records each call's outcome in source_health ('polymarket-gamma', 'polymarket-clob'). */
  health?: SourceHealthDeps;
  /** Retries inside one call after HTTP 429 or 5xx (default 3). */
  retries?: number;
  /** The first retry's delay (default 500 ms), doubled each time; a Retry-After header wins (capped at 30 s). */
  backoffMs?: number;
  fetch?: typeof fetch;
}

const MAX_RETRY_AFTER_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const trimUrl = (url: string) => url.replace(/\/+$/, '');

/**
 * A cluster-wide request budget in Redis (every worker process shares it): `points` requests per
 * `seconds`, waited for in a queue (at most 1,000 waiting). Gamma publishes 300 requests per 10 s for
 * `/markets`; the CLOB's book endpoints allow more, but one budget per API keeps it simple.
 */
export function polymarketRateLimit(redis: Redis, keyPrefix: string, points: number, seconds = 10): () => Promise<void> {
  const queue = new RateLimiterQueue(new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: seconds }), { maxQueueSize: 1000 });
  return async () => void (await queue.removeTokens(1));
}

/**
 * Polymarket's Gamma and CLOB APIs over HTTP (or the replay twin at another base URL). HTTP 429 and
 * 5xx are retried a few times with exponential backoff (Retry-After honoured); a timeout, a 4xx or a
 * malformed answer fails the call at once with a PredictionsSourceError saying why.
 */
export class PolymarketClient implements PolymarketSource {
  readonly kind: PolymarketSourceKind;
  private readonly gammaUrl: string;
  private readonly clobUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(private readonly opts: PolymarketClientOptions = {}) {
    this.kind = opts.kind ?? 'live';
    this.gammaUrl = trimUrl(opts.gammaUrl ?? POLYMARKET_GAMMA_DEFAULT_URL);
    this.clobUrl = trimUrl(opts.clobUrl ?? POLYMARKET_CLOB_DEFAULT_URL);
    this.fetchImpl = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.retries = Math.max(0, opts.retries ?? 3);
    this.backoffMs = opts.backoffMs ?? 500;
  }

  async marketsPage(offset: number, limit: number): Promise<GammaMarket[]> {
    const what = `/markets?offset=${offset}&limit=${limit}`;
    const body = await this.gamma(`/markets?${pageQuery(offset, limit)}`, what);
    return this.parse(POLYMARKET_GAMMA_SOURCE, () => parseGammaMarkets(body, what));
  }

  async market(id: string): Promise<GammaMarket | null> {
    const what = `/markets/${id}`;
    const body = await this.gamma(`/markets/${encodeURIComponent(id)}`, what, { notFound: true });
    return this.parse(POLYMARKET_GAMMA_SOURCE, () => (body === NOT_FOUND ? null : parseGammaMarket(body, what)));
  }

  async eventsPage(offset: number, limit: number, opts: { markets?: boolean } = {}): Promise<GammaEvent[]> {
    const what = `/events?offset=${offset}&limit=${limit}`;
    const body = await this.gamma(`/events?${pageQuery(offset, limit)}`, what);
    return this.parse(POLYMARKET_GAMMA_SOURCE, () => parseGammaEvents(body, what, opts));
  }

  async book(tokenId: string): Promise<ClobBook | null> {
    const what = `/book?token_id=${tokenId.slice(0, 12)}…`;
    const body = await this.clob(`/book?token_id=${encodeURIComponent(tokenId)}`, what);
    return this.parse(POLYMARKET_CLOB_SOURCE, () => (body === NOT_FOUND ? null : parseClobBook(body, what)));
  }

  async midpoint(tokenId: string): Promise<string | null> {
    const what = `/midpoint?token_id=${tokenId.slice(0, 12)}…`;
    const body = await this.clob(`/midpoint?token_id=${encodeURIComponent(tokenId)}`, what);
    return this.parse(POLYMARKET_CLOB_SOURCE, () => (body === NOT_FOUND ? null : parseClobMidpoint(body, what)));
  }

  private gamma(path: string, what: string, opts: { notFound?: boolean } = {}): Promise<unknown> {
    return this.call(POLYMARKET_GAMMA_SOURCE, `${this.gammaUrl}${path}`, what, this.opts.acquireGamma, opts.notFound ?? false);
  }

  private clob(path: string, what: string): Promise<unknown> {
    return this.call(POLYMARKET_CLOB_SOURCE, `${this.clobUrl}${path}`, what, this.opts.acquireClob, true);
  }

  /** The answer parsed, and the call's outcome recorded: a parse failure is a failure of the source, like an HTTP error. */
  private async parse<T>(source: string, run: () => T): Promise<T> {
    let value: T;
    try {
      value = run();
    } catch (error) {
      await this.record(source, error);
      throw error;
    }
    await this.record(source, null);
    return value;
  }

  private async record(source: string, error: unknown | null): Promise<void> {
    const health = this.opts.health;
    if (!health) return;
    if (error === null) await recordSourceHealth(health, source, { ok: true, details: { kind: this.kind } });
    else await recordSourceHealth(health, source, { ok: false, error: error instanceof Error ? error.message : String(error) });
  }

  private async call(source: string, url: string, what: string, acquire: (() => Promise<void>) | undefined, notFound: boolean): Promise<unknown> {
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.attempt(url, what, acquire, notFound);
        } catch (error) {
          if (!(error instanceof PredictionsSourceError) || error.reason !== 'http' || !error.retryable || attempt >= this.retries) throw error;
          await sleep(error.retryAfterMs ?? this.backoffMs * 2 ** attempt);
        }
      }
    } catch (error) {
      await this.record(source, error);
      throw error;
    }
  }

  private async attempt(url: string, what: string, acquire: (() => Promise<void>) | undefined, notFound: boolean): Promise<unknown> {
    if (acquire) await acquire();
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new PredictionsSourceError('timeout', `${what}: no answer within ${this.timeoutMs} ms`, { cause: error });
      throw new PredictionsSourceError('network', `${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
    let body: string;
    try {
      body = await response.text();
    } catch (error) {
      throw new PredictionsSourceError('network', `${what}: the answer was cut off`, { cause: error });
    }
    if (response.status === 404 && notFound) return NOT_FOUND;
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      const header = response.headers.get('retry-after');
      const seconds = header === null || header.trim() === '' ? NaN : Number(header);
      const retryAfterMs = retryable && Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
      throw new PredictionsSourceError('http', `${what}: HTTP ${response.status}${response.status === 429 ? ' (rate limited)' : ''}`, {
        retryable,
        status: response.status,
        retryAfterMs,
      });
    }
    try {
      return JSON.parse(body);
    } catch (error) {
      throw new PredictionsSourceError('malformed', `${what}: the answer is not JSON (${body.slice(0, 40).replace(/\s+/g, ' ')})`, { cause: error });
    }
  }
}

const NOT_FOUND = Symbol('not found');

/** Active, open records, by id ascending, so a page boundary does not move while the sync pages. */
function pageQuery(offset: number, limit: number): string {
  return new URLSearchParams({ active: 'true', closed: 'false', order: 'id', ascending: 'true', limit: String(limit), offset: String(offset) }).toString();
}
