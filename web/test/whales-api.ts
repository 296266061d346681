// The whales api as the web tests see it: answers from web/test/fixtures/whales, built by hand to
// the shapes of jobs/src/whales/whales.shapes.ts (see the README there) while the api was being
// written. A request with no recording fails the test loudly instead of being answered with
// made-up data. `from` and `to` of the netflow requests (the page's clock) are not part of the key.
import addressBinance from './fixtures/whales/address-binance.json';
import addressFund from './fixtures/whales/address-fund.json';
import exchanges from './fixtures/whales/exchanges.json';
import feedAll from './fixtures/whales/feed-all.json';
import feedBadLimit from './fixtures/whales/feed-bad-limit.json';
import feedEmpty from './fixtures/whales/feed-empty.json';
import feedInflow from './fixtures/whales/feed-inflow.json';
import feedNone from './fixtures/whales/feed-none.json';
import feedOlder from './fixtures/whales/feed-older.json';
import largestNone from './fixtures/whales/largest-none.json';
import largest from './fixtures/whales/largest.json';
import liveTransfer from './fixtures/whales/live-transfer.json';
import netflowBinanceDay from './fixtures/whales/netflow-binance-day.json';
import netflowKrakenDay from './fixtures/whales/netflow-kraken-day.json';
import watchAddBad from './fixtures/whales/watch-add-bad.json';
import watchAddDuplicate from './fixtures/whales/watch-add-duplicate.json';
import watchAdd from './fixtures/whales/watch-add.json';
import watchDelete from './fixtures/whales/watch-delete.json';
import watchUpdate from './fixtures/whales/watch-update.json';
import watchlistEmpty from './fixtures/whales/watchlist-empty.json';
import watchlist from './fixtures/whales/watchlist.json';
import type { FakeHandler, FakeReply } from './fake-fetch';

export interface WhalesRecording {
  request: string;
  status: number;
  body: unknown;
}

/** A transfer as the stream's `whale` event carries it (a WhaleTransferView). */
export const LIVE_TRANSFER = liveTransfer;

/** The default answers (one per request); the variants are passed in by the tests that want them. */
export const WHALES_RECORDINGS = {
  addressBinance,
  addressFund,
  exchanges,
  feedAll,
  feedInflow,
  feedNone,
  feedOlder,
  largest,
  netflowBinanceDay,
  netflowKrakenDay,
  watchAdd,
  watchDelete,
  watchUpdate,
  watchlist,
} satisfies Record<string, WhalesRecording>;

export const WHALES_VARIANTS = { feedBadLimit, feedEmpty, largestNone, watchAddBad, watchAddDuplicate, watchlistEmpty } satisfies Record<string, WhalesRecording>;

/** `METHOD /path?sorted=query`, without the netflow window's from/to. */
export function whalesRequestKey(method: string, path: string): string {
  const url = new URL(path, 'http://localhost');
  const params = [...url.searchParams.entries()].filter(([key]) => !(url.pathname === '/api/whales/netflow' && (key === 'from' || key === 'to'))).sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  return `${method} ${decodeURIComponent(url.pathname)}${query ? `?${query}` : ''}`;
}

/**
 * Answers the recorded whales requests; the first recording of a request wins, so a test puts the
 * variants it wants before the defaults. Other /api/whales requests throw; anything else is a 404.
 */
export function recordedWhalesApi(first: readonly WhalesRecording[] = []): FakeHandler & { calls: string[]; bodies: unknown[] } {
  const byKey = new Map<string, WhalesRecording>();
  for (const recording of [...first, ...Object.values(WHALES_RECORDINGS)]) {
    const [method, path] = recording.request.split(' ');
    const key = whalesRequestKey(method!, path!);
    if (!byKey.has(key)) byKey.set(key, recording);
  }
  const calls: string[] = [];
  const bodies: unknown[] = [];
  const handler = (path: string, init?: RequestInit): FakeReply => {
    const method = init?.method ?? 'GET';
    const key = whalesRequestKey(method, path);
    if (path.startsWith('/api/whales/')) {
      calls.push(key);
      if (method !== 'GET') bodies.push(init?.body === undefined ? undefined : JSON.parse(String(init.body)));
    }
    const recording = byKey.get(key);
    if (recording) return { status: recording.status, body: recording.status === 204 ? undefined : recording.body };
    if (!path.startsWith('/api/whales/')) return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    throw new Error(`No recorded whales answer for ${key}`);
  };
  return Object.assign(handler, { calls, bodies });
}
