import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PredictionsSourceError,
  categoryOf,
  isHousekeepingTag,
  marketContent,
  parseClobBook,
  parseClobMidpoint,
  parseGammaEvents,
  parseGammaMarket,
  parseGammaMarkets,
  parseGammaTime,
  resolutionOf,
  roundDecimal,
} from '../../src/predictions/predictions.parse';
import { POLYMARKET_RECORDINGS_DIR, POLYMARKET_REPLAY_FILES } from '../../src/predictions/polymarket-replay';

// Pure tests on the recorded real Polymarket answers (src/predictions/data/README.md gives each one's
// origin); cases the recordings do not hold are built by varying values inside a recorded record.

const raw = (file: string) => JSON.parse(readFileSync(join(POLYMARKET_RECORDINGS_DIR, file), 'utf8')) as unknown;
const record = (file: string) => raw(file) as Record<string, unknown>;
const failure = (run: () => unknown): PredictionsSourceError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PredictionsSourceError);
    return error as PredictionsSourceError;
  }
  throw new Error('expected a PredictionsSourceError');
};

describe('Gamma /markets (ten real markets, July 2024)', () => {
  const markets = parseGammaMarkets(raw(POLYMARKET_REPLAY_FILES.tenMarkets));

  it('decodes the JSON-encoded outcomes, prices and token ids, and reads numbers and times', () => {
    expect(markets).toHaveLength(10);
    const nvidia = markets[0];
    expect(nvidia).toMatchObject({
      id: '503051',
      question: 'NVIDIA largest company in July?',
      outcomes: ['Yes', 'No'],
      outcomePrices: ['0.12', '0.88'],
      active: true,
      closed: false,
      volume24h: '1369.37',
      volume: '12505.37',
      liquidity: '3172.79',
      spread: '0.1000',
      bestBid: null,
      endDate: new Date('2024-07-31T12:00:00Z'),
      updatedAt: new Date('2024-07-15T17:26:02.372Z'),
      event: { id: '11345', slug: 'nvidia-largest-company-in-july', tags: null },
    });
    expect(nvidia.clobTokenIds).toHaveLength(2);
    expect(nvidia.clobTokenIds[0]).toMatch(/^\d{70,}$/);
  });

  it('makes the row: YES price to 4 decimals, outcome prices by name, negative risk from the event, no tags so no category', () => {
    const squad = marketContent(markets[1]);
    expect(squad).toMatchObject({
      polymarketId: '500665',
      yesPrice: '0.2750',
      currentPrices: { Yes: '0.275', No: '0.725' },
      negRisk: true,
      negRiskAugmented: false,
      category: null,
      tags: null,
      isActive: true,
      resolution: null,
      eventId: '10233',
      eventSlug: 'how-many-members-of-the-squad-will-lose-their-primaries',
    });
    expect(marketContent(markets[9]).yesPrice).toBe('0.0075');
    expect(squad.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the content: a price change changes it, a touch (updatedAt only) does not', () => {
    const base = record(POLYMARKET_REPLAY_FILES.tenMarkets) as never as Record<string, unknown>[];
    const first = base[0];
    const hash = (changes: Record<string, unknown>) => marketContent(parseGammaMarket({ ...first, ...changes })).contentHash;
    expect(hash({})).toBe(marketContent(markets[0]).contentHash);
    expect(hash({ updatedAt: '2024-07-16T00:00:00Z' })).toBe(hash({}));
    expect(hash({ outcomePrices: '["0.13", "0.87"]' })).not.toBe(hash({}));
    expect(hash({ volume24hr: 1400 })).not.toBe(hash({}));
  });
});

describe('Gamma /events (the Democratic nominee 2028 event: negative risk, augmented, tags)', () => {
  const [event] = parseGammaEvents(raw(POLYMARKET_REPLAY_FILES.events));

  it('reads the event, its tags (with forceHide) and its two markets linked to it', () => {
    expect(event).toMatchObject({ id: '30829', negRisk: true, negRiskAugmented: true, title: 'Democratic Presidential Nominee 2028' });
    expect(event.tags?.map((t) => t.label)).toEqual(['World Elections', 'Global Elections', 'Elections', 'Politics', 'US Election', 'Earn 4%', 'Primaries']);
    expect(event.tags?.find((t) => t.slug === 'politics')).toMatchObject({ forceHide: true });
    expect(event.markets.map((m) => [m.id, m.event?.id])).toEqual([
      ['559657', '30829'],
      ['559659', '30829'],
    ]);
  });

  it("category: the best-ranked section among the tags (Politics, though it is forceHide), subcategory the first other topic; 'Earn 4%' is housekeeping", () => {
    expect(categoryOf(event.tags)).toEqual({ category: 'Politics', subcategory: 'World Elections' });
    expect(isHousekeepingTag({ slug: 'earn-4', label: 'Earn 4%' })).toBe(true);
    expect(isHousekeepingTag({ slug: 'primaries', label: 'Primaries' })).toBe(false);
    // Without a section: the first useful tag; without tags: the legacy market field.
    const topics = (event.tags ?? []).filter((t) => !['politics', 'elections'].includes(t.slug));
    expect(categoryOf(topics)).toEqual({ category: 'World Elections', subcategory: 'Global Elections' });
    expect(categoryOf(null, 'US-current-affairs')).toEqual({ category: 'US-current-affairs', subcategory: null });
    expect(categoryOf([], null)).toEqual({ category: null, subcategory: null });
  });

  it('its markets carry the event: augmented negative risk (YES prices sum to 0.025 by design), all tags', () => {
    const rows = event.markets.map((m) => marketContent(m));
    expect(rows.map((r) => r.yesPrice)).toEqual(['0.0105', '0.0145']);
    expect(rows[0]).toMatchObject({ negRisk: true, negRiskAugmented: true, category: 'Politics', subcategory: 'World Elections', eventTitle: 'Democratic Presidential Nominee 2028' });
    expect(rows[0].tags).toHaveLength(7);
    // A /markets record of the same market (event embedded without tags) takes the tags from the /events map.
    const { events: _ignored, ...bare } = { events: undefined, ...(record(POLYMARKET_REPLAY_FILES.events) as never as { markets: Record<string, unknown>[] }[])[0].markets[0] };
    void _ignored;
    const fromListing = parseGammaMarket({ ...bare, events: [{ id: '30829', slug: 'democratic-presidential-nominee-2028' }] });
    expect(marketContent(fromListing).category).toBeNull();
    expect(marketContent(fromListing, event).category).toBe('Politics');
  });
});

describe('open, resolved and legacy markets', () => {
  it('the open 5-minute BTC market: Up/Down, book prices, 6-digit fractions, not negative risk', () => {
    const m = parseGammaMarket(raw(POLYMARKET_REPLAY_FILES.openMarket));
    expect(m).toMatchObject({ outcomes: ['Up', 'Down'], bestBid: '0.5000', bestAsk: '0.5100', spread: '0.0090' });
    expect(m.updatedAt?.toISOString()).toBe('2026-03-11T15:14:46.097Z');
    expect(marketContent(m)).toMatchObject({ yesPrice: '0.5050', negRisk: false, negRiskAugmented: false, acceptingOrders: true, category: null, resolution: null });
  });

  it('the resolved katana market: closedTime "YYYY-MM-DD HH:MM:SS+00", No at exactly 1 -> no, as the CLOB says (tokens[].winner)', () => {
    const m = parseGammaMarket(raw(POLYMARKET_REPLAY_FILES.resolvedMarket));
    expect(m.closedTime?.toISOString()).toBe('2026-03-19T23:20:15.000Z');
    const row = marketContent(m);
    expect(row).toMatchObject({ closed: true, isActive: false, acceptingOrders: false, resolution: 'no', yesPrice: '0.0000', bestAsk: '0.0010' });
    expect(row.resolvedAt?.toISOString()).toBe('2026-03-19T23:20:15.000Z');
    const clob = raw('polymarket_clob_market_resolved_katana-fdv_tokens-winner.json') as { condition_id: string; tokens: { outcome: string; winner: boolean }[] };
    expect(clob.condition_id).toBe(m.conditionId);
    expect(clob.tokens.find((t) => t.winner)?.outcome).toBe('No');
  });

  it('legacy 2020 markets with no price at 1 and no UMA status are void: fractional scalar prices (rounded exactly) and ["0","0"]', () => {
    const scalar = marketContent(parseGammaMarket(raw(POLYMARKET_REPLAY_FILES.legacyFractional)));
    expect(scalar).toMatchObject({ resolution: 'void', yesPrice: '0.5843', outcomes: ['Long', 'Short'], category: 'Crypto', closed: true });
    expect(scalar.resolvedAt?.toISOString()).toBe('2021-01-02T21:45:52.000Z');
    const zero = marketContent(parseGammaMarket(raw(POLYMARKET_REPLAY_FILES.legacyZero)));
    expect(zero).toMatchObject({ resolution: 'void', yesPrice: '0.0000', category: 'US-current-affairs' });
  });

  it('pending until settled: UMA proposed, or a modern market closed without final prices, is null; resolved 50-50 is void; YES at 1 is yes', () => {
    const katana = record(POLYMARKET_REPLAY_FILES.resolvedMarket);
    const resolution = (changes: Record<string, unknown>) => resolutionOf(parseGammaMarket({ ...katana, ...changes })).resolution;
    expect(resolution({ umaResolutionStatus: 'proposed', outcomePrices: '["0.0005", "0.9995"]' })).toBeNull();
    expect(resolution({ umaResolutionStatus: undefined, outcomePrices: '["0.42", "0.58"]' })).toBeNull();
    expect(resolution({ umaResolutionStatus: 'resolved', outcomePrices: '["0.5", "0.5"]' })).toBe('void');
    expect(resolution({ outcomePrices: '["1", "0"]' })).toBe('yes');
    expect(resolution({ closed: false })).toBeNull();
  });
});

describe('malformed Gamma answers: a PredictionsSourceError naming the record and field', () => {
  const nvidia = (record(POLYMARKET_REPLAY_FILES.tenMarkets) as never as Record<string, unknown>[])[0];

  it.each([
    [{ outcomes: '["Yes", "No"' }, /503051: outcomes is not a JSON-encoded array/],
    [{ outcomePrices: '["0.12"]' }, /503051: outcomePrices has 1 prices for 2 outcomes/],
    [{ outcomePrices: '["1.2", "-0.2"]' }, /503051: outcomePrices holds "1.2", not a price from 0 to 1/],
    [{ question: undefined }, /503051: question/],
    [{ endDate: 'next tuesday' }, /503051: endDate is not a time/],
    [{ volume24hr: 'lots' }, /503051: volume24hr is not a number/],
  ])('%j', (changes, message) => {
    const error = failure(() => parseGammaMarkets([nvidia, { ...nvidia, ...changes }]));
    expect(error.reason).toBe('malformed');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^\/markets\[1\]/);
  });

  it('an answer that is not an array of markets or events', () => {
    expect(failure(() => parseGammaMarkets({ error: 'nope' })).message).toBe('/markets: expected a JSON array of markets, got object');
    expect(failure(() => parseGammaEvents(null)).message).toBe('/events: expected a JSON array of events, got null');
    expect(failure(() => parseGammaEvents([{ id: '1', tags: [{ label: 'x' }] }])).message).toMatch(/event 1\): tags\[0\]\.id/);
  });
});

