import express, { Router, type Request } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock, type JobQueues, type Logger } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import {
  WATCHLIST_CSV_MAX_BYTES,
  WATCHLIST_ITEMS_MAX,
  WATCHLIST_NAME_MAX,
  WATCHLIST_SYMBOL_MAX,
  WatchlistCsvError,
  WatchlistError,
  addWatchlistItem,
  appendWatchlistCsv,
  createWatchlist,
  deleteWatchlist,
  exportWatchlistCsv,
  getWatchlist,
  importWatchlist,
  listWatchlists,
  publishWatchlistChange,
  removeWatchlistItem,
  renameWatchlist,
  reorderWatchlist,
  type WatchlistErrorCode,
  type WatchlistsAccess,
} from '@tickerbell/jobs/watchlists';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';
import { idParam } from '../http/input';

export interface WatchlistsRouteDeps {
  dataSource: DataSource;
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  clock?: Clock;
  /** The plan's number of watchlists; read-only accounts add nothing (the app's one Entitlements). */
  entitlements: Entitlements;
}

const nameSchema = z.string().trim().min(1).max(WATCHLIST_NAME_MAX);
export const nameBody = z.object({ name: nameSchema }).strict();
export const symbolBody = z.object({ symbol: z.string().trim().min(1).max(WATCHLIST_SYMBOL_MAX) }).strict();
export const orderBody = z.object({ itemIds: z.array(z.number().int().positive()).max(WATCHLIST_ITEMS_MAX * 2) }).strict();
export const importJsonBody = z.object({ name: nameSchema.optional(), csv: z.string() }).strict();
export const importQuery = z.object({ name: nameSchema.optional() });

const STATUS: Record<WatchlistErrorCode, number> = {
  not_found: 404,
  item_not_found: 404,
  duplicate_name: 409,
  duplicate_symbol: 409,
  unknown_symbol: 400,
  unknown_symbols: 400,
  invalid_order: 400,
  limit: 403,
};


/** Domain refusals as HTTP errors; anything else goes on to the 500 handler. */
async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WatchlistError) throw new HttpError(STATUS[error.code], error.code, error.message, error.details);
    if (error instanceof WatchlistCsvError) throw new HttpError(400, error.code, error.message, error.line === undefined ? undefined : { line: error.line });
    throw error;
  }
}

/** The CSV of an import: a raw `text/csv` body, or `csv` in a JSON body. */
function importInput(req: Request): { name: string | undefined; csv: string } {
  const query = importQuery.parse(req.query);
  if (typeof req.body === 'string') return { name: query.name, csv: req.body };
  const body = importJsonBody.parse(req.body);
  if (Buffer.byteLength(body.csv, 'utf8') > WATCHLIST_CSV_MAX_BYTES) {
    throw new HttpError(413, 'payload_too_large', `The CSV is larger than ${WATCHLIST_CSV_MAX_BYTES / 1024} kB`);
  }
  return { name: body.name ?? query.name, csv: body.csv };
}

/** `"` and path separators would break the header or be cut by the browser; control characters too. */
function csvFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return `${name.replace(/[\\/"\u0000-\u001f\u007f]/g, '_')}.csv`;
}

/** Signed-in routes: the user's watchlists, their ordered items, and CSV import/export. */
export function watchlistsRoutes(deps: WatchlistsRouteDeps): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;
  const access = (): WatchlistsAccess => ({ entitlements: deps.entitlements, now: clock.now() });
  // Only this route family takes raw CSV; the size limit is the import's, not the app's JSON limit.
  const csvBody = express.text({ type: ['text/csv', 'text/plain'], limit: WATCHLIST_CSV_MAX_BYTES });

  /** Tells the live streams (every api instance) to reload the user's watched symbols. */
  const changed = async (userId: number): Promise<void> => {
    try {
      await publishWatchlistChange(deps.redis, deps.queues.prefix, userId);
    } catch (error) {
      // The change is committed: failing the request would invite a retry that is refused as a duplicate.
      deps.logger.warn({ err: error, userId }, 'watchlist change not published: live prices update on the next reconnect');
    }
  };

  router.get('/watchlists', requireUser, async (req, res) => {
    res.json({ watchlists: await listWatchlists(db, sessionUser(req).id) });
  });

  router.post('/watchlists', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const { name } = nameBody.parse(req.body);
    const watchlist = await http(() => createWatchlist(db, userId, name, access()));
    await changed(userId);
    res.status(201).json(watchlist);
  });

  router.post('/watchlists/import', requireUser, csvBody, async (req, res) => {
    const userId = sessionUser(req).id;
    const { name, csv } = importInput(req);
    if (name === undefined) {
      throw new HttpError(400, 'validation_failed', 'Invalid input: name', [{ field: 'name', message: 'name the new watchlist: `name` in the JSON body or `?name=`' }]);
    }
    const result = await http(() => importWatchlist(db, userId, name, csv, access()));
    await changed(userId);
    res.status(201).json(result);
  });

  router.get('/watchlists/:id', requireUser, async (req, res) => {
    const view = await getWatchlist(db, sessionUser(req).id, idParam(req.params.id, 'watchlist'));
    if (!view) throw notFound('No such watchlist');
    res.json(view);
  });

  router.patch('/watchlists/:id', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watchlist');
    const { name } = nameBody.parse(req.body);
    const watchlist = await http(() => renameWatchlist(db, userId, id, name));
    await changed(userId);
    res.json(watchlist);
  });

  router.delete('/watchlists/:id', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watchlist');
    await http(() => deleteWatchlist(db, userId, id));
    await changed(userId);
    res.status(204).end();
  });

  router.post('/watchlists/:id/items', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watchlist');
    const { symbol } = symbolBody.parse(req.body);
    const result = await http(() => addWatchlistItem(db, userId, id, symbol, access()));
    await changed(userId);
    res.status(201).json(result);
  });

  router.delete('/watchlists/:id/items/:itemId', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watchlist');
    const itemId = idParam(req.params.itemId, 'item on this watchlist');
    const watchlist = await http(() => removeWatchlistItem(db, userId, id, itemId));
    await changed(userId);
    res.json(watchlist);
  });

  router.put('/watchlists/:id/order', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watchlist');
    const { itemIds } = orderBody.parse(req.body);
    const watchlist = await http(() => reorderWatchlist(db, userId, id, itemIds));
    await changed(userId);
    res.json(watchlist);
  });

  router.post('/watchlists/:id/import', requireUser, csvBody, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watchlist');
    const { csv } = importInput(req);
    const result = await http(() => appendWatchlistCsv(db, userId, id, csv, access()));
    await changed(userId);
    res.json(result);
  });

  router.get('/watchlists/:id/export.csv', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'watchlist');
    const { name, csv } = await http(() => exportWatchlistCsv(db, sessionUser(req).id, id));
    res.attachment(csvFileName(name)).type('text/csv; charset=utf-8').set('Cache-Control', 'no-store').send(csv);
  });

  return router;
}
