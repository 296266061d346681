import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import { objectShape, pathParams, routeKey, type RouteSpec } from '../../src/http/route-table';
import { API_ROUTES } from '../../src/route-table';
import { csrfOf, type Agent } from '../support/accounts-harness';
import { AlertsHarness } from '../support/alerts-support';
import {
  curlOf,
  encodedPairs,
  quickUser,
  rawQuery,
  sendRaw,
  shorten,
  installWriteCounter,
  rowWrites,
  snapshotChanges,
  type RawRequest,
  type RawResponse,
} from '../support/route-requests';

/**
 * Issue 12, "Keep the attacks in the suite": every route of the table gets malformed requests
 * (types, sizes, encodings, escapes, NUL, huge numbers, unknown fields, nested objects, wrong
 * content types) through the real app, signed out and signed in with the CSRF token. Each must be
 * answered without a 5xx; every 4xx is the JSON error naming the problem (validation failures
 * name the field); a refused write leaves every user's data as it was.
 *
 * Two parts per route and identity: a fixed catalogue of the known attacks (every parameter, field
 * and transport trick once) and fast-check runs that combine them at random. Bounded and
 * deterministic: a fixed seed per route (FUZZ_SEED to explore others), FUZZ_RUNS random runs each.
 */
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261112);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5);
const FINDINGS_FILE = path.resolve(__dirname, '../../../test-artifacts/fuzz-findings.txt');

type IdentityName = 'anonymous' | 'user' | 'admin';
/** The routes only administrators reach are also sent as an administrator (bull-board, metrics). */
const isAdminRoute = (route: RouteSpec) => route.auth === 'admin' || route.auth === 'admin-or-operator';

/** A request being built: path values and query pairs already percent-encoded, the body raw. */
interface Parts {
  params: Record<string, string>;
  query: [string, string][];
  body?: string | Buffer;
  headers: Record<string, string>;
  csrf: boolean;
}

interface Attack {
  label: string;
  apply: (parts: Parts) => Parts;
}

// ---- values -----------------------------------------------------------------------------------

/** Percent-encodes every byte but the unreserved ones (safe for any string, lone surrogates too). */
const pct = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** Path segments, as sent: malformed escapes, escaped NUL and overlong UTF-8, numbers no column holds, long and odd text. */
const PATH_VALUES = ['%C0%AE', '%', '%zz', '%E0%A4%A', '%ED%A0%80', '%00', 'a%00b', '%FF', '2147483648', '99999999999999999999', '-1', '0', '1.5', '1e3', '0x1F', '%20', '%2e%2e', '%2F', 'null', '%F0%9F%92%A9', 'x'.repeat(3000)];
/** Query values, as sent. */
const QUERY_VALUES = ['%00', '%C0%AE', '%', '', '-1', '0', '1.5', '1e309', '99999999999999999999', 'NaN', 'true', 'x'.repeat(5000)];
/** JSON values no field expects. */
const NASTY: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.5, 2147483648, -2147483649, 9007199254740993, 1e308, -1e308, 5e-324,
  '', ' ', '\u0000', 'a\u0000b', '%C0%AE', 'abc', '1e999', 'NaN', 'Infinity', '-1', '0x10', '99999999999999999999', '1,5',
  "' OR 1=1 --", '<script>alert(1)</script>', '\ud800', '\u202e', 'x'.repeat(20000),
  [], [null], [1, 'a'], {}, { $ne: 1 }, { a: { b: { c: {} } } },
];
const nested = (depth: number): unknown => (depth === 0 ? 'deep' : [nested(depth - 1)]);

const nastyJson = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String)) },
);

// ---- what a route accepts -----------------------------------------------------------------------

function jsonBodySchema(route: RouteSpec): z.ZodType | undefined {
  return route.body === 'none' ? undefined : route.body.json;
}

function bodyFields(route: RouteSpec): string[] {
  const schema = jsonBodySchema(route);
  const example = route.example?.body;
  const fields = new Set(schema ? Object.keys(objectShape(schema)) : []);
  if (example && typeof example === 'object' && !Array.isArray(example)) for (const key of Object.keys(example)) fields.add(key);
  fields.delete('csrfToken');
  return [...fields];
}

/** Paths to the leaves inside the example body's objects (condition.value, layout.indicators.0.period...). */
function nestedLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => nestedLeaves(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nestedLeaves(v, [...path, k]));
  return path.length > 1 ? [path] : [];
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(target) ? [...target] : { ...(target && typeof target === 'object' ? target : {}) }) as Record<string | number, unknown>;
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

