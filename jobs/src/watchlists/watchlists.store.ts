import type { DataSource, EntityManager } from 'typeorm';
import type { WatchlistItemView, WatchlistView } from './watchlists.shapes';

/**
 * Every query of watchlists (watchlists, watchlist_items, and the markets they name). Writes that
 * must see a stable list take the locks below first, inside the service's transaction.
 */

type Db = DataSource | EntityManager;

export type { WatchlistImportResult, WatchlistItemView, WatchlistView } from './watchlists.shapes';

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

/** The user's watchlists (one when `watchlistId` is given), oldest first, each with its items in order. */
export async function loadWatchlistViews(db: Db, userId: number, watchlistId: number | null): Promise<WatchlistView[]> {
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

/** Serialises changes to one user's set of watchlists, so the count checked is the count written. */
export async function lockWatchlistOwner(manager: EntityManager, userId: number): Promise<void> {
  // NO KEY UPDATE: excludes other writers of this user's lists without blocking foreign-key checks.
  await manager.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
}

/**
 * Locks one of the user's watchlists for the rest of the transaction (false: no such list of the
 * user's). Every change to its items takes this lock first, so positions are computed from a list
 * nobody else is changing.
 */
export async function lockWatchlist(manager: EntityManager, userId: number, watchlistId: number): Promise<boolean> {
  const rows: unknown[] = await manager.query('SELECT id FROM watchlists WHERE id = $1 AND user_id = $2 FOR UPDATE', [watchlistId, userId]);
  return rows.length > 0;
}

export async function touchWatchlist(manager: EntityManager, watchlistId: number): Promise<void> {
  await manager.query('UPDATE watchlists SET updated_at = now() WHERE id = $1', [watchlistId]);
}

/** Markets by symbol, case-insensitively; an exact spelling wins over another case. Key: upper case. */
export async function findMarketsBySymbol(db: Db, symbols: readonly string[]): Promise<Map<string, { id: number; symbol: string }>> {
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
export async function appendWatchlistItems(manager: EntityManager, watchlistId: number, marketIds: readonly number[]): Promise<void> {
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
export async function compactWatchlistOrder(manager: EntityManager, watchlistId: number): Promise<void> {
  await manager.query(
    `UPDATE watchlist_items i SET "order" = r.pos
       FROM (SELECT id, row_number() OVER (ORDER BY "order", id) - 1 AS pos FROM watchlist_items WHERE watchlist_id = $1) r
      WHERE i.id = r.id AND i."order" <> r.pos`,
    [watchlistId],
  );
}

/** Whether another of the user's lists (not `exceptId`) has this name. */
export async function watchlistNameTaken(manager: EntityManager, userId: number, name: string, exceptId: number | null): Promise<boolean> {
  const taken: unknown[] = await manager.query('SELECT 1 FROM watchlists WHERE user_id = $1 AND name = $2 AND id IS DISTINCT FROM $3', [userId, name, exceptId]);
  return taken.length > 0;
}

export async function countWatchlists(manager: EntityManager, userId: number): Promise<number> {
  const [{ count }]: { count: number }[] = await manager.query('SELECT count(*)::int AS count FROM watchlists WHERE user_id = $1', [userId]);
  return count;
}

/** A new empty list; a name the user already uses fails on uq_watchlists_user_name. */
export async function insertWatchlistRow(manager: EntityManager, userId: number, name: string): Promise<number> {
  const [row]: { id: number }[] = await manager.query('INSERT INTO watchlists (user_id, name) VALUES ($1, $2) RETURNING id', [userId, name]);
  return row.id;
}

/** Renames one of the user's lists (false: no such list); a taken name fails on uq_watchlists_user_name. */
export async function renameWatchlistRow(manager: EntityManager, userId: number, watchlistId: number, name: string): Promise<boolean> {
  const [updated]: [unknown[], number] = await manager.query('UPDATE watchlists SET name = $3, updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING id', [
    watchlistId,
    userId,
    name,
  ]);
  return updated.length > 0;
}

/** Deletes one of the user's lists and its items (false: no such list). */
export async function deleteWatchlistRow(db: Db, userId: number, watchlistId: number): Promise<boolean> {
  const [deleted]: [unknown[], number] = await db.query('DELETE FROM watchlists WHERE id = $1 AND user_id = $2 RETURNING id', [watchlistId, userId]);
  return deleted.length > 0;
}

/** How many items a list holds and whether the market is one of them. */
export async function watchlistItemStats(manager: EntityManager, watchlistId: number, marketId: number): Promise<{ count: number; present: boolean }> {
  const [{ count, present }]: { count: number; present: boolean | null }[] = await manager.query(
    'SELECT count(*)::int AS count, bool_or(market_id = $2) AS present FROM watchlist_items WHERE watchlist_id = $1',
    [watchlistId, marketId],
  );
  return { count, present: present === true };
}

/** Deletes an item of the list (false: no such item on it). */
export async function deleteWatchlistItemRow(manager: EntityManager, watchlistId: number, itemId: number): Promise<boolean> {
  const [deleted]: [unknown[], number] = await manager.query('DELETE FROM watchlist_items WHERE id = $1 AND watchlist_id = $2 RETURNING id', [
    itemId,
    watchlistId,
  ]);
  return deleted.length > 0;
}

/** The list's item ids in order. */
export async function watchlistItemIds(manager: EntityManager, watchlistId: number): Promise<number[]> {
  const rows: { id: number }[] = await manager.query('SELECT id FROM watchlist_items WHERE watchlist_id = $1 ORDER BY "order", id', [watchlistId]);
  return rows.map((r) => r.id);
}

/** Positions 0..n-1 in the order of `itemIds` (every item of the list, checked by the caller). */
export async function setWatchlistOrder(manager: EntityManager, watchlistId: number, itemIds: readonly number[]): Promise<void> {
  await manager.query(
    `UPDATE watchlist_items i SET "order" = t.n - 1
       FROM unnest($2::int[]) WITH ORDINALITY AS t(id, n)
      WHERE i.id = t.id AND i.watchlist_id = $1`,
    [watchlistId, itemIds],
  );
}

/** The markets on the list. */
export async function watchlistMarketIds(manager: EntityManager, watchlistId: number): Promise<number[]> {
  const rows: { market_id: number }[] = await manager.query('SELECT market_id FROM watchlist_items WHERE watchlist_id = $1', [watchlistId]);
  return rows.map((r) => r.market_id);
}

/** The symbols on any of the user's watchlists (what their live stream carries prices of). */
export async function loadWatchedSymbols(db: Db, userId: number): Promise<string[]> {
  const rows: { symbol: string }[] = await db.query(
    `SELECT DISTINCT m.symbol FROM watchlists w
       JOIN watchlist_items i ON i.watchlist_id = w.id
       JOIN markets m ON m.id = i.market_id
      WHERE w.user_id = $1`,
    [userId],
  );
  return rows.map((r) => r.symbol);
}
