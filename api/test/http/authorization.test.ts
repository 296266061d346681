import http from 'node:http';
import { OWNED_RESOURCES, pathParams, routeKey, type IdKind, type OwnedResource, type RouteSpec } from '../../src/http/route-table';
import { API_ROUTES } from '../../src/route-table';
import { PUBLIC_URL } from '../support/accounts-harness';
import { AlertsHarness } from '../support/alerts-support';
import { encodedPairs, fillPath, quickUser, rawQuery, sendRaw, snapshotChanges, userDataSnapshot, type SignedIn } from '../support/route-requests';
import { linkIn } from '../support/smtp-capture';

/**
 * Issue 12's authorization table, driven by the route table: every route that names someone's
 * row (an `ids` entry of an owned kind, in its path or body) is tried by another signed-in user
 * with the first user's ids: 403 or 404, and nothing of anyone's changes. A route with two owned
 * ids is also tried with only one of them foreign (the intruder's own team with the victim's
 * invitation, ...). The owner's own GETs of the same ids succeed, so the refusals are about who
 * asks, not about ids that do not exist.
 *
 * A new owned kind in OWNED_RESOURCES needs a fixture below (the Record type and the first test
 * fail until it has one).
 */

type Fixture = (owner: SignedIn, ids: (kind: OwnedResource) => Promise<string | number>) => Promise<string | number>;

