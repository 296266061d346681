import { z } from 'zod';

/**
 * The route table: every route of the api described once, beside its routes
 * (`<domain>.route-table.ts`), assembled in `api/src/route-table.ts`. The OpenAPI document
 * (`GET /api/openapi.json`) is generated from it, and the tests walk it: the app's mounted routes
 * must equal it (api/test/http/route-table.test.ts), every route is fuzzed from it
 * (fuzz.test.ts) and every route taking someone's id is tried by another user (authorization.test.ts).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call the route, as the code enforces it:
 * - `public`: anyone (a session may change the answer, e.g. followed exchanges);
 * - `user`: a signed-in session, else 401 `Not authenticated`;
 * - `admin`: a session whose user has role `admin`, else 401 / 403;
 * - `admin-or-operator`: an admin session, or an operator's bearer token (ADMIN_QUEUES_TOKEN for
 *   bull-board; METRICS_TOKEN, else ADMIN_QUEUES_TOKEN, for /metrics).
 */
export type RouteAuth = 'public' | 'user' | 'admin' | 'admin-or-operator';

/**
 * The CSRF check (api/src/accounts/csrf.ts) of a state-changing request:
 * - `session`: checked when the request is signed in (every route by default);
 * - `always`: checked signed in or not (the sign-in surface: login CSRF);
 * - `exempt`: never (nothing is done in the signed-in user's name).
 * Safe methods (GET) are never checked.
 */
export type RouteCsrf = 'session' | 'always' | 'exempt';

/**
 * What the route reads from the request body.
 * - `'none'`: nothing (a body is ignored);
 * - `{ json }`: a JSON body parsed with that schema (an urlencoded form parses the same way);
 * - `{ form, json }`: also posted by plain HTML forms (the sign-in pages; `json=true` answers JSON);
 * - `{ csv, json }`: a raw `text/csv` (or `text/plain`) body, or the JSON body.
 */
export type RouteBody = 'none' | { json: z.ZodType; form?: true; csv?: true };

/** What a success looks like. */
export type RouteResponse =
  | 'json'
  | 'empty' // 204
  | 'redirect' // 302 to a page of the site
  | 'json-or-redirect' // `{ url }` with json=true, else 302
  | 'event-stream' // server-sent events, open until the client leaves
  | 'csv' // a text/csv attachment
  | 'html' // a page (bull-board)
  | 'text'; // plain text (Prometheus metrics)

/** Rows of one user (or team) that a route names by id. The authorization test holds a fixture per kind. */
export const OWNED_RESOURCES = [
  'alert',
  'watchlist',
  'watchlist-item',
  'chart-layout',
  'notification',
  'push-subscription',
  'team',
  'team-member',
  'team-invitation',
  'invitation-token',
  'whale-watch',
  'yield-alert',
  'prediction-follow',
  'lockup-follow',
  'chat-room',
  'chat-message',
  'chat-invite',
] as const;
export type OwnedResource = (typeof OWNED_RESOURCES)[number];

/**
 * What a path parameter or body field that identifies something names: another user's row
 * (`OwnedResource`), shared reference data anyone may name (`reference`: exchanges, instruments,
 * markets, sign-in providers), or a secret that is itself the authority (`capability`: emailed tokens).
 */
export type IdKind = OwnedResource | 'reference' | 'capability';

export interface RouteSpec {
  method: HttpMethod;
  /** The full path as mounted, in Express syntax: `/api/alerts/:id`. */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The owning domain (OpenAPI tag). Set by defineRouteTable. */
  domain: string;
  auth: RouteAuth;
  csrf: RouteCsrf;
  /** The schemas the handler parses `req.params` / `req.query` with (an object schema each). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body: RouteBody;
  response: RouteResponse;
  /** Every path parameter, and the body fields that name a row: what they identify. */
  ids?: Record<string, IdKind>;
  /** A request the route accepts (checked against the schemas by the tests; shown in the OpenAPI document). */
  example?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
  /**
   * A sub-application mounted at `path` (bull-board): every method and path below it is its own,
   * behind the route's auth. `method` is then the one its page answers.
   */
  mount?: true;
}

/** A table entry as written beside the routes: csrf defaults to `session`, domain comes from the table. */
export type RouteInput = Omit<RouteSpec, 'domain' | 'csrf'> & { csrf?: RouteCsrf };

/** `:name` parameters of an Express path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}

/** The route's key in the table and in messages: `GET /api/alerts/:id`. */
export const routeKey = (route: Pick<RouteSpec, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/**
 * A domain's routes, checked where they are written: a path parameter without a params schema
 * field or an `ids` entry, an `ids` entry naming nothing, or the same route twice throws when the
 * module loads (the api refuses to start, every test fails naming the route).
 */
export function defineRouteTable(domain: string, routes: readonly RouteInput[]): RouteSpec[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const table = routes.map((input): RouteSpec => {
    const route: RouteSpec = { ...input, domain, csrf: input.csrf ?? 'session' };
    const key = routeKey(route);
    if (seen.has(key)) problems.push(`${key}: listed twice`);
    seen.add(key);
    if (!route.path.startsWith('/')) problems.push(`${key}: the path must be the full mounted path`);
    const params = pathParams(route.path);
    const shape = route.params?.shape ?? {};
    for (const param of params) {
      if (!(param in shape)) problems.push(`${key}: path parameter :${param} has no field in the params schema`);
      if (!route.ids?.[param]) problems.push(`${key}: path parameter :${param} has no ids entry (an owned resource, reference or capability)`);
    }
    for (const field of Object.keys(shape)) {
      if (!params.includes(field)) problems.push(`${key}: params schema field ${field} is not in the path`);
    }
    const bodyFields = route.body === 'none' ? [] : Object.keys(objectShape(route.body.json));
    for (const field of Object.keys(route.ids ?? {})) {
      if (!params.includes(field) && !bodyFields.includes(field)) problems.push(`${key}: ids entry ${field} is neither a path parameter nor a body field`);
    }
    if (route.method === 'GET' && route.body !== 'none') problems.push(`${key}: a GET route reads no body`);
    return route;
  });
  if (problems.length) throw new Error(`route table of ${domain}:\n- ${problems.join('\n- ')}`);
  return table;
}

/** The fields of an object schema, through pipes, refinements and optional wrappers; {} for anything else. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof z.ZodObject) return current.shape as Record<string, z.ZodType>;
    if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
    else return {};
  }
  return {};
}

/** Path ids as the routes take them (`idParam`): one schema, in api/src/http/input.ts. */
export { pathIdSchema } from './input';
