import { readFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { publishWhaleTransfers, recordBlock, type WhaleTransferRecord } from '@tickerbell/jobs/whales';
import type { WhaleAddressPage, WhaleFeedPage, WhaleLargestPage, WhaleWatchView } from '@tickerbell/jobs/whales/shapes';
import { AccountsHarness, csrfOf, signIn, signedInUser, type Agent, cookieHeaderOf } from '../support/accounts-harness';
import { SseClient } from '../notifications/sse-client';

const EXCHANGE: Address = '0x28c6c06298d514db089934071355e5743bf21d60';
const WALLET = '0xab5801a7d398351b8be11c439e05c5b3259aec9b';
const WALLET_EIP55 = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
const OTHER: Address = '0x1111111111111111111111111111111111111111';

const hashOf = (...parts: (string | number)[]) => keccak256(toHex(parts.join(':'))) as Hex;

/**
 * The keys of every object in an answer, by path (array elements merged): what a client reading the
 * answer relies on. Null values and empty lists say nothing about the keys below them.
 */
function keysByPath(value: unknown, path = '$', into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(value)) for (const entry of value) keysByPath(entry, `${path}[]`, into);
  else if (value !== null && typeof value === 'object') {
    const keys = into.get(path) ?? new Set<string>();
    into.set(path, keys);
    for (const [key, entry] of Object.entries(value)) {
      keys.add(key);
      keysByPath(entry, `${path}.${key}`, into);
    }
  }
  return into;
}

/** The web's recorded answer of a request (web/test/fixtures/whales, written by hand while the api was built). */
function webFixture(file: string): { request: string; status: number; body: unknown } {
  return JSON.parse(readFileSync(join(__dirname, '../../../web/test/fixtures/whales', file), 'utf8'));
}

interface User {
  agent: Agent;
  id: number;
  csrf: string;
}

