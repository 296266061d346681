import http from 'node:http';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createUser } from '@tickerbell/jobs/accounts';
import { hashPassword } from '../../src/accounts/password-hash';
import { pathParams, type RouteSpec } from '../../src/http/route-table';
import { GOOD_PASSWORD, csrfOf, type Agent } from './accounts-harness';

/** One request as sent: the path raw (already percent-encoded, malformed escapes kept), the body raw. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: unknown;
  text: string;
}

/** The route's path with these (already encoded) values for its parameters. */
export function fillPath(path: string, values: Record<string, string>): string {
  for (const name of pathParams(path)) {
    if (values[name] === undefined) throw new Error(`${path}: no value for :${name}`);
  }
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => values[name]);
}

/** The example's path parameters, else `1` for an id. */
export function examplePath(route: RouteSpec, overrides: Record<string, string> = {}): string {
  const values: Record<string, string> = {};
  for (const name of pathParams(route.path)) values[name] = encodeURIComponent(overrides[name] ?? route.example?.params?.[name] ?? '1');
  return fillPath(route.path, values);
}

/** `a=1&b=2` from pairs already encoded (a key may repeat). */
export const rawQuery = (pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${v}`).join('&');
export const encodedPairs = (query: Record<string, string> = {}): [string, string][] =>
  Object.entries(query).map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)]);

/**
 * Sends one request through the real app (supertest against a listening server). Redirects are
 * not followed; an event stream is read up to its headers and closed.
 */
export async function sendRaw(server: http.Server, agent: Agent | undefined, req: RawRequest): Promise<RawResponse> {
  const client = (agent ?? request(server)) as unknown as Record<string, (path: string) => request.Test>;
  let test = client[req.method.toLowerCase()](req.path).redirects(0);
  for (const [name, value] of Object.entries(req.headers)) test = test.set(name, value);
  test = test
    .buffer(true)
    .parse((res, done) => {
      // An event stream stays open: its headers are the answer.
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        (res as unknown as { destroy(): void }).destroy();
        done(null, '');
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      res.on('error', (error: Error) => done(error, ''));
    });
  if (req.body !== undefined) test = test.send(req.body as string);
  const res = await test;
  const text = typeof res.body === 'string' ? res.body : '';
  let json: unknown;
  if (String(res.headers['content-type'] ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** A shell command reproducing a request against the api on its default port. */
export function curlOf(req: RawRequest, signedIn: boolean): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(req.headers)
    .filter(([name]) => !['x-forwarded-for', 'x-csrf-token'].includes(name.toLowerCase()))
    .map(([name, value]) => ` -H ${quote(`${name}: ${value}`)}`)
    .join('');
  const body = req.body === undefined ? '' : ` --data-binary ${quote(shorten(Buffer.isBuffer(req.body) ? `<${req.body.length} bytes>` : req.body, 300))}`;
  return `curl -X ${req.method} ${quote(`:3000${shorten(req.path, 200)}`)}${headers}${body}${signedIn ? '   # signed in, with the CSRF token' : ''}`;
}

export function shorten(text: string, max: number): string {
  const visible = JSON.stringify(text).slice(1, -1);
  return visible.length <= max ? visible : `${visible.slice(0, max)}...(${text.length} chars)`;
}

/**
 * What the users own, per table: row count and a hash of the rows, for every table with a
 * user, team, alert or watchlist column and the account tables (sessions excepted: every request touches its own).
 * Equal snapshots: nothing of anyone's was written.
 */
const snapshotQueries = new WeakMap<DataSource, Promise<string>>();

export async function userDataSnapshot(dataSource: DataSource): Promise<Record<string, string>> {
  if (!snapshotQueries.has(dataSource)) snapshotQueries.set(dataSource, snapshotQuery(dataSource));
  const [row] = await dataSource.query(await snapshotQueries.get(dataSource)!);
  return row as Record<string, string>;
}

async function snapshotQuery(dataSource: DataSource): Promise<string> {
  const tables: { table_name: string }[] = await dataSource.query(
    `SELECT DISTINCT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND (column_name IN ('user_id', 'team_id', 'alert_id', 'watchlist_id', 'created_by') OR table_name IN ('users', 'teams', 'contact_messages'))
        AND table_name <> 'sessions'
      ORDER BY table_name`,
  );
  const columns = tables.map(
    ({ table_name: t }) => `(SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') FROM "${t}" x) AS "${t}"`,
  );
  return `SELECT ${columns.join(', ')}`;
}

/**
 * A cheaper witness for many requests: a row trigger on every table userDataSnapshot covers
 * counts each committed insert, update and delete per table (a rolled-back write counts nothing).
 * Test databases only.
 */
export async function installWriteCounter(dataSource: DataSource): Promise<void> {
  const tables = Object.keys(await userDataSnapshot(dataSource));
  await dataSource.query(`CREATE TABLE test_row_writes (table_name text PRIMARY KEY, writes bigint NOT NULL)`);
  await dataSource.query(`
    CREATE FUNCTION test_count_row_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO test_row_writes VALUES (TG_TABLE_NAME, 1) ON CONFLICT (table_name) DO UPDATE SET writes = test_row_writes.writes + 1;
      RETURN NULL;
    END $$`);
  for (const table of tables) {
    await dataSource.query(`CREATE TRIGGER test_count_row_write AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION test_count_row_write()`);
  }
}

/** Committed row writes so far, per table (installWriteCounter first). */
export async function rowWrites(dataSource: DataSource): Promise<Record<string, string>> {
  const rows: { table_name: string; writes: string }[] = await dataSource.query(`SELECT table_name, writes FROM test_row_writes`);
  return Object.fromEntries(rows.map((r) => [r.table_name, String(r.writes)]));
}

export function snapshotChanges(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}

let passwordHash: Promise<string> | undefined;

export interface SignedIn {
  agent: Agent;
  id: number;
  email: string;
  csrf: string;
}

/**
 * A verified user made directly in the database and signed in through the real credentials
 * route (no email round trip: fast enough to make a new one whenever a test deletes its account).
 */
export async function quickUser(dataSource: DataSource, server: http.Server, email: string): Promise<SignedIn> {
  passwordHash ??= hashPassword(GOOD_PASSWORD);
  const user = await createUser(dataSource, { email, name: null, passwordHash: await passwordHash, isVerified: true }, null);
  const agent = request.agent(server);
  const csrfToken = await csrfOf(agent);
  const res = await agent
    .post('/api/auth/callback/credentials')
    .set('X-Forwarded-For', `192.0.2.${user.id % 250}`)
    .send({ email, password: GOOD_PASSWORD, csrfToken, json: true });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${res.text}`);
  return { agent, id: user.id, email, csrf: await csrfOf(agent) };
}
