import type { RequestHandler } from 'express';
import { z } from 'zod';
import { HttpError, notFound } from './errors';

/** PostgreSQL's int4: every serial id fits, and a larger number is no one's id. */
export const INT4_MAX = 2_147_483_647;

/** An id in a body or query: a positive int4 (a larger one would be a database error, not a 400). */
export const int4Id = z.coerce.number().int().min(1).max(INT4_MAX);

/** A row id in a path: a positive int4 in decimal (the route tables describe path ids with it). */
export const pathIdSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'a positive integer')
  .refine((value) => Number(value) <= INT4_MAX, `at most ${INT4_MAX}`);

/**
 * An id in a path: anything but a positive int4 cannot be one of the caller's rows, so it is the
 * same 404 as an id that does not exist (no hint whether the resource exists).
 */
export function idParam(value: unknown, what: string): number {
  const parsed = pathIdSchema.safeParse(value);
  if (!parsed.success) throw notFound(`No such ${what}`);
  return Number(parsed.data);
}

const NUL = '\u0000';
// A UTF-16 surrogate without its pair: not a character, and PostgreSQL refuses it in jsonb.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (text: string) => text.includes(NUL) || LONE_SURROGATE.test(text);
const MAX_DEPTH = 32;

/** The path of the first string (value or key) holding a NUL character or a lone surrogate, or null. */
function nulField(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return unstorable(value) ? path : null;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (unstorable(key)) return at;
    const found = nulField(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The one check every request passes before its route: input no route can store or look up is a
 * 400 naming where it is. A path segment with a malformed percent-escape (Express would throw
 * URIError while decoding the parameter) or an escaped NUL, and a NUL character or an unpaired
 * UTF-16 surrogate anywhere in the query or the parsed body (PostgreSQL refuses 0x00 in text and
 * lone surrogates in jsonb). Routes then parse the rest with
 * their zod schemas.
 */
export const rejectMalformedInput: RequestHandler = (req, _res, next) => {
  for (const segment of req.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return next(new HttpError(400, 'invalid_path', 'The path has a malformed percent-escape', [{ field: 'path', message: 'malformed percent-escape' }]));
    }
    if (decoded.includes(NUL)) {
      return next(new HttpError(400, 'invalid_path', 'The path contains a NUL character', [{ field: 'path', message: 'must not contain the NUL character' }]));
    }
  }
  for (const [where, value] of [
    ['query', req.query],
    ['body', req.body],
  ] as const) {
    const field = nulField(value, '');
    if (field !== null) {
      const name = field || where;
      return next(new HttpError(400, 'invalid_input', `Invalid input: ${name}`, [{ field: name, message: 'must not contain the NUL character or unpaired surrogates' }]));
    }
  }
  next();
};
