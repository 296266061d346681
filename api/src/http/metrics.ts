import type { RequestHandler } from 'express';
import { Histogram } from 'prom-client';
import { METRICS_PREFIX, type MetricsRegistry } from '@tickerbell/jobs';
import { pathParams, type RouteSpec } from './route-table';

/** The `route` label of a request no route of the table serves (web client files, 404s). */
export const UNMATCHED_ROUTE = 'unmatched';

interface RouteMatcher {
  method: string;
  path: string;
  /** A sub-application: every method and path below it. */
  mount: boolean;
  pattern: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A route's path template as Express matches it: a parameter is one segment, case-insensitive,
 * an optional trailing slash; a mounted sub-application (bull-board) also takes every path below it.
 */
function matchersOf(routes: readonly RouteSpec[]): RouteMatcher[] {
  // A path without parameters wins over a template that also matches it (`/api/alerts/export` before `/api/alerts/:id`).
  const specificity = (route: RouteSpec) => (route.mount ? 1000 : pathParams(route.path).length);
  return [...routes].sort((a, b) => specificity(a) - specificity(b)).map(matcherOf);
}

function matcherOf(route: RouteSpec): RouteMatcher {
  const source = route.path
    .split(/(:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return { method: route.method, path: route.path, mount: route.mount === true, pattern: new RegExp(`^${source}${route.mount ? '(?:/.*)?' : '/?'}$`, 'i') };
}

/**
 * The route table's path template of a request (`/api/alerts/:id` for `/api/alerts/123`), else
 * `unmatched`: the label never carries a raw URL, so its values are bounded by the table.
 */
function routeTemplate(matchers: readonly RouteMatcher[], method: string, path: string): string {
  // Express answers HEAD with the GET route.
  const wanted = method === 'HEAD' ? 'GET' : method;
  return matchers.find((m) => (m.mount || m.method === wanted) && m.pattern.test(path))?.path ?? UNMATCHED_ROUTE;
}

/**
 * `tickerbell_http_request_duration_seconds{method,route,status}`: the time from a request's
 * arrival to the end of its answer, by the route table's path template. Event streams are left
 * out: they stay open as long as the page does, which is no latency.
 */
export function httpMetrics(routes: readonly RouteSpec[], registry: MetricsRegistry): RequestHandler {
  const matchers = matchersOf(routes.filter((route) => route.response !== 'event-stream'));
  const streams = matchersOf(routes.filter((route) => route.response === 'event-stream'));
  const duration = new Histogram({
    name: `${METRICS_PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an api request, by method, route (the route table template, or unmatched) and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const path = req.originalUrl.split('?')[0];
      if (routeTemplate(streams, req.method, path) !== UNMATCHED_ROUTE) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      duration.observe({ method: req.method, route: routeTemplate(matchers, req.method, path), status: String(res.statusCode) }, seconds);
    });
    next();
  };
}
