import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Clock } from '../runtime/clock';

// The replay twin of Polymarket's Gamma and CLOB APIs (POLYMARKET_GAMMA_URL unset): a local HTTP
// server speaking the same paths, serving the recorded real answers (data/README.md) and a larger
// SIMULATED set made by varying them, whose prices move with the clock and whose markets close and
// resolve over time. Everything is a function of the seed, the set's size and the time, so every
// worker process serves the same markets and a restart continues them.

/** This folder's recordings (data/README.md gives each one's origin). */
export const POLYMARKET_RECORDINGS_DIR = join(__dirname, 'data');

export const POLYMARKET_REPLAY_FILES = {
  /** Gamma /markets: ten active markets (July 2024). */
  tenMarkets: 'polymarket_gamma_markets_ten_markets_2024-07.json',
  /** Gamma /events: one augmented negative-risk event with two markets, with tags. */
  events: 'polymarket_gamma_events_democratic-nominee-2028_negRisk_2markets.json',
  /** Gamma market: an open 5-minute BTC up/down market. */
  openMarket: 'polymarket_gamma_market_open_btc-updown-5m_2026-03-11.json',
  /** Gamma market: closed and resolved No (UMA "resolved"). */
  resolvedMarket: 'polymarket_gamma_market_resolved_No_katana-fdv_umaResolved_2026-03.json',
  /** Gamma markets: 2020 legacy closed markets (fractional prices; ["0","0"]). */
  legacyFractional: 'polymarket_gamma_market_closed_legacy_2020_defi-tvl_long-short_fractional-prices.json',
  legacyZero: 'polymarket_gamma_market_closed_legacy_2020_outcomePrices-0-0.json',
  /** CLOB /book (levels unsorted: best price last). */
  book: 'polymarket_clob_book_2024.json',
} as const;

/** The replay world's time origin: simulated markets' lifetimes are laid out from here. */
export const POLYMARKET_REPLAY_EPOCH = Date.UTC(2024, 0, 1);
/** Simulated market ids start here (real Gamma ids of the recordings are below 2,000,000). */
export const SIMULATED_MARKET_BASE = 10_000_000;
/** Simulated single-market event ids are this plus the market id; the negative-risk group's event is SIMULATED_GROUP_EVENT_ID. */
const SIMULATED_EVENT_BASE = 500_000_000;
export const SIMULATED_GROUP_EVENT_ID = '499999999';
/** The first slots form one non-augmented negative-risk event whose YES prices sum to about 1.10. */
export const SIMULATED_GROUP_WEIGHTS = [0.4, 0.3, 0.22, 0.18] as const;
const GROUP_SIZE = SIMULATED_GROUP_WEIGHTS.length;
/** A closed simulated market stays "proposed" (pending) this long, then resolves. */
export const SIMULATED_RESOLVE_DELAY_MS = 45 * 60_000;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const MIN_LIFE = 6 * HOUR;
const MAX_LIFE = 14 * DAY;

type Json = Record<string, unknown>;

/** Keys of the recorded markets a simulated one does not copy (it sets its own, or they belong to the recorded market alone). */
const MARKET_DROPPED = ['umaResolutionStatus', 'closedTime', 'umaEndDate', 'clobRewards', 'events', 'negRiskMarketID', 'negRiskRequestID', 'bestBid', 'bestAsk', 'umaResolutionStatuses'];
/** Keys of the recorded event a simulated one does not copy (its volumes, liquidity and election details). */
const EVENT_DROPPED = ['negRiskMarketID', 'liquidity', 'liquidityClob', 'volume', 'openInterest', 'competitive', 'volume24hr', 'volume1wk', 'volume1mo', 'volume1yr', 'countryName', 'electionType'];

interface SlotState {
  closed: boolean;
  /** The price step, and the step the market opened in. */
  k: number;
  kOpen: number;
  yes: number;
  updatedAt: number;
  resolution: 'pending' | 'yes' | 'no' | 'void' | null;
}

interface SlotStatics {
  base: Json;
  market: Json;
  event: Json;
  tags: TagRecord[];
}

