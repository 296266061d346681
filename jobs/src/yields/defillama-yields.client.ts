import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import { DEFILLAMA_YIELDS_SOURCE } from './yields-read.store';
import { parseDefiLlamaChart, streamDefiLlamaPools, YieldsSourceError, type ChartPoint, type DefiLlamaPool, type PoolsStreamResult } from './yields.parse';

/** DefiLlama's public yields API (no key), the server its OpenAPI names for /pools and /chart. */
export const DEFILLAMA_YIELDS_DEFAULT_URL = 'https://yields.llama.fi';

export type YieldsSourceKind = 'live' | 'replay';

/** Where pools come from: DefiLlama's yields API, or its replay twin (yields-replay.ts). */
export interface YieldPoolsSource {
  readonly kind: YieldsSourceKind;
  /** Streams /pools: every valid record to `onPool` as it is parsed; counts in the result. Throws YieldsSourceError. */
  pools(onPool: (pool: DefiLlamaPool) => void): Promise<PoolsStreamResult>;
  /** /chart/{pool}: the pool's daily history (oldest first). */
  chart(pool: string): Promise<ChartPoint[]>;
}

export interface DefiLlamaYieldsClientOptions {
  baseUrl?: string;
  kind?: YieldsSourceKind;
  /** The whole /pools answer (about 11 MB), streamed (default 60 s). */
  poolsTimeoutMs?: number;
  /** One /chart request (default 15 s). */
  timeoutMs?: number;
  /** Awaited before every request: the cluster's shared rate limit (a Redis token bucket). */
  acquire?: () => Promise<void>;
  /** Records each request's outcome in source_health under 'defillama-yields'. */
  health?: SourceHealthDeps;
  fetch?: typeof fetch;
}

/**
 * DefiLlama's yields API: GET /pools streamed through the streaming parser (the body is never held
 * whole), GET /chart/{pool}. Timeouts, network errors, HTTP 429 and 5xx are retryable
 * YieldsSourceErrors (the job fails and BullMQ retries it); a body that is not the documented shape is not.
 */
export class DefiLlamaYieldsClient implements YieldPoolsSource {
  readonly kind: YieldsSourceKind;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: DefiLlamaYieldsClientOptions = {}) {
    this.kind = opts.kind ?? 'live';
    this.baseUrl = (opts.baseUrl ?? DEFILLAMA_YIELDS_DEFAULT_URL).replace(/\/+$/, '');
    this.fetchImpl = opts.fetch ?? fetch;
  }

  async pools(onPool: (pool: DefiLlamaPool) => void): Promise<PoolsStreamResult> {
    return this.withHealth(
      async () => {
        const timeoutMs = this.opts.poolsTimeoutMs ?? 60_000;
        const response = await this.get('/pools', timeoutMs);
        if (!response.body) throw new YieldsSourceError('/pools: empty answer', true);
        try {
          return await streamDefiLlamaPools(response.body as unknown as AsyncIterable<Uint8Array>, onPool);
        } catch (error) {
          throw this.aborted(error, '/pools', timeoutMs);
        }
      },
      (r) => ({ seen: r.seen, accepted: r.accepted }),
    );
  }

  async chart(pool: string): Promise<ChartPoint[]> {
    return this.withHealth(async () => {
      const timeoutMs = this.opts.timeoutMs ?? 15_000;
      const what = `/chart/${pool}`;
      const response = await this.get(`/chart/${encodeURIComponent(pool)}`, timeoutMs);
      let body: unknown;
      try {
        body = JSON.parse(await response.text());
      } catch (error) {
        const e = this.aborted(error, what, timeoutMs);
        throw e instanceof YieldsSourceError ? e : new YieldsSourceError(`${what}: the answer is not JSON`, false);
      }
      return parseDefiLlamaChart(body);
    });
  }

  private aborted(error: unknown, what: string, timeoutMs: number): unknown {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return new YieldsSourceError(`${what}: no complete answer within ${timeoutMs} ms`, true);
    return error;
  }

  private async get(path: string, timeoutMs: number): Promise<Response> {
    if (this.opts.acquire) await this.opts.acquire();
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const e = this.aborted(error, path, timeoutMs);
      throw e instanceof YieldsSourceError ? e : new YieldsSourceError(`${path}: ${(error as Error)?.message ?? String(error)}`, true);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new YieldsSourceError(`${path}: HTTP ${response.status}`, response.status === 429 || response.status >= 500, response.status);
    }
    return response;
  }

  private async withHealth<T>(run: () => Promise<T>, details: (value: T) => Record<string, unknown> = () => ({})): Promise<T> {
    const health = this.opts.health;
    if (!health) return run();
    let value: T;
    try {
      value = await run();
    } catch (error) {
      await recordSourceHealth(health, DEFILLAMA_YIELDS_SOURCE, { ok: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await recordSourceHealth(health, DEFILLAMA_YIELDS_SOURCE, { ok: true, dataAt: health.clock.now(), details: { kind: this.kind, ...details(value) } });
    return value;
  }
}
