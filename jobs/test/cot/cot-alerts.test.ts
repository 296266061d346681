import {
  cotAlertDedupeKey,
  cotDisplayName,
  cotNotificationContent,
  cotPushOptions,
  isFreshCotReport,
  ordinalPercentile,
  type CotAlertSource,
} from '../../src/cot/cot-alerts';
import { cotJobIds } from '../../src/cot/cot.jobs';

const source = (over: Partial<CotAlertSource> = {}): CotAlertSource => ({
  instrumentId: 1,
  cftcCode: '13874A',
  instrumentName: 'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE',
  symbol: 'ES',
  reportDate: '2022-08-16',
  percentileRank: { leveraged: '93.59', commercial: '12.82', assetManager: '10.26' },
  divergenceScore: '83.3300',
  divergenceType: 'leveraged_crowded_long_asset_managers_short',
  alertLevel: 'high',
  windowSize: 156,
  events: [{ type: 'extreme', group: 'leveraged', side: 'long', previousSide: null, percentileRank: '93.59' }],
  ...over,
});

describe('cot alert notifications', () => {
  it('titles the first event with the instrument and names the percentile and the divergence in the message', () => {
    const content = cotNotificationContent(source());
    expect(content.title).toBe('E-MINI S&P 500 (ES): leveraged funds at a long extreme');
    expect(content.message).toBe(
      'Leveraged funds are at the 93.59th percentile of the last 156 reports (a long extreme). ' +
        'Divergence (leveraged - asset managers): +83.33, high, leveraged funds crowded long while asset managers are short. ' +
        'COT report of 2022-08-16.',
    );
    expect(content).toMatchObject({ type: 'warning', activityType: 'MARKET_ALERT_TECHNICAL', symbolId: 'ES', dedupeKey: 'cot:13874A:2022-08-16' });
  });

  it('is information below a high alert level, and names a divergence change', () => {
    const content = cotNotificationContent(
      source({
        alertLevel: 'medium',
        divergenceScore: '-61.0000',
        divergenceType: 'leveraged_shorter',
        events: [
          { type: 'divergence', divergenceType: 'leveraged_shorter', alertLevel: 'medium', previousDivergenceType: 'aligned', previousAlertLevel: 'low', divergenceScore: '-61.0000' },
        ],
      }),
    );
    expect(content.type).toBe('info');
    expect(content.title).toBe('E-MINI S&P 500 (ES): medium divergence between leveraged funds and asset managers');
    expect(content.message).toContain('moved from low to medium. Divergence (leveraged - asset managers): -61.00, medium');
  });

  it('refuses to build a notification without events', () => {
    expect(() => cotNotificationContent(source({ events: [] }))).toThrow(/no COT alert events/);
  });

  it('treats reports up to 14 days old as fresh', () => {
    expect(isFreshCotReport('2022-08-16', new Date('2022-08-19T20:00:00Z'))).toBe(true);
    expect(isFreshCotReport('2022-08-16', new Date('2022-08-30T00:00:00Z'))).toBe(true);
    expect(isFreshCotReport('2022-08-16', new Date('2022-08-30T00:00:01Z'))).toBe(false);
    expect(isFreshCotReport('2006-01-03', new Date('2022-08-19T20:00:00Z'))).toBe(false);
  });

  it('formats names, ordinals, keys, job ids and push topics', () => {
    expect(cotDisplayName('UST 10Y NOTE - CHICAGO BOARD OF TRADE', null)).toBe('UST 10Y NOTE');
    expect([ordinalPercentile('1.00'), ordinalPercentile('2'), ordinalPercentile('3'), ordinalPercentile('11'), ordinalPercentile('100.00'), ordinalPercentile('50.5')]).toEqual([
      '1st',
      '2nd',
      '3rd',
      '11th',
      '100th',
      '50.5th',
    ]);
    expect(cotAlertDedupeKey('13874+', '2022-08-16')).toBe('cot:13874+:2022-08-16');
    expect(cotJobIds.notify('13874A', '2022-08-16')).toBe('cot.notify/13874A/2022-08-16');
    // One id per instrument and report, whatever a code holds (BullMQ refuses ':' in ids).
    expect(cotJobIds.notify('13874+', '2022-08-16')).toBe('cot.notify/13874%2B/2022-08-16');
    expect(cotJobIds.analytics('13874A', '2022-08-16')).toBe('cot.recompute-analytics/13874A/2022-08-16');
    expect(cotPushOptions(source({ cftcCode: '13874+' })).topic).toBe('cot-13874_');
  });

  it("a push opens the instrument's dashboard page (a route the web client has)", () => {
    expect(cotPushOptions(source({ cftcCode: '13874+' })).url).toBe('/dashboard/cot/13874%2B');
  });
});
