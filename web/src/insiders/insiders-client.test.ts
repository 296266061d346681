import { INSIDERS_RECORDINGS } from '../../test/insiders-api';
import type { Bar } from '../prices/markets-client';
import { tradeDays, tradeMarkers } from './insiders-charts';
import {
  SCREENER_PRESETS,
  formatScore,
  formatUsd,
  formatUsdCompact,
  parseClusterBuys,
  parseCompanyPage,
  parseFollowView,
  parseInsiderPage,
  parseScreenerPage,
  presetOf,
  rolesText,
  screenerCsvPath,
  screenerPath,
  screenerQueryOf,
} from './insiders-client';

describe('insiders client', () => {
  it('reads the recorded api answers: decimal strings kept, nulls kept, labels of the source', () => {
    const all = parseScreenerPage(INSIDERS_RECORDINGS.screenerAll.body);
    expect(all.rows).toHaveLength(44);
    expect(all.replay).toBe(true);
    expect(all.nextCursor).toBeNull();
    const air = all.rows.find((row) => row.ticker === 'AIR');
    expect(air).toMatchObject({ transactionCode: 'S', countsAs: 'sell', totalValue: '100354.50', pricePerShare: '66.903', isWeightedPrice: true, dataSource: 'sec' });
    const company = parseCompanyPage(INSIDERS_RECORDINGS.companyNcv.body);
    expect(company.latest).toMatchObject({ isClusterBuy: true, clusterInsiders: 3, insiderSentiment: 'bullish', alertLevel: 'high' });
    expect(company.history.map((view) => view.analysisDate)).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']);
    expect(company.marketSymbol).toBeNull();
    expect(parseCompanyPage(INSIDERS_RECORDINGS.companySnow.body).marketSymbol).toBe('SNOW');
    expect(parseInsiderPage(INSIDERS_RECORDINGS.insiderScarpelli.body).companies.map((c) => c.ticker)).toEqual(['SNOW']);
    expect(parseClusterBuys(INSIDERS_RECORDINGS.clusterBuys.body)[0]?.buyers.map((b) => b.name)).toEqual(['DIRECTOR TWO', 'OFFICER ONE', 'AFFILIATE THREE']);
    expect(parseFollowView(INSIDERS_RECORDINGS.followNcv.body)).toMatchObject({ company: { ticker: 'NCV' }, officerBuyMinValue: 50000, notifyUnusualActivity: false });
  });

  it('refuses a body that is not the api shape, naming where', () => {
    expect(() => parseScreenerPage({ rows: [{ id: '1' }], nextCursor: null })).toThrow(/screener.rows\[0]/);
    const [row] = (INSIDERS_RECORDINGS.screenerAll.body as { rows: Record<string, unknown>[] }).rows;
    expect(() => parseScreenerPage({ rows: [{ ...row, totalValue: 12.5 }], nextCursor: null })).toThrow('screener.rows[0].totalValue: expected a decimal string');
    expect(() => parseScreenerPage({ rows: [{ ...row, dataSource: 'made-up' }], nextCursor: null })).toThrow('dataSource');
  });

  it('reads the query from the address bar keeping only what the api accepts', () => {
    const query = screenerQueryOf(new URLSearchParams('codes=P,QQ,S&roles=officer,ceo&minValue=-5&ticker=brk-b&sort=price&order=up&filedFrom=2025-01-01&tradedTo=yesterday&clusterOnly=true&table=both'));
    expect(query).toEqual({ codes: ['P', 'S'], roles: ['officer'], ticker: 'BRK-B', filedFrom: '2025-01-01', clusterOnly: true });
    expect(screenerPath(query)).toBe('/api/insiders/screener?filedFrom=2025-01-01&codes=P%2CS&roles=officer&ticker=BRK-B&clusterOnly=true');
    expect(screenerCsvPath({ ...query, cursor: 'abc', limit: 10 })).toBe('/api/insiders/screener?filedFrom=2025-01-01&codes=P%2CS&roles=officer&ticker=BRK-B&clusterOnly=true&format=csv');
  });

  it('knows OpenInsider’s presets, and which one a query is', () => {
    expect(SCREENER_PRESETS.map((preset) => screenerPath(preset.query))).toEqual([
      '/api/insiders/screener?codes=P&sort=filedAt&order=desc',
      '/api/insiders/screener?codes=P&clusterOnly=true&sort=filedAt&order=desc',
      '/api/insiders/screener?codes=P&minValue=25000&roles=officer%2Cdirector&sort=filedAt&order=desc',
    ]);
    expect(presetOf({ codes: ['P'] })?.id).toBe('latest-purchases');
    expect(presetOf({ codes: ['P'], ticker: 'NCV' })).toBeUndefined();
  });

  it('formats money, scores and roles for traders', () => {
    expect(formatUsd('100354.50')).toBe('$100,355');
    expect(formatUsd(null)).toBe('—');
    expect(formatUsdCompact('239175.00')).toBe('$239.2K');
    expect(formatUsdCompact('-1500000')).toBe('−$1.5M');
    expect(formatScore('100.0000')).toBe('+100');
    expect(formatScore('-35.5')).toBe('−36');
    expect(rolesText({ roles: ['officer', 'director'], officerTitle: 'CEO' })).toBe('CEO, Director');
    expect(rolesText({ roles: ['tenPercentOwner'], officerTitle: null })).toBe('10% owner');
  });

  it('puts each day of open-market buying or selling on the first daily bar at or after it', () => {
    const rows = parseScreenerPage(INSIDERS_RECORDINGS.screenerSnowByValue.body).rows;
    const days = tradeDays(rows);
    // SNOW 2022-12-13: five S lines summed; the M exercises are not buying or selling.
    expect(days).toEqual([{ date: '2022-12-13', side: 'sell', value: 30351309.77, lines: 5, insiders: ['Scarpelli Michael'] }]);
    const day = (date: string): Bar => ({ time: Date.parse(`${date}T00:00:00Z`) / 1000, open: 150, high: 155, low: 148, close: 152, volume: 10 });
    const weekend = [{ date: '2022-12-10', side: 'buy' as const, value: 1000, lines: 1, insiders: ['A'] }, ...days, { date: '2023-06-01', side: 'buy' as const, value: 5, lines: 1, insiders: ['B'] }];
    const { markers, offChart } = tradeMarkers(weekend, [day('2022-12-09'), day('2022-12-12'), day('2022-12-13')], { buy: 'green', sell: 'red' });
    expect(markers).toEqual([
      { time: day('2022-12-12').time, position: 'belowBar', shape: 'arrowUp', color: 'green', text: 'Buy $1K' },
      { time: day('2022-12-13').time, position: 'aboveBar', shape: 'arrowDown', color: 'red', text: 'Sell $30.4M' },
    ]);
    expect(offChart.map((d) => d.date)).toEqual(['2023-06-01']);
  });
});
