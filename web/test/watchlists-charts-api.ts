// An in-memory fake of the watchlists, markets and chart-layouts api, answering with the shapes
// api/src/watchlists/watchlists.routes.ts, api/src/markets/markets.routes.ts and
// api/src/chart-layouts/chart-layouts.routes.ts send (the views of @tickerbell/jobs/watchlists/shapes,
// prices/shapes and chart-layouts/shapes). Tests read `calls` and override
// single answers through `replies`.
import type { ChartLayoutView } from '@tickerbell/jobs/chart-layouts/shapes';
import type { BarView, LatestPrice, MarketView } from '@tickerbell/jobs/prices/shapes';
import type { WatchlistItemView, WatchlistView } from '@tickerbell/jobs/watchlists/shapes';
import { apiError, type RecordedCall } from './accounts-api';
import type { FakeHandler, FakeReply } from './fake-fetch';
import { newsFake, type NewsFake } from './news-api';

/** A few rows of the markets seed (jobs/src/seeds/markets.seed.ts). */
export const MARKETS: readonly MarketView[] = [
  { id: 1, symbol: 'BTCUSDT', name: 'Bitcoin / Tether', type: 'crypto', description: 'Bitcoin priced in Tether' },
  { id: 2, symbol: 'ETHUSDT', name: 'Ethereum / Tether', type: 'crypto', description: 'Ether priced in Tether' },
  { id: 3, symbol: 'SOLUSDT', name: 'Solana / Tether', type: 'crypto', description: 'Solana priced in Tether' },
  { id: 4, symbol: 'AAPL', name: 'Apple Inc.', type: 'stock', description: 'Apple common stock' },
];

const STAMP = '2026-11-20T10:00:00.000Z';

export function quote(symbol: string, price: string, change24hPercent: string | null = '1.5', simulated = true, at = '2026-11-20T10:00:00.000Z'): LatestPrice {
  return { symbol, price, at, change24hPercent, source: simulated ? 'simulated' : 'binance', simulated };
}

/**
 * `count` bars from `start`, one per `intervalMs`, with closes 100, 101, 102... (open one below
 * the close, high +2, low −2, volume 10 + i), as decimal strings like the api's.
 */
export function risingBars(count: number, start = '2026-11-18T00:00:00.000Z', intervalMs = 3_600_000): BarView[] {
  return Array.from({ length: count }, (_, i) => {
    const close = 100 + i;
    return {
      time: new Date(Date.parse(start) + i * intervalMs).toISOString(),
      open: String(close - 1),
      high: String(close + 2),
      low: String(close - 2),
      close: String(close),
      volume: String(10 + i),
    };
  });
}

export interface WatchlistsChartsFake {
  handler: FakeHandler;
  calls: RecordedCall[];
  replies: Map<string, FakeReply | ((call: RecordedCall) => FakeReply)>;
  watchlists: WatchlistView[];
  layouts: ChartLayoutView[];
  quotes: Map<string, LatestPrice>;
  /** Key `${symbol} ${interval}`; `backfillPending` answers `backfill: { pending: true }`. */
  bars: Map<string, { simulated: boolean; bars: BarView[]; backfillPending?: boolean }>;
  /** The markets' news (test/news-api.ts): none for each market unless a test stores some. */
  news: NewsFake;
  /** The watchlist and layout calls that changed something (not GET), as `METHOD path`. */
  changes(): string[];
}

function marketOf(symbol: string): MarketView | undefined {
  return MARKETS.find((market) => market.symbol === symbol.toUpperCase());
}

export function watchlistView(id: number, name: string, symbols: readonly string[], firstItemId = id * 100): WatchlistView {
  return {
    id,
    name,
    createdAt: STAMP,
    updatedAt: STAMP,
    items: symbols.map((symbol, order) => {
      const market = marketOf(symbol);
      if (!market) throw new Error(`no seeded market ${symbol}`);
      return { id: firstItemId + order, symbol: market.symbol, name: market.name, type: market.type, order };
    }),
  };
}

