import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { Logger } from '@tickerbell/jobs';

/**
 * The one error type for "the caller did something wrong". Everything else is a 500 with a
 * request id and a log line; stack traces and SQL never reach the client.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: unknown) => new HttpError(400, 'bad_request', message, details);
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; requestId: string };
}

function body(requestId: string, code: string, message: string, details?: unknown): ErrorBody {
  return { error: { code, message, ...(details === undefined ? {} : { details }), requestId } };
}

/**
 * Failures of reading the request itself carry an HTTP status (http-errors style): express.json
 * and express.urlencoded set a `type` too, zlib's errors on a bad `Content-Encoding` body and
 * the router's URIError on a bad percent-escape do not.
 */
function requestError(error: unknown): { status: number; type: string | null } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { type, status, statusCode } = error as { type?: unknown; status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : null;
  if (code === null || code < 400 || code > 499) return null;
  return { status: code, type: typeof type === 'string' ? type : null };
}

const DATABASE_DOWN_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Which store an error says is unreachable, if any: the caller's request was fine, so this is a
 * 503 with Retry-After (clients and load balancers can tell an outage from a bug), not a 500.
 */
export function outageOf(error: unknown): 'redis' | 'database' | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name, message, code } = error as { name?: unknown; message?: unknown; code?: unknown };
  const text = typeof message === 'string' ? message : '';
  // ioredis: the api's connection fails fast (enableOfflineQueue: false) instead of queueing.
  if (name === 'MaxRetriesPerRequestError' || /enableOfflineQueue|Connection is closed|Connection in subscriber mode/.test(text)) return 'redis';
  const driver = (error as { driverError?: { code?: unknown; message?: unknown } }).driverError;
  const pgCode = typeof driver?.code === 'string' ? driver.code : typeof code === 'string' ? code : '';
  if (pgCode.startsWith('08') || DATABASE_DOWN_CODES.has(pgCode) || NETWORK_CODES.has(pgCode)) return 'database';
  if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/.test(text)) return 'database';
  return null;
}

/** PostgreSQL refusing a NUL in text: only a caller can have put it there (a body parsed past the global check, e.g. CSV). */
function nulRefused(error: unknown): boolean {
  const driver = (error as { driverError?: { code?: unknown } } | null)?.driverError;
  return driver?.code === '22021';
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, 'not_found', `No route for ${req.method} ${req.originalUrl.split('?')[0]}`));
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const requestId = String(res.locals.requestId ?? '');
    if (error instanceof HttpError) {
      res.set(error.headers).status(error.status).json(body(requestId, error.code, error.message, error.details));
      return;
    }
    if (error instanceof ZodError) {
      const details = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      const fields = details.map((d) => d.field || '(body)').join(', ');
      res.status(400).json(body(requestId, 'validation_failed', `Invalid input: ${fields}`, details));
      return;
    }
    const parser = requestError(error);
    if (parser?.type === 'entity.too.large') {
      res.status(413).json(body(requestId, 'payload_too_large', 'The request body is too large'));
      return;
    }
    if (parser?.type === 'entity.parse.failed') {
      res.status(400).json(body(requestId, 'invalid_json', 'The request body is not valid JSON'));
      return;
    }
    if (error instanceof URIError) {
      res.status(400).json(body(requestId, 'invalid_path', 'The path has a malformed percent-escape', [{ field: 'path', message: 'malformed percent-escape' }]));
      return;
    }
    if (parser) {
      res.status(parser.status).json(body(requestId, 'bad_request', 'The request body could not be read', [{ field: 'body', message: 'unreadable (encoding or charset)' }]));
      return;
    }
    if (nulRefused(error)) {
      logger.warn({ requestId, method: req.method, path: req.path }, 'a NUL character reached the database');
      res.status(400).json(body(requestId, 'invalid_input', 'Invalid input: text must not contain the NUL character'));
      return;
    }
    const outage = outageOf(error);
    if (outage) {
      logger.warn({ requestId, method: req.method, path: req.path, store: outage, err: (error as Error).message }, 'store unavailable');
      const what = outage === 'redis' ? 'Redis' : 'The database';
      res.set('Retry-After', '5').status(503).json(body(requestId, `${outage}_unavailable`, `${what} is unavailable; try again shortly`));
      return;
    }
    logger.error({ err: error, requestId, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json(body(requestId, 'internal_error', 'Something went wrong on our side'));
  };
}
