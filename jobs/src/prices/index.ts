export * from './price-source';
export * from './price-http';
export * from './binance.client';
export * from './coingecko.client';
export * from './alpaca.client';
export * from './simulated-prices';
export * from './prices.config';
