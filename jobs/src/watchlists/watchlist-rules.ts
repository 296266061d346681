/**
 * The rules of watchlists, without I/O: the limits, the refusals (WatchlistError, whose code the
 * api maps to a status) and the check of a proposed order.
 */

import { WATCHLIST_ITEMS_MAX, type WatchlistErrorCode } from './watchlists.shapes';

export { WATCHLIST_ITEMS_MAX, WATCHLIST_NAME_MAX, WATCHLIST_SYMBOL_MAX, WATCHLISTS_PER_USER_MAX, type WatchlistErrorCode } from './watchlists.shapes';

/** Unknown symbols listed in an import's error; the count says how many there were in all. */
export const UNKNOWN_SYMBOLS_LISTED = 100;

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

export const watchlistNotFound = () => new WatchlistError('not_found', 'No such watchlist');
export const duplicateWatchlistName = (name: string) => new WatchlistError('duplicate_name', `You already have a watchlist named "${name}"`);
export const watchlistItemsLimit = () =>
  new WatchlistError('limit', `A watchlist holds at most ${WATCHLIST_ITEMS_MAX} symbols`, { max: WATCHLIST_ITEMS_MAX });

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
