export { WATCHLIST_CSV_MAX_BYTES, WatchlistCsvError } from './watchlist-csv';
export { WATCHLIST_ITEMS_MAX, WATCHLIST_NAME_MAX, WATCHLIST_SYMBOL_MAX, WatchlistError, type WatchlistErrorCode, WATCHLISTS_PER_USER_MAX } from './watchlist-rules';
export { publishWatchlistChange, watchlistChangesChannel, watchlistChangeSchema } from './watchlist-changes';
export { addWatchlistItem, appendWatchlistCsv, createWatchlist, deleteWatchlist, exportWatchlistCsv, getWatchlist, importWatchlist, listWatchlists, removeWatchlistItem, renameWatchlist, reorderWatchlist, type WatchlistsAccess } from './watchlists.service';
export { loadWatchedSymbols, type WatchlistImportResult, type WatchlistItemView, type WatchlistView } from './watchlists.store';
