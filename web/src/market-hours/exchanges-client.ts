// GET /api/exchanges (market-hours api): the spec's client exchange shape plus live status,
// the next transition and whether the signed-in user follows the exchange (ExchangeView);
// PUT / DELETE /api/exchanges/:id/follow to follow or unfollow one.
import {
  MARKET_STATUSES,
  TRANSITION_KINDS,
  type ExchangeFollowResponse,
  type ExchangeView,
  type MarketStatus,
  type TransitionKind,
} from '@tickerbell/jobs/market-hours/shapes';
import { sendWithCsrf } from '../accounts/auth-client';
import { apiRequest, isRecord } from '../api/client';

/** Spec section 9: exchanges are polled every 60 s. */
export const EXCHANGES_POLL_MS = 60_000;

export const STATUS_LABELS: Readonly<Record<MarketStatus, string>> = {
  open: 'Open',
  closed: 'Closed',
  lunch: 'Lunch break',
  holiday: 'Holiday',
  weekend: 'Weekend',
};

export const TRANSITION_LABELS: Readonly<Record<TransitionKind, string>> = {
  open: 'Opens',
  break_start: 'Lunch break starts',
  break_end: 'Reopens after lunch',
  close: 'Closes',
};

function parseExchange(value: unknown, index: number): ExchangeView {
  if (!isRecord(value)) throw new TypeError(`exchanges[${index}]: expected an object`);
  const { id, name, location, open, close, timezone, days, breakStart, breakEnd, status, nextTransition, following } = value;
  for (const [field, text] of Object.entries({ id, name, open, close, timezone })) {
    if (typeof text !== 'string') throw new TypeError(`exchanges[${index}].${field}: expected text`);
  }
  if (!Array.isArray(days) || !days.every((day) => typeof day === 'number')) {
    throw new TypeError(`exchanges[${index}].days: expected weekday numbers`);
  }
  if (!MARKET_STATUSES.includes(status as MarketStatus)) throw new TypeError(`exchanges[${index}].status: unknown`);
  let next: ExchangeView['nextTransition'] = null;
  if (isRecord(nextTransition) && TRANSITION_KINDS.includes(nextTransition.kind as TransitionKind) && typeof nextTransition.at === 'string') {
    next = { kind: nextTransition.kind as TransitionKind, at: nextTransition.at };
  }
  return {
    id: id as string,
    name: name as string,
    location: typeof location === 'string' ? location : '',
    open: open as string,
    close: close as string,
    timezone: timezone as string,
    days: days as number[],
    // Both ends or neither, as the api answers them.
    ...(typeof breakStart === 'string' && typeof breakEnd === 'string' ? { breakStart, breakEnd } : { breakStart: null, breakEnd: null }),
    status: status as MarketStatus,
    nextTransition: next,
    following: following === true,
  };
}

export function parseExchanges(body: unknown): ExchangeView[] {
  if (!Array.isArray(body)) throw new TypeError('exchanges: expected a list');
  return body.map(parseExchange);
}

export function getExchanges(signal?: AbortSignal): Promise<ExchangeView[]> {
  return apiRequest('/api/exchanges', { signal, parse: parseExchanges });
}

export function parseExchangeFollow(body: unknown): ExchangeFollowResponse {
  if (!isRecord(body) || typeof body.id !== 'string' || typeof body.following !== 'boolean') {
    throw new TypeError('exchange follow: expected { id, following, followedExchangeIds }');
  }
  const { followedExchangeIds } = body;
  if (!Array.isArray(followedExchangeIds) || !followedExchangeIds.every((id) => typeof id === 'string')) {
    throw new TypeError('exchange follow: expected followedExchangeIds as a list of ids');
  }
  return { id: body.id, following: body.following, followedExchangeIds: followedExchangeIds as string[] };
}

/** Follows (PUT) or unfollows (DELETE) an exchange; answers every exchange id the user now follows. */
export function setExchangeFollow(id: string, follow: boolean): Promise<ExchangeFollowResponse> {
  return sendWithCsrf(`/api/exchanges/${encodeURIComponent(id)}/follow`, { method: follow ? 'PUT' : 'DELETE', parse: parseExchangeFollow });
}

/** By name as a reader sorts it (the api answers by code, which means nothing to most traders). */
export function sortExchangesByName<T extends { name: string }>(exchanges: readonly T[]): T[] {
  return [...exchanges].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

export const EXCHANGE_REGIONS = ['Americas', 'Europe', 'Africa', 'Asia', 'Oceania', 'Other'] as const;
export type ExchangeRegion = (typeof EXCHANGE_REGIONS)[number];

const REGION_OF_ZONE_AREA: Readonly<Record<string, ExchangeRegion>> = {
  America: 'Americas',
  Europe: 'Europe',
  Africa: 'Africa',
  Asia: 'Asia',
  Australia: 'Oceania',
  Pacific: 'Oceania',
};

/** The region of an exchange, from the area of its IANA time zone ("Europe/London" is Europe). */
export function regionOf(timezone: string): ExchangeRegion {
  return REGION_OF_ZONE_AREA[timezone.split('/')[0] ?? ''] ?? 'Other';
}

/** Exchanges grouped by region (in EXCHANGE_REGIONS order, empty regions left out), by name within each. */
export function groupExchangesByRegion<T extends { name: string; timezone: string }>(exchanges: readonly T[]): { region: ExchangeRegion; exchanges: T[] }[] {
  const sorted = sortExchangesByName(exchanges);
  return EXCHANGE_REGIONS.map((region) => ({ region, exchanges: sorted.filter((exchange) => regionOf(exchange.timezone) === region) })).filter(
    (group) => group.exchanges.length > 0,
  );
}

/** "in 4 min 05 s", "in 2 h 07 min", "in 3 d 4 h"; "now" once the moment has passed. */
export function formatCountdown(fromMs: number, toMs: number): string {
  const seconds = Math.floor((toMs - fromMs) / 1000);
  if (seconds <= 0) return 'now';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = seconds % 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (days > 0) return `in ${days} d ${hours} h`;
  if (hours > 0) return `in ${hours} h ${pad(minutes)} min`;
  return `in ${minutes} min ${pad(secs)} s`;
}

/** Regular hours as sessions: "09:30–12:00, 13:00–16:00" with a lunch break, "09:30–16:00" without. */
export function formatTradingHours(exchange: { open: string; close: string; breakStart: string | null; breakEnd: string | null }): string {
  const { open, close, breakStart, breakEnd } = exchange;
  return breakStart !== null && breakEnd !== null ? `${open}–${breakStart}, ${breakEnd}–${close}` : `${open}–${close}`;
}

const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Weekday numbers (0 = Sunday … 6 = Saturday, 7 also Sunday) as "Mon–Fri" or "Mon, Wed". */
export function formatTradingDays(days: readonly number[]): string {
  const sorted = [...new Set(days.map((day) => day % 7))].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
  if (sorted.length === 0) return 'No trading days';
  const mondayIndex = sorted.map((day) => (day + 6) % 7);
  const contiguous = mondayIndex.every((value, index) => index === 0 || value === (mondayIndex[index - 1] ?? 0) + 1);
  const name = (day: number): string => WEEKDAY_NAMES[day] ?? '?';
  if (contiguous && sorted.length > 2) return `${name(sorted[0] ?? 0)}–${name(sorted[sorted.length - 1] ?? 0)}`;
  return sorted.map(name).join(', ');
}
