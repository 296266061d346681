export * from './watchlist-csv';
export * from './watchlists';
