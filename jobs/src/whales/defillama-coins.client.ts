import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { recordSourceHealth, type SourceHealthDeps } from '../sources/source-health';
import { REPLAY_TOKENS } from './eth-replay';

/** The source_health row of DefiLlama's coins price API. */
export const DEFILLAMA_COINS_SOURCE = 'defillama-coins';
/** DefiLlama's public coins API (no key). */
export const DEFILLAMA_COINS_DEFAULT_URL = 'https://coins.llama.fi';

/** One price point of the coins API. `confidence` is DefiLlama's (0..1), null when it sent none. */
export interface CoinPrice {
  price: number;
  symbol: string | null;
  decimals: number | null;
  /** Unix seconds of the price point (within searchWidth of the time asked). */
  timestamp: number;
  confidence: number | null;
}

export type CoinsSourceKind = 'live' | 'replay';

/** Token prices at a time, by DefiLlama coin id (`ethereum:0x…`, lowercase). */
export interface CoinsPriceSource {
  /** 'replay': the local twin's values, which are simulated (price_source 'simulated'). */
  readonly kind: CoinsSourceKind;
  /** Prices at `unix` of `coins`; a coin missing from the answer has no price there. Keys lowercase. */
  historical(unix: number, coins: readonly string[]): Promise<Map<string, CoinPrice>>;
}

/** The DefiLlama coin id of an Ethereum token contract. */
export const coinId = (token: string, chain = 'ethereum') => `${chain}:${token.toLowerCase()}`;

export class CoinsApiError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CoinsApiError';
  }
}

const coinSchema = z.object({
  price: z.number().finite().nonnegative(),
  symbol: z.string().nullish(),
  decimals: z.number().int().min(0).max(255).nullish(),
  timestamp: z.number().finite(),
  confidence: z.number().min(0).max(1).nullish(),
});
const answerSchema = z.object({ coins: z.record(z.string(), z.unknown()) });

/**
 * The body of /prices/historical/{ts}/{coins} (and /prices/current): `{ coins: { "<chain>:<address>":
 * { price, symbol, decimals?, timestamp, confidence? } } }`. A coin entry that does not parse is
 * left out (no price) rather than failing its neighbours; a body that is not this shape throws.
 */
export function parseCoinsAnswer(doc: unknown): Map<string, CoinPrice> {
  const parsed = answerSchema.safeParse(doc);
  if (!parsed.success) throw new CoinsApiError(`coins answer: expected { coins: { … } } (${parsed.error.issues[0]?.message ?? 'bad shape'})`, false);
  const out = new Map<string, CoinPrice>();
  for (const [key, value] of Object.entries(parsed.data.coins)) {
    const coin = coinSchema.safeParse(value);
    if (!coin.success) continue;
    const c = coin.data;
    out.set(key.toLowerCase(), { price: c.price, symbol: c.symbol ?? null, decimals: c.decimals ?? null, timestamp: c.timestamp, confidence: c.confidence ?? null });
  }
  return out;
}

export interface DefiLlamaCoinsClientOptions {
  /** Default DEFILLAMA_COINS_DEFAULT_URL; the replay twin's URL in tests and offline. */
  baseUrl?: string;
  kind?: CoinsSourceKind;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** How far from the time asked a price point may be (DefiLlama's `searchWidth`, e.g. '4h' or seconds); default '4h'. */
  searchWidth?: string;
  /** Coins per request (URLs stay short); default 50. */
  maxCoins?: number;
  /** Awaited before every request: the shared rate limit (a Redis token bucket in the workers). */
  acquire?: () => Promise<void>;
  /** Records each request's outcome in source_health under 'defillama-coins'. */
  health?: SourceHealthDeps;
  fetch?: typeof fetch;
}

/**
 * DefiLlama's coins price API: /prices/historical/{unix}/{coins}?searchWidth=… with coins as
 * comma-separated `ethereum:0x…` ids, chunked. Timeouts and HTTP 429/5xx are retryable errors (the
 * scan step fails and BullMQ retries it); a malformed answer is not.
 */
export class DefiLlamaCoinsClient implements CoinsPriceSource {
  readonly kind: CoinsSourceKind;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: DefiLlamaCoinsClientOptions = {}) {
    this.kind = opts.kind ?? 'live';
    this.baseUrl = (opts.baseUrl ?? DEFILLAMA_COINS_DEFAULT_URL).replace(/\/+$/, '');
    this.fetchImpl = opts.fetch ?? fetch;
  }

