// The predictions dashboard screens' one lazy entry (browser, market, performance and mispricing load as one chunk).
export { PredictionsMarketPage } from './predictions-market-page';
export { PredictionsMarketsPage } from './predictions-markets-page';
export { PredictionsMispricingPage } from './predictions-mispricing-page';
export { PredictionsPerformancePage } from './predictions-performance-page';
