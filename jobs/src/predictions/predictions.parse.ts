import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PredictionResolution } from './predictions.shapes';

// Pure parsers of Polymarket's answers: Gamma `/markets` and `/events` (camelCase; `outcomes`,
// `outcomePrices` and `clobTokenIds` are JSON arrays encoded as strings, so they are parsed twice;
// `closedTime` is "YYYY-MM-DD HH:MM:SS+00", other times ISO 8601 with 0 to 6 fractional digits; tags
// live on events), and the CLOB's `/book` (levels arrive unsorted: bids ascending, asks descending in
// the recorded answer) and `/midpoint`. Every quirk here is seen in the recorded answers
// (data/README.md) except `/midpoint`, of which no capture exists: its shape is the CLOB reference's.

/** Why a Polymarket request failed: the answer's shape (`malformed`), an HTTP status, no answer in time, or the network. */
export type PredictionsSourceFailure = 'malformed' | 'http' | 'timeout' | 'network';

/**
 * A failed or unusable Polymarket answer. `reason` says which kind; the message names the request
 * and, for a malformed answer, the record and field at fault. `retryable`: the same request may
 * succeed later (timeouts, HTTP 429 and 5xx, the network); a malformed answer is not retried.
 */
export class PredictionsSourceError extends Error {
  readonly retryable: boolean;
  readonly status?: number;
  /** The server's Retry-After, when it sent one. */
  readonly retryAfterMs?: number;

