import { randomBytes } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../api/src/app';
import { loadApiConfig } from '../api/src/config';
import { hashPassword, verifyPassword } from '../api/src/accounts/password-hash';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';


function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `op` `total` times, `concurrency` at once; per-op latencies and throughput. */
async function measure(scenario: string, total: number, concurrency: number, op: () => Promise<unknown>): Promise<BenchRow> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { scenario, ops: total, concurrency, 'ops/s': total / seconds, 'p50 ms': percentile(latencies, 50), 'p95 ms': percentile(latencies, 95) };
}

export const accountsBench: Benchmark = {
  name: 'accounts',
  description: 'argon2id (m=19456, t=2, p=1) hashing and verifying, and a signed-in GET /api/auth/session (session row + user read)',
  async run({ pgAdminUrl, redisUrl }) {
    const rows: BenchRow[] = [];
    const hash = await hashPassword('correct horse battery staple');
    rows.push(await measure('argon2id hash', 40, 1, () => hashPassword('correct horse battery staple')));
    rows.push(await measure('argon2id verify', 40, 1, () => verifyPassword(hash, 'correct horse battery staple')));
    rows.push(await measure('argon2id verify', 80, 4, () => verifyPassword(hash, 'correct horse battery staple')));

    const database = await benchDatabase(pgAdminUrl, 'accounts', 10);
    const { dataSource } = database;
    const prefix = `tb-bench-${randomBytes(4).toString('hex')}`;
    const redis = createProducerConnection(redisUrl);
    const queues = new JobQueues(redis, prefix);
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      await dataSource.query(`INSERT INTO users (email, password_hash, is_verified) VALUES ('bench@example.com', $1, true)`, [hash]);
      const config = loadApiConfig({ DATABASE_URL: database.url, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
      const app = createApp({ config, dataSource, redis, queues, logger: pino({ level: 'silent' }) });
      const server = app.listen(0, '127.0.0.1');
      try {
        const agent = request.agent(server);
        const { csrfToken } = (await agent.get('/api/auth/csrf')).body as { csrfToken: string };
        await agent.post('/api/auth/callback/credentials').send({ email: 'bench@example.com', password: 'correct horse battery staple', csrfToken, json: true }).expect(200);
        rows.push(await measure('GET /api/auth/session (signed in)', 400, 1, () => agent.get('/api/auth/session').expect(200)));
        rows.push(await measure('GET /api/auth/session (signed in)', 800, 8, () => agent.get('/api/auth/session').expect(200)));
      } finally {
        server.close();
      }
    } finally {
      await queues.close();
      redis.disconnect();
      await deleteKeysWithPrefix(redisUrl, prefix);
      await database.drop();
    }
    return rows;
  },
};
