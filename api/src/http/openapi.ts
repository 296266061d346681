import { z } from 'zod';
import { pathParams, type RouteSpec } from './route-table';

/**
 * The OpenAPI 3.1 document of the api, generated from the route table: each route's params,
 * query and body are the zod schemas its handler parses, turned into JSON Schema 2020-12 (the
 * dialect of OpenAPI 3.1) by zod's own `z.toJSONSchema`, on the input side (what a client sends:
 * before defaults, coercions and transforms).
 */

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

/** `/api/alerts/:id` as OpenAPI writes it: `/api/alerts/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/** `GET /api/alerts/:id` -> `getApiAlertsId`. */
export function operationId(route: Pick<RouteSpec, 'method' | 'path'>): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/**
 * One schema as JSON Schema. Shared definitions (`$defs`, from recursive or registered schemas)
 * move to components.schemas under a name of this operation, and their references follow.
 */
function jsonSchema(schema: z.ZodType, defs: Record<string, unknown>, prefix: string): JsonSchema {
  const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema & {
    $defs?: Record<string, unknown>;
  };
  if (!$defs) return rest;
  const renamed = (name: string) => `${prefix}_${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) =>
          key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')
            ? [key, `#/components/schemas/${renamed(item.slice('#/$defs/'.length))}`]
            : [key, rewrite(item)],
        ),
      );
    }
    return value;
  };
  for (const [name, def] of Object.entries($defs)) defs[renamed(name)] = rewrite(def);
  return rewrite(rest) as JsonSchema;
}

function parameters(route: RouteSpec, where: 'path' | 'query', schema: z.ZodObject | undefined, defs: Record<string, unknown>): unknown[] {
  if (!schema) return [];
  const json = jsonSchema(schema, defs, operationId(route));
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const example = where === 'path' ? route.example?.params : route.example?.query;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
    };
  });
}

function requestBody(route: RouteSpec, defs: Record<string, unknown>): Operation | undefined {
  if (route.body === 'none') return undefined;
  const schema = jsonSchema(route.body.json, defs, operationId(route));
  const example = route.example?.body === undefined ? {} : { example: route.example.body };
  const content: Record<string, unknown> = { 'application/json': { schema, ...example } };
  if (route.body.form) content['application/x-www-form-urlencoded'] = { schema };
  if (route.body.csv) content['text/csv'] = { schema: { type: 'string', description: 'one symbol a line (a `symbol` header is optional)' } };
  // A body that may be left out altogether: every field optional.
  const optional = route.body.json.safeParse({}).success;
  return { required: !optional, content };
}

const ERROR = { $ref: '#/components/responses/Error' };

function responses(route: RouteSpec): Record<string, unknown> {
  const json = (description: string) => ({ description, content: { 'application/json': { schema: {} } } });
  const redirect = { description: 'Redirect to a page of the site', headers: { Location: { schema: { type: 'string' } } } };
  const success: Record<string, unknown> = {
    json: { '2XX': json('Success') },
    empty: { '204': { description: 'Done, no content' } },
    redirect: { '302': redirect },
    'json-or-redirect': { '200': json('`{ url }` where to go, with json=true'), '302': redirect },
    'event-stream': { '200': { description: 'Server-sent events until the client leaves', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
    csv: { '200': { description: 'A CSV attachment', content: { 'text/csv': { schema: { type: 'string' } } } } },
    html: { '200': { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
    text: { '200': { description: 'Plain text', content: { 'text/plain': { schema: { type: 'string' } } } } },
  }[route.response] as Record<string, unknown>;
  return { ...success, '4XX': ERROR, '5XX': ERROR };
}

function security(route: RouteSpec): Record<string, string[]>[] {
  const writes = route.method !== 'GET';
  const csrf: Record<string, string[]> = writes && route.csrf !== 'exempt' ? { csrfToken: [] } : {};
  switch (route.auth) {
    case 'public':
      // Anonymous, or a session (the sign-in surface checks the CSRF token of anonymous sessions too).
      return route.csrf === 'always' && writes ? [{ csrfToken: [] }] : [{}];
    case 'user':
    case 'admin':
      return [{ session: [], ...csrf }];
    case 'admin-or-operator':
      return [{ session: [] }, { operatorToken: [] }];
  }
}

function operation(route: RouteSpec, defs: Record<string, unknown>): Operation {
  const declared = pathParams(route.path);
  const params = [...parameters(route, 'path', route.params, defs), ...parameters(route, 'query', route.query, defs)];
  const body = requestBody(route, defs);
  const description = [
    `Auth: ${route.auth}.`,
    route.method !== 'GET' ? `CSRF: ${route.csrf}.` : '',
    route.mount ? 'A sub-application: its own pages and JSON API are below this path, behind the same auth.' : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (declared.some((name) => !params.some((p) => (p as { name: string; in: string }).in === 'path' && (p as { name: string }).name === name))) {
    throw new Error(`${route.method} ${route.path}: a path parameter has no schema`);
  }
  return {
    operationId: operationId(route),
    summary: route.summary,
    description,
    tags: [route.domain],
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(route),
    security: security(route),
    'x-auth': route.auth,
    ...(route.method !== 'GET' ? { 'x-csrf': route.csrf } : {}),
  };
}

/** The document of these routes. */
export function openApiDocument(routes: readonly RouteSpec[], info: { title: string; version: string; description?: string }): OpenApiDocument {
  const defs: Record<string, unknown> = {};
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, defs);
  }
  return {
    openapi: '3.1.1',
    info,
    tags: [...new Set(routes.map((r) => r.domain))].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'requestId'],
              properties: {
                code: { type: 'string', description: 'validation_failed, not_found, unauthorized, csrf_invalid, rate_limited, ...' },
                message: { type: 'string' },
                details: { description: 'for validation failures: [{ field, message }]' },
                requestId: { type: 'string', description: 'also the X-Request-Id header' },
              },
            },
          },
        },
        ...defs,
      },
      responses: {
        Error: { description: 'An error: the caller’s (4xx) or ours (5xx)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'tb.sid', description: 'The session cookie set by signing in' },
        csrfToken: { type: 'apiKey', in: 'header', name: 'x-csrf-token', description: 'From GET /api/auth/csrf (or the csrfToken body field)' },
        operatorToken: { type: 'http', scheme: 'bearer', description: 'An operator token: ADMIN_QUEUES_TOKEN for bull-board; METRICS_TOKEN (else ADMIN_QUEUES_TOKEN) for /metrics' },
      },
    },
  };
}