  constructor(
    readonly reason: PredictionsSourceFailure,
    message: string,
    details: { retryable?: boolean; status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PredictionsSourceError';
    this.retryable = details.retryable ?? reason !== 'malformed';
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
  }
}

// ---------------------------------------------------------------------------------------------
// Small pure helpers.

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

/**
 * A decimal (string as Gamma writes it, or a JSON number) rounded half up to `scale` decimals,
 * exactly (no binary floating point on strings: "0.5843311669077693146635445446077281" -> "0.5843").
 * Null for null, '' or anything that is not a finite number.
 */
export function roundDecimal(value: string | number | null | undefined, scale: number): string | null {
  if (value === null || value === undefined) return null;
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (text === '') return null;
  // Exponent forms ("1e-7", numbers that small or large): through toFixed, which is exact enough there.
  // Fast path: a plain decimal with at most `scale` decimals needs no rounding, only padding.
  const plain = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (plain && (plain[2] ?? '').length <= scale) {
    const whole = plain[1].replace(/^0+(?=\d)/, '');
    return scale === 0 ? whole : `${whole}.${(plain[2] ?? '').padEnd(scale, '0')}`;
  }
  if (/e/i.test(text)) {
    const n = Number(text);
    if (!Number.isFinite(n)) return null;
    text = n.toFixed(scale + 2);
  }
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const digits = `${m[2] || '0'}${(m[3] ?? '').padEnd(scale + 1, '0').slice(0, scale + 1)}`;
  const rounded = (BigInt(digits) + 5n) / 10n;
  const s = rounded.toString().padStart(scale + 1, '0');
  const out = scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`;
  return rounded === 0n || m[1] !== '-' ? out : `-${out}`;
}

/** A price of exactly one ("1", "1.0", "1.000"): the winning outcome of a resolved market. */
export const isExactlyOne = (price: string) => /^1(\.0*)?$/.test(price.trim());

/**
 * Gamma's times: ISO 8601 with `Z` and 0 to 6 fractional digits, and `closedTime` / tag
 * `publishedAt` as "YYYY-MM-DD HH:MM:SS(.fff)+00". Null for null or ''; undefined when unreadable.
 */
export function parseGammaTime(value: unknown): Date | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/.exec(value.trim());
  if (!m) return undefined;
  const [, date, time = '00:00:00', fraction = '', zone = 'Z'] = m;
  const ms = fraction ? `.${fraction.slice(1, 4).padEnd(3, '0')}` : '';
  const offset = zone === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const at = new Date(`${date}T${time.length === 5 ? `${time}:00` : time}${ms}${offset}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

// ---------------------------------------------------------------------------------------------
// Gamma: markets and events.

/** A tag of a Gamma event. `forceHide` / `forceShow` are Polymarket's display flags (see categoryOf). */
export interface GammaTag {
  id: string;
  label: string;
  slug: string;
  forceShow: boolean;
  forceHide: boolean;
}

/** What a market takes from its event: title, tags (null when the answer carried none) and negative risk. */
export interface GammaEventInfo {
  id: string;
  slug: string | null;
  title: string | null;
  tags: GammaTag[] | null;
  negRisk: boolean | null;
  negRiskAugmented: boolean | null;
}

/** A Gamma event of `/events`, with its markets. */
export interface GammaEvent extends GammaEventInfo {
  active: boolean;
  closed: boolean;
  markets: GammaMarket[];
}

/** One Gamma market, its double-encoded fields decoded and its numbers and times read. */
export interface GammaMarket {
  id: string;
  conditionId: string | null;
  slug: string;
  question: string;
  description: string | null;
  /** The market's own `category` field, which only legacy (2020-21) markets carry. */
  legacyCategory: string | null;
  resolutionSource: string | null;
  outcomes: string[];
  /** Decimal strings as Gamma wrote them, one per outcome; null when Gamma gave none (not yet deployed). */
  outcomePrices: string[] | null;
  clobTokenIds: string[];
  active: boolean;
  closed: boolean;
  acceptingOrders: boolean;
  endDate: Date | null;
  closedTime: Date | null;
  umaEndDate: Date | null;
  /** UMA's oracle state: "proposed", "disputed", "resolved"; null when absent (legacy and automatically resolved markets). */
  umaResolutionStatus: string | null;
  /** An AMM-era market (a non-empty `marketMakerAddress`): resolved by Polymarket before UMA, with no UMA status. */
  legacyAmm: boolean;
  negRisk: boolean | null;
  bestBid: string | null;
  bestAsk: string | null;
  spread: string | null;
  volume24h: string | null;
  volume: string | null;
  liquidity: string | null;
  updatedAt: Date | null;
  /** The market's first event as embedded in the answer (no tags in `/markets` answers). */
  event: GammaEventInfo | null;
}

const numberish = z.union([z.string(), z.number()]).nullish();
const text = z.string().nullish();

const tagSchema = z.object({
  id: z.union([z.string(), z.number()]),
  label: z.string().nullish(),
  slug: z.string().nullish(),
  forceShow: z.boolean().nullish(),
  forceHide: z.boolean().nullish(),
});

const eventInfoSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  slug: text,
  title: text,
  tags: z.array(z.unknown()).nullish(),
  negRisk: z.boolean().nullish(),
  negRiskAugmented: z.boolean().nullish(),
  active: z.boolean().nullish(),
  closed: z.boolean().nullish(),
  markets: z.array(z.unknown()).nullish(),
});

const marketSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  question: z.string(),
  conditionId: text,
  slug: text,
  description: text,
  category: text,
  resolutionSource: text,
  outcomes: z.unknown().optional(),
  outcomePrices: z.unknown().optional(),
  clobTokenIds: z.unknown().optional(),
  active: z.boolean().nullish(),
  closed: z.boolean().nullish(),
  acceptingOrders: z.boolean().nullish(),
  endDate: z.unknown().optional(),
  closedTime: z.unknown().optional(),
  umaEndDate: z.unknown().optional(),
  umaResolutionStatus: text,
  marketMakerAddress: text,
  negRisk: z.boolean().nullish(),
  bestBid: numberish,
  bestAsk: numberish,
  spread: numberish,
  volume24hr: numberish,
  volume: numberish,
  volumeNum: numberish,
  liquidity: numberish,
  liquidityNum: numberish,
  updatedAt: z.unknown().optional(),
  events: z.array(z.unknown()).nullish(),
});

const issueOf = (error: z.ZodError) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(record)'}: ${issue.message}` : 'bad shape';
};

