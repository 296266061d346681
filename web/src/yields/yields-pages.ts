// The yields dashboard screens' one lazy entry (pools table, pool page, alerts load as one chunk).
export { YieldsAlertsPage } from './yields-alerts-page';
export { YieldsPoolPage } from './yields-pool-page';
export { YieldsPoolsPage } from './yields-pools-page';
