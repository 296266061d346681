import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';

// The infra modules read TB_DATA_DIR and the local-server overrides when loaded, so each test
// sets its environment and loads fresh copies of them.
function loadInfra(env: Record<string, string>) {
  Object.assign(process.env, env);
  let modules!: { redis: typeof import('../infra/redis'); postgres: typeof import('../infra/postgres') };
  jest.isolateModules(() => {
    modules = { redis: require('../infra/redis'), postgres: require('../infra/postgres') };
  });
  return modules;
}

describe('developer infrastructure discovery', () => {
  const saved = { ...process.env };
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-infra-'));
  });

  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts its own redis-server (noeviction, data under .data) when none answers, and stops it', async () => {
    const { redis } = loadInfra({ TB_DATA_DIR: dataDir, TB_LOCAL_REDIS_URL: 'redis://127.0.0.1:1', SPAWNED_REDIS_PORT: '0' });
    const server = await redis.resolveRedis(undefined);
    try {
      expect(server.origin).toBe('spawned');
      expect(await redis.probeRedis(server.url)).toBeNull();
      expect(fs.existsSync(path.join(dataDir, 'redis', 'server.json'))).toBe(true);
      const client = new Redis(server.url);
      const [, policy] = (await client.config('GET', 'maxmemory-policy')) as string[];
      client.disconnect();
      expect(policy).toBe('noeviction');
    } finally {
      await server.stop();
    }
    expect(await redis.probeRedis(server.url, 300)).toBeInstanceOf(Error);
  });

  it('says how to get Redis when none answers and redis-server is not installed', async () => {
    const { redis } = loadInfra({ TB_DATA_DIR: dataDir, TB_LOCAL_REDIS_URL: 'redis://127.0.0.1:1', PATH: '/nonexistent' });
    await expect(redis.resolveRedis(undefined)).rejects.toThrow(/apt-get install redis-server[\s\S]*brew install redis[\s\S]*docker compose up -d redis/);
  });

  it('fails clearly when REDIS_URL is set but does not answer', async () => {
    const { redis } = loadInfra({ TB_DATA_DIR: dataDir });
    await expect(redis.resolveRedis('redis://127.0.0.1:1')).rejects.toThrow(/REDIS_URL is set but Redis does not answer/);
  });

  it('uses the local PostgreSQL on 5432 when it answers', async () => {
    const { postgres } = loadInfra({ TB_DATA_DIR: dataDir });
    const server = await postgres.resolvePostgresServer(undefined);
    expect(server.origin).toBe('local');
  });

  it('falls back to an embedded PostgreSQL under .data when no server answers, even as root', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'support', 'embedded-postgres-check.ts')], {
      env: {
        ...process.env,
        TB_DATA_DIR: dataDir,
        TB_LOCAL_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/postgres',
        EMBEDDED_POSTGRES_PORT: '0',
      },
      encoding: 'utf8',
      timeout: 120000,
    });
    expect(result.stderr).toContain('using the embedded one');
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.origin).toBe('embedded');
    expect(printed.version).toBeGreaterThanOrEqual(150000);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
  }, 120000);
});
