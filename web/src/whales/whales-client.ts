// The whales api (/api/whales/...): the live transfer feed, the last day's largest transfers, an
// address's page, the signed-in user's watchlist, exchange netflow. Shaped as
// @tickerbell/jobs/whales/shapes; amounts and USD stay decimal strings until drawn.
import {
  WHALE_ALERT_FREQUENCIES,
  WHALE_DIRECTIONS,
  WHALE_PRICE_SOURCES,
  WHALE_PRICE_STATUSES,
  WHALE_TRANSACTION_TYPES,
  type WhaleAddressLabel,
  type WhaleAddressPage,
  type WhaleAlertFrequency,
  type WhaleDirection,
  type WhaleExchangeSummary,
  type WhaleFeedPage,
  type WhaleFeedSource,
  type WhaleLargestPage,
  type WhaleNetflowBucket,
  type WhaleNetflowPoint,
  type WhaleNetflowSeries,
  type WhaleTransactionType,
  type WhaleTransferView,
  type WhaleWatchInput,
  type WhaleWatchView,
} from '@tickerbell/jobs/whales/shapes';
import { apiRequest } from '../api/client';
import { bool, count, decimal, decimalOrNull, list, oneOf, record, text, textOrNull } from '../api/answer';
import { sendWithCsrf } from '../accounts/auth-client';
import { MINUS, formatUsd, formatUsdCompact } from '../format/usd';

export { formatUsd, formatUsdCompact };

// ---- Parsing ----

export function parseAddressLabel(value: unknown, where: string): WhaleAddressLabel {
  const s = record(value, where);
  return {
    address: text(s.address, `${where}.address`),
    label: textOrNull(s.label, `${where}.label`),
    addressType: textOrNull(s.addressType, `${where}.addressType`),
    exchangeName: textOrNull(s.exchangeName, `${where}.exchangeName`),
    customLabel: textOrNull(s.customLabel, `${where}.customLabel`),
  };
}

function labelOrNull(value: unknown, where: string): WhaleAddressLabel | null {
  return value === null || value === undefined ? null : parseAddressLabel(value, where);
}

export function parseTransferView(value: unknown, where = 'transfer'): WhaleTransferView {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  const logIndex = s.logIndex ?? null;
  if (logIndex !== null) count(logIndex, at('logIndex'));
  const source = s.priceSource ?? null;
  return {
    id: text(s.id, at('id')),
    txHash: text(s.txHash, at('txHash')),
    logIndex: logIndex as number | null,
    token: textOrNull(s.token, at('token')),
    tokenSymbol: textOrNull(s.tokenSymbol, at('tokenSymbol')),
    from: text(s.from, at('from')),
    to: textOrNull(s.to, at('to')),
    amount: decimalOrNull(s.amount, at('amount')),
    rawAmount: decimal(s.rawAmount, at('rawAmount')),
    usdValue: decimalOrNull(s.usdValue, at('usdValue')),
    usdPrice: decimalOrNull(s.usdPrice, at('usdPrice')),
    priceStatus: oneOf(s.priceStatus, WHALE_PRICE_STATUSES, at('priceStatus')),
    priceSource: source === null ? null : oneOf(source, WHALE_PRICE_SOURCES, at('priceSource')),
    transactionType: oneOf(s.transactionType, WHALE_TRANSACTION_TYPES, at('transactionType')),
    isWhale: bool(s.isWhale, at('isWhale')),
    blockNumber: decimal(s.blockNumber, at('blockNumber')),
    blockHash: text(s.blockHash, at('blockHash')),
    blockTime: text(s.blockTime, at('blockTime')),
    fromLabel: labelOrNull(s.fromLabel, at('fromLabel')),
    toLabel: labelOrNull(s.toLabel, at('toLabel')),
    explorerUrl: text(s.explorerUrl, at('explorerUrl')),
  };
}

function parseSource(value: unknown, where: string): WhaleFeedSource {
  const s = record(value, where);
  return {
    kind: oneOf(s.kind, ['live', 'replay'] as const, `${where}.kind`),
    checkpointBlock: textOrNull(s.checkpointBlock, `${where}.checkpointBlock`),
    checkpointTime: textOrNull(s.checkpointTime, `${where}.checkpointTime`),
  };
}

export function parseFeedPage(body: unknown): WhaleFeedPage {
  const s = record(body, 'feed');
  return { rows: list(s.rows, 'feed.rows', parseTransferView), nextCursor: textOrNull(s.nextCursor, 'feed.nextCursor'), source: parseSource(s.source, 'feed.source') };
}

