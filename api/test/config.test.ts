import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError } from '@tickerbell/jobs';
import { loadApiConfig } from '../src/config';

const base = { DATABASE_URL: 'postgres://u@localhost/db', REDIS_URL: 'redis://localhost:6379' };

describe('api configuration', () => {
  it('has defaults that work locally', () => {
    expect(loadApiConfig(base)).toMatchObject({ PORT: 3000, BODY_LIMIT: '100kb', TRUST_PROXY: 0 });
  });

  it('names each bad variable', () => {
    try {
      loadApiConfig({ ...base, PORT: '70000', ADMIN_QUEUES_TOKEN: 'short', BODY_LIMIT: 'lots', COT_LOOKBACK: '30', PRICES_TIMEOUT_MS: '1', BILLING_SELF_HOSTED_LIMITS: 'watchlists=lots' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      // The api's own variables and every domain's, in one message.
      expect((error as ConfigError).issues.map((i) => i.variable).sort()).toEqual([
        'ADMIN_QUEUES_TOKEN',
        'BILLING_SELF_HOSTED_LIMITS',
        'BODY_LIMIT',
        'COT_LOOKBACK',
        'PORT',
        'PRICES_TIMEOUT_MS',
      ]);
    }
  });

  it('refuses one VAPID key without the other, naming the missing one', () => {
    expect(() => loadApiConfig({ ...base, VAPID_PUBLIC_KEY: 'B'.repeat(87) })).toThrow(/VAPID_PRIVATE_KEY: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together/);
    expect(() => loadApiConfig({ ...base, VAPID_SUBJECT: 'admin@example.com' })).toThrow(/VAPID_SUBJECT: must start with mailto: or https:\/\//);
  });

  const startApi = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { PATH: process.env.PATH, ...base, ...env },
      encoding: 'utf8',
      timeout: 30000,
    });

  it('the api process exits non-zero with the message when configuration is bad', () => {
    const result = startApi({ PORT: 'eighty' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration for api');
    expect(result.stderr).toMatch(/PORT: /);
  });

  it('the api process exits 1 at start on one bad domain variable (COT, prices, billing), naming it', () => {
    // Unreachable database and Redis: only a check made before connecting can produce this exit.
    for (const [variable, value, message] of [
      ['COT_LOOKBACK', '30', /COT_LOOKBACK: one of 26, 52, 156/],
      ['PRICES_SOURCE', 'invented', /PRICES_SOURCE: /],
      // Billing: a Stripe secret key without the webhook secret (or the reverse) stops the api.
      ['STRIPE_SECRET_KEY', 'sk_test_only_one', /STRIPE_WEBHOOK_SECRET: set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/],
    ] as const) {
      const result = startApi({ [variable]: value });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('Invalid configuration for api');
      expect(result.stderr).toMatch(message);
      expect(result.stderr.match(/^ {2}\w+: /gm)).toHaveLength(1);
    }
  });
});
