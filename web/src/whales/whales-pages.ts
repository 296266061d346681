// The whales dashboard screens' one lazy entry (feed, watchlist, exchanges and address pages load as one chunk).
export { WhalesAddressPage } from './whales-address-page';
export { WhalesExchangesPage } from './whales-exchanges-page';
export { WhalesFeedPage } from './whales-feed-page';
export { WhalesWatchlistPage } from './whales-watchlist-page';
