// Where the whales screens live: the dashboard's live feed, watchlist, exchange netflow and address
// pages, and the public research page.
export const WHALES_FEED_PATH = '/dashboard/whales';
export const WHALES_WATCHLIST_PATH = '/dashboard/whales/watchlist';
export const WHALES_EXCHANGES_PATH = '/dashboard/whales/exchanges';
export const WHALES_RESEARCH_PATH = '/research/whales';

/** An address's page (addresses are shown and linked lowercase). */
export function whaleAddressPath(address: string): string {
  return `${WHALES_FEED_PATH}/addresses/${encodeURIComponent(address.toLowerCase())}`;
}
