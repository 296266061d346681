import type { DataSource, EntityManager } from 'typeorm';
import type { Entitlements } from '../billing/entitlements';
import { parseWatchlistCsv, watchlistToCsv, type WatchlistCsvSymbol } from './watchlist-csv';
import {
  UNKNOWN_SYMBOLS_LISTED,
  WATCHLIST_ITEMS_MAX,
  WATCHLISTS_PER_USER_MAX,
  WatchlistError,
  duplicateWatchlistName,
  orderMismatch,
  watchlistItemsLimit,
  watchlistNotFound,
} from './watchlist-rules';
import {
  appendWatchlistItems,
  compactWatchlistOrder,
  countWatchlists,
  deleteWatchlistItemRow,
  deleteWatchlistRow,
  findMarketsBySymbol,
  insertWatchlistRow,
  loadWatchlistViews,
  lockWatchlist,
  lockWatchlistOwner,
  renameWatchlistRow,
  setWatchlistOrder,
  touchWatchlist,
  watchlistItemIds,
  watchlistItemStats,
  watchlistMarketIds,
  watchlistNameTaken,
  type WatchlistImportResult,
  type WatchlistItemView,
  type WatchlistView,
} from './watchlists.store';

/**
 * What the api does with a user's watchlists: each change is one transaction of the store's
 * queries under the locks they need, and a refusal is a WatchlistError (nothing written), or the
 * entitlements' EntitlementError: the plan's number of watchlists (`watchlists`), and a read-only
 * account cannot create a list or add symbols. WATCHLISTS_PER_USER_MAX and WATCHLIST_ITEMS_MAX
 * stay as technical maxima whatever the plan.
 */

/** What the user's plan allows (billing's entitlements), asked at `now`. */
export interface WatchlistsAccess {
  entitlements: Entitlements;
  now: Date;
}

const UNIQUE_NAME = 'uq_watchlists_user_name';

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === constraint;
}

async function loadView(db: DataSource | EntityManager, userId: number, watchlistId: number): Promise<WatchlistView> {
  const [view] = await loadWatchlistViews(db, userId, watchlistId);
  if (!view) throw watchlistNotFound();
  return view;
}

async function lockOwnWatchlist(manager: EntityManager, userId: number, watchlistId: number): Promise<void> {
  if (!(await lockWatchlist(manager, userId, watchlistId))) throw watchlistNotFound();
}

/** The user's watchlists (oldest first), each with its items in order. */
export function listWatchlists(db: DataSource | EntityManager, userId: number): Promise<WatchlistView[]> {
  return loadWatchlistViews(db, userId, null);
}

/** One of the user's watchlists, or null (also for another user's). */
export async function getWatchlist(db: DataSource | EntityManager, userId: number, watchlistId: number): Promise<WatchlistView | null> {
  const [view] = await loadWatchlistViews(db, userId, watchlistId);
  return view ?? null;
}

/** Checked first under the user lock (a failed insert would log an error); the constraint stays the backstop. */
async function refuseTakenName(manager: EntityManager, userId: number, name: string, exceptId: number | null): Promise<void> {
  if (await watchlistNameTaken(manager, userId, name, exceptId)) throw duplicateWatchlistName(name);
}

async function insertWatchlist(manager: EntityManager, userId: number, name: string, access: WatchlistsAccess): Promise<number> {
  await lockWatchlistOwner(manager, userId);
  const count = await countWatchlists(manager, userId);
  // Under the owner lock: two concurrent creations cannot both take the plan's last place.
  await access.entitlements.checkLimit(manager, userId, 'watchlists', count, access.now);
  if (count >= WATCHLISTS_PER_USER_MAX) {
    throw new WatchlistError('limit', `You can have at most ${WATCHLISTS_PER_USER_MAX} watchlists`, { max: WATCHLISTS_PER_USER_MAX });
  }
  await refuseTakenName(manager, userId, name, null);
  try {
    return await insertWatchlistRow(manager, userId, name);
  } catch (error) {
    if (isUniqueViolation(error, UNIQUE_NAME)) throw duplicateWatchlistName(name);
    throw error;
  }
}

/** A new empty watchlist. Refuses a name the user already uses, a list past the plan's limit and the 51st list. */
export async function createWatchlist(db: DataSource, userId: number, name: string, access: WatchlistsAccess): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    const id = await insertWatchlist(manager, userId, name, access);
    return loadView(manager, userId, id);
  });
}

export async function renameWatchlist(db: DataSource, userId: number, watchlistId: number, name: string): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    await lockWatchlistOwner(manager, userId);
    await refuseTakenName(manager, userId, name, watchlistId);
    let updated: boolean;
    try {
      updated = await renameWatchlistRow(manager, userId, watchlistId, name);
    } catch (error) {
      if (isUniqueViolation(error, UNIQUE_NAME)) throw duplicateWatchlistName(name);
      throw error;
    }
    if (!updated) throw watchlistNotFound();
    return loadView(manager, userId, watchlistId);
  });
}

/** Deletes a watchlist and its items. */
export async function deleteWatchlist(db: DataSource, userId: number, watchlistId: number): Promise<void> {
  if (!(await deleteWatchlistRow(db, userId, watchlistId))) throw watchlistNotFound();
}

