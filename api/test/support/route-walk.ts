import type { Express } from 'express';
import type { RouteSpec } from '../../src/http/route-table';

/** A route the app really serves: method and full path as mounted, or a sub-application (`MOUNT`). */
export interface MountedRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string | RegExp | (string | RegExp)[]; methods: Record<string, boolean> };
  rawPath?: string | RegExp | (string | RegExp)[];
  handle?: { stack?: Layer[]; handle?: unknown; set?: unknown };
}

const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const join = (prefix: string, path: string | RegExp) => (typeof path === 'string' ? (path === '/' ? prefix || '/' : `${prefix}${path}`) : `${prefix}${String(path)}`);

/**
 * Every route of the real app, from Express's router stack: `router.get(...)` routes with their
 * mount prefixes, and sub-applications (bull-board) as one `MOUNT <path>` each. Plain
 * middleware (parsers, session, error handlers) is not a route.
 */
export function mountedRoutes(app: Express): MountedRoute[] {
  const found: MountedRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of asList(layer.route.path)) {
          for (const method of Object.keys(layer.route.methods)) {
            found.push({ method: method === '_all' ? 'ALL' : method.toUpperCase(), path: join(prefix, path) });
          }
        }
        continue;
      }
      for (const mountPath of asList(layer.rawPath ?? '/')) {
        const at = typeof mountPath === 'string' && mountPath !== '/' ? `${prefix}${mountPath}` : prefix;
        if (Array.isArray(layer.handle?.stack)) walk(layer.handle.stack, at);
        // An Express application mounted as middleware: its routes are its own.
        else if (typeof layer.handle?.handle === 'function' && typeof layer.handle?.set === 'function') found.push({ method: 'MOUNT', path: at });
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}

/** The key a table entry and a mounted route are compared by. */
export const mountedKey = (route: MountedRoute) => `${route.method} ${route.path}`;
export const tableKey = (route: RouteSpec) => (route.mount ? `MOUNT ${route.path}` : `${route.method} ${route.path}`);

/** The api's own routes: under /api and /admin, and /metrics (the web client's fallback serves every other GET). */
export const isApiRoute = (route: MountedRoute) => /^\/(api|admin|metrics)(\/|$)/.test(route.path);
