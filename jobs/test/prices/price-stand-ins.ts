import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'prices');
export const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

type Mode = 'ok' | 'busy' | 'failing' | 'slow' | 'limited' | 'forbidden';

export interface StandIn {
  server: Server;
  base: string;
  requests: IncomingMessage[];
  mode: Mode;
  close(): Promise<void>;
}

/**
 * Local stand-ins for Binance, CoinGecko and Alpaca. Binance and CoinGecko answer with the
 * recorded real payloads (only for the symbols/ids asked, Binance refusing an unknown symbol as it
 * does: HTTP 400, code -1121). Alpaca has no recording, so its paths answer only errors.
 */
export function startPriceStandIn(): Promise<StandIn> {
  const tickerPrice = [fixture('binance_spot_api_v3_ticker_price_BTCUSDT.json')] as { symbol: string }[];
  const ticker24hr = [fixture('binance_spot_api_v3_ticker_24hr_BTCUSDT.json')] as { symbol: string }[];
  const klines = fixture('binance_spot_api_v3_klines_BTCUSDT_1m.json') as unknown[];
  const simplePrice = fixture('coingecko_simple_price_example.json') as Record<string, unknown>;
  const coinsMarkets = fixture('coingecko_coins_markets_example.json') as { id: string }[];

  const state = { mode: 'ok' as Mode };
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (state.mode === 'busy') return json(503, { message: 'busy' });
    if (state.mode === 'failing') return json(500, { message: 'internal error' });
    if (state.mode === 'limited') return json(429, { code: -1003, msg: 'Too many requests' }, { 'retry-after': '3' });
    if (state.mode === 'forbidden') return json(403, { message: 'forbidden.' });
    if (state.mode === 'slow') return void setTimeout(() => json(200, []), 1500);

    const binanceTicker = (rows: { symbol: string }[]) => {
      const asked: string[] = url.searchParams.has('symbols') ? JSON.parse(url.searchParams.get('symbols')!) : [url.searchParams.get('symbol')];
      const found = asked.map((s) => rows.find((r) => r.symbol === s));
      if (found.some((r) => !r)) return json(400, { code: -1121, msg: 'Invalid symbol.' });
      return json(200, url.searchParams.has('symbols') ? found : found[0]);
    };
    switch (url.pathname) {
      case '/api/v3/ticker/price':
        return binanceTicker(tickerPrice);
      case '/api/v3/ticker/24hr':
        return binanceTicker(ticker24hr);
      case '/api/v3/klines': {
        if (url.searchParams.get('symbol') !== 'BTCUSDT' || url.searchParams.get('interval') !== '1m') return json(400, { code: -1121, msg: 'Invalid symbol.' });
        return json(200, klines.slice(-Number(url.searchParams.get('limit') ?? 500)));
      }
      case '/api/v3/simple/price': {
        const ids = (url.searchParams.get('ids') ?? '').split(',');
        return json(200, Object.fromEntries(Object.entries(simplePrice).filter(([id]) => ids.includes(id))));
      }
      case '/api/v3/coins/markets': {
        const ids = (url.searchParams.get('ids') ?? '').split(',');
        return json(200, coinsMarkets.filter((c) => ids.includes(c.id)));
      }
      default:
        return json(404, { message: 'Not Found' });
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const standIn: StandIn = {
        server,
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        get mode() {
          return state.mode;
        },
        set mode(mode: Mode) {
          state.mode = mode;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      };
      resolve(standIn);
    }),
  );
}