export function parseLargestPage(body: unknown): WhaleLargestPage {
  const s = record(body, 'largest');
  return { hours: count(s.hours, 'largest.hours'), rows: list(s.rows, 'largest.rows', parseTransferView), source: parseSource(s.source, 'largest.source') };
}

export function parseWatchView(value: unknown, where = 'watch'): WhaleWatchView {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  return {
    id: count(s.id, at('id')),
    address: text(s.address, at('address')),
    label: parseAddressLabel(s.label, at('label')),
    customLabel: textOrNull(s.customLabel, at('customLabel')),
    alertEnabled: bool(s.alertEnabled, at('alertEnabled')),
    alertThreshold: decimalOrNull(s.alertThreshold, at('alertThreshold')),
    alertFrequency: oneOf(s.alertFrequency, WHALE_ALERT_FREQUENCIES, at('alertFrequency')),
    timeZone: text(s.timeZone, at('timeZone')),
    createdAt: text(s.createdAt, at('createdAt')),
    lastAlertAt: textOrNull(s.lastAlertAt, at('lastAlertAt')),
  };
}

export function parseNetflowPoint(value: unknown, where: string): WhaleNetflowPoint {
  const s = record(value, where);
  return {
    start: text(s.start, `${where}.start`),
    inflowUsd: decimal(s.inflowUsd, `${where}.inflowUsd`),
    outflowUsd: decimal(s.outflowUsd, `${where}.outflowUsd`),
    netflowUsd: decimal(s.netflowUsd, `${where}.netflowUsd`),
    transfers: count(s.transfers, `${where}.transfers`),
    unpricedTransfers: count(s.unpricedTransfers, `${where}.unpricedTransfers`),
  };
}

export function parseAddressPage(body: unknown): WhaleAddressPage {
  const s = record(body, 'address');
  return {
    label: parseAddressLabel(s.label, 'address.label'),
    watch: s.watch === null || s.watch === undefined ? null : parseWatchView(s.watch, 'address.watch'),
    transfers: list(s.transfers, 'address.transfers', parseTransferView),
    netflow: list(s.netflow, 'address.netflow', parseNetflowPoint),
    balanceChanges: list(s.balanceChanges, 'address.balanceChanges', (entry, at) => {
      const c = record(entry, at);
      return {
        token: textOrNull(c.token, `${at}.token`),
        tokenSymbol: textOrNull(c.tokenSymbol, `${at}.tokenSymbol`),
        inAmount: decimalOrNull(c.inAmount, `${at}.inAmount`),
        outAmount: decimalOrNull(c.outAmount, `${at}.outAmount`),
        netUsd: decimalOrNull(c.netUsd, `${at}.netUsd`),
      };
    }),
  };
}

export function parseNetflowSeries(body: unknown): WhaleNetflowSeries {
  const s = record(body, 'netflow');
  return {
    exchange: text(s.exchange, 'netflow.exchange'),
    token: textOrNull(s.token, 'netflow.token'),
    bucket: oneOf(s.bucket, ['hour', 'day'] as const, 'netflow.bucket'),
    points: list(s.points, 'netflow.points', parseNetflowPoint),
  };
}

export function parseExchangeSummary(value: unknown, where: string): WhaleExchangeSummary {
  const s = record(value, where);
  return {
    exchange: text(s.exchange, `${where}.exchange`),
    inflowUsd24h: decimal(s.inflowUsd24h, `${where}.inflowUsd24h`),
    outflowUsd24h: decimal(s.outflowUsd24h, `${where}.outflowUsd24h`),
    netflowUsd24h: decimal(s.netflowUsd24h, `${where}.netflowUsd24h`),
    transfers24h: count(s.transfers24h, `${where}.transfers24h`),
  };
}

// ---- The feed's query ----

export interface WhaleFeedQuery {
  /** 'ETH' or a token contract (lowercase 0x + 40 hex). */
  token?: string;
  minUsd?: number;
  direction?: Exclude<WhaleDirection, 'any'>;
  exchange?: string;
  address?: string;
  cursor?: string;
  limit?: number;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** An address as the api takes it in a query: lowercase (the api compares lowercase). */
export function isAddress(value: string): boolean {
  return ADDRESS.test(value.trim());
}

export function feedParams(query: WhaleFeedQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') params.set(key, String(value));
  };
  set('token', query.token);
  set('minUsd', query.minUsd);
  set('direction', query.direction);
  set('exchange', query.exchange);
  set('address', query.address);
  set('cursor', query.cursor);
  set('limit', query.limit);
  return params;
}

