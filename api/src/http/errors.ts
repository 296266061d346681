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

/** Failures of express.json / express.urlencoded carry a `type` and a `status`. */
function bodyParserError(error: unknown): { status: number; type: string } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { type, status } = error as { type?: unknown; status?: unknown };
  return typeof type === 'string' && typeof status === 'number' ? { status, type } : null;
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
    const parser = bodyParserError(error);
    if (parser?.type === 'entity.too.large') {
      res.status(413).json(body(requestId, 'payload_too_large', 'The request body is too large'));
      return;
    }
    if (parser?.type === 'entity.parse.failed') {
      res.status(400).json(body(requestId, 'invalid_json', 'The request body is not valid JSON'));
      return;
    }
    if (parser && parser.status >= 400 && parser.status < 500) {
      res.status(parser.status).json(body(requestId, 'bad_request', 'The request body could not be read'));
      return;
    }
    logger.error({ err: error, requestId, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json(body(requestId, 'internal_error', 'Something went wrong on our side'));
  };
}
