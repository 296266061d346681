/** The kinds of activity the product logs (spec section 3, "Activity action kinds"). */
export const ACTIVITY_ACTIONS = [
  'SIGN_UP',
  'SIGN_IN',
  'SIGN_OUT',
  'UPDATE_PASSWORD',
  'DELETE_ACCOUNT',
  'UPDATE_ACCOUNT',
  'CREATE_TEAM',
  'REMOVE_TEAM_MEMBER',
  'INVITE_TEAM_MEMBER',
  'ACCEPT_INVITATION',
  'MARKET_OPEN',
  'MARKET_CLOSE',
  'MARKET_OPENING_SOON',
  'MARKET_CLOSING_SOON',
  'MARKET_ALERT_TECHNICAL',
  'MARKET_ALERT_PRICE',
  'MARKET_ALERT_VOLATILITY',
  'MARKET_ALERT_NEWS',
  // Billing: a team's subscription changed (plan, status, seats), written with the change.
  'UPDATE_SUBSCRIPTION',
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