function baseParts(route: RouteSpec): Parts {
  const params: Record<string, string> = {};
  for (const name of pathParams(route.path)) params[name] = pct(route.example?.params?.[name] ?? '1');
  return {
    params,
    query: encodedPairs(route.example?.query),
    body: route.method === 'GET' ? undefined : JSON.stringify(route.example?.body ?? {}),
    headers: route.method === 'GET' ? {} : { 'content-type': 'application/json' },
    csrf: true,
  };
}

const exampleBody = (route: RouteSpec): unknown => route.example?.body ?? {};
const withJson = (parts: Parts, body: unknown): Parts => ({ ...parts, body: JSON.stringify(body), headers: { ...parts.headers, 'content-type': 'application/json' } });
const withRaw = (parts: Parts, body: string | Buffer, headers: Record<string, string>): Parts => ({ ...parts, body, headers: { ...parts.headers, ...headers } });

// ---- attacks --------------------------------------------------------------------------------------

function pathAttack(param: string, value: string): Attack {
  return { label: `path :${param}=${shorten(value, 24)}`, apply: (p) => ({ ...p, params: { ...p.params, [param]: value } }) };
}

function queryAttack(key: string, value: string, mode: 'set' | 'repeat' | 'bracket' = 'set'): Attack {
  return {
    label: `query ${mode} ${key}=${shorten(value, 24)}`,
    apply: (p) => {
      if (mode === 'repeat') return { ...p, query: [...p.query, [key, value], [key, value]] };
      if (mode === 'bracket') return { ...p, query: [...p.query.filter(([k]) => k !== key), [`${key}%5Ba%5D`, value]] };
      return { ...p, query: [...p.query.filter(([k]) => k !== key), [key, value]] };
    },
  };
}

function bodyAttack(route: RouteSpec, path: (string | number)[], value: unknown): Attack {
  return { label: `body ${path.join('.') || '(root)'}=${shorten(JSON.stringify(value) ?? 'undefined', 30)}`, apply: (p) => withJson(p, setAt(exampleBody(route), path, value)) };
}

const LARGE = JSON.stringify({ blob: 'x'.repeat(150 * 1024) });
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256));

