import { ConfigError } from '@tickerbell/jobs';
import { loadApiConfig } from '../../src/config';

const base = { DATABASE_URL: 'postgres://u@localhost/db', REDIS_URL: 'redis://localhost:6379' };

function issues(env: Record<string, string>): string[] {
  try {
    loadApiConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((i) => i.variable).sort();
  }
}

describe('accounts configuration', () => {
  it('requires SESSION_SECRET in production only', () => {
    expect(issues({ NODE_ENV: 'production' })).toEqual(['SESSION_SECRET']);
    expect(issues({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) })).toEqual([]);
    expect(issues({ NODE_ENV: 'development' })).toEqual([]);
  });

  it('refuses a short SESSION_SECRET', () => {
    expect(issues({ SESSION_SECRET: 'short' })).toEqual(['SESSION_SECRET']);
  });

  it('wants GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together', () => {
    expect(issues({ GOOGLE_CLIENT_ID: 'id-only' })).toEqual(['GOOGLE_CLIENT_SECRET']);
    expect(issues({ GOOGLE_CLIENT_SECRET: 'secret-only' })).toEqual(['GOOGLE_CLIENT_ID']);
    expect(issues({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' })).toEqual([]);
  });

  it('has rate-limit defaults and refuses a non-http Google endpoint', () => {
    expect(loadApiConfig(base)).toMatchObject({ RATE_LIMIT_SIGNIN_MAX: 10, RATE_LIMIT_SIGNIN_IP_MAX: 30, RATE_LIMIT_WINDOW_SECONDS: 900, SESSION_MAX_AGE_DAYS: 30 });
    expect(issues({ GOOGLE_TOKEN_URL: 'ftp://example.com/token' })).toEqual(['GOOGLE_TOKEN_URL']);
  });
});
