// HTTP shapes of the watchlists domain (/api/watchlists). Plain types and constants with no
// runtime imports: the web client imports this file as `@tickerbell/jobs/watchlists/shapes`, the
// server's views, limits and zod schemas come from it.

/** Watchlists one user may own. */
export const WATCHLISTS_PER_USER_MAX = 50;
/** Items one watchlist may hold. */
export const WATCHLIST_ITEMS_MAX = 500;
/** Longest watchlist name (the column's length). */
export const WATCHLIST_NAME_MAX = 100;
/** Longest symbol a client may add. */
export const WATCHLIST_SYMBOL_MAX = 30;

/** The error codes of WatchlistError, sent as `error.code`. */
export type WatchlistErrorCode =
  | 'not_found'
  | 'item_not_found'
  | 'duplicate_name'
  | 'duplicate_symbol'
  | 'unknown_symbol'
  | 'unknown_symbols'
  | 'invalid_order'
  | 'limit';

/** One symbol on a watchlist, with the market's name and type. */
export interface WatchlistItemView {
  id: number;
  symbol: string;
  name: string;
  type: string;
  order: number;
}

/** A watchlist with its items in order (every answer that holds one). */
export interface WatchlistView {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  items: WatchlistItemView[];
}

/** POST /api/watchlists/import (201) and POST /api/watchlists/:id/import. */
export interface WatchlistImportResult {
  watchlist: WatchlistView;
  /** Items added. */
  imported: number;
  /** Rows of the file naming a symbol named above them (kept once). */
  duplicates: number;
  /** Symbols already on the list (append only). */
  skipped: number;
}

/** GET /api/watchlists */
export interface WatchlistListResponse {
  watchlists: WatchlistView[];
}

/** POST /api/watchlists/:id/items (201): the new item and the list as stored now. */
export interface WatchlistItemAdded {
  item: WatchlistItemView;
  watchlist: WatchlistView;
}

/** POST /api/watchlists, PATCH /api/watchlists/:id */
export interface WatchlistNameRequest {
  name: string;
}

/** POST /api/watchlists/:id/items */
export interface WatchlistItemRequest {
  symbol: string;
}

/** PUT /api/watchlists/:id/order: every item id of the list, once, in the new order. */
export interface WatchlistOrderRequest {
  itemIds: number[];
}