/** A JSON array of strings that Gamma encodes as a string ("[\"Yes\", \"No\"]"), or a plain array. Null when absent. */
function stringArray(value: unknown, where: string, field: string): string[] | null {
  if (value === null || value === undefined || value === '') return null;
  let decoded: unknown = value;
  if (typeof value === 'string') {
    try {
      decoded = JSON.parse(value);
    } catch {
      throw new PredictionsSourceError('malformed', `${where}: ${field} is not a JSON-encoded array (${value.slice(0, 60)})`);
    }
  }
  if (!Array.isArray(decoded) || !decoded.every((item) => typeof item === 'string' || typeof item === 'number')) {
    throw new PredictionsSourceError('malformed', `${where}: ${field} is not an array of strings`);
  }
  return decoded.map(String);
}

function time(value: unknown, where: string, field: string): Date | null {
  const at = parseGammaTime(value);
  if (at === undefined) throw new PredictionsSourceError('malformed', `${where}: ${field} is not a time (${String(value).slice(0, 40)})`);
  return at;
}

function decimal(value: string | number | null | undefined, scale: number, where: string, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const out = roundDecimal(value, scale);
  if (out === null) throw new PredictionsSourceError('malformed', `${where}: ${field} is not a number (${String(value).slice(0, 40)})`);
  return out;
}

function parseTags(raw: unknown[] | null | undefined, where: string): GammaTag[] | null {
  if (raw === null || raw === undefined) return null;
  return raw.map((item, i) => {
    const tag = tagSchema.safeParse(item);
    if (!tag.success) throw new PredictionsSourceError('malformed', `${where}: tags[${i}].${issueOf(tag.error)}`);
    const t = tag.data;
    return { id: String(t.id), label: (t.label ?? t.slug ?? String(t.id)).trim(), slug: (t.slug ?? '').trim(), forceShow: t.forceShow ?? false, forceHide: t.forceHide ?? false };
  });
}

function parseEventInfo(doc: unknown, where: string): GammaEventInfo & { active: boolean; closed: boolean; rawMarkets: unknown[] | null } {
  const parsed = eventInfoSchema.safeParse(doc);
  if (!parsed.success) throw new PredictionsSourceError('malformed', `${where}: ${issueOf(parsed.error)}`);
  const e = parsed.data;
  const id = String(e.id);
  return {
    id,
    slug: e.slug || null,
    title: e.title || null,
    tags: parseTags(e.tags, `${where} (event ${id})`),
    negRisk: e.negRisk ?? null,
    negRiskAugmented: e.negRiskAugmented ?? null,
    active: e.active ?? true,
    closed: e.closed ?? false,
    rawMarkets: e.markets ?? null,
  };
}

