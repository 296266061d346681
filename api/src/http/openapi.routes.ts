import { Router } from 'express';
import { openApiDocument, type OpenApiDocument } from './openapi';
import { defineRouteTable, type RouteSpec } from './route-table';

export const OPENAPI_PATH = '/api/openapi.json';

export const openapiRouteTable = defineRouteTable('openapi', [
  { method: 'GET', path: OPENAPI_PATH, summary: 'This description of the api (OpenAPI 3.1), generated from the route table', auth: 'public', body: 'none', response: 'json' },
]);

/** GET /api/openapi.json (mount under /api): the document of these routes, built once on first use. */
export function openapiRoutes(routes: readonly RouteSpec[], info: { title: string; version: string }): Router {
  const router = Router();
  let document: OpenApiDocument | undefined;
  router.get(OPENAPI_PATH.slice('/api'.length), (_req, res) => {
    document ??= openApiDocument(routes, {
      ...info,
      description: 'Every route of the Tickerbell api. Errors are `{ error: { code, message, details?, requestId } }`; state-changing requests of a session need its CSRF token (GET /api/auth/csrf).',
    });
    res.set('Cache-Control', 'public, max-age=300').json(document);
  });
  return router;
}