const load = (file: string) => JSON.parse(readFileSync(join(POLYMARKET_RECORDINGS_DIR, file), 'utf8')) as unknown;

// ---------------------------------------------------------------------------------------------
// Deterministic numbers.

/** FNV-1a of the parts, then a murmur3 finalizer: a well-mixed 32-bit hash. */
function hash32(...parts: (string | number)[]): number {
  const text = parts.join('|');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
const unit = (...parts: (string | number)[]) => hash32(...parts) / 4294967296;
const tick3 = (p: number) => Math.min(0.999, Math.max(0.001, Math.round(p * 1000) / 1000));
const str3 = (p: number) => String(tick3(p));
const round2 = (n: number) => Math.round(n * 100) / 100;
/** Gamma's closedTime format. */
const closedTimeText = (at: number) => new Date(at).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '+00');
const isoText = (at: number) => new Date(at).toISOString().replace('.000Z', 'Z');

/** A simulated outcome token id (76 digits, as long as real ones), ending in the market id and the side (0 YES, 1 NO). */
function simulatedToken(id: number, side: 0 | 1): string {
  return `7${String(hash32('tok', id, side)).padStart(10, '0')}${String(hash32('tok2', id, side)).padStart(10, '0')}${'0'.repeat(44)}${String(id).padStart(10, '0')}${side}`;
}
function tokenMarket(token: string): { id: number; side: 0 | 1 } | null {
  if (!/^7\d{75}$/.test(token) || token.slice(21, 65) !== '0'.repeat(44)) return null;
  const id = Number(token.slice(65, 75));
  const side = token.endsWith('1') ? 1 : 0;
  return simulatedToken(id, side) === token ? { id, side } : null;
}
const hex64 = (...parts: (string | number)[]) => `0x${createHash('sha256').update(parts.join('|')).digest('hex')}`;

// ---------------------------------------------------------------------------------------------
// Tags: the recorded event's, and simulated ones in the same shape.

interface TagRecord extends Json {
  id: string;
  label: string;
  slug: string;
}

