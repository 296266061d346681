import type { DataSource, EntityManager } from 'typeorm';
import { parseWatchlistCsv, watchlistToCsv, type WatchlistCsvSymbol } from './watchlist-csv';

/** Watchlists one user may own. */
export const WATCHLISTS_PER_USER_MAX = 50;
/** Items one watchlist may hold. */
export const WATCHLIST_ITEMS_MAX = 500;
/** Longest watchlist name (the column's length). */
export const WATCHLIST_NAME_MAX = 100;
/** Unknown symbols listed in an import's error; the count says how many there were in all. */
const UNKNOWN_SYMBOLS_LISTED = 100;

export interface WatchlistItemView {
  id: number;
  symbol: string;
  name: string;
  type: string;
  order: number;
}

export interface WatchlistView {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  items: WatchlistItemView[];
}

export interface WatchlistImportResult {
  watchlist: WatchlistView;
  /** Items added. */
  imported: number;
  /** Rows of the file naming a symbol named above them (kept once). */
  duplicates: number;
  /** Symbols already on the list (append only). */
  skipped: number;
}

export type WatchlistErrorCode =
  | 'not_found'
  | 'item_not_found'
  | 'duplicate_name'
  | 'duplicate_symbol'
  | 'unknown_symbol'
  | 'unknown_symbols'
  | 'invalid_order'
  | 'limit';

/** The caller's request cannot be applied; nothing was written. The api maps the code to a status. */
export class WatchlistError extends Error {
  constructor(
    readonly code: WatchlistErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'WatchlistError';
  }
}

const watchlistNotFound = () => new WatchlistError('not_found', 'No such watchlist');
const duplicateName = (name: string) => new WatchlistError('duplicate_name', `You already have a watchlist named "${name}"`);
const itemsLimit = () => new WatchlistError('limit', `A watchlist holds at most ${WATCHLIST_ITEMS_MAX} symbols`, { max: WATCHLIST_ITEMS_MAX });

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === constraint;
}

interface WatchlistRow {
  id: number;
  name: string;
  created_at: Date;
  updated_at: Date;
}

interface ItemRow {
  id: number;
  watchlist_id: number;
  order: number;
  symbol: string;
  name: string;
  type: string;
}

async function loadViews(db: DataSource | EntityManager, userId: number, watchlistId: number | null): Promise<WatchlistView[]> {
  const lists: WatchlistRow[] = await db.query(
    `SELECT id, name, created_at, updated_at FROM watchlists
      WHERE user_id = $1 AND ($2::int IS NULL OR id = $2) ORDER BY id`,
    [userId, watchlistId],
  );
  if (!lists.length) return [];
  const items: ItemRow[] = await db.query(
    `SELECT i.id, i.watchlist_id, i."order", m.symbol, m.name, m.type
       FROM watchlist_items i JOIN markets m ON m.id = i.market_id
      WHERE i.watchlist_id = ANY($1::int[])
      ORDER BY i.watchlist_id, i."order", i.id`,
    [lists.map((l) => l.id)],
  );
  const byList = new Map<number, WatchlistItemView[]>(lists.map((l) => [l.id, []]));
  for (const i of items) byList.get(i.watchlist_id)?.push({ id: i.id, symbol: i.symbol, name: i.name, type: i.type, order: i.order });
  return lists.map((l) => ({
    id: l.id,
    name: l.name,
    createdAt: new Date(l.created_at).toISOString(),
    updatedAt: new Date(l.updated_at).toISOString(),
    items: byList.get(l.id) ?? [],
  }));
}

async function loadView(db: DataSource | EntityManager, userId: number, watchlistId: number): Promise<WatchlistView> {
  const [view] = await loadViews(db, userId, watchlistId);
  if (!view) throw watchlistNotFound();
  return view;
}

/** Serialises changes to one user's set of watchlists, so the count checked is the count written. */
async function lockUser(manager: EntityManager, userId: number): Promise<void> {
  // NO KEY UPDATE: excludes other writers of this user's lists without blocking foreign-key checks.
  await manager.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
}

/**
 * Locks one of the user's watchlists for the rest of the transaction. Every change to its items
 * takes this lock first, so positions are computed from a list nobody else is changing.
 */