/** The feed's filters from the address bar: values the api would refuse are dropped, not sent. */
export function feedQueryOf(params: URLSearchParams): WhaleFeedQuery {
  const query: WhaleFeedQuery = {};
  const token = (params.get('token') ?? '').trim();
  if (token.toUpperCase() === 'ETH') query.token = 'ETH';
  else if (isAddress(token)) query.token = token.toLowerCase();
  const min = Number(params.get('minUsd') ?? '');
  // The api takes dollars with at most 2 decimals.
  if (params.get('minUsd') && Number.isFinite(min) && min > 0) query.minUsd = Math.round(min * 100) / 100;
  const direction = params.get('direction');
  if (direction === 'exchange_inflow' || direction === 'exchange_outflow') query.direction = direction;
  const exchange = (params.get('exchange') ?? '').trim();
  if (exchange && exchange.length <= 100) query.exchange = exchange;
  const address = (params.get('address') ?? '').trim();
  if (isAddress(address)) query.address = address.toLowerCase();
  return query;
}

export function feedPath(query: WhaleFeedQuery): string {
  const params = feedParams(query).toString();
  return `/api/whales/transfers${params ? `?${params}` : ''}`;
}

/** Whether a transfer that arrived live belongs in the feed as filtered (the api's filters, applied in the browser). */
export function matchesFeedQuery(row: WhaleTransferView, query: WhaleFeedQuery): boolean {
  if (query.token === 'ETH' && row.token !== null) return false;
  if (query.token && query.token !== 'ETH' && row.token !== query.token) return false;
  if (query.minUsd !== undefined && (row.usdValue === null || Number(row.usdValue) < query.minUsd)) return false;
  if (query.direction && row.transactionType !== query.direction) return false;
  if (query.exchange) {
    const wanted = query.exchange.toLowerCase();
    const names = [row.fromLabel?.exchangeName, row.toLabel?.exchangeName].filter((name): name is string => !!name).map((name) => name.toLowerCase());
    if (!names.includes(wanted)) return false;
  }
  if (query.address && row.from !== query.address && row.to !== query.address) return false;
  return true;
}

// ---- Requests ----

export function getFeed(query: WhaleFeedQuery, signal?: AbortSignal): Promise<WhaleFeedPage> {
  return apiRequest(feedPath(query), { signal, parse: parseFeedPage });
}

export function getLargest(hours = 24, signal?: AbortSignal): Promise<WhaleLargestPage> {
  return apiRequest(`/api/whales/largest?hours=${hours}`, { signal, parse: parseLargestPage });
}

export function getAddressPage(address: string, signal?: AbortSignal): Promise<WhaleAddressPage> {
  return apiRequest(`/api/whales/addresses/${encodeURIComponent(address)}`, { signal, parse: parseAddressPage });
}

export function getWatchlist(signal?: AbortSignal): Promise<WhaleWatchView[]> {
  return apiRequest('/api/whales/watchlist', { signal, parse: (body) => list(record(body, 'watchlist').watches, 'watchlist.watches', (entry, at) => parseWatchView(entry, at)) });
}

export function addWatch(input: WhaleWatchInput): Promise<WhaleWatchView> {
  return sendWithCsrf('/api/whales/watchlist', { method: 'POST', body: input, parse: (body) => parseWatchView(body) });
}

export function updateWatch(id: number, input: Partial<WhaleWatchInput>): Promise<WhaleWatchView> {
  return sendWithCsrf(`/api/whales/watchlist/${id}`, { method: 'PATCH', body: input, parse: (body) => parseWatchView(body) });
}

export function removeWatch(id: number): Promise<void> {
  return sendWithCsrf(`/api/whales/watchlist/${id}`, { method: 'DELETE', parse: () => undefined });
}

export interface NetflowQuery {
  exchange: string;
  /** 'eth', a token contract; undefined = every token summed. */
  token?: string;
  bucket: WhaleNetflowBucket;
  from?: string;
  to?: string;
}

export function netflowPath(query: NetflowQuery): string {
  const params = new URLSearchParams({ exchange: query.exchange, bucket: query.bucket });
  if (query.token) params.set('token', query.token);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  return `/api/whales/netflow?${params.toString()}`;
}

export function getNetflow(query: NetflowQuery, signal?: AbortSignal): Promise<WhaleNetflowSeries> {
  return apiRequest(netflowPath(query), { signal, parse: parseNetflowSeries });
}