/** One Gamma market record (of `/markets`, `/markets/{id}` or an event's `markets`). Throws PredictionsSourceError naming the field. */
export function parseGammaMarket(doc: unknown, where = 'market'): GammaMarket {
  const parsed = marketSchema.safeParse(doc);
  const idHint = doc && typeof doc === 'object' && 'id' in doc ? ` ${String((doc as { id: unknown }).id)}` : '';
  if (!parsed.success) throw new PredictionsSourceError('malformed', `${where}${idHint}: ${issueOf(parsed.error)}`);
  const m = parsed.data;
  const id = String(m.id);
  const at = `${where} ${id}`;
  const outcomes = stringArray(m.outcomes, at, 'outcomes') ?? [];
  const prices = stringArray(m.outcomePrices, at, 'outcomePrices');
  if (prices) {
    if (prices.length !== outcomes.length) throw new PredictionsSourceError('malformed', `${at}: outcomePrices has ${prices.length} prices for ${outcomes.length} outcomes`);
    for (const p of prices) {
      const n = Number(p);
      if (p.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new PredictionsSourceError('malformed', `${at}: outcomePrices holds ${JSON.stringify(p)}, not a price from 0 to 1`);
    }
  }
  const firstEvent = m.events?.[0];
  return {
    id,
    conditionId: m.conditionId || null,
    slug: m.slug || id,
    question: m.question,
    description: m.description || null,
    legacyCategory: m.category?.trim() || null,
    resolutionSource: m.resolutionSource || null,
    outcomes,
    outcomePrices: prices,
    clobTokenIds: stringArray(m.clobTokenIds, at, 'clobTokenIds') ?? [],
    active: m.active ?? true,
    closed: m.closed ?? false,
    acceptingOrders: m.acceptingOrders ?? false,
    endDate: time(m.endDate, at, 'endDate'),
    closedTime: time(m.closedTime, at, 'closedTime'),
    umaEndDate: time(m.umaEndDate, at, 'umaEndDate'),
    umaResolutionStatus: m.umaResolutionStatus?.trim() || null,
    legacyAmm: Boolean(m.marketMakerAddress && m.marketMakerAddress.trim() !== ''),
    negRisk: m.negRisk ?? null,
    bestBid: decimal(m.bestBid, 4, at, 'bestBid'),
    bestAsk: decimal(m.bestAsk, 4, at, 'bestAsk'),
    spread: decimal(m.spread, 4, at, 'spread'),
    volume24h: decimal(m.volume24hr, 2, at, 'volume24hr'),
    volume: decimal(m.volumeNum ?? m.volume, 2, at, 'volume'),
    liquidity: decimal(m.liquidityNum ?? m.liquidity, 2, at, 'liquidity'),
    updatedAt: time(m.updatedAt, at, 'updatedAt'),
    event: firstEvent === undefined ? null : stripEvent(parseEventInfo(firstEvent, `${at} events[0]`)),
  };
}

const stripEvent = (e: GammaEventInfo): GammaEventInfo => ({ id: e.id, slug: e.slug, title: e.title, tags: e.tags, negRisk: e.negRisk, negRiskAugmented: e.negRiskAugmented });

/** A Gamma `/markets` answer: a JSON array of markets. Any record that does not parse fails the whole page, naming it. */
export function parseGammaMarkets(doc: unknown, where = '/markets'): GammaMarket[] {
  if (!Array.isArray(doc)) throw new PredictionsSourceError('malformed', `${where}: expected a JSON array of markets, got ${doc === null ? 'null' : typeof doc}`);
  return doc.map((item, i) => parseGammaMarket(item, `${where}[${i}] market`));
}

/**
 * A Gamma `/events` answer: a JSON array of events, each with its tags and markets. With
 * `markets: false` the events' markets are left unread (`markets` empty): the sync takes only the
 * events' tags, titles and negative risk, and reads the markets from `/markets`.
 */
export function parseGammaEvents(doc: unknown, where = '/events', opts: { markets?: boolean } = {}): GammaEvent[] {
  if (!Array.isArray(doc)) throw new PredictionsSourceError('malformed', `${where}: expected a JSON array of events, got ${doc === null ? 'null' : typeof doc}`);
  return doc.map((item, i) => {
    const e = parseEventInfo(item, `${where}[${i}] event`);
    const info = stripEvent(e);
    const markets = (opts.markets === false ? [] : (e.rawMarkets ?? [])).map((m, j) => {
      const market = parseGammaMarket(m, `${where}[${i}].markets[${j}] market`);
      // Markets nested in an event do not repeat their event: link them to it.
      return { ...market, event: market.event ?? info };
    });
    return { ...info, active: e.active, closed: e.closed, markets };
  });
}

// ---------------------------------------------------------------------------------------------
// Categories.

/**
 * Polymarket's sections, by rank: a market's category is the best-ranked of these among its event's
 * tags. Polymarket shows them in its top navigation and marks several `forceHide` (Politics,
 * Elections) so that they are not repeated as chips on the event page: `forceHide` is a display
 * flag, not a sign of a housekeeping tag, and such tags are used.
 */
export const POLYMARKET_SECTIONS = [
  'politics',
  'sports',
  'crypto',
  'finance',
  'economy',
  'business',
  'geopolitics',
  'world',
  'tech',
  'science',
  'culture',
  'pop-culture',
  'weather',
  'elections',
  'mentions',
] as const;

/** Tags that say how Polymarket lists or promotes an event, not what it is about. */
export const HOUSEKEEPING_TAG_SLUGS = new Set([
  'all',
  'featured',
  'trending',
  'new',
  'breaking-news',
  'hide-from-new',
  'recurring',
  'parent-for-derivative',
  'rewards',
  'daily',
  'weekly',
  'monthly',
  'hourly',
  'up-or-down',
  '5m',
  '15m',
  '1h',
  '4h',
  'pre-market',
]);

/** A housekeeping tag: one of HOUSEKEEPING_TAG_SLUGS, a promotion ("Earn 4%": `earn-4`, `rewards-…`), or a tag with no label. */
export function isHousekeepingTag(tag: Pick<GammaTag, 'slug' | 'label'>): boolean {
  const slug = tag.slug.toLowerCase();
  if (tag.label.trim() === '') return true;
  return HOUSEKEEPING_TAG_SLUGS.has(slug) || /^(earn|rewards?)(-|$)/.test(slug) || /%/.test(tag.label);
}

const CATEGORY_MAX = 50;
const clip = (label: string) => (label.length > CATEGORY_MAX ? label.slice(0, CATEGORY_MAX).trimEnd() : label);

/**
 * A market's category and subcategory from its event's tags (in Gamma's order), housekeeping tags
 * left out: the category is the best-ranked Polymarket section among them (POLYMARKET_SECTIONS),
 * else the first of them; the subcategory is the first of them that is not the category. Without
 * tags: the market's legacy `category` field, else null. Labels are kept as Polymarket spells
 * them ("Politics", "World Elections"), at most 50 characters.
 */
export function categoryOf(tags: readonly GammaTag[] | null, legacyCategory: string | null = null): { category: string | null; subcategory: string | null } {
  const useful = (tags ?? []).filter((tag) => !isHousekeepingTag(tag));
  if (useful.length === 0) return { category: legacyCategory ? clip(legacyCategory) : null, subcategory: null };
  const rank = (tag: GammaTag) => {
    const i = (POLYMARKET_SECTIONS as readonly string[]).indexOf(tag.slug.toLowerCase());
    return i < 0 ? Infinity : i;
  };
  const section = useful.reduce<GammaTag | null>((best, tag) => (rank(tag) < (best ? rank(best) : Infinity) ? tag : best), null);
  const category = section ?? useful[0];
  const sub = useful.find((tag) => tag !== category && tag.label !== category.label);
  return { category: clip(category.label), subcategory: sub ? clip(sub.label) : null };
}

// ---------------------------------------------------------------------------------------------
// Resolution.

/**
 * How a Gamma market resolved:
 * - not closed: null;
 * - closed and an outcome's price is exactly 1: `yes` when it is the first outcome, `no` otherwise;
 * - closed, no price at 1, and settled — UMA says `resolved`, or an AMM-era legacy market (no UMA
 *   status: `["0","0"]` or fractional final prices, e.g. a scalar market paid out proportionally):
 *   `void` (no winner: not scored);
 * - closed otherwise (UMA `proposed` / `disputed`, or a market resolved automatically whose final
 *   prices are not in yet): null, pending; a later sync looks again.
 * `resolvedAt` is Gamma's `closedTime`, else `umaEndDate`, else null (the sync then uses its own time).
 */
export function resolutionOf(m: Pick<GammaMarket, 'closed' | 'outcomePrices' | 'umaResolutionStatus' | 'legacyAmm' | 'closedTime' | 'umaEndDate'>): {
  resolution: PredictionResolution | null;
  resolvedAt: Date | null;
} {
  if (!m.closed) return { resolution: null, resolvedAt: null };
  const winner = (m.outcomePrices ?? []).findIndex(isExactlyOne);
  let resolution: PredictionResolution | null = null;
  if (winner === 0) resolution = 'yes';
  else if (winner > 0) resolution = 'no';
  else if (m.umaResolutionStatus === 'resolved' || (m.umaResolutionStatus === null && m.legacyAmm)) resolution = 'void';
  return { resolution, resolvedAt: resolution === null ? null : (m.closedTime ?? m.umaEndDate ?? null) };
}

// ---------------------------------------------------------------------------------------------
// The row a market becomes.

/** The content of a prediction_markets row (without id, data source and times of our own). */
export interface MarketContent {
  polymarketId: string;
  conditionId: string | null;
  slug: string;
  question: string;
  description: string | null;
  category: string | null;
  subcategory: string | null;
  tags: string[] | null;
  endDate: Date | null;
  closedTime: Date | null;
  resolutionSource: string | null;
  outcomes: string[];
  currentPrices: Record<string, string> | null;
  yesPrice: string | null;
  bestBid: string | null;
  bestAsk: string | null;
  spread: string | null;
  volume24h: string | null;
  volume: string | null;
  liquidity: string | null;
  isActive: boolean;
  closed: boolean;
  acceptingOrders: boolean;
  eventId: string | null;
  eventSlug: string | null;
  eventTitle: string | null;
  negRisk: boolean;
  negRiskAugmented: boolean;
  clobTokenIds: string[];
  resolution: PredictionResolution | null;
  /** Gamma's closedTime / umaEndDate of a resolved market; null when unresolved or unknown. */
  resolvedAt: Date | null;
  sourceUpdatedAt: Date | null;
  /** sha256 (hex) of every field above except sourceUpdatedAt (a touch without change is not a change). */
  contentHash: string;
}

const clipText = (value: string | null, max: number) => (value === null ? null : value.length > max ? value.slice(0, max) : value);

/**
 * The row of a market: its event (from `/events`, which carries tags, else the one embedded in the
 * market) gives title, tags, category and negative risk (`negRisk` of the event, else of the market;
 * `negRiskAugmented` only events carry). Prices of the first outcome (YES) rounded to 4 decimals.
 */
export function marketContent(m: GammaMarket, event?: GammaEventInfo | null): MarketContent {
  const e = event ?? m.event;
  const tags = e?.tags ?? null;
  const { category, subcategory } = categoryOf(tags, m.legacyCategory);
  const { resolution, resolvedAt } = resolutionOf(m);
  const prices = m.outcomePrices;
  const content: Omit<MarketContent, 'contentHash'> = {
    polymarketId: m.id,
    conditionId: clipText(m.conditionId, 66),
    slug: clipText(m.slug, 300) as string,
    question: m.question,
    description: m.description,
    category,
    subcategory,
    tags: tags ? tags.filter((t) => t.label !== '').map((t) => t.label) : null,
    endDate: m.endDate,
    closedTime: m.closedTime,
    resolutionSource: m.resolutionSource,
    outcomes: m.outcomes,
    currentPrices: prices ? Object.fromEntries(m.outcomes.map((name, i) => [name, prices[i]])) : null,
    yesPrice: prices && prices.length ? roundDecimal(prices[0], 4) : null,
    bestBid: m.bestBid,
    bestAsk: m.bestAsk,
    spread: m.spread,
    volume24h: m.volume24h,
    volume: m.volume,
    liquidity: m.liquidity,
    isActive: m.active && !m.closed,
    closed: m.closed,
    acceptingOrders: m.acceptingOrders,
    eventId: e ? clipText(e.id, 40) : null,
    eventSlug: e ? clipText(e.slug, 300) : null,
    eventTitle: e?.title ?? null,
    negRisk: e?.negRisk ?? m.negRisk ?? false,
    negRiskAugmented: e?.negRiskAugmented ?? false,
    clobTokenIds: m.clobTokenIds,
    resolution,
    resolvedAt,
    sourceUpdatedAt: m.updatedAt,
  };
  return { ...content, contentHash: contentHashOf(content) };
}

/** The fields the content hash covers, in its fixed order (every field of MarketContent but sourceUpdatedAt and the hash). */
const HASHED_FIELDS = [
  'polymarketId', 'conditionId', 'slug', 'question', 'description', 'category', 'subcategory', 'tags', 'endDate', 'closedTime',
  'resolutionSource', 'outcomes', 'currentPrices', 'yesPrice', 'bestBid', 'bestAsk', 'spread', 'volume24h', 'volume', 'liquidity',
  'isActive', 'closed', 'acceptingOrders', 'eventId', 'eventSlug', 'eventTitle', 'negRisk', 'negRiskAugmented', 'clobTokenIds',
  'resolution', 'resolvedAt',
] as const satisfies readonly Exclude<keyof MarketContent, 'sourceUpdatedAt' | 'contentHash'>[];

// Every field is hashed: a field added to MarketContent and not to HASHED_FIELDS fails to compile here.
type Unhashed = Exclude<Exclude<keyof MarketContent, 'sourceUpdatedAt' | 'contentHash'>, (typeof HASHED_FIELDS)[number]>;
const everyFieldHashed: [Unhashed] extends [never] ? true : never = true;
void everyFieldHashed;

/** sha256 of a market's content in a fixed field order (dates as ISO strings), sourceUpdatedAt left out. */
export function contentHashOf(content: Omit<MarketContent, 'contentHash'>): string {
  const canonical = HASHED_FIELDS.map((key) => {
    const value = content[key];
    return value instanceof Date ? value.toISOString() : value;
  });
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// CLOB: book and midpoint.

export interface BookLevel {
  price: string;
  size: string;
}

export interface ClobBook {
  market: string | null;
  assetId: string;
  /** Best first: bids by price descending, asks ascending (the API's own order is not relied on). */
  bids: BookLevel[];
  asks: BookLevel[];
  /** The best bid and ask, 4 decimals; null for an empty side. */
  bestBid: string | null;
  bestAsk: string | null;
  hash: string | null;
}

const levelSchema = z.object({ price: z.union([z.string(), z.number()]), size: z.union([z.string(), z.number()]) });
const bookSchema = z.object({
  market: text,
  asset_id: z.union([z.string(), z.number()]),
  bids: z.array(levelSchema).nullish(),
  asks: z.array(levelSchema).nullish(),
  hash: text,
});

/** A CLOB `/book` answer. Levels of size 0 are dropped; levels are sorted here (the recorded answer has the best price last). */
export function parseClobBook(doc: unknown, where = '/book'): ClobBook {
  const parsed = bookSchema.safeParse(doc);
  if (!parsed.success) throw new PredictionsSourceError('malformed', `${where}: ${issueOf(parsed.error)}`);
  const b = parsed.data;
  const levels = (side: 'bids' | 'asks') =>
    (b[side] ?? []).map((level, i) => {
      const price = String(level.price).trim();
      const size = String(level.size).trim();
      const p = Number(price);
      if (price === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new PredictionsSourceError('malformed', `${where}: ${side}[${i}].price is not a price from 0 to 1 (${price})`);
      if (size === '' || !Number.isFinite(Number(size)) || Number(size) < 0) throw new PredictionsSourceError('malformed', `${where}: ${side}[${i}].size is not a size (${size})`);
      return { price, size };
    }).filter((level) => Number(level.size) > 0);
  const bids = levels('bids').sort((x, y) => Number(y.price) - Number(x.price));
  const asks = levels('asks').sort((x, y) => Number(x.price) - Number(y.price));
  return {
    market: b.market || null,
    assetId: String(b.asset_id),
    bids,
    asks,
    bestBid: bids.length ? roundDecimal(bids[0].price, 4) : null,
    bestAsk: asks.length ? roundDecimal(asks[0].price, 4) : null,
    hash: b.hash || null,
  };
}

/**
 * A CLOB `/midpoint` answer: `{ "mid_price": "0.45" }` in the current reference, `{ "mid": "0.45" }`
 * in older clients; both read. No capture exists (ORIGINS-wave2 "Not found"): the shape is the
 * reference's. Rounded to 4 decimals.
 */
export function parseClobMidpoint(doc: unknown, where = '/midpoint'): string {
  const value = doc && typeof doc === 'object' ? ((doc as Record<string, unknown>).mid_price ?? (doc as Record<string, unknown>).mid) : undefined;
  const mid = typeof value === 'string' || typeof value === 'number' ? roundDecimal(value, 4) : null;
  if (mid === null || Number(mid) < 0 || Number(mid) > 1) throw new PredictionsSourceError('malformed', `${where}: expected { "mid_price": "<0..1>" }`);
  return mid;
}
