import http from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { HttpError } from '../../src/http/errors';
import { idParam } from '../../src/http/input';
import { defineRouteTable, pathIdSchema, routeKey, type RouteSpec } from '../../src/http/route-table';
import { API_ROUTES } from '../../src/route-table';
import { csrfOf } from '../support/accounts-harness';
import { AlertsHarness } from '../support/alerts-support';
import { encodedPairs, examplePath, quickUser, rawQuery, sendRaw, type RawRequest, type SignedIn } from '../support/route-requests';
import { isApiRoute, mountedKey, mountedRoutes, tableKey } from '../support/route-walk';

/** The example request of a route, as JSON. */
function exampleRequest(route: RouteSpec, csrf?: string): RawRequest {
  const query = rawQuery(encodedPairs(route.example?.query));
  const headers: Record<string, string> = { 'X-Forwarded-For': '198.51.100.7' };
  if (csrf) headers['x-csrf-token'] = csrf;
  const hasBody = route.method !== 'GET';
  if (hasBody) headers['content-type'] = 'application/json';
  return { method: route.method, path: `${examplePath(route)}${query ? `?${query}` : ''}`, headers, body: hasBody ? JSON.stringify(route.example?.body ?? {}) : undefined };
}

describe('the route table (api/src/route-table.ts) against the real app', () => {
  const harness = new AlertsHarness({ TRUST_PROXY: '1' });
  let server: http.Server;
  let user: SignedIn;

  beforeAll(async () => {
    await harness.start();
    server = http.createServer(harness.api).listen(0);
    user = await quickUser(harness.db.dataSource, server, 'route-table@example.com');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  it('lists every route the app mounts under /api and /admin, and nothing it does not mount', () => {
    const mounted = mountedRoutes(harness.api).filter(isApiRoute).map(mountedKey);
    const table = API_ROUTES.map(tableKey);
    const notInTable = mounted.filter((key) => !table.includes(key));
    const notMounted = table.filter((key) => !mounted.includes(key));
    // A route missing from the table: add it to its domain's <domain>.route-table.ts.
    expect({ notInTable, notMounted }).toEqual({ notInTable: [], notMounted: [] });
    expect(new Set(mounted).size).toBe(mounted.length);
    expect(mounted.length).toBe(API_ROUTES.length);
  });

  it('has each route once, every path parameter described, and examples its own schemas accept', () => {
    const keys = API_ROUTES.map(routeKey);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
    const refused: string[] = [];
    for (const route of API_ROUTES) {
      const check = (what: string, schema: { safeParse(v: unknown): { success: boolean; error?: { message: string } } } | undefined, value: unknown) => {
        if (value === undefined || !schema) return;
        const parsed = schema.safeParse(value);
        if (!parsed.success) refused.push(`${routeKey(route)} example ${what}: ${parsed.error?.message}`);
      };
      check('params', route.params, route.example?.params);
      check('query', route.query, route.example?.query);
      if (route.body !== 'none') check('body', route.body.json, route.example?.body);
      if (route.body !== 'none' && route.example?.body === undefined) refused.push(`${routeKey(route)}: a JSON body route needs an example body (the fuzz and authorization tests start from it)`);
    }
    expect(refused).toEqual([]);
  });

  it('refuses a table with an undescribed path parameter, a stray ids entry or a route listed twice, naming them', () => {
    expect(() =>
      defineRouteTable('broken', [
        { method: 'GET', path: '/api/things/:id', summary: 'x', auth: 'user', body: 'none', response: 'json' },
        { method: 'POST', path: '/api/things', summary: 'x', auth: 'user', body: 'none', response: 'json', ids: { thingId: 'alert' } },
        { method: 'POST', path: '/api/things', summary: 'x', auth: 'user', body: 'none', response: 'json' },
      ]),
    ).toThrow(
      /GET \/api\/things\/:id: path parameter :id has no field in the params schema[\s\S]*:id has no ids entry[\s\S]*ids entry thingId is neither[\s\S]*POST \/api\/things: listed twice/,
    );
  });

  it('describes path ids exactly as idParam takes them (anything else: 404)', () => {
    const accepted = (value: string) => {
      try {
        idParam(value, 'thing');
        return true;
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return false;
        throw error;
      }
    };
    const candidates = fc.oneof(
      fc.nat().map(String),
      fc.bigInt({ min: -10n, max: 10n ** 12n }).map(String),
      fc.constantFrom('0', '01', '2147483647', '2147483648', '9999999999', '1e3', '1.0', ' 1', '+1', '-1', '', '%31'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(fc.property(candidates, (value) => pathIdSchema.safeParse(value).success === accepted(value)), { seed: 12, numRuns: 500 });
  });

  it('states the auth each route really requires: signed out, `user` and `admin` routes are 401; `public` ones are not', async () => {
    const wrong: string[] = [];
    for (const route of API_ROUTES) {
      // A fresh anonymous session each time: signing out ends the last one.
      const agent = request.agent(server);
      const res = await sendRaw(server, agent, exampleRequest(route, await csrfOf(agent)));
      const unauthorized = res.status === 401 && (res.json as { error?: { code?: string } })?.error?.code === 'unauthorized';
      if ((route.auth === 'public') === unauthorized) wrong.push(`${routeKey(route)} (auth ${route.auth}): signed out it answered ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('states which routes are for administrators: a signed-in user gets 403', async () => {
    const admin = API_ROUTES.filter((route) => route.auth === 'admin' || route.auth === 'admin-or-operator');
    expect(admin.length).toBeGreaterThan(0);
    for (const route of admin) {
      const res = await sendRaw(server, user.agent, exampleRequest(route, user.csrf));
      expect([routeKey(route), res.status]).toEqual([routeKey(route), 403]);
    }
  });

  it('states the CSRF check of every state-changing route, signed out and signed in', async () => {
    const wrong: string[] = [];
    const writes = API_ROUTES.filter((route) => route.method !== 'GET');
    const refusedForCsrf = (res: { status: number; json: unknown }) => res.status === 403 && (res.json as { error?: { code?: string } })?.error?.code === 'csrf_invalid';
    for (const route of writes) {
      const signedOut = await sendRaw(server, request.agent(server), exampleRequest(route));
      if ((route.csrf === 'always') !== refusedForCsrf(signedOut)) wrong.push(`${routeKey(route)} (csrf ${route.csrf}) signed out without a token: ${signedOut.status}`);
      // Signed in without the token: refused unless exempt (so nothing here changes the user's data).
      const signedIn = await sendRaw(server, user.agent, exampleRequest(route));
      if ((route.csrf !== 'exempt') !== refusedForCsrf(signedIn)) wrong.push(`${routeKey(route)} (csrf ${route.csrf}) signed in without a token: ${signedIn.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