describe('CLOB /book and /midpoint', () => {
  it('sorts the recorded book (bids arrive ascending, asks descending): best bid 0.1, best ask 0.14', () => {
    const book = parseClobBook(raw(POLYMARKET_REPLAY_FILES.book));
    expect(book).toMatchObject({ bestBid: '0.1000', bestAsk: '0.1400', hash: '2fc4a3d6a98bc164e057589bcb74981852b87412' });
    expect(book.bids.map((l) => l.price)).toEqual(['0.1', '0.09', '0.08', '0.06', '0.01']);
    expect(book.asks.map((l) => l.price)).toEqual(['0.14', '0.2', '0.38', '0.46', '0.47', '0.5', '0.98']);
  });

  it('an empty side has no best price; a level that is not a price fails', () => {
    const book = raw(POLYMARKET_REPLAY_FILES.book) as Record<string, unknown>;
    expect(parseClobBook({ ...book, asks: [] })).toMatchObject({ bestBid: '0.1000', bestAsk: null });
    expect(failure(() => parseClobBook({ ...book, bids: [{ price: '1.5', size: '1' }] })).message).toMatch(/bids\[0\]\.price is not a price/);
    expect(failure(() => parseClobBook({ bids: [] })).reason).toBe('malformed');
  });

  it('midpoint: no capture exists; the reference shape { mid_price } and the older { mid } are read', () => {
    expect(parseClobMidpoint({ mid_price: '0.45' })).toBe('0.4500');
    expect(parseClobMidpoint({ mid: 0.505 })).toBe('0.5050');
    expect(failure(() => parseClobMidpoint({ error: 'No orderbook exists for the requested token id' })).reason).toBe('malformed');
  });
});

describe('numbers and times', () => {
  it.each([
    ['0.5843311669077693146635445446077281', 4, '0.5843'],
    ['0.00005', 4, '0.0001'],
    ['0.00004999', 4, '0.0000'],
    ['1', 4, '1.0000'],
    ['12232699.615479222', 2, '12232699.62'],
    [9.999997, 2, '10.00'],
    [1e-7, 4, '0.0000'],
    ['abc', 4, null],
    ['', 4, null],
  ])('roundDecimal(%j, %d) = %j', (value, scale, expected) => {
    expect(roundDecimal(value as string | number, scale)).toBe(expected);
  });

  it.each([
    ['2026-03-19 23:20:15+00', '2026-03-19T23:20:15.000Z'],
    ['2024-03-07 20:44:01.258+00', '2024-03-07T20:44:01.258Z'],
    ['2026-03-11T09:29:01.328428Z', '2026-03-11T09:29:01.328Z'],
    ['2026-03-12T09:25:00Z', '2026-03-12T09:25:00.000Z'],
    ['2024-07-31', '2024-07-31T00:00:00.000Z'],
  ])('parseGammaTime(%s)', (value, expected) => {
    expect(parseGammaTime(value)?.toISOString()).toBe(expected);
  });
});