/** The whales api through the real app (sessions, CSRF, PostgreSQL, Redis); transfers recorded with the store as the scanner does. */
describe('whales api (real app, signed-in users)', () => {
  const harness = new AccountsHarness();
  let ann: User;
  let ben: User;

  async function user(email: string): Promise<User> {
    const agent = request.agent(harness.app());
    const id = await signedInUser(harness, agent, email);
    return { agent, id, csrf: await csrfOf(agent) };
  }
  const post = (who: User, body: unknown) => who.agent.post('/api/whales/watchlist').set('x-csrf-token', who.csrf).send(body as object);

  async function block(number: number, at: Date, moves: { from: Address; to: Address; usd: string | null; isWhale: boolean; type?: WhaleTransferRecord['transactionType'] }[]) {
    const hash = hashOf('block', number);
    await harness.db.dataSource.transaction((m) =>
      recordBlock(
        m,
        'ethereum',
        { number: BigInt(number), hash, parentHash: hashOf('block', number - 1), timestamp: Math.floor(at.getTime() / 1000) },
        moves.map((mv, i) => ({
          transfer: { txHash: hashOf('tx', number, i), logIndex: null, token: null, from: mv.from, to: mv.to, rawAmount: 10n ** 21n, blockNumber: BigInt(number), blockHash: hash },
          tokenSymbol: 'ETH',
          tokenDecimals: 18,
          transactionType: mv.type ?? 'transfer',
          usdValue: mv.usd,
          usdPrice: mv.usd === null ? null : '3420',
          priceSource: mv.usd === null ? null : 'simulated',
          isWhale: mv.isWhale,
        })),
        at,
      ),
    );
  }

  beforeAll(async () => {
    await harness.start();
    await harness.db.dataSource.query(`INSERT INTO whale_addresses (address, label, address_type, exchange_name) VALUES ($1, 'Binance 14', 'exchange', 'Binance')`, [EXCHANGE]);
    ann = await user('ann-whales@example.com');
    ben = await user('ben-whales@example.com');
    const now = new Date();
    await block(500, new Date(now.getTime() - 3_600_000), [
      { from: EXCHANGE, to: WALLET as Address, usd: '3420000.00', isWhale: true, type: 'exchange_outflow' },
      { from: OTHER, to: OTHER, usd: '100.00', isWhale: false },
    ]);
    await block(501, new Date(now.getTime() - 1_800_000), [{ from: OTHER, to: EXCHANGE, usd: '5000000.00', isWhale: true, type: 'exchange_inflow' }]);
  }, 60_000);

  afterAll(() => harness.stop());

  it('refuses signed-out callers, invalid addresses, time zones and thresholds naming the field', async () => {
    const anonymous = request.agent(harness.app());
    expect((await anonymous.get('/api/whales/watchlist')).status).toBe(401);
    expect((await anonymous.get('/api/whales/transfers')).status).toBe(401);
    const bad = await Promise.all([
      post(ann, { address: '0xAB5801a7D398351b8bE11C439e05C5B3259aeC9B' }), // wrong checksum
      post(ann, { address: '0x123' }),
      post(ann, { address: WALLET, timeZone: 'Mars/Olympus' }),
      post(ann, { address: WALLET, alertThreshold: '1.234' }),
      post(ann, { address: WALLET, alertFrequency: 'weekly' }),
    ]);
    expect(bad.map((r) => [r.status, r.body.error.details[0].field])).toEqual([
      [400, 'address'],
      [400, 'address'],
      [400, 'timeZone'],
      [400, 'alertThreshold'],
      [400, 'alertFrequency'],
    ]);
    expect((await ann.agent.get('/api/whales/addresses/0xnothex')).body.error.details[0].field).toBe('address');
  });

  it('watches an address (checksummed accepted, stored lowercase), refuses a duplicate, edits, and keeps watches per user', async () => {
    const created = await post(ann, { address: WALLET_EIP55, customLabel: 'cold wallet', alertThreshold: 1000000, timeZone: 'Europe/Paris' }).expect(201);
    const watch = created.body as WhaleWatchView;
    expect(watch).toMatchObject({
      address: WALLET,
      customLabel: 'cold wallet',
      alertEnabled: true,
      alertThreshold: '1000000.00',
      alertFrequency: 'immediate',
      timeZone: 'Europe/Paris',
      label: { address: WALLET, label: null, addressType: null, exchangeName: null, customLabel: 'cold wallet' },
      lastAlertAt: null,
    });
    const [row] = await harness.db.dataSource.query(`SELECT added_by, label FROM whale_addresses WHERE address = $1`, [WALLET]);
    expect(row).toEqual({ added_by: 'user', label: null });
    expect((await post(ann, { address: WALLET })).status).toBe(409);

    const patched = await ann.agent.patch(`/api/whales/watchlist/${watch.id}`).set('x-csrf-token', ann.csrf).send({ alertThreshold: null, alertFrequency: 'daily' }).expect(200);
    expect(patched.body).toMatchObject({ alertThreshold: null, alertFrequency: 'daily', customLabel: 'cold wallet' });
    const moved = await ann.agent.patch(`/api/whales/watchlist/${watch.id}`).set('x-csrf-token', ann.csrf).send({ address: OTHER });
    expect([moved.status, moved.body.error.details[0].field]).toEqual([400, 'address']);

    // Another user's watch id: 404, nothing changed.
    expect((await ben.agent.patch(`/api/whales/watchlist/${watch.id}`).set('x-csrf-token', ben.csrf).send({ customLabel: 'x' })).status).toBe(404);
    expect((await ben.agent.delete(`/api/whales/watchlist/${watch.id}`).set('x-csrf-token', ben.csrf)).status).toBe(404);
    expect((await ben.agent.get('/api/whales/watchlist')).body.watches).toEqual([]);
    expect((await ann.agent.get('/api/whales/watchlist')).body.watches.map((w: WhaleWatchView) => w.id)).toEqual([watch.id]);
    // The same address for another user is another watch.
    expect((await post(ben, { address: WALLET })).status).toBe(201);
  });

  it('serves the feed newest first with labels, filters and cursor pages; the largest transfers publicly; the address page', async () => {
    const feed = (await ann.agent.get('/api/whales/transfers?limit=1').expect(200)).body as WhaleFeedPage;
    expect(feed.source).toMatchObject({ kind: 'replay' });
    expect(feed.rows[0]).toMatchObject({ blockNumber: '501', usdValue: '5000000.00', transactionType: 'exchange_inflow', toLabel: { label: 'Binance 14', exchangeName: 'Binance' } });
    expect(feed.nextCursor).toEqual(expect.any(String));
    const next = (await ann.agent.get(`/api/whales/transfers?limit=5&cursor=${feed.nextCursor}`).expect(200)).body as WhaleFeedPage;
    // Block 500's whale transfer (the 100 USD one is neither a whale transfer nor the watched address's).
    expect(next.rows.map((r) => [r.blockNumber, r.toLabel?.customLabel ?? null])).toEqual([['500', 'cold wallet']]);
    expect(next.rows[0]).toMatchObject({ usdPrice: '3420.0000000000', priceSource: 'simulated', explorerUrl: `https://etherscan.io/tx/${next.rows[0].txHash}`, logIndex: null });
    expect(next.nextCursor).toBeNull();
    const outflows = (await ann.agent.get('/api/whales/transfers?direction=exchange_outflow&exchange=binance&token=ETH&minUsd=1000000').expect(200)).body as WhaleFeedPage;
    expect(outflows.rows.map((r) => r.blockNumber)).toEqual(['500']);
    expect((await ann.agent.get('/api/whales/transfers?cursor=nope')).body.error.details[0].field).toBe('cursor');

    const largest = (await request(harness.app()).get('/api/whales/largest?hours=24').expect(200)).body as WhaleLargestPage;
    // Whale transfers only: the $100 one is not.
    expect(largest.rows.map((r) => r.usdValue)).toEqual(['5000000.00', '3420000.00']);

    const page = (await ann.agent.get(`/api/whales/addresses/${WALLET_EIP55}`).expect(200)).body as WhaleAddressPage;
    expect(page.label).toEqual({ address: WALLET, label: null, addressType: null, exchangeName: null, customLabel: 'cold wallet' });
    expect(page.watch?.customLabel).toBe('cold wallet');
    expect(page.transfers.map((t) => t.blockNumber)).toEqual(['500']);
    expect(page.netflow).toHaveLength(30);
    expect(page.netflow.reduce((sum, p) => sum + Number(p.inflowUsd), 0)).toBe(3420000);
    expect(page.balanceChanges).toEqual([{ token: null, tokenSymbol: 'ETH', inAmount: '1000', outAmount: '0', netUsd: '3420000.00' }]);
  });

  it('serves netflow series and the exchanges summary', async () => {
    const series = await ann.agent.get('/api/whales/netflow?exchange=Binance&bucket=hour').expect(200);
    expect(series.body).toMatchObject({ exchange: 'Binance', bucket: 'hour' });
    expect(Array.isArray(series.body.points)).toBe(true);
    const missing = await ann.agent.get('/api/whales/netflow?bucket=hour');
    expect([missing.status, missing.body.error.details[0].field]).toEqual([400, 'exchange']);
    const backwards = await ann.agent.get('/api/whales/netflow?exchange=Binance&from=2025-02-01&to=2025-01-01');
    expect([backwards.status, backwards.body.error.details[0].field]).toEqual([400, 'from']);
    const exchanges = await ann.agent.get('/api/whales/exchanges').expect(200);
    expect(exchanges.body.exchanges.map((e: { exchange: string }) => e.exchange)).toContain('Binance');
  });

  it("answers in the shapes of the web's recorded answers, key for key (they were written by hand)", async () => {
    // Ben's watches (a test above may have made some): at least one, for the watchlist's row keys.
    await post(ben, { address: OTHER, customLabel: 'fixture check', alertThreshold: 1000 });
    expect((await ben.agent.get('/api/whales/watchlist')).body.watches.length).toBeGreaterThan(0);
    for (const file of ['feed-all.json', 'largest.json', 'exchanges.json', 'watchlist.json', 'address-binance.json', 'netflow-binance-day.json']) {
      const fixture = webFixture(file);
      const [method, path] = fixture.request.split(' ');
      expect(method).toBe('GET');
      const answer = await ben.agent.get(path);
      expect({ file, status: answer.status }).toEqual({ file, status: fixture.status });
      const real = keysByPath(answer.body);
      const recorded = keysByPath(fixture.body);
      // Every object both answers hold has the same keys.
      const shared = [...recorded.keys()].filter((key) => real.has(key));
      expect(shared).toContain('$');
      for (const key of shared) expect({ file, path: key, keys: [...real.get(key)!].sort() }).toEqual({ file, path: key, keys: [...recorded.get(key)!].sort() });
    }
  });

  it('relays whale transfers published by the workers to every open stream as SSE `whale`', async () => {
    const server: Server = http.createServer(harness.app()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    // Sign in once more to read the session cookie, for the raw http stream.
    const res = await signIn(ann.agent, 'ann-whales@example.com');
    const cookie = cookieHeaderOf(res);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stream = await SseClient.open(`${base}/api/stream`, { cookie });
    try {
      const feed = (await ann.agent.get('/api/whales/transfers?limit=1').expect(200)).body as WhaleFeedPage;
      await publishWhaleTransfers(harness.redis, harness.prefix, feed.rows);
      const events = await stream.waitFor(1);
      expect(events.find((e) => e.event === 'whale')?.data).toBe(JSON.stringify(feed.rows[0]));
    } finally {
      stream.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