function simulatedTag(id: number, label: string): TagRecord {
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return { id: String(id), label, slug, forceShow: false, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', requiresTranslation: false };
}

// ---------------------------------------------------------------------------------------------
// The world.

export interface PolymarketReplayWorldOptions {
  /** Simulated markets (slots) besides the recorded ones; default 300. */
  simulated?: number;
  /** Each simulated market's price steps once per this period, at its own phase; default 30 minutes. */
  priceEveryMs?: number;
  /** Serve the recorded markets, event and book too (default true). */
  real?: boolean;
  seed?: string;
}

interface Slot {
  i: number;
  g: number;
  id: number;
  open: number;
  close: number;
}

/**
 * Polymarket as the replay twin sees it at a time: the recorded markets (static) and `simulated`
 * slots, each holding one market at a time (a generation): it opens, its price steps with the clock,
 * it closes at its end date, stays pending (UMA "proposed") for 45 minutes, then resolves; the slot's
 * next market opens with a new id at the close. Times are taken to the minute.
 */
export class PolymarketReplayWorld {
  readonly simulated: number;
  readonly priceEveryMs: number;
  private readonly seed: string;
  private readonly real: boolean;
  private readonly realActive: Json[] = [];
  private readonly realById = new Map<string, Json>();
  private readonly realEvents: Json[] = [];
  private readonly realTokens = new Map<string, { market: Json; side: 0 | 1 }>();
  private readonly recordedBook: Json;
  private readonly templates: Json[];
  private readonly groupTemplate: Json;
  /** The recorded market and event records without the keys a simulated record sets or must not carry. */
  private readonly marketBases: Json[];
  private readonly groupBase: Json;
  private readonly eventBase: Json;
  private readonly statics = new Map<number, SlotStatics>();
  private readonly sections: { section: TagRecord; topics: TagRecord[] }[];
  private readonly housekeeping: TagRecord;
  private listCache: { minute: number; slots: Slot[] } | null = null;

  constructor(opts: PolymarketReplayWorldOptions = {}) {
    this.simulated = Math.max(0, Math.floor(opts.simulated ?? 300));
    this.priceEveryMs = Math.max(60_000, opts.priceEveryMs ?? 30 * 60_000);
    this.seed = opts.seed ?? 'tickerbell-polymarket';
    this.real = opts.real ?? true;

    const ten = load(POLYMARKET_REPLAY_FILES.tenMarkets) as Json[];
    const [event] = load(POLYMARKET_REPLAY_FILES.events) as Json[];
    const open = load(POLYMARKET_REPLAY_FILES.openMarket) as Json;
    const closed = [POLYMARKET_REPLAY_FILES.resolvedMarket, POLYMARKET_REPLAY_FILES.legacyFractional, POLYMARKET_REPLAY_FILES.legacyZero].map((f) => load(f) as Json);
    this.recordedBook = load(POLYMARKET_REPLAY_FILES.book) as Json;
    const { markets: eventMarkets, ...eventInfo } = event as Json & { markets: Json[] };
    // Markets of /markets carry their event (without its markets); the recorded event's markets do not repeat it.
    const eventMarketsWithEvent = eventMarkets.map((m) => ({ ...m, events: [eventInfo] }));
    if (this.real) {
      this.realActive.push(...ten, open, ...eventMarketsWithEvent);
      this.realActive.sort((a, b) => Number(a.id) - Number(b.id));
      for (const m of [...this.realActive, ...closed]) this.realById.set(String(m.id), m);
      this.realEvents.push(event as Json);
      for (const m of this.realActive) {
        const tokens = JSON.parse(String(m.clobTokenIds ?? '[]')) as string[];
        tokens.forEach((token, side) => this.realTokens.set(token, { market: m, side: side === 0 ? 0 : 1 }));
      }
    }
    this.templates = [...ten, open];
    const { markets: _m, tags: eventTags, ...template } = event as Json & { markets: unknown; tags: TagRecord[] };
    void _m;
    this.groupTemplate = eventMarkets[0];
    this.marketBases = this.templates.map((m) => without(m, MARKET_DROPPED));
    this.groupBase = without(this.groupTemplate, MARKET_DROPPED);
    this.eventBase = without(template, EVENT_DROPPED);
    const realTag = (slug: string) => eventTags.find((t) => t.slug === slug) as TagRecord;
    this.housekeeping = realTag('earn-4');
    let next = 91_000_001;
    const make = (label: string) => simulatedTag(next++, label);
    this.sections = [
      { section: realTag('politics'), topics: [realTag('us-presidential-election'), realTag('primaries'), realTag('world-elections'), realTag('global-elections')] },
      { section: realTag('elections'), topics: [realTag('world-elections'), realTag('primaries')] },
      { section: make('Crypto'), topics: [make('Bitcoin'), make('Ethereum'), make('Airdrops')] },
      { section: make('Sports'), topics: [make('NBA'), make('Soccer'), make('Boxing')] },
      { section: make('Finance'), topics: [make('Fed Rates'), make('Stocks')] },
      { section: make('Tech'), topics: [make('AI'), make('Big Tech')] },
      { section: make('Culture'), topics: [make('Movies'), make('Music')] },
      { section: make('Geopolitics'), topics: [make('Middle East'), make('Ukraine')] },
      { section: make('Economy'), topics: [make('Inflation'), make('Recession')] },
    ];
  }

  /** The world's time: the minute of `now` (never before the epoch). */
  private minuteOf(now: Date): number {
    return Math.floor(Math.max(now.getTime(), POLYMARKET_REPLAY_EPOCH) / 60_000) * 60_000;
  }

  private life(i: number): number {
    // Whole minutes, as the world moves a minute at a time.
    return i < GROUP_SIZE ? Infinity : MIN_LIFE + Math.floor((unit(this.seed, 'life', i) * (MAX_LIFE - MIN_LIFE)) / 60_000) * 60_000;
  }

  private offset(i: number, life: number): number {
    return Math.floor((unit(this.seed, 'offset', i) * life) / 60_000) * 60_000;
  }

  /** The market a slot holds in generation g. */
  private slot(i: number, g: number): Slot {
    if (i < GROUP_SIZE) return { i, g: 0, id: SIMULATED_MARKET_BASE + i, open: POLYMARKET_REPLAY_EPOCH - 30 * DAY, close: Infinity };
    const life = this.life(i);
    const offset = this.offset(i, life);
    const open = POLYMARKET_REPLAY_EPOCH - offset + g * life;
    return { i, g, id: SIMULATED_MARKET_BASE + g * this.simulated + i, open, close: open + life };
  }

  /** The market slot i holds at t (its current generation). */
  private slotAt(i: number, t: number): Slot {
    if (i < GROUP_SIZE) return this.slot(i, 0);
    const life = this.life(i);
    const offset = this.offset(i, life);
    return this.slot(i, Math.floor((t - POLYMARKET_REPLAY_EPOCH + offset) / life));
  }

  private slotOfId(id: number): Slot | null {
    const k = id - SIMULATED_MARKET_BASE;
    if (!Number.isSafeInteger(k) || k < 0 || this.simulated === 0) return null;
    const i = k % this.simulated;
    const g = Math.floor(k / this.simulated);
    if (i < GROUP_SIZE && g !== 0) return null;
    return this.slot(i, g);
  }

  /** Active simulated slots at minute t, by market id ascending (cached per minute). */
  private activeSlots(t: number): Slot[] {
    if (this.listCache?.minute === t) return this.listCache.slots;
    const slots: Slot[] = [];
    for (let i = 0; i < this.simulated; i++) slots.push(this.slotAt(i, t));
    slots.sort((a, b) => a.id - b.id);
    this.listCache = { minute: t, slots };
    return slots;
  }

  /** The YES price of a simulated market at step k. */
  private priceAtStep(slot: Slot, k: number): number {
    if (slot.i < GROUP_SIZE) return tick3(SIMULATED_GROUP_WEIGHTS[slot.i] + 0.02 * (unit(this.seed, 'gw', slot.id, k) - 0.5));
    const base = 0.08 + 0.84 * unit(this.seed, 'base', slot.id);
    const theta = unit(this.seed, 'theta', slot.id) * 2 * Math.PI;
    return tick3(base + 0.12 * Math.sin(k * 0.9 + theta) + 0.06 * (unit(this.seed, 'wiggle', slot.id, k) - 0.5));
  }

  private phase(slot: Slot): number {
    return Math.floor((unit(this.seed, 'phase', slot.id) * this.priceEveryMs) / 60_000) * 60_000;
  }

  private stepAt(slot: Slot, t: number): number {
    return Math.floor((t + this.phase(slot)) / this.priceEveryMs);
  }

  /** State of a simulated market at minute t; null before it opens. */
  private state(slot: Slot, t: number): SlotState | null {
    if (t < slot.open) return null;
    const closed = t >= slot.close;
    const k = this.stepAt(slot, closed ? slot.close - 1 : t);
    const kOpen = this.stepAt(slot, slot.open);
    const yes = this.priceAtStep(slot, k);
    const stepStart = k * this.priceEveryMs - this.phase(slot);
    let resolution: 'pending' | 'yes' | 'no' | 'void' | null = null;
    if (closed) {
      if (t < slot.close + SIMULATED_RESOLVE_DELAY_MS) resolution = 'pending';
      else {
        const u = unit(this.seed, 'outcome', slot.id);
        resolution = unit(this.seed, 'void', slot.id) < 0.03 ? 'void' : u < yes ? 'yes' : 'no';
      }
    }
    return { closed, k, kOpen, yes, updatedAt: Math.max(slot.open, closed ? slot.close + (resolution === 'pending' ? 0 : SIMULATED_RESOLVE_DELAY_MS) : stepStart), resolution };
  }

  private sectionOf(id: number) {
    return this.sections[hash32(this.seed, 'section', id) % this.sections.length];
  }

  /** What never changes in a simulated market's (and its event's) records, built once per market id. */
  private staticsOf(slot: Slot): SlotStatics {
    let found = this.statics.get(slot.id);
    if (found) return found;
    // A long-running twin opens new ids forever: forget the old ones now and then.
    if (this.statics.size > 4 * this.simulated + 100) this.statics.clear();
    const group = slot.i < GROUP_SIZE;
    const template = group ? this.groupTemplate : this.templates[slot.i % this.templates.length];
    const team = String.fromCharCode(65 + slot.i);
    const question = group ? `Will Team ${team} win the simulated cup 2026? [simulated #${slot.id}]` : `${String(template.question)} [simulated #${slot.id}]`;
    let tags: TagRecord[];
    if (group) {
      const sports = this.sections.find((x) => x.section.slug === 'sports') as { section: TagRecord; topics: TagRecord[] };
      tags = [sports.topics[1], sports.section];
    } else {
      const { section, topics } = this.sectionOf(slot.id);
      tags = [topics[hash32(this.seed, 'topic', slot.id) % topics.length], section];
      if (unit(this.seed, 'promo', slot.id) < 0.1) tags.unshift(this.housekeeping);
    }
    const start = isoText(slot.open);
    const endDate = Number.isFinite(slot.close) ? isoText(slot.close) : '2027-12-31T00:00:00Z';
    const liquidity = round2(1000 + unit(this.seed, 'liq', slot.id) * 100_000);
    const eventSlug = group ? 'simulated-cup-2026-winner' : `simulated-event-${slot.id}`;
    found = {
      base: group ? this.groupBase : this.marketBases[slot.i % this.marketBases.length],
      market: {
        id: String(slot.id),
        question,
        conditionId: hex64(this.seed, 'condition', slot.id),
        questionID: hex64(this.seed, 'question', slot.id),
        slug: `simulated-${slot.id}`,
        description: `Simulated by the Tickerbell replay twin from the recorded Polymarket market "${String(template.question)}": not a real market.`,
        outcomes: typeof template.outcomes === 'string' ? template.outcomes : '["Yes", "No"]',
        clobTokenIds: JSON.stringify([simulatedToken(slot.id, 0), simulatedToken(slot.id, 1)]),
        startDate: start,
        startDateIso: start.slice(0, 10),
        endDate,
        endDateIso: endDate.slice(0, 10),
        createdAt: start,
        active: true,
        marketMakerAddress: '',
        liquidity: String(liquidity),
        liquidityNum: liquidity,
        liquidityClob: liquidity,
        spread: 0.01,
        negRisk: group,
        groupItemTitle: group ? `Team ${team}` : '',
        ...(group ? { negRiskMarketID: hex64(this.seed, 'group-event') } : {}),
        tickerbellSimulated: true,
      },
      event: {
        id: group ? SIMULATED_GROUP_EVENT_ID : String(SIMULATED_EVENT_BASE + slot.id),
        ticker: eventSlug,
        slug: eventSlug,
        title: group ? 'Simulated cup 2026: who will win? [simulated]' : question,
        description: 'Simulated by the Tickerbell replay twin from recorded Polymarket answers: not a real event.',
        startDate: start,
        creationDate: start,
        endDate: group ? '2027-12-31T00:00:00Z' : endDate,
        createdAt: start,
        active: true,
        negRisk: group,
        negRiskAugmented: false,
        enableNegRisk: group,
        ...(group ? { negRiskMarketID: hex64(this.seed, 'group-event') } : {}),
        commentCount: 0,
        tickerbellSimulated: true,
      },
      tags,
    };
    this.statics.set(slot.id, found);
    return found;
  }

  private eventInfo(slot: Slot, state: SlotState, withTags: boolean): Json {
    const statics = this.staticsOf(slot);
    const event: Json = { ...this.eventBase, ...statics.event, updatedAt: isoText(state.updatedAt), closed: state.closed };
    if (withTags) event.tags = statics.tags;
    return event;
  }

  /** A simulated market's Gamma record at minute t (with its event embedded, without tags as /markets does), or null before it opens. */
  private simulatedMarket(slot: Slot, t: number, withEvent = true): Json | null {
    const state = this.state(slot, t);
    if (!state) return null;
    const statics = this.staticsOf(slot);
    const { yes, closed, resolution } = state;
    let prices: string;
    if (resolution === 'yes') prices = '["1", "0"]';
    else if (resolution === 'no') prices = '["0", "1"]';
    else if (resolution === 'void') prices = '["0.5", "0.5"]';
    else prices = `["${str3(yes)}", "${str3(1 - yes)}"]`;
    const volume24 = round2(500 + unit(this.seed, 'v24', slot.id, state.k) * 40_000);
    const volume = round2(1000 + (state.k - state.kOpen) * (50 + 500 * unit(this.seed, 'vt', slot.id)));
    const record: Json = {
      ...statics.base,
      ...statics.market,
      outcomePrices: prices,
      updatedAt: isoText(state.updatedAt),
      closed,
      acceptingOrders: !closed,
      volume: String(volume),
      volumeNum: volume,
      volume24hr: volume24,
      volumeClob: volume,
      volume24hrClob: volume24,
      lastTradePrice: yes,
    };
    if (!closed) {
      record.bestBid = tick3(yes - 0.005);
      record.bestAsk = tick3(yes + 0.005);
    } else {
      record.closedTime = closedTimeText(slot.close);
      record.umaEndDate = isoText(slot.close);
      record.umaResolutionStatus = resolution === 'pending' ? 'proposed' : 'resolved';
      record.umaResolutionStatuses = resolution === 'pending' ? '["proposed"]' : '["proposed", "resolved"]';
    }
    if (withEvent) record.events = [this.eventInfo(slot, state, false)];
    return record;
  }

  // ---- what the server answers

  /** Active, open markets at `now`, by id ascending: the recorded ones then the simulated ones. */
  activeMarkets(now: Date, offset = 0, limit = Infinity): Json[] {
    const t = this.minuteOf(now);
    const out: Json[] = [];
    const real = this.realActive;
    const end = offset + limit;
    for (let n = offset; n < Math.min(end, real.length); n++) out.push(real[n]);
    const slots = this.activeSlots(t);
    for (let n = Math.max(0, offset - real.length); n < slots.length && out.length < limit; n++) {
      const market = this.simulatedMarket(slots[n], t);
      if (market) out.push(market);
    }
    return out;
  }

  /**
   * The next simulated market to close after `now` (by its end date), with the time it closes: tests
   * move the clock past it to see a market close, then past SIMULATED_RESOLVE_DELAY_MS to see it resolve.
   */
  nextClose(now: Date): { marketId: string; at: Date } | null {
    const t = this.minuteOf(now);
    let best: Slot | null = null;
    for (const slot of this.activeSlots(t)) if (Number.isFinite(slot.close) && (!best || slot.close < best.close)) best = slot;
    return best ? { marketId: String(best.id), at: new Date(best.close) } : null;
  }

  /** How many active markets the listing holds at `now`. */
  activeCount(now: Date): number {
    return this.realActive.length + this.activeSlots(this.minuteOf(now)).length;
  }

  /** A market by Gamma id (recorded, or simulated of any generation that has opened by `now`). */
  marketById(id: string, now: Date): Json | null {
    const real = this.realById.get(id);
    if (real) return real;
    if (!/^\d{1,12}$/.test(id)) return null;
    const slot = this.slotOfId(Number(id));
    return slot ? this.simulatedMarket(slot, this.minuteOf(now)) : null;
  }

  /** Active, open events at `now`, by id ascending, each with its markets (the recorded event first). */
  activeEvents(now: Date, offset = 0, limit = Infinity): Json[] {
    const t = this.minuteOf(now);
    const slots = this.activeSlots(t);
    const group = slots.filter((s) => s.i < GROUP_SIZE);
    const singles = slots.filter((s) => s.i >= GROUP_SIZE);
    // Ids ascending: 30829 (recorded), the group (499999999), then 500000000 + market id.
    const entries: (() => Json | null)[] = [
      ...this.realEvents.map((e) => () => e),
      ...(group.length ? [() => this.groupEvent(group, t)] : []),
      ...singles.map((s) => () => this.singleEvent(s, t)),
    ];
    const out: Json[] = [];
    for (let n = offset; n < entries.length && out.length < limit; n++) {
      const event = entries[n]();
      if (event) out.push(event);
    }
    return out;
  }

  private singleEvent(slot: Slot, t: number): Json | null {
    const market = this.simulatedMarket(slot, t, false);
    const state = this.state(slot, t);
    if (!market || !state) return null;
    return { ...this.eventInfo(slot, state, true), markets: [market] };
  }

  private groupEvent(slots: Slot[], t: number): Json | null {
    const markets = slots.map((s) => this.simulatedMarket(s, t, false)).filter((m): m is Json => m !== null);
    const state = this.state(slots[0], t);
    if (!state) return null;
    return { ...this.eventInfo(slots[0], state, true), markets };
  }

  /** The CLOB book of a token at `now`: the recording for its own asset, else one built around the market's price; null when none. */
  book(tokenId: string, now: Date): Json | null {
    if (this.real && tokenId === this.recordedBook.asset_id) return this.recordedBook;
    const t = this.minuteOf(now);
    let yes: number;
    let conditionId: string;
    let side: 0 | 1;
    let key: string;
    const real = this.realTokens.get(tokenId);
    if (real) {
      const prices = JSON.parse(String(real.market.outcomePrices)) as string[];
      yes = Number(prices[0]);
      conditionId = String(real.market.conditionId);
      side = real.side;
      key = String(real.market.id);
    } else {
      const sim = tokenMarket(tokenId);
      const slot = sim ? this.slotOfId(sim.id) : null;
      const state = slot ? this.state(slot, t) : null;
      if (!sim || !slot || !state || state.closed) return null;
      yes = state.yes;
      conditionId = hex64(this.seed, 'condition', slot.id);
      side = sim.side;
      key = `${slot.id}/${state.k}`;
    }
    const p = side === 0 ? yes : 1 - yes;
    // The recording's order: bids ascending, asks descending (best price last).
    const bids = [4, 3, 2, 1, 0]
      .map((j) => ({ price: str3(p - 0.005 - j * 0.01), size: String(Math.round(10 + unit(this.seed, 'bid', key, j) * 990)) }))
      .filter((l) => Number(l.price) < p);
    const asks = [4, 3, 2, 1, 0]
      .map((j) => ({ price: str3(p + 0.005 + j * 0.01), size: String(Math.round(10 + unit(this.seed, 'ask', key, j) * 990)) }))
      .filter((l) => Number(l.price) > p);
    const body = { market: conditionId, asset_id: tokenId, bids, asks };
    return { ...body, hash: createHash('sha1').update(JSON.stringify(body)).digest('hex') };
  }

  /** The CLOB midpoint of a token at `now` (`{ mid_price }`), null when it has no book. */
  midpoint(tokenId: string, now: Date): Json | null {
    const book = this.book(tokenId, now) as { bids: { price: string }[]; asks: { price: string }[] } | null;
    if (!book || !book.bids.length || !book.asks.length) return null;
    const bid = Math.max(...book.bids.map((l) => Number(l.price)));
    const ask = Math.min(...book.asks.map((l) => Number(l.price)));
    return { mid_price: String(Math.round(((bid + ask) / 2) * 10_000) / 10_000) };
  }
}

/** A record without some keys (built, not deleted: objects stay fast to copy and serialize). */
const without = (record: Json, keys: readonly string[]): Json => Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));

