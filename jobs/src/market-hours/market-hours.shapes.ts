// HTTP shapes of the market-hours domain (GET /api/exchanges and the follow routes). Plain types
// and constants with no runtime imports: the web client imports this file as
// `@tickerbell/jobs/market-hours/shapes`; the server's views come from it.

export const MARKET_STATUSES = ['open', 'closed', 'lunch', 'holiday', 'weekend'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];

export const TRANSITION_KINDS = ['open', 'break_start', 'break_end', 'close'] as const;
export type TransitionKind = (typeof TRANSITION_KINDS)[number];

/** The spec's client shape of an exchange (section 3): regular hours in exchange-local 'HH:MM', days 0 = Sunday. */
export interface ClientExchange {
  id: string;
  name: string;
  location: string;
  open: string;
  close: string;
  timezone: string;
  days: number[];
}

/** One exchange of GET /api/exchanges (a bare list): the client shape plus its lunch break and live status. */
export interface ExchangeView extends ClientExchange {
  /** The regular lunch break in exchange-local 'HH:MM' (Hong Kong 12:00–13:00); both null when the exchange trades straight through. */
  breakStart: string | null;
  breakEnd: string | null;
  status: MarketStatus;
  /** The next open, lunch break start or end, or close (ISO instant); null when none is known. */
  nextTransition: { kind: TransitionKind; at: string } | null;
  /** Whether the signed-in user follows the exchange's notifications (false when signed out). */
  following: boolean;
}

/** PUT / DELETE /api/exchanges/:id/follow */
export interface ExchangeFollowResponse {
  id: string;
  following: boolean;
  followedExchangeIds: string[];
}