/** Transport tricks: encodings, charsets, content types, sizes, no CSRF token. */
function transportAttacks(route: RouteSpec): Attack[] {
  const json = JSON.stringify(exampleBody(route));
  return [
    { label: 'gzip header, body not gzip', apply: (p) => withRaw(p, 'notgzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }) },
    { label: 'deflate header, body not deflate', apply: (p) => withRaw(p, json, { 'content-type': 'application/json', 'content-encoding': 'deflate' }) },
    { label: 'br header, body not br', apply: (p) => withRaw(p, BINARY, { 'content-type': 'application/json', 'content-encoding': 'br' }) },
    { label: 'unknown content-encoding', apply: (p) => withRaw(p, json, { 'content-type': 'application/json', 'content-encoding': 'x-custom' }) },
    { label: 'invalid JSON', apply: (p) => withRaw(p, '{"a": ', { 'content-type': 'application/json' }) },
    { label: 'empty JSON body', apply: (p) => withRaw(p, '', { 'content-type': 'application/json' }) },
    { label: 'JSON as utf-16', apply: (p) => withRaw(p, json, { 'content-type': 'application/json; charset=utf-16' }) },
    { label: 'JSON sent as text/plain', apply: (p) => withRaw(p, json, { 'content-type': 'text/plain' }) },
    { label: 'form with nesting, NUL and bad escapes', apply: (p) => withRaw(p, 'a[b][c]=1&name=%00&email=%C0%AE&json=true&symbol=%', { 'content-type': 'application/x-www-form-urlencoded' }) },
    { label: 'multipart', apply: (p) => withRaw(p, '--zz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--zz--\r\n', { 'content-type': 'multipart/form-data; boundary=zz' }) },
    { label: 'xml', apply: (p) => withRaw(p, '<a><name>x</name></a>', { 'content-type': 'application/xml' }) },
    { label: 'CSV with NUL', apply: (p) => withRaw(p, 'symbol\nBTC\u0000USDT\n', { 'content-type': 'text/csv' }) },
    { label: 'CSV of binary bytes', apply: (p) => withRaw(p, BINARY, { 'content-type': 'text/csv' }) },
    { label: 'body over the limit', apply: (p) => withRaw(p, LARGE, { 'content-type': 'application/json' }) },
    { label: 'JSON with __proto__ and constructor', apply: (p) => withRaw(p, `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},${json.slice(1)}`, { 'content-type': 'application/json' }) },
    { label: 'no CSRF token', apply: (p) => ({ ...p, csrf: false }) },
  ];
}

/** The catalogue: every parameter, query key and body field of the route once with each kind of bad value. */
/** The transport tricks every request meets before its route (body parsers, CSRF): enough for a route that reads no body. */
const BEFORE_ROUTE = ['gzip header, body not gzip', 'br header, body not br', 'invalid JSON', 'JSON as utf-16', 'form with nesting, NUL and bad escapes', 'body over the limit', 'no CSRF token'];

function catalogue(route: RouteSpec, identity: IdentityName): Attack[] {
  const readsBody = route.body !== 'none' && !(identity === 'anonymous' && route.auth !== 'public');
  const attacks = transportAttacks(route).filter((a) => readsBody || BEFORE_ROUTE.includes(a.label));
  for (const param of pathParams(route.path)) for (const value of ['%C0%AE', '%E0%A4%A', '%00', '2147483648', '-1', '1.5']) attacks.push(pathAttack(param, value));
  // Signed out, a signed-in route refuses before it reads query or body: the rest is for routes that read them.
  if (identity === 'anonymous' && route.auth !== 'public') return attacks;
  const queryKeys = route.query ? Object.keys(route.query.shape) : [];
  for (const key of queryKeys) {
    for (const value of ['%00', '1e309', '-1', 'x'.repeat(5000)]) attacks.push(queryAttack(key, value));
    attacks.push(queryAttack(key, '1', 'repeat'));
  }
  attacks.push(queryAttack('unknownField', 'x'));
  if (route.method !== 'GET') {
    // NUL and a lone surrogate: text PostgreSQL cannot store (text and jsonb columns).
    for (const field of bodyFields(route)) for (const value of ['a\u0000b', 'a\ud800b', { nested: [{ object: true }] }, -2147483649]) attacks.push(bodyAttack(route, [field], value));
    for (const leaf of nestedLeaves(exampleBody(route))) for (const value of ['abc', ' ', '\u0000', '\ud800', 1e308]) attacks.push(bodyAttack(route, leaf, value));
    for (const root of [[], 'text', 0, null, [exampleBody(route)]]) attacks.push(bodyAttack(route, [], root));
    attacks.push(bodyAttack(route, ['unknownField'], 1), bodyAttack(route, ['deep'], nested(200)));
  }
  return attacks;
}

/** Random attacks: one to three of path, query, body and transport mutations together. */
function randomAttack(route: RouteSpec): fc.Arbitrary<Attack[]> {
  const params = pathParams(route.path);
  const queryKeys = [...(route.query ? Object.keys(route.query.shape) : []), 'unknownField'];
  const fields = [...bodyFields(route), 'unknownField'];
  const leaves = nestedLeaves(exampleBody(route));
  const text = fc.string({ unit: 'binary', maxLength: 30 }).map(pct);
  const kinds: fc.Arbitrary<Attack>[] = [
    fc.constantFrom(...transportAttacks(route)),
    fc.tuple(fc.constantFrom(...queryKeys), fc.oneof(fc.constantFrom(...QUERY_VALUES), text), fc.constantFrom<'set' | 'repeat' | 'bracket'>('set', 'set', 'repeat', 'bracket')).map(([k, v, m]) => queryAttack(k, v, m)),
    fc.tuple(fc.constantFrom<(string | number)[]>(...fields.map((f) => [f]), ...leaves, []), nastyJson).map(([path, value]) => bodyAttack(route, path, value)),
  ];
  if (params.length) kinds.push(fc.tuple(fc.constantFrom(...params), fc.oneof(fc.constantFrom(...PATH_VALUES), text.filter((s) => s.length > 0))).map(([p, v]) => pathAttack(p, v)));
  return fc.array(fc.oneof(...kinds), { minLength: 1, maxLength: 3 });
}

// ---- the run ------------------------------------------------------------------------------------

interface Figures {
  requests: number;
  byIdentity: Record<IdentityName, number>;
  byClass: Record<string, number>;
  failures: number;
}

function build(route: RouteSpec, attacks: Attack[], csrfToken: string | undefined, ip: string): { req: RawRequest; label: string } {
  const parts = attacks.reduce((p, a) => a.apply(p), baseParts(route));
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => parts.params[name]);
  const query = rawQuery(parts.query);
  const headers: Record<string, string> = { ...parts.headers, 'X-Forwarded-For': ip };
  if (parts.csrf && csrfToken) headers['x-csrf-token'] = csrfToken;
  // bull-board's own pages and API are below its mount path.
  const below = route.mount && ip.endsWith('1') ? '/api/queues/%C0%AE' : '';
  return { req: { method: route.method, path: `${path}${below}${query ? `?${query}` : ''}`, headers, body: parts.body }, label: attacks.map((a) => a.label).join(' + ') };
}

/** What is wrong with an answer, or null. */
function problemOf(res: RawResponse, changed: string[]): string | null {
  if (res.status >= 500) return `${res.status} ${shorten(res.text, 200)}`;
  if (res.status >= 400) {
    const error = (res.json as { error?: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } } | undefined)?.error;
    if (!error || typeof error.code !== 'string' || typeof error.message !== 'string' || !error.message || typeof error.requestId !== 'string') {
      return `${res.status} without the JSON error body: ${shorten(res.text, 200)}`;
    }
    if (error.requestId !== res.headers['x-request-id']) return `${res.status}: requestId ${error.requestId} is not the X-Request-Id header`;
    if (error.code === 'validation_failed') {
      const details = error.details as { field?: unknown }[] | undefined;
      // The field in the details (`{ field, message }`, as zod failures have them) or in the message.
      const inDetails = Array.isArray(details) && details.length > 0 && details.every((d) => typeof d.field === 'string');
      if (!inDetails && !/^Invalid input: .+/.test(error.message)) return `400 validation_failed naming no field: ${shorten(JSON.stringify(error), 200)}`;
    }
    if (changed.length) return `${res.status} ${error.code}, but the write went through: ${changed.join(', ')} changed`;
  }
  return null;
}