/**
 * N simulated markets (no recorded ones) as Gamma's `/markets` answer at `at`: the benchmark's and
 * tests' larger inputs, in the recorded records' shape.
 */
export function generateGammaMarkets(n: number, at: Date, opts: Omit<PolymarketReplayWorldOptions, 'simulated' | 'real'> = {}): Json[] {
  return new PolymarketReplayWorld({ ...opts, simulated: n, real: false }).activeMarkets(at);
}

// ---------------------------------------------------------------------------------------------
// The server.

export interface PolymarketReplayServer {
  /** Base URL of both the Gamma and the CLOB paths. */
  url: string;
  world: PolymarketReplayWorld;
  /** Paths asked, with their query, in order. */
  requests: string[];
  /** The next `n` requests answer HTTP `status` (429 and 503 with Retry-After: `retryAfter` seconds when given). */
  failNext(n: number, status: number, retryAfter?: number): void;
  /** The next `n` requests answer 200 with this body (default: a JSON object where an array is expected). */
  malformNext(n: number, body?: string): void;
  /** The next request gets no answer (until close). */
  hangNext(): void;
  /** The next `n` requests are answered normally (put before a fault to fail a later request). */
  passNext(n: number): void;
  close(): Promise<void>;
}

/**
 * The replay twin on 127.0.0.1: Gamma `/markets` (active=true&closed=false listing with
 * limit/offset; closed=true: the recorded closed markets), `/markets/{id}`, `/events` (listing), and
 * CLOB `/book?token_id=`, `/midpoint?token_id=` (404 `{ error }` for a token without a book, as the
 * CLOB answers). The world's time is the clock's.
 */