/** Appends a symbol at the end of the list. */
export async function addWatchlistItem(
  db: DataSource,
  userId: number,
  watchlistId: number,
  symbol: string,
  access: WatchlistsAccess,
): Promise<{ item: WatchlistItemView; watchlist: WatchlistView }> {
  return db.transaction(async (manager) => {
    await lockOwnWatchlist(manager, userId, watchlistId);
    await access.entitlements.checkWritable(manager, userId, access.now);
    const market = (await findMarketsBySymbol(manager, [symbol])).get(symbol.toUpperCase());
    if (!market) throw new WatchlistError('unknown_symbol', `No market with symbol ${symbol}`, { symbol });
    const { count, present } = await watchlistItemStats(manager, watchlistId, market.id);
    if (present) throw new WatchlistError('duplicate_symbol', `${market.symbol} is already on this watchlist`, { symbol: market.symbol });
    if (count >= WATCHLIST_ITEMS_MAX) throw watchlistItemsLimit();
    await appendWatchlistItems(manager, watchlistId, [market.id]);
    await touchWatchlist(manager, watchlistId);
    const watchlist = await loadView(manager, userId, watchlistId);
    const item = watchlist.items.find((i) => i.symbol === market.symbol);
    if (!item) throw new Error(`the item just added to watchlist ${watchlistId} is missing`);
    return { item, watchlist };
  });
}

/** Removes an item; the ones after it move up, so positions stay 0..n-1. */
export async function removeWatchlistItem(db: DataSource, userId: number, watchlistId: number, itemId: number): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    await lockOwnWatchlist(manager, userId, watchlistId);
    if (!(await deleteWatchlistItemRow(manager, watchlistId, itemId))) throw new WatchlistError('item_not_found', 'No such item on this watchlist');
    await compactWatchlistOrder(manager, watchlistId);
    await touchWatchlist(manager, watchlistId);
    return loadView(manager, userId, watchlistId);
  });
}

/**
 * Puts the items in the given order (positions 0..n-1). `itemIds` must name every item of the
 * list exactly once; an item added meanwhile makes it stale and it is refused, not half-applied.
 */
export async function reorderWatchlist(db: DataSource, userId: number, watchlistId: number, itemIds: readonly number[]): Promise<WatchlistView> {
  return db.transaction(async (manager) => {
    await lockOwnWatchlist(manager, userId, watchlistId);
    const mismatch = orderMismatch(await watchlistItemIds(manager, watchlistId), itemIds);
    if (mismatch) {
      const parts = [
        mismatch.missing.length ? `missing ${mismatch.missing.join(', ')}` : '',
        mismatch.extra.length ? `not on this list ${mismatch.extra.join(', ')}` : '',
        mismatch.duplicated.length ? `repeated ${mismatch.duplicated.join(', ')}` : '',
      ].filter(Boolean);
      throw new WatchlistError('invalid_order', `itemIds must name every item of the watchlist exactly once: ${parts.join('; ')}`, mismatch);
    }
    await setWatchlistOrder(manager, watchlistId, itemIds);
    await touchWatchlist(manager, watchlistId);
    return loadView(manager, userId, watchlistId);
  });
}

/** Every symbol of the file must be a known market: all of them are reported, none written. */
async function resolveImport(manager: EntityManager, symbols: readonly WatchlistCsvSymbol[]): Promise<number[]> {
  const markets = await findMarketsBySymbol(
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
export async function importWatchlist(db: DataSource, userId: number, name: string, csv: string, access: WatchlistsAccess): Promise<WatchlistImportResult> {
  const parsed = parseWatchlistCsv(csv);
  if (parsed.symbols.length > WATCHLIST_ITEMS_MAX) throw watchlistItemsLimit();
  return db.transaction(async (manager) => {
    const marketIds = await resolveImport(manager, parsed.symbols);
    const id = await insertWatchlist(manager, userId, name, access);
    await appendWatchlistItems(manager, id, marketIds);
    return { watchlist: await loadView(manager, userId, id), imported: marketIds.length, duplicates: parsed.duplicates, skipped: 0 };
  });
}

/** Appends a CSV's symbols to an existing list, skipping those already on it: all of it or nothing. */
export async function appendWatchlistCsv(db: DataSource, userId: number, watchlistId: number, csv: string, access: WatchlistsAccess): Promise<WatchlistImportResult> {
  const parsed = parseWatchlistCsv(csv);
  return db.transaction(async (manager) => {
    await lockOwnWatchlist(manager, userId, watchlistId);
    await access.entitlements.checkWritable(manager, userId, access.now);
    const marketIds = await resolveImport(manager, parsed.symbols);
    const present = await watchlistMarketIds(manager, watchlistId);
    const already = new Set(present);
    const added = marketIds.filter((id) => !already.has(id));
    if (present.length + added.length > WATCHLIST_ITEMS_MAX) throw watchlistItemsLimit();
    await appendWatchlistItems(manager, watchlistId, added);
    if (added.length) await touchWatchlist(manager, watchlistId);
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