export function layoutView(id: number, name: string, layout: Record<string, unknown>, isDefault = false): ChartLayoutView {
  return { id, name, isDefault, layout, createdAt: STAMP, updatedAt: STAMP };
}

export function watchlistsChartsFake(init: { watchlists?: WatchlistView[]; layouts?: ChartLayoutView[] } = {}): WatchlistsChartsFake {
  let nextId = 900;
  const fake: WatchlistsChartsFake = {
    calls: [],
    replies: new Map(),
    watchlists: init.watchlists ?? [],
    layouts: init.layouts ?? [],
    quotes: new Map(),
    bars: new Map(),
    news: newsFake({ news: Object.fromEntries(MARKETS.map((market) => [market.symbol, []])) }),
    handler: () => ({ status: 500 }),
    changes: () =>
      fake.calls
        .filter((call) => call.method !== 'GET' && (call.path.startsWith('/api/watchlists') || call.path.startsWith('/api/chart-layouts')))
        .map((call) => `${call.method} ${call.path}`),
  };
  const listOf = (id: string | undefined): WatchlistView | undefined => fake.watchlists.find((list) => String(list.id) === id);
  const renumber = (list: WatchlistView): void => {
    list.items.forEach((item, order) => {
      item.order = order;
    });
  };
  const noList = apiError(404, 'not_found', 'No such watchlist');

  fake.handler = (url, init) => {
    const method = init?.method ?? 'GET';
    const [path = '', query = ''] = url.split('?');
    const params = new URLSearchParams(query);
    const raw = typeof init?.body === 'string' ? init.body : undefined;
    const headers = { ...(init?.headers as Record<string, string> | undefined) };
    let body: unknown = raw;
    if (raw !== undefined && headers['Content-Type'] === 'application/json') body = JSON.parse(raw) as unknown;
    const call: RecordedCall = { method, path, body, headers };
    fake.calls.push(call);
    const override = fake.replies.get(`${method} ${path}`);
    if (override) return typeof override === 'function' ? override(call) : override;
    const news = fake.news.answer(url);
    if (news) return news;
    const json = (body ?? {}) as Record<string, unknown>;
    const parts = path.split('/').slice(2); // after /api

    if (parts[0] === 'markets') {
      if (parts.length === 1) {
        // Ranked as the api ranks them: symbol prefix first, then name matches.
        const q = (params.get('q') ?? '').toUpperCase();
        const bySymbol = MARKETS.filter((m) => m.symbol.startsWith(q));
        const byName = MARKETS.filter((m) => !m.symbol.startsWith(q) && m.name.toUpperCase().includes(q));
        return { status: 200, body: { markets: [...bySymbol, ...byName] } };
      }
      if (parts[1] === 'quotes') {
        const symbols = (params.get('symbols') ?? '').split(',');
        return { status: 200, body: { quotes: symbols.flatMap((symbol) => fake.quotes.get(symbol) ?? []) } };
      }
      if (parts[2] === 'bars') {
        const symbol = decodeURIComponent(parts[1] ?? '').toUpperCase();
        if (!marketOf(symbol)) return apiError(404, 'not_found', `No market ${symbol}`);
        const interval = params.get('interval') ?? '1h';
        const stored = fake.bars.get(`${symbol} ${interval}`) ?? { simulated: false, bars: [] };
        const backfill = { pending: stored.backfillPending === true };
        return { status: 200, body: { symbol, interval, simulated: stored.simulated, bars: stored.bars.slice(-Number(params.get('limit') ?? 300)), backfill } };
      }
    }

    if (parts[0] === 'watchlists') {
      if (parts.length === 1 && method === 'GET') return { status: 200, body: { watchlists: fake.watchlists } };
      if (parts.length === 1 && method === 'POST') {
        const name = String(json.name ?? '').trim();
        if (fake.watchlists.some((list) => list.name === name)) return apiError(409, 'duplicate_name', `You already have a watchlist named ${name}`);
        const list = watchlistView(nextId++, name, []);
        fake.watchlists.push(list);
        return { status: 201, body: list };
      }
      if (parts[1] === 'import' && method === 'POST') {
        const symbols = String(body ?? '')
          .split('\n')
          .slice(1)
          .map((line) => line.split(',')[0]?.trim() ?? '')
          .filter(Boolean);
        const list = watchlistView(nextId++, params.get('name') ?? 'Imported', symbols, nextId * 100);
        fake.watchlists.push(list);
        return { status: 201, body: { watchlist: list, imported: list.items.length, duplicates: 0, skipped: 0 } };
      }
      const list = listOf(parts[1]);
      if (!list) return noList;
      if (parts.length === 2 && method === 'PATCH') {
        list.name = String(json.name);
        return { status: 200, body: list };
      }
      if (parts.length === 2 && method === 'DELETE') {
        fake.watchlists = fake.watchlists.filter((other) => other !== list);
        return { status: 204 };
      }
      if (parts[2] === 'items' && parts.length === 3 && method === 'POST') {
        const market = marketOf(String(json.symbol));
        if (!market) return apiError(400, 'unknown_symbol', `No market with symbol ${String(json.symbol)}`);
        if (list.items.some((item) => item.symbol === market.symbol)) return apiError(409, 'duplicate_symbol', `${market.symbol} is already on this watchlist`);
        const item: WatchlistItemView = { id: nextId++, symbol: market.symbol, name: market.name, type: market.type, order: list.items.length };
        list.items.push(item);
        return { status: 201, body: { item, watchlist: list } };
      }
      if (parts[2] === 'items' && parts.length === 4 && method === 'DELETE') {
        const before = list.items.length;
        list.items = list.items.filter((item) => String(item.id) !== parts[3]);
        if (list.items.length === before) return apiError(404, 'item_not_found', 'No such item on this watchlist');
        renumber(list);
        return { status: 200, body: list };
      }
      if (parts[2] === 'order' && method === 'PUT') {
        const ids = json.itemIds as number[];
        const items = ids.map((id) => list.items.find((item) => item.id === id));
        if (items.length !== list.items.length || items.some((item) => item === undefined)) return apiError(400, 'invalid_order', 'The order must name every item once');
        list.items = items as WatchlistItemView[];
        renumber(list);
        return { status: 200, body: list };
      }
    }

    if (parts[0] === 'chart-layouts') {
      if (parts.length === 1 && method === 'GET') {
        // The list leaves the bodies out (jobs/src/chart-layouts ChartLayoutSummary).
        const summaries = fake.layouts.map(({ layout, ...summary }) => ({
          ...summary,
          symbol: typeof layout.symbol === 'string' ? layout.symbol : null,
          interval: typeof layout.interval === 'string' ? layout.interval : null,
        }));
        return { status: 200, body: { layouts: summaries } };
      }
      if (parts[1] === 'default' && method === 'GET') {
        const found = fake.layouts.find((layout) => layout.isDefault);
        return { status: 200, body: { layout: found ?? null } };
      }
      if (parts.length === 1 && method === 'POST') {
        const isDefault = json.isDefault === true;
        if (isDefault) for (const other of fake.layouts) other.isDefault = false;
        const created = layoutView(nextId++, String(json.name), json.layout as Record<string, unknown>, isDefault);
        fake.layouts.push(created);
        return { status: 201, body: created };
      }
      const layout = fake.layouts.find((other) => String(other.id) === parts[1]);
      if (!layout) return apiError(404, 'not_found', 'No such chart layout');
      if (parts.length === 2 && method === 'GET') return { status: 200, body: layout };
      if (parts.length === 2 && method === 'PATCH') {
        if (typeof json.name === 'string') layout.name = json.name;
        if (json.layout) layout.layout = json.layout as Record<string, unknown>;
        return { status: 200, body: layout };
      }
      if (parts[2] === 'default' && method === 'PUT') {
        for (const other of fake.layouts) other.isDefault = other === layout;
        return { status: 200, body: layout };
      }
      if (parts.length === 2 && method === 'DELETE') {
        fake.layouts = fake.layouts.filter((other) => other !== layout);
        return { status: 204 };
      }
    }
    return apiError(404, 'not_found', `No route for ${method} ${path}`);
  };
  return fake;
}