async function lockWatchlist(manager: EntityManager, userId: number, watchlistId: number): Promise<void> {
  const rows: unknown[] = await manager.query('SELECT id FROM watchlists WHERE id = $1 AND user_id = $2 FOR UPDATE', [watchlistId, userId]);
  if (!rows.length) throw watchlistNotFound();
}

async function touch(manager: EntityManager, watchlistId: number): Promise<void> {
  await manager.query('UPDATE watchlists SET updated_at = now() WHERE id = $1', [watchlistId]);
}

/** Markets by symbol, case-insensitively; an exact spelling wins over another case. Key: upper case. */
async function findMarkets(db: DataSource | EntityManager, symbols: readonly string[]): Promise<Map<string, { id: number; symbol: string }>> {
  const keys = [...new Set(symbols.map((s) => s.toUpperCase()))];
  const rows: { id: number; symbol: string }[] = await db.query('SELECT id, symbol FROM markets WHERE upper(symbol) = ANY($1::text[]) ORDER BY id', [keys]);
  const given = new Set(symbols);
  const found = new Map<string, { id: number; symbol: string }>();
  for (const row of rows) {
    const key = row.symbol.toUpperCase();
    if (!found.has(key) || given.has(row.symbol)) found.set(key, { id: row.id, symbol: row.symbol });
  }
  return found;
}

/** Appends markets at the end of a locked list, in the given order. */
async function appendItems(manager: EntityManager, watchlistId: number, marketIds: readonly number[]): Promise<void> {
  if (!marketIds.length) return;
  await manager.query(
    `INSERT INTO watchlist_items (watchlist_id, market_id, "order")
     SELECT $1, t.market_id,
            (SELECT COALESCE(MAX("order") + 1, 0) FROM watchlist_items WHERE watchlist_id = $1) + t.n - 1
       FROM unnest($2::int[]) WITH ORDINALITY AS t(market_id, n)`,
    [watchlistId, marketIds],
  );
}

/** Positions 0..n-1 in the current order (after a removal). */
async function compactOrder(manager: EntityManager, watchlistId: number): Promise<void> {
  await manager.query(
    `UPDATE watchlist_items i SET "order" = r.pos
       FROM (SELECT id, row_number() OVER (ORDER BY "order", id) - 1 AS pos FROM watchlist_items WHERE watchlist_id = $1) r
      WHERE i.id = r.id AND i."order" <> r.pos`,
    [watchlistId],
  );
}

/** The user's watchlists (oldest first), each with its items in order. */
export function listWatchlists(db: DataSource | EntityManager, userId: number): Promise<WatchlistView[]> {
  return loadViews(db, userId, null);
}

/** One of the user's watchlists, or null (also for another user's). */
export async function getWatchlist(db: DataSource | EntityManager, userId: number, watchlistId: number): Promise<WatchlistView | null> {
  const [view] = await loadViews(db, userId, watchlistId);
  return view ?? null;
}

/** Checked first under the user lock (a failed insert would log an error); the constraint stays the backstop. */
async function refuseTakenName(manager: EntityManager, userId: number, name: string, exceptId: number | null): Promise<void> {
  const taken: unknown[] = await manager.query('SELECT 1 FROM watchlists WHERE user_id = $1 AND name = $2 AND id IS DISTINCT FROM $3', [userId, name, exceptId]);
  if (taken.length) throw duplicateName(name);
}

async function insertWatchlist(manager: EntityManager, userId: number, name: string): Promise<number> {
  await lockUser(manager, userId);
  const [{ count }]: { count: number }[] = await manager.query('SELECT count(*)::int AS count FROM watchlists WHERE user_id = $1', [userId]);
  if (count >= WATCHLISTS_PER_USER_MAX) {
    throw new WatchlistError('limit', `You can have at most ${WATCHLISTS_PER_USER_MAX} watchlists`, { max: WATCHLISTS_PER_USER_MAX });
  }
  await refuseTakenName(manager, userId, name, null);
  try {
    const [row]: { id: number }[] = await manager.query('INSERT INTO watchlists (user_id, name) VALUES ($1, $2) RETURNING id', [userId, name]);
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error, 'uq_watchlists_user_name')) throw duplicateName(name);
    throw error;
  }
}

/** A new empty watchlist. Refuses a name the user already uses and the 51st list. */
export async function createWatchlist(db: DataSource, userId: number, name: string): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    const id = await insertWatchlist(manager, userId, name);
    return loadView(manager, userId, id);
  });
}

