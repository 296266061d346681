import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { storeQuotes, type Quote } from '@tickerbell/jobs/prices';
import { publishWatchlistChange } from '@tickerbell/jobs/watchlists';
import { AccountsHarness, signIn, signedInUser, cookieHeaderOf } from '../support/accounts-harness';
import { SseClient } from '../notifications/sse-client';

describe('live prices on /api/stream for watched symbols (real app, PostgreSQL, Redis)', () => {
  const harness = new AccountsHarness();
  const streams: SseClient[] = [];
  let server: Server;
  let base: string;
  let alice: { id: number; cookie: string; list: number };
  let bob: { id: number; cookie: string; list: number };
  let at = Date.parse('2026-11-23T10:00:00Z');

  async function user(email: string) {
    const agent = request.agent(harness.app());
    const id = await signedInUser(harness, agent, email);
    const res = await signIn(agent, email);
    const cookie = cookieHeaderOf(res);
    const [{ id: list }] = await harness.db.dataSource.query(`INSERT INTO watchlists (user_id, name) VALUES ($1, 'Main') RETURNING id`, [id]);
    return { id, cookie, list };
  }
  const watch = (list: number, symbol: string) =>
    harness.db.dataSource.query(`INSERT INTO watchlist_items (watchlist_id, market_id) SELECT $1, id FROM markets WHERE symbol = $2`, [list, symbol]);
  const open = async (who: { cookie: string }) => {
    const client = await SseClient.open(`${base}/api/stream`, { Cookie: who.cookie });
    streams.push(client);
    return client;
  };
  /** The pipeline's own store-and-publish, one new price each call (each 10 s later). */
  const publishPrice = (symbol: string, price: string) => {
    at += 10_000;
    const quote: Quote = { symbol, price, at: new Date(at), change24hPercent: null, volume24h: null, source: 'simulated', simulated: true };
    return storeQuotes(harness.redis, harness.prefix, [quote]);
  };
  const prices = (client: SseClient) => client.events.filter((e) => e.event === 'price');

  beforeAll(async () => {
    await harness.start();
    await runSeeds(harness.db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    alice = await user('alice@example.test');
    bob = await user('bob@example.test');
    await watch(alice.list, 'BTCUSDT');
    await watch(bob.list, 'ETHUSDT');
    server = harness.app().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    streams.forEach((s) => s.close());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  it("sends a price event without an id to the user watching the symbol, and nothing to another user's stream", async () => {
    const [a, b] = [await open(alice), await open(bob)];
    await publishPrice('BTCUSDT', '60750.25');
    const [event] = await a.waitFor(1);
    expect(event.id).toBeUndefined();
    expect(event.event).toBe('price');
    expect(JSON.parse(event.data)).toEqual({
      symbol: 'BTCUSDT',
      price: '60750.25',
      at: new Date(at).toISOString(),
      change24hPercent: null,
      source: 'simulated',
      simulated: true,
    });
    // Bob watches ETHUSDT only: his stream gets its price, never BTCUSDT's.
    await publishPrice('ETHUSDT', '3000.10');
    const [ethEvent] = await b.waitFor(1);
    expect(JSON.parse(ethEvent.data)).toMatchObject({ symbol: 'ETHUSDT', price: '3000.10' });
    await new Promise((r) => setTimeout(r, 150));
    expect(prices(b).map((e) => JSON.parse(e.data).symbol)).toEqual(['ETHUSDT']);
    expect(prices(a).map((e) => JSON.parse(e.data).symbol)).toEqual(['BTCUSDT']);
  });

  it("reloads a user's watched symbols when their watchlists change", async () => {
    const b = await open(bob);
    await watch(bob.list, 'BTCUSDT');
    await publishWatchlistChange(harness.redis, harness.prefix, bob.id);
    // The reload is asynchronous: publish until one arrives (each price is new, so none is a repeat).
    const deadline = Date.now() + 5000;
    while (!prices(b).length && Date.now() < deadline) {
      await publishPrice('BTCUSDT', '60800.00');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(prices(b).map((e) => JSON.parse(e.data).symbol)[0]).toBe('BTCUSDT');
    // And dropping it stops them.
    await harness.db.dataSource.query(
      `DELETE FROM watchlist_items WHERE watchlist_id = $1 AND market_id = (SELECT id FROM markets WHERE symbol = 'BTCUSDT')`,
      [bob.list],
    );
    await publishWatchlistChange(harness.redis, harness.prefix, bob.id);
    await new Promise((r) => setTimeout(r, 200));
    const seen = prices(b).length;
    await publishPrice('BTCUSDT', '60900.00');
    await new Promise((r) => setTimeout(r, 200));
    expect(prices(b)).toHaveLength(seen);
  });
});
