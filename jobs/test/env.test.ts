import { ConfigError, commonEnvSchema, parseEnv } from '../src';

const valid = { DATABASE_URL: 'postgres://u@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv(commonEnvSchema, valid, 'test');
    expect(env).toMatchObject({ QUEUE_PREFIX: 'tb', LOG_LEVEL: 'info', DB_POOL_SIZE: 10, NODE_ENV: 'development' });
  });

  it('names every bad variable in one error', () => {
    const run = () =>
      parseEnv(commonEnvSchema, { DATABASE_URL: 'mysql://x', REDIS_URL: 'not a url', DB_POOL_SIZE: 'many' }, 'workers');
    expect(run).toThrow(ConfigError);
    try {
      run();
    } catch (error) {
      const config = error as ConfigError;
      expect(config.issues.map((i) => i.variable).sort()).toEqual(['DATABASE_URL', 'DB_POOL_SIZE', 'REDIS_URL']);
      expect(config.message).toContain('Invalid configuration for workers');
      expect(config.message).toMatch(/DATABASE_URL: must be a URL starting with postgres:\/\//);
    }
  });

  it('reports a missing required variable by name', () => {
    expect(() => parseEnv(commonEnvSchema, { REDIS_URL: valid.REDIS_URL }, 'api')).toThrow(/DATABASE_URL/);
  });

  it('treats an empty value as unset, so the default applies', () => {
    expect(parseEnv(commonEnvSchema, { ...valid, QUEUE_PREFIX: '' }, 'test').QUEUE_PREFIX).toBe('tb');
  });

  it('rejects a queue prefix with characters Redis keys should not carry', () => {
    expect(() => parseEnv(commonEnvSchema, { ...valid, QUEUE_PREFIX: 'tb:x y' }, 'test')).toThrow(/QUEUE_PREFIX/);
  });
});