  async historical(unix: number, coins: readonly string[]): Promise<Map<string, CoinPrice>> {
    const out = new Map<string, CoinPrice>();
    const unique = [...new Set(coins.map((c) => c.toLowerCase()))];
    const size = Math.max(1, this.opts.maxCoins ?? 50);
    for (let i = 0; i < unique.length; i += size) {
      const chunk = unique.slice(i, i + size);
      const query = new URLSearchParams({ searchWidth: this.opts.searchWidth ?? '4h' });
      const url = `${this.baseUrl}/prices/historical/${Math.floor(unix)}/${chunk.map(encodeURIComponent).join(',')}?${query}`;
      for (const [key, price] of await this.get(url, `prices/historical/${Math.floor(unix)} (${chunk.length} coins)`)) out.set(key, price);
    }
    return out;
  }

  private async get(url: string, what: string): Promise<Map<string, CoinPrice>> {
    const health = this.opts.health;
    try {
      const prices = await this.request(url, what);
      if (health) await recordSourceHealth(health, DEFILLAMA_COINS_SOURCE, { ok: true, details: { kind: this.kind } });
      return prices;
    } catch (error) {
      if (health) await recordSourceHealth(health, DEFILLAMA_COINS_SOURCE, { ok: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  private async request(url: string, what: string): Promise<Map<string, CoinPrice>> {
    if (this.opts.acquire) await this.opts.acquire();
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new CoinsApiError(`${what}: ${timedOut ? `no answer within ${timeoutMs} ms` : ((error as Error).message ?? String(error))}`, true);
    }
    if (!response.ok) {
      throw new CoinsApiError(`${what}: HTTP ${response.status}`, response.status === 429 || response.status >= 500, response.status);
    }
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      throw new CoinsApiError(`${what}: the answer is not JSON`, false);
    }
    return parseCoinsAnswer(body);
  }
}

// ---------------------------------------------------------------------------------------------
// The replay twin: a local HTTP server speaking the same paths.

/** DefiLlama's OpenAPI excerpt (copied from ../shared/fixtures/yields, see data/README.md). */
export const DEFILLAMA_OPENAPI_EXCERPT = join(__dirname, 'data', 'defillama_coins_prices_openapi_excerpt.json');

/**
 * The example coins of the OpenAPI excerpt's /prices/historical answer (real example values
 * published by DefiLlama, not a capture): every field as the spec's `example`.
 */
export function openApiExamplePrices(path = DEFILLAMA_OPENAPI_EXCERPT): Map<string, CoinPrice> {
  type Prop = { properties?: Record<string, { example?: unknown }> };
  const spec = JSON.parse(readFileSync(path, 'utf8')) as {
    paths: Record<string, { get: { responses: { 200: { content: { 'application/json': { schema: { properties: { coins: { properties: Record<string, Prop> } } } } } } } } }>;
  };
  const coins = spec.paths['/prices/historical/{timestamp}/{coins}'].get.responses[200].content['application/json'].schema.properties.coins.properties;
  const body: Record<string, Record<string, unknown>> = {};
  for (const [key, coin] of Object.entries(coins)) {
    body[key] = Object.fromEntries(Object.entries(coin.properties ?? {}).map(([field, p]) => [field, p.example]));
  }
  return parseCoinsAnswer({ coins: body });
}

/**
 * Simulated prices of the replay twin (offline, `ETH_RPC_URL` unset): USD stablecoins at 1, WETH at
 * the simulated ETH price of the prices feature (3000), SHIB (its Transfer log is in every replay
 * block) and the replay chain's own tokens. Values are made up: the pricer labels them 'simulated'.
 * The receipts' third token (0x01f6f4d6…) is left unpriced on purpose: the unknown-price path.
 */
export const SIMULATED_COIN_PRICES: Readonly<Record<string, { price: number; symbol: string; decimals: number }>> = {
  '0xdac17f958d2ee523a2206206994597c13d831ec7': { price: 1, symbol: 'USDT', decimals: 6 },
  '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48': { price: 1, symbol: 'USDC', decimals: 6 },
  '0x6b175474e89094c44da98b954eedeac495271d0f': { price: 1, symbol: 'DAI', decimals: 18 },
  '0x4fabb145d64652a948d72533023f6e7a623c7c53': { price: 1, symbol: 'BUSD', decimals: 18 },
  '0x0000000000085d4780b73119b644ae5ecd22b376': { price: 1, symbol: 'TUSD', decimals: 18 },
  '0x8e870d67f660d95d5be530380d0ec0bd388289e1': { price: 1, symbol: 'USDP', decimals: 18 },
  '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2': { price: 3000, symbol: 'WETH', decimals: 18 },
  '0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce': { price: 0.00001, symbol: 'SHIB', decimals: 18 },
  [REPLAY_TOKENS[0].address]: { price: 2.5, symbol: REPLAY_TOKENS[0].symbol, decimals: REPLAY_TOKENS[0].decimals },
  [REPLAY_TOKENS[1].address]: { price: 40_000, symbol: REPLAY_TOKENS[1].symbol, decimals: REPLAY_TOKENS[1].decimals },
};

export interface CoinsReplayServer {
  url: string;
  /** Paths asked, in order (with their query). */
  requests: string[];
  /** The next `n` requests answer HTTP `status`. */
  failNext(n: number, status: number): void;
  /** Sets (or with null removes) the price of a coin id from now on. */
  setPrice(coin: string, price: Omit<CoinPrice, 'timestamp'> | null): void;
  close(): Promise<void>;
}

/**
 * The coins API's replay twin on 127.0.0.1: /prices/historical/{ts}/{coins} and
 * /prices/current/{coins} answer, in DefiLlama's shape, the OpenAPI example coins and the
 * simulated prices (confidence 0.99, timestamp = the time asked); other coins are absent, as
 * DefiLlama leaves out coins it cannot price.
 */
export async function startCoinsReplayServer(opts: { examples?: boolean } = {}): Promise<CoinsReplayServer> {
  const table = new Map<string, Omit<CoinPrice, 'timestamp'>>();
  if (opts.examples !== false) for (const [key, p] of openApiExamplePrices()) table.set(key, p);
  for (const [address, p] of Object.entries(SIMULATED_COIN_PRICES)) table.set(coinId(address), { ...p, confidence: 0.99 });
  const requests: string[] = [];
  let failures = 0;
  let failStatus = 500;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (failures > 0) {
      failures--;
      return send(failStatus, { message: 'replay: failing as asked' });
    }
    const historical = /^\/prices\/historical\/(\d+)\/([^/]+)$/.exec(url.pathname);
    const current = /^\/prices\/current\/([^/]+)$/.exec(url.pathname);
    if (!historical && !current) return send(404, { message: 'not found' });
    const timestamp = historical ? Number(historical[1]) : Math.floor(Date.now() / 1000);
    const coins: Record<string, CoinPrice> = {};
    for (const raw of decodeURIComponent((historical ? historical[2] : current![1]) ?? '').split(',')) {
      const p = table.get(raw.toLowerCase());
      if (p) coins[raw] = { ...p, timestamp };
    }
    send(200, { coins });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(n, status) {
      failures = n;
      failStatus = status;
    },
    setPrice(coin, price) {
      if (price) table.set(coin.toLowerCase(), price);
      else table.delete(coin.toLowerCase());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
