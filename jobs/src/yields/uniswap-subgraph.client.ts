import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import type { YieldsSourceKind } from './defillama-yields.client';
import { UNISWAP_SUBGRAPH_SOURCE } from './yields-read.store';
import { parseSubgraphDays, parseSubgraphPools, YieldsSourceError, type SubgraphDay, type SubgraphPool } from './yields.parse';

/** The Uniswap v3 subgraph: pools and their daily data. */
export interface UniswapSubgraphSource {
  readonly kind: YieldsSourceKind;
  /** Pools whose two tokens are both among `tokens` (lowercase addresses), at most 1,000. */
  poolsOfTokens(tokens: readonly string[]): Promise<SubgraphPool[]>;
  /** poolDayDatas of `pools` (lowercase addresses) from `sinceUnix` (a UTC day start), oldest first. */
  poolDays(pools: readonly string[], sinceUnix: number): Promise<SubgraphDay[]>;
}

/** The subgraph's page size (The Graph answers at most 1,000 entities per field). */
export const SUBGRAPH_PAGE = 1000;

export const POOLS_QUERY = `query TrackedPools($tokens: [String!]!) {
  pools(first: 1000, where: { token0_in: $tokens, token1_in: $tokens }) {
    id feeTier token0 { id symbol } token1 { id symbol } totalValueLockedUSD volumeUSD
  }
}`;

export const POOL_DAYS_QUERY = `query PoolDays($pools: [String!]!, $since: Int!, $skip: Int!) {
  poolDayDatas(first: 1000, skip: $skip, orderBy: date, orderDirection: asc, where: { pool_in: $pools, date_gte: $since }) {
    date pool { id } volumeUSD tvlUSD feesUSD
  }
}`;

export interface UniswapSubgraphClientOptions {
  /** UNISWAP_SUBGRAPH_URL: a hosted subgraph or a gateway URL (which may hold the key in its path). */
  url: string;
  /** Sent as `Authorization: Bearer <key>` (gateways that take the key in a header). Never logged. */
  apiKey?: string;
  kind?: YieldsSourceKind;
  /** Per request (default 20 s). */
  timeoutMs?: number;
  acquire?: () => Promise<void>;
  /** Records each request's outcome in source_health under 'uniswap-subgraph'. */
  health?: SourceHealthDeps;
  fetch?: typeof fetch;
}

/** The URL without credentials, path or query (gateways embed API keys in the path). */
function shownUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the subgraph';
  }
}

/**
 * GraphQL over HTTP POST (`{ query, variables }`). The daily entity is read, never the hourly one
 * (its fee and volume fields are known to read zero). Timeouts, network errors, 429 and 5xx are
 * retryable; a GraphQL error or an answer of another shape is not (unless it says overloaded).
 */
export class UniswapSubgraphClient implements UniswapSubgraphSource {
  readonly kind: YieldsSourceKind;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: UniswapSubgraphClientOptions) {
    this.kind = opts.kind ?? 'live';
    this.fetchImpl = opts.fetch ?? fetch;
  }

  async poolsOfTokens(tokens: readonly string[]): Promise<SubgraphPool[]> {
    if (!tokens.length) return [];
    return this.withHealth(async () => parseSubgraphPools(await this.post('TrackedPools', POOLS_QUERY, { tokens: [...new Set(tokens.map((t) => t.toLowerCase()))] })));
  }

  async poolDays(pools: readonly string[], sinceUnix: number): Promise<SubgraphDay[]> {
    if (!pools.length) return [];
    return this.withHealth(async () => {
      const out: SubgraphDay[] = [];
      const ids = [...new Set(pools.map((p) => p.toLowerCase()))];
      for (let skip = 0; ; skip += SUBGRAPH_PAGE) {
        const page = parseSubgraphDays(await this.post('PoolDays', POOL_DAYS_QUERY, { pools: ids, since: sinceUnix, skip }));
        out.push(...page);
        // The Graph caps skip at 5,000: callers ask for few enough pools that one or two pages hold them.
        if (page.length < SUBGRAPH_PAGE || skip >= 4 * SUBGRAPH_PAGE) break;
      }
      return out;
    });
  }

  private async post(operationName: string, query: string, variables: Record<string, unknown>): Promise<unknown> {
    if (this.opts.acquire) await this.opts.acquire();
    const timeoutMs = this.opts.timeoutMs ?? 20_000;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(this.opts.url, { method: 'POST', headers, body: JSON.stringify({ operationName, query, variables }), signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new YieldsSourceError(`${operationName} at ${shownUrl(this.opts.url)}: ${timedOut ? `no answer within ${timeoutMs} ms` : ((error as Error)?.message ?? String(error))}`, true);
    }
    if (!response.ok) {
      throw new YieldsSourceError(`${operationName} at ${shownUrl(this.opts.url)}: HTTP ${response.status}`, response.status === 429 || response.status >= 500, response.status);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new YieldsSourceError(`${operationName}: the answer is not JSON`, false);
    }
  }

  private async withHealth<T>(run: () => Promise<T>): Promise<T> {
    const health = this.opts.health;
    if (!health) return run();
    let value: T;
    try {
      value = await run();
    } catch (error) {
      await recordSourceHealth(health, UNISWAP_SUBGRAPH_SOURCE, { ok: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await recordSourceHealth(health, UNISWAP_SUBGRAPH_SOURCE, { ok: true, dataAt: health.clock.now(), details: { kind: this.kind } });
    return value;
  }
}