export async function startPolymarketReplayServer(opts: { clock: Clock; world?: PolymarketReplayWorld } & PolymarketReplayWorldOptions): Promise<PolymarketReplayServer> {
  const world = opts.world ?? new PolymarketReplayWorld(opts);
  const requests: string[] = [];
  const faults: ({ kind: 'status'; status: number; retryAfter?: number } | { kind: 'body'; body: string } | { kind: 'hang' } | { kind: 'pass' })[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const fault = faults.shift();
    if (fault?.kind === 'hang') return void hanging.add(res);
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      res.writeHead(fault.status, headers);
      return void res.end(JSON.stringify({ error: `replay: HTTP ${fault.status} as asked` }));
    }
    if (fault?.kind === 'body') return send(200, fault.body);
    if (req.method !== 'GET') return send(405, { error: 'method not allowed' });
    const now = opts.clock.now();
    const q = url.searchParams;
    const limit = Math.min(Math.max(Number(q.get('limit') ?? 20) || 20, 1), 500);
    const offset = Math.max(Number(q.get('offset') ?? 0) || 0, 0);
    const byId = /^\/markets\/([^/]+)$/.exec(url.pathname);
    if (byId) {
      const market = world.marketById(decodeURIComponent(byId[1]), now);
      return market ? send(200, market) : send(404, { type: 'not found error', error: 'id not found' });
    }
    if (url.pathname === '/markets') {
      if (q.get('closed') === 'true') {
        const closed = ['1460332', '43', '12'].map((id) => world.marketById(id, now)).filter(Boolean);
        return send(200, closed.slice(offset, offset + limit));
      }
      return send(200, world.activeMarkets(now, offset, limit));
    }
    if (url.pathname === '/events') return send(200, world.activeEvents(now, offset, limit));
    if (url.pathname === '/book' || url.pathname === '/midpoint') {
      const token = q.get('token_id') ?? '';
      if (!token) return send(400, { error: 'Invalid token id' });
      const answer = url.pathname === '/book' ? world.book(token, now) : world.midpoint(token, now);
      return answer ? send(200, answer) : send(404, { error: 'No orderbook exists for the requested token id' });
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    world,
    requests,
    failNext(n, status, retryAfter) {
      for (let i = 0; i < n; i++) faults.push({ kind: 'status', status, retryAfter });
    },
    malformNext(n, body = '{"error":"replay: not the array you asked for"}') {
      for (let i = 0; i < n; i++) faults.push({ kind: 'body', body });
    },
    hangNext() {
      faults.push({ kind: 'hang' });
    },
    passNext(n) {
      for (let i = 0; i < n; i++) faults.push({ kind: 'pass' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