export function getExchanges(signal?: AbortSignal): Promise<WhaleExchangeSummary[]> {
  return apiRequest('/api/whales/exchanges', { signal, parse: (body) => list(record(body, 'exchanges').exchanges, 'exchanges.exchanges', parseExchangeSummary) });
}

// ---- Formatting ----

const PRICE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const SMALL_PRICE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 4 });

/** "+$1.2M" / "−$3.4M": a net flow with its sign (zero unsigned). */
export function formatNetUsd(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  return n > 0 ? `+${formatUsdCompact(value)}` : formatUsdCompact(value);
}

/** A unit price: "$3,421.50", "$0.9998". */
export function formatPrice(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  return n >= 1 ? PRICE.format(n) : SMALL_PRICE.format(n);
}

/**
 * A token amount to read at a glance: whole units from 1,000 up, 2 decimals from 1, 4 significant
 * digits below. Computed on the decimal string (not a float) up to the integer part.
 */
export function formatAmount(value: string | null): string {
  if (value === null) return '—';
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const int = whole.replace(/^0+(?=\d)/, '');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let shown: string;
  if (int.length >= 4) {
    // Rounded to the unit: the fraction's first digit decides.
    const up = Number(fraction[0] ?? '0') >= 5;
    shown = up ? (BigInt(int) + 1n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',') : grouped;
  } else if (int !== '0') {
    const n = Number(`${int}.${fraction || '0'}`);
    shown = n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
  } else {
    const n = Number(`0.${fraction || '0'}`);
    shown = n === 0 ? '0' : n.toLocaleString('en-US', { maximumSignificantDigits: 4 });
  }
  return negative ? `${MINUS}${shown}` : shown;
}

/** The token's name on screen: its symbol, else its contract shortened. */
export function tokenName(row: { token: string | null; tokenSymbol: string | null }): string {
  if (row.token === null) return row.tokenSymbol ?? 'ETH';
  return row.tokenSymbol ?? shortAddress(row.token);
}

/** "0xab12…cd34". */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** What an address is called on screen: the viewer's own label first, then the public one. */
export function addressName(address: string, label: WhaleAddressLabel | null): string {
  return label?.customLabel ?? label?.label ?? label?.exchangeName ?? shortAddress(address);
}

export const TRANSACTION_TYPE_LABELS: Readonly<Record<WhaleTransactionType, string>> = {
  transfer: 'Transfer',
  exchange_inflow: 'Exchange inflow',
  exchange_outflow: 'Exchange outflow',
  mint: 'Mint',
  burn: 'Burn',
};

export const DIRECTION_LABELS: Readonly<Record<WhaleDirection, string>> = {
  any: 'Any direction',
  exchange_inflow: 'Into exchanges',
  exchange_outflow: 'Out of exchanges',
};

export const FREQUENCY_LABELS: Readonly<Record<WhaleAlertFrequency, string>> = {
  immediate: 'Immediately',
  hourly: 'Hourly digest',
  daily: 'Daily digest (local midnight)',
};

export { WHALE_ALERT_FREQUENCIES, WHALE_DIRECTIONS };

const UTC_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'UTC',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** A block time in UTC: { date: '2026-11-27', time: '15:08:47 UTC' }. */
export function blockTimeParts(iso: string): { date: string; time: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { date: iso, time: '' };
  const parts = Object.fromEntries(UTC_PARTS.formatToParts(at).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second} UTC` };
}

/** "3 min ago", "2 h ago", "just now" (the feed's freshness at a glance; the exact time is its title). */
export function ageOf(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

export const ETHERSCAN_ADDRESS = (address: string): string => `https://etherscan.io/address/${address}`;

/**
 * A live transfer as this viewer reads it: the stream sends one event for every viewer, without
 * anyone's own labels, so the viewer's custom labels (address -> label, from the watchlist) are put
 * on its sides here, as the api puts them on the rows it answers.
 */
export function withViewerLabels(row: WhaleTransferView, customLabels: ReadonlyMap<string, string>): WhaleTransferView {
  const side = (address: string | null, label: WhaleAddressLabel | null): WhaleAddressLabel | null => {
    const custom = address === null ? undefined : customLabels.get(address);
    if (custom === undefined) return label;
    return { ...(label ?? { address: address as string, label: null, addressType: null, exchangeName: null }), customLabel: custom };
  };
  return { ...row, fromLabel: side(row.from, row.fromLabel), toLabel: side(row.to, row.toLabel) };
}
