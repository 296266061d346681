import { LIVE_TRANSFER } from '../../test/whales-api';
import { feedParams, feedQueryOf, formatAmount, formatNetUsd, matchesFeedQuery, parseFeedPage, parseTransferView, withViewerLabels } from './whales-client';
import { withArrivals } from './whales-feed-page';

const transfer = parseTransferView(LIVE_TRANSFER);

describe('whales client', () => {
  it('shows token amounts at a glance from their decimal strings', () => {
    expect(['5000.000000000000000000', '1250000.500000', '999.999', '12.3456', '0.000123456', '0', '-2500.4', null].map((value) => formatAmount(value))).toEqual([
      '5,000',
      '1,250,001',
      '1,000',
      '12.35',
      '0.0001235',
      '0',
      '−2,500',
      '—',
    ]);
    // Past a float's precision the integer part stays exact.
    expect(formatAmount('123456789012345678901234.4')).toBe('123,456,789,012,345,678,901,234');
    expect([formatNetUsd('19451797.20'), formatNetUsd('-24997500.00'), formatNetUsd('0')]).toEqual(['+$19.5M', '−$25M', '$0']);
  });

  it('reads the filters from the address bar, dropping what the api would refuse', () => {
    const query = feedQueryOf(new URLSearchParams('token=0xDAC17F958D2EE523A2206206994597C13D831EC7&minUsd=5e6&direction=up&exchange=Binance&address=0x12'));
    expect(query).toEqual({ token: '0xdac17f958d2ee523a2206206994597c13d831ec7', minUsd: 5_000_000, exchange: 'Binance' });
    expect(feedQueryOf(new URLSearchParams('token=eth&minUsd=-1&direction=exchange_outflow'))).toEqual({ token: 'ETH', direction: 'exchange_outflow' });
    expect(feedParams({ token: 'ETH', minUsd: 1_000_000 }).toString()).toBe('token=ETH&minUsd=1000000');
  });

  it('applies the feed filters to a live transfer as the api does', () => {
    expect(matchesFeedQuery(transfer, {})).toBe(true);
    expect(matchesFeedQuery(transfer, { token: 'ETH', minUsd: 5_000_000, direction: 'exchange_inflow', exchange: 'binance' })).toBe(true);
    expect(matchesFeedQuery(transfer, { minUsd: 6_000_000 })).toBe(false);
    expect(matchesFeedQuery(transfer, { direction: 'exchange_outflow' })).toBe(false);
    expect(matchesFeedQuery(transfer, { exchange: 'Kraken' })).toBe(false);
    expect(matchesFeedQuery(transfer, { token: '0xdac17f958d2ee523a2206206994597c13d831ec7' })).toBe(false);
    expect(matchesFeedQuery({ ...transfer, usdValue: null }, { minUsd: 1 })).toBe(false);
  });

  it('adds live transfers newest block first, none twice, and moves the checkpoint', () => {
    const page = parseFeedPage({ rows: [], nextCursor: 'c', source: { kind: 'live', checkpointBlock: '21000100', checkpointTime: '2026-11-27T14:57:00Z' } });
    const older = { ...transfer, id: 'older', blockNumber: '21000101' };
    const merged = withArrivals(withArrivals(page, [older]), [transfer, older]);
    expect(merged.rows.map((row) => row.id)).toEqual([transfer.id, 'older']);
    expect(merged.source).toEqual({ kind: 'live', checkpointBlock: '21000105', checkpointTime: '2026-11-27T14:58:23Z' });
    expect(merged.nextCursor).toBe('c');
  });

  it("puts the viewer's own labels on a live transfer, keeping the public ones", () => {
    const live = parseTransferView(LIVE_TRANSFER);
    const labels = new Map([[live.from, 'My cold wallet']]);
    const mine = withViewerLabels(live, labels);
    expect(mine.fromLabel).toEqual({ ...(live.fromLabel ?? { address: live.from, label: null, addressType: null, exchangeName: null }), customLabel: 'My cold wallet' });
    expect(mine.toLabel).toEqual(live.toLabel);
    expect(withViewerLabels(live, new Map())).toEqual(live);
  });

  it('names the field of an answer that does not fit', () => {
    expect(() => parseTransferView({ ...LIVE_TRANSFER, usdValue: 17 })).toThrow('transfer.usdValue: expected a decimal string');
    expect(() => parseTransferView({ ...LIVE_TRANSFER, priceSource: 'guess' })).toThrow('transfer.priceSource: expected prices, defillama, simulated');
  });
});