describe('fuzz: malformed requests to every route (real app, PostgreSQL, Redis)', () => {
  const harness = new AlertsHarness({ TRUST_PROXY: '1', RATE_LIMIT_LOG_MAX: '100000' });
  let server: http.Server;
  const figures: Figures = { requests: 0, byIdentity: { anonymous: 0, user: 0, admin: 0 }, byClass: {}, failures: 0 };
  const allFindings: string[] = [];
  const started = Date.now();
  let userCount = 0;
  let ipCount = 0;
  let baseline: Record<string, string>;

  interface Identity {
    name: IdentityName;
    agent: Agent;
    csrf: string;
  }
  const identities: Partial<Record<IdentityName, Identity>> = {};

  const newUser = async (): Promise<Identity> => {
    const user = await quickUser(harness.db.dataSource, server, `fuzz-${++userCount}@example.com`);
    baseline = await rowWrites(harness.db.dataSource);
    return { name: 'user', agent: user.agent, csrf: user.csrf };
  };
  const newAdmin = async (): Promise<Identity> => {
    const email = `fuzz-admin-${++userCount}@example.com`;
    const admin = await quickUser(harness.db.dataSource, server, email);
    await harness.db.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.id]);
    baseline = await rowWrites(harness.db.dataSource);
    return { name: 'admin', agent: admin.agent, csrf: admin.csrf };
  };
  const newAnonymous = async (): Promise<Identity> => {
    const agent = request.agent(server);
    return { name: 'anonymous', agent, csrf: await csrfOf(agent) };
  };

  beforeAll(async () => {
    fs.rmSync(FINDINGS_FILE, { force: true });
    await harness.start();
    await installWriteCounter(harness.db.dataSource);
    server = http.createServer(harness.api).listen(0);
    identities.anonymous = await newAnonymous();
    identities.user = await newUser();
    identities.admin = await newAdmin();
  });

  afterAll(async () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    // The figures for the issue's closing note.
    process.stdout.write(
      `\nfuzz: ${figures.requests} requests (${figures.byIdentity.anonymous} signed out, ${figures.byIdentity.user} signed in, ${figures.byIdentity.admin} as an administrator) over ${API_ROUTES.length} routes in ${seconds} s; ` +
        `answers ${JSON.stringify(figures.byClass)}; ${figures.failures} failing; seed ${BASE_SEED}, ${RUNS} random runs per route and identity\n`,
    );
    if (allFindings.length) {
      // Every finding with its reproduction, for whoever fixes them.
      fs.mkdirSync(path.dirname(FINDINGS_FILE), { recursive: true });
      fs.writeFileSync(FINDINGS_FILE, `${allFindings.join('\n')}\n`);
      process.stdout.write(`fuzz: findings written to ${path.relative(process.cwd(), FINDINGS_FILE)}\n`);
    }
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  /** Sends one attack; a finding (with its reproduction) or null. */
  const attempt = async (route: RouteSpec, identityName: IdentityName, attacks: Attack[]): Promise<string | null> => {
    const identity = identities[identityName]!;
    ipCount++;
    const { req, label } = build(route, attacks, identity.csrf, `10.${(ipCount >> 16) & 255}.${(ipCount >> 8) & 255}.${ipCount & 255}`);
    const res = await sendRaw(server, identity.agent, req);
    figures.requests++;
    figures.byIdentity[identityName]++;
    const klass = `${Math.floor(res.status / 100)}xx`;
    figures.byClass[klass] = (figures.byClass[klass] ?? 0) + 1;
    // Any committed row write since the last request (a refused one must have made none; GETs too).
    const after = await rowWrites(harness.db.dataSource);
    const changed = snapshotChanges(baseline, after);
    baseline = after;
    if (route.method !== 'GET') {
      // A write went through: the sign-out or account deletion may have ended this identity's session.
      if (res.status < 400) {
        const session = await identity.agent.get('/api/auth/session');
        if (identityName === 'user' && !session.body.user) identities.user = await newUser();
        if (identityName === 'admin' && !session.body.user) identities.admin = await newAdmin();
        if (identityName === 'anonymous') identities.anonymous = await newAnonymous();
      }
    }
    const problem = problemOf(res, changed);
    if (!problem) return null;
    figures.failures++;
    return `[${label}] -> ${problem}\n    ${curlOf(req, identityName !== 'anonymous')}`;
  };

  const seedOf = (key: string) => [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, BASE_SEED);

  it('sees a committed row write, and not a rolled-back one (the witness of "nothing changed")', async () => {
    const db = harness.db.dataSource;
    const before = await rowWrites(db);
    await db.transaction(async (manager) => {
      await manager.query(`INSERT INTO contact_messages (name, email, message) VALUES ('w', 'w@example.com', 'rolled back')`);
      throw new Error('rollback');
    }).catch(() => undefined);
    expect(snapshotChanges(before, await rowWrites(db))).toEqual([]);
    await db.query(`UPDATE users SET name = name WHERE email = 'fuzz-1@example.com'`);
    expect(snapshotChanges(before, await rowWrites(db))).toEqual(['users']);
    baseline = await rowWrites(db);
  });

  describe.each<IdentityName>(['anonymous', 'user'])('as %s', (identityName) => {
    it.each(API_ROUTES.map((route) => [routeKey(route), route] as const))('%s', async (_key, route) => {
      const findings: string[] = [];
      for (const attack of catalogue(route, identityName)) {
        const finding = await attempt(route, identityName, [attack]);
        if (finding) findings.push(finding);
      }
      const runs = identityName === 'anonymous' && route.auth !== 'public' ? Math.ceil(RUNS / 2) : RUNS;
      await fc.assert(
        fc.asyncProperty(randomAttack(route), async (attacks) => {
          const finding = await attempt(route, identityName, attacks);
          if (finding) findings.push(`random: ${finding}`);
        }),
        { seed: seedOf(`${identityName} ${routeKey(route)}`), numRuns: runs, endOnFailure: true },
      );
      allFindings.push(...findings.map((f) => `${identityName} ${routeKey(route)} ${f}`));
      expect(findings.length > 20 ? [...findings.slice(0, 20), `... and ${findings.length - 20} more`] : findings).toEqual([]);
    });
  });

  describe('as admin', () => {
    it.each(API_ROUTES.filter(isAdminRoute).map((route) => [routeKey(route), route] as const))('%s', async (_key, route) => {
      const findings: string[] = [];
      for (const attack of catalogue(route, 'admin')) {
        const finding = await attempt(route, 'admin', [attack]);
        if (finding) findings.push(finding);
      }
      await fc.assert(
        fc.asyncProperty(randomAttack(route), async (attacks) => {
          const finding = await attempt(route, 'admin', attacks);
          if (finding) findings.push(`random: ${finding}`);
        }),
        { seed: seedOf(`admin ${routeKey(route)}`), numRuns: RUNS, endOnFailure: true },
      );
      allFindings.push(...findings.map((f) => `admin ${routeKey(route)} ${f}`));
      expect(findings).toEqual([]);
    });
  });
});
