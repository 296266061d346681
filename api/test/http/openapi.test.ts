import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../src/accounts/accounts';
import { openApiPath, operationId } from '../../src/http/openapi';
import { pathParams } from '../../src/http/route-table';
import { API_ROUTES } from '../../src/route-table';
import { AccountsHarness } from '../support/accounts-harness';
import { isApiRoute, mountedRoutes } from '../support/route-walk';

/**
 * The parts of the document these tests read, parsed at the boundary (unknown keys kept). Fields
 * whose presence or type a test checks itself stay `unknown` here, so a wrong one is reported by
 * that test rather than by the parse.
 */
interface SchemaNode {
  type?: unknown;
  required?: string[];
  additionalProperties?: unknown;
  properties?: Record<string, SchemaNode>;
  enum?: unknown[];
}
const schemaNode: z.ZodType<SchemaNode> = z.lazy(() =>
  z.looseObject({
    type: z.unknown().optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.unknown().optional(),
    properties: z.record(z.string(), schemaNode).optional(),
    enum: z.array(z.unknown()).optional(),
  }),
);
const parameterSchema = z.looseObject({ name: z.unknown(), in: z.unknown(), required: z.unknown().optional(), schema: z.unknown().optional() });
const mediaTypeSchema = z.looseObject({ schema: schemaNode.optional(), example: z.unknown().optional() });
const operationSchema = z.looseObject({
  operationId: z.unknown().optional(),
  'x-auth': z.unknown().optional(),
  responses: z.record(z.string(), z.looseObject({ $ref: z.unknown().optional(), description: z.unknown().optional() })).optional(),
  parameters: z.array(parameterSchema).optional(),
  requestBody: z.looseObject({ required: z.unknown().optional(), content: z.record(z.string(), mediaTypeSchema).optional() }).optional(),
});
const openApiSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.unknown(), version: z.unknown() }),
  paths: z.record(z.string(), z.record(z.string(), operationSchema)),
  components: z.looseObject({ securitySchemes: z.record(z.string(), z.record(z.string(), z.unknown())) }),
});
type OpenApi = z.infer<typeof openApiSchema>;
type ParameterDoc = z.infer<typeof parameterSchema>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('GET /api/openapi.json: the OpenAPI 3.1 document generated from the route table', () => {
  const harness = new AccountsHarness();
  let app: ReturnType<AccountsHarness['app']>;
  let doc: OpenApi;

  beforeAll(async () => {
    await harness.start();
    app = harness.app();
    const res = await request(app).get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = openApiSchema.parse(res.body);
  });
  afterAll(() => harness.stop());

  it('describes every route the app mounts, with its method, path parameters and auth', () => {
    const missing: string[] = [];
    for (const route of mountedRoutes(app).filter(isApiRoute)) {
      const method = route.method === 'MOUNT' ? 'get' : route.method.toLowerCase();
      const operation = doc.paths[openApiPath(route.path)]?.[method];
      if (!operation) missing.push(`${route.method} ${route.path}`);
    }
    expect(missing).toEqual([]);
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item));
    expect(operations.length).toBe(API_ROUTES.length);
    expect(doc.paths['/api/openapi.json'].get['x-auth']).toBe('public');
    expect(doc.paths['/api/alerts/{id}'].patch['x-auth']).toBe('user');
    expect(doc.paths['/admin/queues'].get['x-auth']).toBe('admin-or-operator');
  });

  it('carries the zod schemas the handlers parse: fields, limits, enums, required', () => {
    const create = doc.paths['/api/alerts'].post.requestBody!;
    expect(create.required).toBe(true);
    const json = create.content!['application/json'];
    const schema = json.schema!;
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'symbol', 'condition']));
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties!.name).toMatchObject({ type: 'string', minLength: 1 });
    expect(schema.properties!.frequency.enum).toEqual(['once', 'once_per_day', 'every_time']);
    expect(json.example).toMatchObject({ symbol: 'BTCUSDT' });

    const bars = doc.paths['/api/markets/{symbol}/bars'].get.parameters;
    expect(bars).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'symbol', in: 'path', required: true }),
        expect.objectContaining({ name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', maximum: 1000 }) }),
      ]),
    );
    const importCsv = doc.paths['/api/watchlists/{id}/import'].post.requestBody?.content ?? {};
    expect(Object.keys(importCsv)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(doc.paths['/api/auth/callback/credentials'].post.requestBody?.content ?? {})).toContain('application/x-www-form-urlencoded');
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE });
  });

  it('is structurally OpenAPI 3.1: info, paths, operations, parameters, request bodies, responses', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    const ids = new Set<string>();
    const problems: string[] = [];
    for (const [pathKey, item] of Object.entries(doc.paths)) {
      if (!pathKey.startsWith('/') || /:[A-Za-z]/.test(pathKey)) problems.push(`${pathKey}: not an OpenAPI path`);
      const templated = [...pathKey.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${pathKey}`;
        if (!METHODS.includes(method)) problems.push(`${where}: not an HTTP method`);
        if (typeof op.operationId !== 'string' || ids.has(op.operationId)) problems.push(`${where}: operationId missing or not unique`);
        if (typeof op.operationId === 'string') ids.add(op.operationId);
        if (!op.responses || !Object.keys(op.responses).length) problems.push(`${where}: no responses`);
        for (const [code, response] of Object.entries(op.responses ?? {})) {
          if (!/^([1-5]XX|[1-5]\d\d|default)$/.test(code)) problems.push(`${where}: response key ${code}`);
          if (!response.$ref && typeof response.description !== 'string') problems.push(`${where} ${code}: no description`);
        }
        const params: ParameterDoc[] = op.parameters ?? [];
        for (const p of params) {
          if (typeof p.name !== 'string' || typeof p.in !== 'string' || !['path', 'query', 'header', 'cookie'].includes(p.in) || typeof p.schema !== 'object') problems.push(`${where}: parameter ${JSON.stringify(p).slice(0, 80)}`);
          if (p.in === 'path' && p.required !== true) problems.push(`${where}: path parameter ${String(p.name)} not required`);
        }
        const inPath = params.filter((p) => p.in === 'path').map((p) => String(p.name));
        if (inPath.sort().join() !== [...templated].sort().join()) problems.push(`${where}: path parameters ${inPath} vs template ${templated}`);
        if (op.requestBody) {
          const content = op.requestBody.content ?? {};
          if (!Object.keys(content).length) problems.push(`${where}: requestBody without content`);
          for (const [media, value] of Object.entries(content)) {
            if (!/^[a-z]+\/[a-z0-9.+-]+$/.test(media) || typeof value.schema !== 'object') problems.push(`${where}: requestBody ${media}`);
          }
        }
        if (JSON.stringify(op).includes('"#/$defs/')) problems.push(`${where}: a $defs reference left in an operation`);
      }
    }
    expect(problems).toEqual([]);
    // The table's paths turned into templates keep every parameter.
    for (const route of API_ROUTES) {
      expect(doc.paths[openApiPath(route.path)][route.method.toLowerCase()].operationId).toBe(operationId(route));
      expect(pathParams(route.path).length).toBe((openApiPath(route.path).match(/\{/g) ?? []).length);
    }
  });

  it("passes the official OpenAPI 3.1 JSON schema (@seriousme/openapi-schema-validator, in its own ESM process)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    try {
      fs.writeFileSync(file, JSON.stringify(doc));
      const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
      let output: string;
      try {
        output = execFileSync(process.execPath, [cli, file], { encoding: 'utf8' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(JSON.parse(output)).toEqual({ valid: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
