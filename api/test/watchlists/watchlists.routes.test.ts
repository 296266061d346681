import request from 'supertest';
import { createWorkerConnection } from '@tickerbell/jobs';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { watchlistChangesChannel, WATCHLIST_ITEMS_MAX, WATCHLISTS_PER_USER_MAX } from '@tickerbell/jobs/watchlists';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from '../support/accounts-harness';

interface User {
  agent: Agent;
  id: number;
  csrf: string;
}

interface ItemBody {
  id: number;
  symbol: string;
  name: string;
  type: string;
  order: number;
}

describe('watchlists api (real app, PostgreSQL, Redis, signed-in users)', () => {
  const harness = new AccountsHarness();
  const subscriber = createWorkerConnection(testRedisUrl());
  const published: unknown[] = [];
  let alice: User;
  let bob: User;
  let carol: User;

  async function user(email: string): Promise<User> {
    const agent = request.agent(harness.app());
    const id = await signedInUser(harness, agent, email);
    return { agent, id, csrf: await csrfOf(agent) };
  }

  const post = (u: User, path: string) => u.agent.post(path).set('x-csrf-token', u.csrf);
  const put = (u: User, path: string) => u.agent.put(path).set('x-csrf-token', u.csrf);
  const patch = (u: User, path: string) => u.agent.patch(path).set('x-csrf-token', u.csrf);
  const del = (u: User, path: string) => u.agent.delete(path).set('x-csrf-token', u.csrf);

  async function createList(u: User, name: string, symbols: string[] = []): Promise<{ id: number; items: ItemBody[] }> {
    const created = await post(u, '/api/watchlists').send({ name }).expect(201);
    let items: ItemBody[] = [];
    for (const symbol of symbols) {
      const added = await post(u, `/api/watchlists/${created.body.id}/items`).send({ symbol }).expect(201);
      items = added.body.watchlist.items;
    }
    return { id: created.body.id, items };
  }

  /** The rows as stored: symbol and position, by position. */
  async function storedItems(watchlistId: number): Promise<[string, number][]> {
    const rows: { symbol: string; order: number }[] = await harness.db.dataSource.query(
      `SELECT m.symbol, i."order" FROM watchlist_items i JOIN markets m ON m.id = i.market_id
        WHERE i.watchlist_id = $1 ORDER BY i."order", i.id`,
      [watchlistId],
    );
    return rows.map((r) => [r.symbol, r.order]);
  }

  async function listCount(userId: number): Promise<number> {
    const [{ count }]: { count: number }[] = await harness.db.dataSource.query('SELECT count(*)::int AS count FROM watchlists WHERE user_id = $1', [userId]);
    return count;
  }

  const dense = (items: [string, number][]) => items.map(([, order]) => order);
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);

  async function waitForPublished(count: number): Promise<void> {
    const deadline = Date.now() + 3000;
    while (published.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  beforeAll(async () => {
    await harness.start();
    await runSeeds(harness.db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    // Enough markets to fill a list to its limit.
    await harness.db.dataSource.query(
      `INSERT INTO markets (symbol, name, type) SELECT 'ZZ' || lpad(g::text, 4, '0'), 'Test market ' || g, 'stock' FROM generate_series(1, 520) g`,
    );
    await subscriber.subscribe(watchlistChangesChannel(harness.prefix));
    subscriber.on('message', (_channel, message: string) => published.push(JSON.parse(message)));
    alice = await user('alice-watchlists@example.com');
    bob = await user('bob-watchlists@example.com');
    carol = await user('carol-watchlists@example.com');
  }, 60000);

  afterAll(async () => {
    subscriber.disconnect();
    await harness.stop();
  });

  it('answers 401 to signed-out requests', async () => {
    const app = harness.app();
    const responses = await Promise.all([
      request(app).get('/api/watchlists'),
      request(app).post('/api/watchlists').send({ name: 'x' }),
      request(app).get('/api/watchlists/1/export.csv'),
      request(app).post('/api/watchlists/import?name=x').set('content-type', 'text/csv').send('AAPL'),
    ]);
    expect(responses.map((r) => [r.status, r.body.error?.code])).toEqual(Array(4).fill([401, 'unauthorized']));
  });

  it('refuses changes without the CSRF token and writes nothing', async () => {
    const before = await listCount(alice.id);
    const create = await alice.agent.post('/api/watchlists').send({ name: 'Forged' });
    const imported = await alice.agent.post('/api/watchlists/import?name=Forged').set('content-type', 'text/csv').send('AAPL\n');
    expect([create.status, create.body.error.code]).toEqual([403, 'csrf_invalid']);
    expect([imported.status, imported.body.error.code]).toEqual([403, 'csrf_invalid']);
    expect(await listCount(alice.id)).toBe(before);
  });

  it('creates, lists, renames and deletes lists; a name is used once per user', async () => {
    const created = await post(alice, '/api/watchlists').send({ name: '  Tech  ' }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Tech',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      items: [],
    });
    const again = await post(alice, '/api/watchlists').send({ name: 'Tech' }).expect(409);
    expect(again.body.error.code).toBe('duplicate_name');
    // Another user may use the same name.
    await post(bob, '/api/watchlists').send({ name: 'Tech' }).expect(201);

    const other = await post(alice, '/api/watchlists').send({ name: 'Other' }).expect(201);
    const clash = await patch(alice, `/api/watchlists/${other.body.id}`).send({ name: 'Tech' }).expect(409);
    expect(clash.body.error.code).toBe('duplicate_name');
    const renamed = await patch(alice, `/api/watchlists/${other.body.id}`).send({ name: 'Renamed' }).expect(200);
    expect(renamed.body.name).toBe('Renamed');

    const bad = await post(alice, '/api/watchlists').send({ name: 'x'.repeat(101) }).expect(400);
    expect(bad.body.error.code).toBe('validation_failed');

    const list = await alice.agent.get('/api/watchlists').expect(200);
    expect(list.body.watchlists.map((w: { name: string }) => w.name)).toEqual(expect.arrayContaining(['Tech', 'Renamed']));
    expect((await bob.agent.get('/api/watchlists').expect(200)).body.watchlists.map((w: { name: string }) => w.name)).toEqual(['Tech']);

    await del(alice, `/api/watchlists/${other.body.id}`).expect(204);
    await alice.agent.get(`/api/watchlists/${other.body.id}`).expect(404);
    await del(alice, `/api/watchlists/${other.body.id}`).expect(404);
  });

  it('appends items in order, reorders them and keeps positions dense after a removal', async () => {
    const list = await createList(alice, 'Ordering', ['BTCUSDT', 'aapl', 'SPY', 'EURUSD']);
    expect(list.items).toEqual([
      { id: expect.any(Number), symbol: 'BTCUSDT', name: 'Bitcoin / Tether', type: 'crypto', order: 0 },
      { id: expect.any(Number), symbol: 'AAPL', name: 'Apple Inc.', type: 'stock', order: 1 },
      { id: expect.any(Number), symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', type: 'etf', order: 2 },
      { id: expect.any(Number), symbol: 'EURUSD', name: 'Euro / US Dollar', type: 'forex', order: 3 },
    ]);
    const [btc, aapl, spy, eur] = list.items.map((i) => i.id);

    const reordered = await put(alice, `/api/watchlists/${list.id}/order`).send({ itemIds: [spy, eur, btc, aapl] }).expect(200);
    expect(reordered.body.items.map((i: ItemBody) => [i.symbol, i.order])).toEqual([
      ['SPY', 0],
      ['EURUSD', 1],
      ['BTCUSDT', 2],
      ['AAPL', 3],
    ]);

    const removed = await del(alice, `/api/watchlists/${list.id}/items/${eur}`).expect(200);
    expect(removed.body.items.map((i: ItemBody) => i.symbol)).toEqual(['SPY', 'BTCUSDT', 'AAPL']);
    expect(await storedItems(list.id)).toEqual([
      ['SPY', 0],
      ['BTCUSDT', 1],
      ['AAPL', 2],
    ]);
    await del(alice, `/api/watchlists/${list.id}/items/${eur}`).expect(404);

    const added = await post(alice, `/api/watchlists/${list.id}/items`).send({ symbol: 'MSFT' }).expect(201);
    expect(added.body.item).toEqual({ id: expect.any(Number), symbol: 'MSFT', name: 'Microsoft Corporation', type: 'stock', order: 3 });
    expect(await storedItems(list.id)).toEqual([
      ['SPY', 0],
      ['BTCUSDT', 1],
      ['AAPL', 2],
      ['MSFT', 3],
    ]);
  });

  it('answers 409 duplicate_symbol to a symbol already on the list (any case) and 400 to an unknown one', async () => {
    const list = await createList(alice, 'Duplicates', ['ETHUSDT']);
    const duplicate = await post(alice, `/api/watchlists/${list.id}/items`).send({ symbol: 'ethusdt' }).expect(409);
    expect(duplicate.body.error).toEqual(expect.objectContaining({ code: 'duplicate_symbol', details: { symbol: 'ETHUSDT' } }));
    const unknown = await post(alice, `/api/watchlists/${list.id}/items`).send({ symbol: 'NOPE' }).expect(400);
    expect(unknown.body.error.code).toBe('unknown_symbol');
    expect(await storedItems(list.id)).toEqual([['ETHUSDT', 0]]);
  });

  it('refuses an order that is not exactly a permutation of the items, naming what is wrong, and changes nothing', async () => {
    const list = await createList(alice, 'Reorder errors', ['AAPL', 'MSFT', 'NVDA']);
    const [a, m, n] = list.items.map((i) => i.id);
    const foreign = (await createList(bob, 'Bobs', ['TSLA'])).items[0].id;

    const missing = await put(alice, `/api/watchlists/${list.id}/order`).send({ itemIds: [n, a] }).expect(400);
    expect(missing.body.error).toEqual(expect.objectContaining({ code: 'invalid_order', details: { missing: [m], extra: [], duplicated: [] } }));
    expect(missing.body.error.message).toContain(`missing ${m}`);

    const extra = await put(alice, `/api/watchlists/${list.id}/order`).send({ itemIds: [n, a, m, foreign] }).expect(400);
    expect(extra.body.error.details).toEqual({ missing: [], extra: [foreign], duplicated: [] });

    const repeated = await put(alice, `/api/watchlists/${list.id}/order`).send({ itemIds: [n, a, a] }).expect(400);
    expect(repeated.body.error.details).toEqual({ missing: [m], extra: [], duplicated: [a] });

    const malformed = await put(alice, `/api/watchlists/${list.id}/order`).send({ itemIds: ['x'] }).expect(400);
    expect(malformed.body.error.code).toBe('validation_failed');

    expect(await storedItems(list.id)).toEqual([
      ['AAPL', 0],
      ['MSFT', 1],
      ['NVDA', 2],
    ]);
  });

  it('keeps positions unique and dense when adds race each other and a reorder', async () => {
    const list = await createList(alice, 'Race', ['AAPL', 'MSFT', 'NVDA']);
    const reversed = list.items.map((i) => i.id).reverse();
    const symbols = ['ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT'];
    const [reorder, ...adds] = await Promise.all([
      put(alice, `/api/watchlists/${list.id}/order`).send({ itemIds: reversed }),
      ...symbols.map((symbol) => post(alice, `/api/watchlists/${list.id}/items`).send({ symbol })),
    ]);
    expect(adds.map((r) => r.status)).toEqual(Array(5).fill(201));
    // Applied before the adds, or refused as stale after one of them: never half-applied.
    expect([200, 400]).toContain(reorder.status);

    const stored = await storedItems(list.id);
    expect(dense(stored)).toEqual(range(8));
    const originals = stored.slice(0, 3).map(([symbol]) => symbol);
    expect(originals).toEqual(reorder.status === 200 ? ['NVDA', 'MSFT', 'AAPL'] : ['AAPL', 'MSFT', 'NVDA']);
    expect(stored.slice(3).map(([symbol]) => symbol).sort()).toEqual([...symbols].sort());
  });

  it("answers 404 to every route on another user's list and item, leaving them alone", async () => {
    const list = await createList(alice, 'Private', ['AAPL', 'MSFT']);
    const itemId = list.items[0].id;
    const own = await createList(bob, 'Bob own', ['SPY']);
    const base = `/api/watchlists/${list.id}`;
    const responses = await Promise.all([
      bob.agent.get(base),
      patch(bob, base).send({ name: 'Mine now' }),
      del(bob, base),
      post(bob, `${base}/items`).send({ symbol: 'NVDA' }),
      del(bob, `${base}/items/${itemId}`),
      put(bob, `${base}/order`).send({ itemIds: [list.items[1].id, itemId] }),
      bob.agent.get(`${base}/export.csv`),
      post(bob, `${base}/import`).set('content-type', 'text/csv').send('NVDA\n'),
      del(bob, `/api/watchlists/${own.id}/items/${itemId}`),
      bob.agent.get('/api/watchlists/not-a-number'),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(404));
    expect(responses[8].body.error.code).toBe('item_not_found');
    const still = await alice.agent.get(base).expect(200);
    expect([still.body.name, still.body.items.map((i: ItemBody) => i.symbol)]).toEqual(['Private', ['AAPL', 'MSFT']]);
  });

  it('exports the list as CSV, byte for byte, as an attachment named after it', async () => {
    const list = await createList(alice, 'Export "me"', ['AMZN', 'BTCUSDT', '^GSPC']);
    const res = await alice.agent.get(`/api/watchlists/${list.id}/export.csv`).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Export _me_.csv"');
    expect(res.text).toBe('symbol,name,type\nAMZN,"Amazon.com, Inc.",stock\nBTCUSDT,Bitcoin / Tether,crypto\n^GSPC,S&P 500 Index,index\n');
  });

  it('imports a CSV with a header and extra columns as a new list, keeping repeated symbols once', async () => {
    const csv = '\ufeffName,SYMBOL,Note\r\nApple,AAPL,x\r\nGold,gld,y\r\n\r\nApple again,aapl,z\r\nBitcoin,BTCUSDT,\r\n';
    const res = await post(alice, '/api/watchlists/import?name=Imported').set('content-type', 'text/csv').send(csv).expect(201);
    expect(res.body).toEqual({ watchlist: expect.objectContaining({ name: 'Imported' }), imported: 3, duplicates: 1, skipped: 0 });
    expect(await storedItems(res.body.watchlist.id)).toEqual([
      ['AAPL', 0],
      ['GLD', 1],
      ['BTCUSDT', 2],
    ]);
  });

  it('imports a header-less single column, and the JSON form', async () => {
    const raw = await post(alice, '/api/watchlists/import?name=Plain').set('content-type', 'text/csv').send('NVDA\nTSLA\n').expect(201);
    expect(raw.body.watchlist.items.map((i: ItemBody) => i.symbol)).toEqual(['NVDA', 'TSLA']);
    const json = await post(alice, '/api/watchlists/import').send({ name: 'From JSON', csv: 'symbol\nES\nNQ' }).expect(201);
    expect(json.body.watchlist.items.map((i: ItemBody) => i.symbol)).toEqual(['ES', 'NQ']);
    const unnamed = await post(alice, '/api/watchlists/import').set('content-type', 'text/csv').send('NVDA\n').expect(400);
    expect(unnamed.body.error.code).toBe('validation_failed');
  });

  it('refuses unknown symbols with their line numbers and writes nothing', async () => {
    const before = await listCount(alice.id);
    const csv = 'symbol,note\nAAPL,x\nNOPE,y\nMSFT,z\nBAD1,w\nNOPE,again\n';
    const res = await post(alice, '/api/watchlists/import?name=Broken').set('content-type', 'text/csv').send(csv).expect(400);
    expect(res.body.error).toEqual(
      expect.objectContaining({
        code: 'unknown_symbols',
        message: '2 unknown symbols: NOPE (line 3), BAD1 (line 5)',
        details: { count: 2, unknown: [{ symbol: 'NOPE', line: 3 }, { symbol: 'BAD1', line: 5 }] },
      }),
    );
    expect(await listCount(alice.id)).toBe(before);
    const rows: unknown[] = await harness.db.dataSource.query(`SELECT id FROM watchlists WHERE name = 'Broken'`);
    expect(rows).toEqual([]);
  });

  it('refuses unreadable files: several columns without a symbol header, broken quoting', async () => {
    const wide = await post(alice, '/api/watchlists/import?name=Wide').set('content-type', 'text/csv').send('ticker,name\nAAPL,Apple\n').expect(400);
    expect(wide.body.error).toEqual(expect.objectContaining({ code: 'missing_symbol_column', details: { line: 1 } }));
    const quoted = await post(alice, '/api/watchlists/import?name=Quoted').set('content-type', 'text/csv').send('symbol\n"AAPL\n').expect(400);
    expect(quoted.body.error.code).toBe('invalid_csv');
  });

  it('answers 413 to a CSV over 256 kB', async () => {
    const before = await listCount(alice.id);
    const big = `symbol\n${'AAPL\n'.repeat(60_000)}`;
    const res = await post(alice, '/api/watchlists/import?name=Big').set('content-type', 'text/csv').send(big).expect(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(await listCount(alice.id)).toBe(before);
  });

  it('round-trips: an exported list imports as the same list', async () => {
    const list = await createList(alice, 'Round trip', ['JPM', '^DJI', 'USDJPY', 'CL', 'AMZN']);
    const exported = (await alice.agent.get(`/api/watchlists/${list.id}/export.csv`).buffer(true).expect(200)).text;
    const copy = await post(alice, '/api/watchlists/import?name=Round%20trip%20copy').set('content-type', 'text/csv').send(exported).expect(201);
    expect(copy.body.watchlist.items.map((i: ItemBody) => i.symbol)).toEqual(['JPM', '^DJI', 'USDJPY', 'CL', 'AMZN']);
    const again = (await alice.agent.get(`/api/watchlists/${copy.body.watchlist.id}/export.csv`).buffer(true).expect(200)).text;
    expect(again).toBe(exported);
  });

  it('appends an import to an existing list, skipping symbols already on it', async () => {
    const list = await createList(alice, 'Append', ['AAPL']);
    const res = await post(alice, `/api/watchlists/${list.id}/import`).set('content-type', 'text/csv').send('symbol\nMSFT\nAAPL\nmsft\nNVDA\n').expect(200);
    expect([res.body.imported, res.body.duplicates, res.body.skipped]).toEqual([2, 1, 1]);
    expect(await storedItems(list.id)).toEqual([
      ['AAPL', 0],
      ['MSFT', 1],
      ['NVDA', 2],
    ]);
    const unknown = await post(alice, `/api/watchlists/${list.id}/import`).send({ csv: 'TSLA\nNOPE\n' }).expect(400);
    expect(unknown.body.error.details.unknown).toEqual([{ symbol: 'NOPE', line: 2 }]);
    expect((await storedItems(list.id)).length).toBe(3);
  });

  it(`allows ${WATCHLISTS_PER_USER_MAX} lists per user, also under concurrent creates`, async () => {
    await harness.db.dataSource.query(`INSERT INTO watchlists (user_id, name) SELECT $1, 'Filler ' || g FROM generate_series(1, $2::int) g`, [
      carol.id,
      WATCHLISTS_PER_USER_MAX - 3,
    ]);
    const responses = await Promise.all(range(6).map((i) => post(carol, '/api/watchlists').send({ name: `Race ${i}` })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403, 403]);
    const refused = responses.find((r) => r.status === 403);
    expect(refused?.body.error).toEqual(expect.objectContaining({ code: 'limit', details: { max: WATCHLISTS_PER_USER_MAX } }));
    expect(await listCount(carol.id)).toBe(WATCHLISTS_PER_USER_MAX);
    const imported = await post(carol, '/api/watchlists/import?name=One more').set('content-type', 'text/csv').send('AAPL\n').expect(403);
    expect(imported.body.error.code).toBe('limit');
  });

  it(`allows ${WATCHLIST_ITEMS_MAX} items per list, also under concurrent adds and imports`, async () => {
    const list = await createList(bob, 'Full');
    await harness.db.dataSource.query(
      `INSERT INTO watchlist_items (watchlist_id, market_id, "order")
       SELECT $1, m.id, row_number() OVER (ORDER BY m.symbol) - 1 FROM markets m
        WHERE m.symbol LIKE 'ZZ%' ORDER BY m.symbol LIMIT $2`,
      [list.id, WATCHLIST_ITEMS_MAX - 2],
    );
    const responses = await Promise.all(['ZZ0501', 'ZZ0502', 'ZZ0503', 'ZZ0504'].map((symbol) => post(bob, `/api/watchlists/${list.id}/items`).send({ symbol })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
    expect(responses.find((r) => r.status === 403)?.body.error.code).toBe('limit');
    const stored = await storedItems(list.id);
    expect(dense(stored)).toEqual(range(WATCHLIST_ITEMS_MAX));

    const append = await post(bob, `/api/watchlists/${list.id}/import`).set('content-type', 'text/csv').send('AAPL\n').expect(403);
    expect(append.body.error.code).toBe('limit');
    const tooMany = range(WATCHLIST_ITEMS_MAX + 1).map((i) => `ZZ${String(i + 1).padStart(4, '0')}`);
    const created = await post(bob, '/api/watchlists/import?name=Too many').set('content-type', 'text/csv').send(tooMany.join('\n')).expect(403);
    expect(created.body.error.code).toBe('limit');
    expect(await harness.db.dataSource.query(`SELECT id FROM watchlists WHERE name = 'Too many'`)).toEqual([]);
  });

  it('publishes a watchlist change for the user after each committed change, and none after a refused one', async () => {
    // Let messages of earlier tests arrive first.
    await new Promise((r) => setTimeout(r, 100));
    const start = published.length;
    const list = await createList(bob, 'Published', ['AAPL', 'MSFT']);
    const [a, m] = list.items.map((i) => i.id);
    await put(bob, `/api/watchlists/${list.id}/order`).send({ itemIds: [m, a] }).expect(200);
    await del(bob, `/api/watchlists/${list.id}/items/${a}`).expect(200);
    await post(bob, `/api/watchlists/${list.id}/import`).set('content-type', 'text/csv').send('NVDA\n').expect(200);
    await patch(bob, `/api/watchlists/${list.id}`).send({ name: 'Published 2' }).expect(200);
    await del(bob, `/api/watchlists/${list.id}`).expect(204);
    // create, 2 adds, reorder, remove, import, rename, delete
    await waitForPublished(start + 8);
    expect(published.slice(start)).toEqual(Array(8).fill({ userId: bob.id }));

    await post(bob, '/api/watchlists').send({ name: 'Tech' }).expect(409);
    await post(bob, '/api/watchlists/999999/items').send({ symbol: 'AAPL' }).expect(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(published.length).toBe(start + 8);
  });
});
