export { PriceFetchError, PriceSourceError, type PriceSource, type Quote } from './price-source';
export { loadPricesConfig, type PriceSources, priceSourcesFromConfig } from './prices.config';
export { type LatestPrice, latestPrices, latestPriceSchema, priceUpdatesChannel, storeQuotes } from './latest-prices.store';
export { searchMarkets, upsertTickBars } from './prices.store';
export { createPricesHandlers } from './prices.processor';
export { PRICES_SCHEDULES } from './prices.schedules';
export { marketBars, marketBarsParamsSchema, marketBarsQuerySchema, marketQuotes, marketQuotesQuerySchema, requestFirstQuotes, marketSearchQuerySchema } from './market-data';
