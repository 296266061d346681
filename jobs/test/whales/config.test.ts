import { JOBS } from '../../src/registry';
import { QUEUES } from '../../src/queues';
import { DOMAINS, SCHEDULES } from '../../src/domains';
import { loadWhalesConfig, whalesScanOptions } from '../../src/whales/whales.config';
import { whalesJobIds } from '../../src/whales/whales.jobs';

describe('whales configuration', () => {
  it('defaults to the replay twin, 12 confirmations, batches of 50 and a $1,000,000 global threshold', () => {
    const config = loadWhalesConfig({});
    expect(config).toMatchObject({ WHALES_CONFIRMATIONS: 12, WHALES_SCAN_BATCH: 50, WHALES_GLOBAL_USD_THRESHOLD: 1_000_000 });
    expect(config.ETH_RPC_URL).toBeUndefined();
    expect(whalesScanOptions(config)).toEqual({ confirmations: 12, finalized: false, maxBatch: 50, startBlock: null });
    expect(whalesScanOptions(loadWhalesConfig({ WHALES_CONFIRMATIONS: 'finalized', WHALES_START_BLOCK: '19000000' }))).toEqual({
      confirmations: undefined,
      finalized: true,
      maxBatch: 50,
      startBlock: 19_000_000n,
    });
  });

  it('names each bad variable', () => {
    expect(() => loadWhalesConfig({ ETH_RPC_URL: 'ws://node:8546' })).toThrow(/ETH_RPC_URL: must be an http\(s\) URL/);
    expect(() => loadWhalesConfig({ WHALES_CONFIRMATIONS: 'safe' })).toThrow(/WHALES_CONFIRMATIONS/);
    expect(() => loadWhalesConfig({ WHALES_SCAN_BATCH: '0' })).toThrow(/WHALES_SCAN_BATCH/);
  });

  it('registers its domain, queue, job and 12 s schedule', () => {
    expect(DOMAINS.map((d) => d.name)).toContain('whales');
    expect(QUEUES.whales.concurrency).toBeGreaterThan(0);
    expect(Object.keys(JOBS).filter((name) => name.startsWith('whales.'))).toEqual(['whales.scan', 'whales.alerts', 'whales.digests']);
    expect(SCHEDULES.filter((s) => s.job.startsWith('whales.')).map((s) => [s.id, s.repeat])).toEqual([
      ['whales.scan', { every: 12_000 }],
      ['whales.digests', { pattern: '0 */15 * * * *', tz: 'UTC' }],
    ]);
    expect(whalesJobIds.scan('ethereum', new Date('2025-01-01T00:00:13Z'))).toBe(`whales.scan/ethereum/${Math.floor(Date.parse('2025-01-01T00:00:13Z') / 12_000)}`);
    expect(whalesJobIds.continueFrom('ethereum', 19_000_050)).toBe('whales.scan/ethereum/from/19000050');
  });
});
