import { z } from 'zod';
import { ConfigError } from '../../src/config/env';
import { JOBS } from '../../src/registry';
import { QUEUES } from '../../src/queues';
import { SCHEDULES, loadProcessConfig } from '../../src/domains';
import { loadInsidersConfig } from '../../src/insiders/insiders.config';
import { insidersJobIds } from '../../src/insiders/insiders.jobs';

const UA = 'Acme Research ops@acme.example';

describe('insiders configuration', () => {
  it('defaults to the recordings, and to live EDGAR in production once SEC_USER_AGENT is set', () => {
    expect(loadInsidersConfig({})).toMatchObject({
      INSIDERS_SOURCE: 'replay',
      INSIDERS_POLL_SECONDS: 60,
      INSIDERS_MAX_FILING_ATTEMPTS: 5,
      INSIDERS_CATCH_UP_DAYS: 10,
      INSIDERS_SEC_WWW_URL: 'https://www.sec.gov',
      INSIDERS_SEC_DATA_URL: 'https://data.sec.gov',
    });
    expect(loadInsidersConfig({ NODE_ENV: 'production' }).INSIDERS_SOURCE).toBe('replay');
    expect(loadInsidersConfig({ NODE_ENV: 'production', SEC_USER_AGENT: UA }).INSIDERS_SOURCE).toBe('live');
    expect(loadInsidersConfig({ NODE_ENV: 'production', SEC_USER_AGENT: UA, INSIDERS_SOURCE: 'replay' }).INSIDERS_SOURCE).toBe('replay');
  });

  it('refuses live EDGAR without SEC_USER_AGENT, naming it, and a poll interval off the 15 s tick', () => {
    expect(() => loadInsidersConfig({ INSIDERS_SOURCE: 'live' })).toThrow(/SEC_USER_AGENT: required when INSIDERS_SOURCE is live/);
    expect(() => loadInsidersConfig({ INSIDERS_POLL_SECONDS: '20' })).toThrow(/INSIDERS_POLL_SECONDS: must be a multiple of 15/);
    expect(() => loadInsidersConfig({ INSIDERS_SEC_WWW_URL: 'ftp://sec.gov' })).toThrow(/INSIDERS_SEC_WWW_URL/);
  });

  it('shares SEC_USER_AGENT with news: a process reports a bad one once', () => {
    try {
      loadProcessConfig(z.object({}), { SEC_USER_AGENT: 'no contact' }, 'workers');
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.filter((i) => i.variable === 'SEC_USER_AGENT')).toHaveLength(1);
    }
  });

  it('registers its queue, jobs and schedules', () => {
    expect(QUEUES.insiders.concurrency).toBeGreaterThan(0);
    expect(Object.keys(JOBS).filter((name) => name.startsWith('insiders.')).sort()).toEqual([
      'insiders.backfill-company',
      'insiders.catch-up',
      'insiders.fetch-filing',
      'insiders.notify',
      'insiders.poll-current',
      'insiders.read-daily-index',
      'insiders.recompute-active',
      'insiders.recompute-analytics',
      'insiders.sync-tickers',
    ]);
    expect(SCHEDULES.filter((s) => s.job.startsWith('insiders.')).map((s) => [s.id, s.repeat])).toEqual([
      ['insiders.poll-current', { every: 15_000 }],
      ['insiders.catch-up', { pattern: '30 6 * * 1-5', tz: 'America/New_York' }],
      ['insiders.recompute-active', { pattern: '5 0 * * *', tz: 'America/New_York' }],
      ['insiders.sync-tickers', { pattern: '0 5 * * 0', tz: 'America/New_York' }],
    ]);
    expect(insidersJobIds.fetchFiling('0001127602-25-001055')).toBe('insiders.fetch-filing/0001127602-25-001055');
    expect(insidersJobIds.notify(7, 'cluster_buy', '2025-12-12')).toBe('insiders.notify/7/cluster_buy/2025-12-12');
  });
});
