import { ILLUSTRATIVE_ANCHORS, RECORDED_ANCHORS, illustrativeAnchorOf } from '../../src/prices/simulated-prices';
import { loadPricesConfig, priceSourcesFromConfig } from '../../src/prices/prices.config';
import { fixedClock } from '../../src/runtime/clock';
import { MARKET_SEED } from '../../src/seeds/markets.seed';

describe('prices: the simulated feed covers every seeded market', () => {
  it('has a starting level for each seeded market, real where a recording exists', () => {
    const missing = MARKET_SEED.map((m) => m.symbol).filter((s) => !(s in ILLUSTRATIVE_ANCHORS) && !(s in RECORDED_ANCHORS));
    expect(missing).toEqual([]);
    // A recorded real price is never shadowed by an illustrative level.
    expect(Object.keys(ILLUSTRATIVE_ANCHORS).filter((s) => s in RECORDED_ANCHORS)).toEqual([]);
  });

  it('quotes every seeded market, flagged simulated, the last real price winning over the illustrative level', async () => {
    const config = loadPricesConfig({ PRICES_SOURCE: 'simulated' });
    const clock = fixedClock('2026-11-21T12:00:00Z');
    const sources = priceSourcesFromConfig(config, { clock, lastPrices: { ETHUSDT: '4100.5' } });
    const symbols = MARKET_SEED.map((m) => m.symbol);
    const quotes = await sources.crypto.quotes(symbols);
    expect(quotes.map((q) => q.symbol).sort()).toEqual([...symbols].sort());
    expect(quotes.every((q) => q.simulated && q.source === 'simulated')).toBe(true);
    const eth = Number(quotes.find((q) => q.symbol === 'ETHUSDT')?.price);
    // Step 0 of the walk is the anchor itself; later steps stay near it.
    expect(Math.abs(eth - 4100.5) / 4100.5).toBeLessThan(0.05);
  });

  it('quotes and charts a ticker added after the seed from an illustrative level of its own (a newly listed company)', async () => {
    const config = loadPricesConfig({ PRICES_SOURCE: 'simulated' });
    const clock = fixedClock('2026-11-21T12:00:00Z');
    const stocks = priceSourcesFromConfig(config, { clock }).stocks!;
    const anchor = Number(illustrativeAnchorOf('ABNB'));
    expect(anchor).toBeGreaterThanOrEqual(10);
    expect(anchor).toBeLessThan(200);
    // The same symbol always starts at the same level; another symbol at its own.
    expect(illustrativeAnchorOf('ABNB')).toBe(String(anchor.toFixed(2)));
    expect(illustrativeAnchorOf('SNOW')).not.toBe(illustrativeAnchorOf('ABNB'));
    const [quote] = await stocks.quotes(['ABNB']);
    expect(quote).toMatchObject({ symbol: 'ABNB', simulated: true, source: 'simulated' });
    expect(Math.abs(Number(quote!.price) - anchor) / anchor).toBeLessThan(0.05);
    const bars = await stocks.candles('ABNB', '1d', 90);
    expect(bars).toHaveLength(90);
    expect(bars[89]!.close).toBe(quote!.price);
  });
});