export async function renameWatchlist(db: DataSource, userId: number, watchlistId: number, name: string): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    await lockUser(manager, userId);
    await refuseTakenName(manager, userId, name, watchlistId);
    let updated: unknown[];
    try {
      [updated] = await manager.query('UPDATE watchlists SET name = $3, updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING id', [
        watchlistId,
        userId,
        name,
      ]);
    } catch (error) {
      if (isUniqueViolation(error, 'uq_watchlists_user_name')) throw duplicateName(name);
      throw error;
    }
    if (!updated.length) throw watchlistNotFound();
    return loadView(manager, userId, watchlistId);
  });
}

/** Deletes a watchlist and its items. */
export async function deleteWatchlist(db: DataSource, userId: number, watchlistId: number): Promise<void> {
  const [deleted]: [unknown[], number] = await db.query('DELETE FROM watchlists WHERE id = $1 AND user_id = $2 RETURNING id', [watchlistId, userId]);
  if (!deleted.length) throw watchlistNotFound();
}

/** Appends a symbol at the end of the list. */
export async function addWatchlistItem(
  db: DataSource,
  userId: number,
  watchlistId: number,
  symbol: string,
): Promise<{ item: WatchlistItemView; watchlist: WatchlistView }> {
  return db.transaction(async (manager) => {
    await lockWatchlist(manager, userId, watchlistId);
    const market = (await findMarkets(manager, [symbol])).get(symbol.toUpperCase());
    if (!market) throw new WatchlistError('unknown_symbol', `No market with symbol ${symbol}`, { symbol });
    const [{ count, present }]: { count: number; present: boolean }[] = await manager.query(
      'SELECT count(*)::int AS count, bool_or(market_id = $2) AS present FROM watchlist_items WHERE watchlist_id = $1',
      [watchlistId, market.id],
    );
    if (present) throw new WatchlistError('duplicate_symbol', `${market.symbol} is already on this watchlist`, { symbol: market.symbol });
    if (count >= WATCHLIST_ITEMS_MAX) throw itemsLimit();
    await appendItems(manager, watchlistId, [market.id]);
    await touch(manager, watchlistId);
    const watchlist = await loadView(manager, userId, watchlistId);
    const item = watchlist.items.find((i) => i.symbol === market.symbol);
    if (!item) throw new Error(`the item just added to watchlist ${watchlistId} is missing`);
    return { item, watchlist };
  });
}

/** Removes an item; the ones after it move up, so positions stay 0..n-1. */
export async function removeWatchlistItem(db: DataSource, userId: number, watchlistId: number, itemId: number): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    await lockWatchlist(manager, userId, watchlistId);
    const [deleted]: [unknown[], number] = await manager.query('DELETE FROM watchlist_items WHERE id = $1 AND watchlist_id = $2 RETURNING id', [
      itemId,
      watchlistId,
    ]);
    if (!deleted.length) throw new WatchlistError('item_not_found', 'No such item on this watchlist');
    await compactOrder(manager, watchlistId);
    await touch(manager, watchlistId);
    return loadView(manager, userId, watchlistId);
  });
}

/** Where a proposed order differs from the list's items; null when it is exactly a permutation. */
export function orderMismatch(
  current: readonly number[],
  proposed: readonly number[],
): { missing: number[]; extra: number[]; duplicated: number[] } | null {
  const known = new Set(current);
  const seen = new Set<number>();
  const duplicated = new Set<number>();
  for (const id of proposed) {
    if (seen.has(id)) duplicated.add(id);
    seen.add(id);
  }
  const missing = current.filter((id) => !seen.has(id));
  const extra = [...new Set(proposed.filter((id) => !known.has(id)))];
  if (!missing.length && !extra.length && !duplicated.size) return null;
  return { missing, extra, duplicated: [...duplicated] };
}

/**
 * Puts the items in the given order (positions 0..n-1). `itemIds` must name every item of the
 * list exactly once; an item added meanwhile makes it stale and it is refused, not half-applied.
 */
