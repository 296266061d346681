// Copy of the home page besides the features (those come from features/feature-list.ts).

export interface ExampleNotification {
  title: string;
  message: string;
  tone: 'info' | 'success' | 'warning';
}

// Worded like the notifications the product sends (spec section 9).
export const EXAMPLE_NOTIFICATIONS: readonly ExampleNotification[] = [
  { title: 'NYSE opening soon', message: 'New York Stock Exchange will open in 10 minutes.', tone: 'warning' },
  { title: 'BTC breakout Alert Triggered', message: 'Bitcoin crossed above your alert level.', tone: 'success' },
  { title: 'Tokyo Stock Exchange now closed', message: 'Tokyo Stock Exchange has closed for trading.', tone: 'info' },
];
