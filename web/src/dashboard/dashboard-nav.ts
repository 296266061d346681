// Dashboard areas. The spec lists many feature areas; only the ones built so far appear here, so
// the navigation never leads to a missing page. Add an entry when its page lands.
export interface DashboardArea {
  to: string;
  label: string;
  description: string;
  end: boolean;
}

export const DASHBOARD_AREAS: readonly DashboardArea[] = [
  { to: '/dashboard', label: 'Overview', description: 'Followed exchanges and your latest notifications.', end: true },
  { to: '/dashboard/exchanges', label: 'Exchanges', description: 'Every exchange, its status and its next open or close.', end: false },
  { to: '/dashboard/alerts', label: 'Alerts', description: 'Price and technical alerts, spoken if you like, with their history.', end: false },
  { to: '/dashboard/cot', label: 'COT', description: 'Futures positioning: percentile heat map, extremes and divergence.', end: false },
  { to: '/dashboard/insiders', label: 'Insiders', description: 'SEC Form 4 insider trades: screener, cluster buys and company follows.', end: false },
  { to: '/dashboard/whales', label: 'Whales', description: 'Large Ethereum transfers live, exchange netflow and alerts on the addresses you watch.', end: false },
  { to: '/dashboard/yields', label: 'Yields', description: 'Liquidity-pool APRs checked against DefiLlama, explained scores, and yield alerts.', end: false },
  { to: '/dashboard/predictions', label: 'Predictions', description: 'Polymarket markets, your forecasts scored against the market price, and mispricing alerts.', end: false },
  { to: '/dashboard/lockups', label: 'Lock-ups', description: 'IPO lock-up expirations by month, scored for selling pressure, with alerts before the date.', end: false },
  { to: '/dashboard/chat', label: 'Chat', description: 'Trading rooms live: cashtags with prices, bull/bear tags, threads, mentions and moderation.', end: false },
  { to: '/dashboard/watchlists', label: 'Watchlists', description: 'Your symbols with live prices, in the order you choose.', end: false },
  { to: '/dashboard/charts', label: 'Charts', description: 'Candles, volume and indicators, with saved layouts.', end: false },
  { to: '/dashboard/activity', label: 'Activity', description: 'Your full notification history.', end: false },
  { to: '/dashboard/settings', label: 'Settings', description: 'Theme, notification sound, teams and billing (Settings → Billing).', end: false },
];

/** The area a dashboard path belongs to (its own entry, or the one it is under); undefined outside them. */
export function currentDashboardArea(pathname: string): DashboardArea | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return DASHBOARD_AREAS.find((area) => (area.end ? path === area.to : path === area.to || path.startsWith(`${area.to}/`)));
}
