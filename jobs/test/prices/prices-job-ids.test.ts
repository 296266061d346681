import { alertsJobIds } from '../../src/alerts/alerts.jobs';
import { pricesJobIds } from '../../src/prices/prices.jobs';

describe('job ids of prices and alerts (one format: name/part/part)', () => {
  it('derives one backfill job id per symbol, interval and UTC day, without colons', () => {
    // A technical alert, a chart and the poll all ask for the same backfill under this id.
    const at = new Date('2026-11-21T23:59:59Z');
    expect(pricesJobIds.backfill('BTCUSDT', '1h', at)).toBe('prices.backfill-bars/BTCUSDT/1h/2026-11-21');
    expect(pricesJobIds.backfill('^GSPC', '4h', at)).toBe('prices.backfill-bars/%5EGSPC/4h/2026-11-21');
    expect(pricesJobIds.backfill('EUR:USD', '1d', at)).toBe('prices.backfill-bars/EUR%3AUSD/1d/2026-11-21');
    expect(pricesJobIds.backfill('EUR:USD', '1d', at)).not.toContain(':');
    // Another UTC day is another job.
    expect(pricesJobIds.backfill('BTCUSDT', '1h', new Date('2026-11-22T00:00:00Z'))).toBe('prices.backfill-bars/BTCUSDT/1h/2026-11-22');
  });

  it('names the evaluation jobs a poll queues by their kind, first instant and payload digest', () => {
    expect(pricesJobIds.evaluate('crypto', 1795000000000, 'abc123')).toBe('alerts.evaluate/crypto/1795000000000/abc123');
    expect(pricesJobIds.evaluateBars(1795000000000, 'abc123')).toBe('alerts.evaluate-bars/1795000000000/abc123');
  });

  it('delivers one webhook per firing', () => {
    expect(alertsJobIds.webhook('42')).toBe('alerts.webhook/42');
  });
});
