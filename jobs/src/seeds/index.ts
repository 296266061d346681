export { runSeeds, SEEDS } from './seeds';
export { MARKET_SEED } from './markets.seed';