describe('authorization: every route with an owned id, as another user (real app, PostgreSQL, Redis)', () => {
  const harness = new AlertsHarness({ TRUST_PROXY: '1' });
  let server: http.Server;
  let victim: SignedIn;
  let intruder: SignedIn;
  const made = new Map<string, Promise<string | number>>();
  let invitations = 0;

  /** POST through the real api as the owner; the created row's id. */
  const create = async (owner: SignedIn, path: string, body: unknown, key = 'id'): Promise<number> => {
    const res = await owner.agent.post(path).set('x-csrf-token', owner.csrf).set('X-Forwarded-For', '203.0.113.9').send(body as object);
    if (res.status !== 201) throw new Error(`fixture ${path} answered ${res.status}: ${res.text}`);
    const id = key.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), res.body);
    if (typeof id !== 'number') throw new Error(`fixture ${path} answered no number at ${key}: ${res.text}`);
    return id;
  };

  /** How to make each kind of owned row for a user: through the api where it can, else as the workers would. */
  const FIXTURES: Record<OwnedResource, Fixture> = {
    alert: (owner) => create(owner, '/api/alerts', { name: 'Mine', symbol: 'BTCUSDT', condition: { type: 'crossing_up', value: '100000' } }, 'alert.id'),
    watchlist: (owner) => create(owner, '/api/watchlists', { name: `List of ${owner.id}` }),
    'watchlist-item': async (owner, ids) => create(owner, `/api/watchlists/${await ids('watchlist')}/items`, { symbol: 'BTCUSDT' }, 'item.id'),
    'chart-layout': (owner) => create(owner, '/api/chart-layouts', { name: 'Mine', layout: { symbol: 'BTCUSDT', interval: '1h' } }),
    // Notifications are written by the workers (notify): a row as they write it.
    notification: async (owner) => {
      const [row]: { id: string }[] = await harness.db.dataSource.query(`INSERT INTO notifications (user_id, title, message, type) VALUES ($1, 'Mine', 'mine', 'info') RETURNING id`, [owner.id]);
      return String(row.id);
    },
    'push-subscription': async (owner) => {
      const endpoint = `https://push.example.com/send/${owner.id}`;
      const keys = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 7).toString('base64url') };
      await create(owner, '/api/push/subscriptions', { endpoint, keys });
      return endpoint;
    },
    team: (owner) => create(owner, '/api/teams', { name: `Desk of ${owner.id}` }),
    // A member of the owner's team: the owner.
    'team-member': async (owner, ids) => {
      await ids('team');
      return owner.id;
    },
    'team-invitation': async (owner, ids) => create(owner, `/api/teams/${await ids('team')}/invitations`, { email: `invitee-${owner.id}-${++invitations}@example.com` }),
    // The emailed token of an invitation to someone else.
    'invitation-token': async (owner, ids) => {
      const email = `token-${owner.id}@example.com`;
      await create(owner, `/api/teams/${await ids('team')}/invitations`, { email });
      const mail = await harness.smtp.waitFor(email, /invited to join/);
      return linkIn(mail, `${PUBLIC_URL}/invitations/accept`).searchParams.get('token')!;
    },
    'whale-watch': (owner) => create(owner, '/api/whales/watchlist', { address: '0x28c6c06298d514db089934071355e5743bf21d60', customLabel: 'Mine' }),
    // An alert on a pool: pools are reference data the ingest writes (a row as it writes it).
    'yield-alert': async (owner) => {
      const [pool]: { id: number }[] = await harness.db.dataSource.query(
        `INSERT INTO yield_pools (pool_id, defillama_pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier, tvl_usd, apy, last_seen_at)
         VALUES ('authz-pool', 'authz-pool', 'USDC-WETH', '', '', 'USDC', 'WETH', 500, 1000000, 12.5, now())
         ON CONFLICT (pool_id) DO UPDATE SET symbol = EXCLUDED.symbol RETURNING id`,
      );
      return create(owner, '/api/yields/alerts', { poolId: pool.id, alertType: 'apr', threshold: '12.5' });
    },
    // A follow of a market category: the category exists once a market has it (a row as the sync writes it).
    'prediction-follow': async (owner) => {
      await harness.db.dataSource.query(
        `INSERT INTO prediction_markets (polymarket_id, slug, question, category, data_source, content_hash, synced_at)
         VALUES ('authz-1', 'authz-1', 'Will the authorization test pass?', 'Tests', 'import', 'authz', now()) ON CONFLICT DO NOTHING`,
      );
      return create(owner, '/api/predictions/follows', { category: 'Tests' });
    },
    // A follow of every lock-up at or above a risk score (no event needed).
    'lockup-follow': (owner) => create(owner, '/api/lockups/follows', { kind: 'risk', minRiskScore: 50, noticeDays: [7, 1] }),
    // A private chat room the owner owns (rooms are made by seeds and admins: a row as they write it).
    'chat-room': async (owner) => {
      const [room]: { id: number }[] = await harness.db.dataSource.query(
        `INSERT INTO chat_rooms (name, type, is_private, created_by) VALUES ($1, 'chat', true, $2) RETURNING id`,
        [`Desk of ${owner.id}`, owner.id],
      );
      await harness.db.dataSource.query(`INSERT INTO chat_room_members (room_id, user_id, role) VALUES ($1, $2, 'owner')`, [room.id, owner.id]);
      return room.id;
    },
    // The owner's message in their private room.
    'chat-message': async (owner, ids) => {
      const [message]: { id: string }[] = await harness.db.dataSource.query(
        `INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, $2, 'Mine: $BTC') RETURNING id::text AS id`,
        [await ids('chat-room'), owner.id],
      );
      return message.id;
    },
    // An invite link to the owner's private room, made through the api.
    'chat-invite': async (owner, ids) => create(owner, `/api/chat/rooms/${await ids('chat-room')}/invites`, { expiresInHours: 24, maxUses: 5 }),
  };

  const idsOf = (owner: SignedIn) => {
    const get = (kind: OwnedResource): Promise<string | number> => {
      const key = `${owner.id}:${kind}`;
      if (!made.has(key)) made.set(key, FIXTURES[kind](owner, get));
      return made.get(key)!;
    };
    return get;
  };

  beforeAll(async () => {
    await harness.start();
    server = http.createServer(harness.api).listen(0);
    victim = await quickUser(harness.db.dataSource, server, 'victim@example.com');
    intruder = await quickUser(harness.db.dataSource, server, 'intruder@example.com');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  const owned = (kind: IdKind | undefined): kind is OwnedResource => (OWNED_RESOURCES as readonly string[]).includes(kind as string);
  const ownedIds = (route: RouteSpec) => Object.entries(route.ids ?? {}).filter(([, kind]) => owned(kind)) as [string, OwnedResource][];
  const routes = API_ROUTES.filter((route) => ownedIds(route).length > 0);

  /** The route's request with these owners' ids: path parameters, body fields (an array field gets a list of one). */
  async function requestFor(route: RouteSpec, ownerOf: (field: string) => SignedIn) {
    const params: Record<string, string> = {};
    const body: Record<string, unknown> = { ...((route.example?.body as Record<string, unknown>) ?? {}) };
    for (const name of pathParams(route.path)) params[name] = encodeURIComponent(route.example?.params?.[name] ?? '1');
    for (const [field, kind] of ownedIds(route)) {
      const id = await idsOf(ownerOf(field))(kind);
      if (pathParams(route.path).includes(field)) params[field] = encodeURIComponent(String(id));
      else body[field] = Array.isArray(body[field]) ? [id] : id;
    }
    const query = rawQuery(encodedPairs(route.example?.query));
    return {
      method: route.method,
      path: `${fillPath(route.path, params)}${query ? `?${query}` : ''}`,
      headers: { 'content-type': 'application/json', 'X-Forwarded-For': '203.0.113.10' } as Record<string, string>,
      body: route.method === 'GET' ? undefined : JSON.stringify(body),
    };
  }

  it('has a fixture for every owned kind, and finds the routes that name one', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual([...OWNED_RESOURCES].sort());
    // Every owned kind is named by some route, and every domain with owned rows is covered.
    const kinds = new Set(routes.flatMap((route) => ownedIds(route).map(([, kind]) => kind)));
    expect([...kinds].sort()).toEqual([...OWNED_RESOURCES].sort());
    expect(routes.length).toBeGreaterThan(20);
  });

  /** Every variant: all owned ids the victim's; with two or more, also each one alone the victim's. */
  const variants = routes.flatMap((route) => {
    const fields = ownedIds(route).map(([field]) => field);
    const all = { route, foreign: fields, label: `${routeKey(route)} with the victim's ${fields.join(' and ')}` };
    if (fields.length < 2) return [all];
    return [all, ...fields.map((field) => ({ route, foreign: [field], label: `${routeKey(route)} with the intruder's own ids but the victim's ${field}` }))];
  });

  /** Ids no one has: what a refusal of a foreign id is compared with. */
  const MISSING: Record<OwnedResource, string | number> = {
    alert: 999999999,
    watchlist: 2147483647,
    'watchlist-item': 2147483647,
    'chart-layout': 2147483647,
    notification: '999999999999',
    'push-subscription': 'https://push.example.com/send/nobody',
    team: 2147483647,
    'team-member': 2147483647,
    'team-invitation': 2147483647,
    'invitation-token': 'no-such-invitation-token-0123456789',
    'whale-watch': 2147483647,
    'yield-alert': 2147483647,
    'prediction-follow': 2147483647,
    'lockup-follow': 2147483647,
    'chat-room': 2147483647,
    'chat-message': '999999999999',
    'chat-invite': 2147483647,
  };

  it.each(variants.map((v) => [v.label, v] as const))('%s: refused, nothing changed', async (_label, { route, foreign }) => {
    const req = await requestFor(route, (field) => (foreign.includes(field) ? victim : intruder));
    req.headers['x-csrf-token'] = intruder.csrf;
    const before = await userDataSnapshot(harness.db.dataSource);
    const res = await sendRaw(server, intruder.agent, req);
    const changed = snapshotChanges(before, await userDataSnapshot(harness.db.dataSource));
    const code = (res.json as { error?: { code?: string } } | undefined)?.error?.code;
    if (foreign.some((field) => pathParams(route.path).includes(field))) {
      // Someone else's row in the path: 403 or 404.
      expect({ status: [403, 404].includes(res.status) ? '403 or 404' : res.status, changed }).toEqual({ status: '403 or 404', changed: [] });
    } else {
      // Only in the body, on the caller's own row (their list with the victim's item ids): 403/404, or refused
      // exactly as an id no one has, so the answer tells nothing about the victim's rows.
      if ([403, 404].includes(res.status)) {
        expect(changed).toEqual([]);
        return;
      }
      const control = await requestFor(route, () => intruder);
      const body = JSON.parse(control.body ?? '{}') as Record<string, unknown>;
      for (const field of foreign) body[field] = Array.isArray(body[field]) ? [MISSING[route.ids![field] as OwnedResource]] : MISSING[route.ids![field] as OwnedResource];
      const missing = await sendRaw(server, intruder.agent, { ...control, headers: { ...control.headers, 'x-csrf-token': intruder.csrf }, body: JSON.stringify(body) });
      const missingCode = (missing.json as { error?: { code?: string } } | undefined)?.error?.code;
      expect({ refused: res.status >= 400 && res.status < 500, changed, answer: [res.status, code] }).toEqual({ refused: true, changed: [], answer: [missing.status, missingCode] });
    }
    expect(code).toEqual(expect.any(String));
  });

  it("lets the owner read the same ids (the refusals are about who asks)", async () => {
    const reads = routes.filter((route) => route.method === 'GET');
    expect(reads.length).toBeGreaterThan(5);
    for (const route of reads) {
      const res = await sendRaw(server, victim.agent, await requestFor(route, () => victim));
      expect([routeKey(route), res.status]).toEqual([routeKey(route), 200]);
    }
  });
});