export async function reorderWatchlist(db: DataSource, userId: number, watchlistId: number, itemIds: readonly number[]): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    await lockWatchlist(manager, userId, watchlistId);
    const rows: { id: number }[] = await manager.query('SELECT id FROM watchlist_items WHERE watchlist_id = $1 ORDER BY "order", id', [watchlistId]);
    const mismatch = orderMismatch(
      rows.map((r) => r.id),
      itemIds,
    );
    if (mismatch) {
      const parts = [
        mismatch.missing.length ? `missing ${mismatch.missing.join(', ')}` : '',
        mismatch.extra.length ? `not on this list ${mismatch.extra.join(', ')}` : '',
        mismatch.duplicated.length ? `repeated ${mismatch.duplicated.join(', ')}` : '',
      ].filter(Boolean);
      throw new WatchlistError('invalid_order', `itemIds must name every item of the watchlist exactly once: ${parts.join('; ')}`, mismatch);
    }
    await manager.query(
      `UPDATE watchlist_items i SET "order" = t.n - 1
         FROM unnest($2::int[]) WITH ORDINALITY AS t(id, n)
        WHERE i.id = t.id AND i.watchlist_id = $1`,
      [watchlistId, itemIds],
    );
    await touch(manager, watchlistId);
    return loadView(manager, userId, watchlistId);
  });
}

/** Every symbol of the file must be a known market: all of them are reported, none written. */
async function resolveImport(manager: EntityManager, symbols: readonly WatchlistCsvSymbol[]): Promise<number[]> {
  const markets = await findMarkets(
    manager,
    symbols.map((s) => s.symbol),
  );
  const unknown = symbols.filter((s) => !markets.has(s.symbol.toUpperCase()));
  if (unknown.length) {
    const listed = unknown.slice(0, UNKNOWN_SYMBOLS_LISTED);
    const sample = listed
      .slice(0, 10)
      .map((u) => `${u.symbol} (line ${u.line})`)
      .join(', ');
    throw new WatchlistError('unknown_symbols', `${unknown.length} unknown symbol${unknown.length === 1 ? '' : 's'}: ${sample}${unknown.length > 10 ? ', ...' : ''}`, {
      count: unknown.length,
      unknown: listed,
    });
  }
  return symbols.flatMap((s) => {
    const market = markets.get(s.symbol.toUpperCase());
    return market ? [market.id] : [];
  });
}

/** A new watchlist from a CSV of symbols: all of it or nothing. */
export async function importWatchlist(db: DataSource, userId: number, name: string, csv: string): Promise<WatchlistImportResult> {
  const parsed = parseWatchlistCsv(csv);
  if (parsed.symbols.length > WATCHLIST_ITEMS_MAX) throw itemsLimit();
  return db.transaction(async (manager) => {
    const marketIds = await resolveImport(manager, parsed.symbols);
    const id = await insertWatchlist(manager, userId, name);
    await appendItems(manager, id, marketIds);
    return { watchlist: await loadView(manager, userId, id), imported: marketIds.length, duplicates: parsed.duplicates, skipped: 0 };
  });
}

/** Appends a CSV's symbols to an existing list, skipping those already on it: all of it or nothing. */
export async function appendWatchlistCsv(db: DataSource, userId: number, watchlistId: number, csv: string): Promise<WatchlistImportResult> {
  const parsed = parseWatchlistCsv(csv);
  return db.transaction(async (manager) => {
    await lockWatchlist(manager, userId, watchlistId);
    const marketIds = await resolveImport(manager, parsed.symbols);
    const present: { market_id: number }[] = await manager.query('SELECT market_id FROM watchlist_items WHERE watchlist_id = $1', [watchlistId]);
    const already = new Set(present.map((p) => p.market_id));
    const added = marketIds.filter((id) => !already.has(id));
    if (present.length + added.length > WATCHLIST_ITEMS_MAX) throw itemsLimit();
    await appendItems(manager, watchlistId, added);
    if (added.length) await touch(manager, watchlistId);
    return {
      watchlist: await loadView(manager, userId, watchlistId),
      imported: added.length,
      duplicates: parsed.duplicates,
      skipped: marketIds.length - added.length,
    };
  });
}

/** The list as CSV (`symbol,name,type`, items in order), with its name for the file name. */
export async function exportWatchlistCsv(db: DataSource | EntityManager, userId: number, watchlistId: number): Promise<{ name: string; csv: string }> {
  const view = await loadView(db, userId, watchlistId);
  return { name: view.name, csv: watchlistToCsv(view.items) };
}
