import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues } from '@tickerbell/jobs';
import { openApiExamplePool, replayPoolRecord } from '@tickerbell/jobs/yields';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

// `yields ingest` (the replay twins, as offline) and `import yields <file>` (a saved /pools answer).

describe('CLI: yields ingest, import yields <file>', () => {
  let db: TestDatabase;
  let dir: string;
  const prefix = testQueuePrefix();
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-yields-cli-'));
    for (const key of ['DEFILLAMA_YIELDS_URL', 'UNISWAP_SUBGRAPH_URL']) delete process.env[key];
    Object.assign(process.env, { YIELDS_REPLAY_POOLS: '120', YIELDS_TOP_POOLS_PER_CHAIN: '3', YIELDS_CHART_BACKFILL_PER_RUN: '0' });
  });
  afterAll(async () => {
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);

  it('yields ingest: one snapshot from the replay twins, its evaluation queued; again in the same hour: nothing', async () => {
    const first = await cli(['yields', 'ingest']);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toMatch(/^snapshot \d{4}-\d\d-\d\dT\d\d:00:00\.000Z: 120 pools \(120 kept; skipped 0: 0 invalid, 0 missing, 0 absurd\); \d+ tracked pools stored; subgraph: \d+ pools?; \/chart backfills: 0; [\d.]+ s\nalert evaluation queued \(yields\.evaluate\/\d+\)\n$/);
    const [{ known }] = await db.dataSource.query(`SELECT count(*)::int AS known FROM yield_pools`);
    expect(known).toBe(120);
    const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    const queues = new JobQueues(redis, prefix);
    try {
      expect(await queues.queue('yields').getJobCounts('waiting')).toEqual({ waiting: 1 });
    } finally {
      await queues.close();
      redis.disconnect();
    }
    // Unless the hour turned meanwhile, a second run finds the snapshot stored.
    const second = await cli(['yields', 'ingest']);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/already stored \(nothing written\)|tracked pools stored/);
    expect(await cli(['yields', 'ingest', '--top', 'x'])).toMatchObject({ code: 1, err: 'error: --top: an integer from 1 to 20000, got x\n' });
  });

  it('import yields <file>: a saved /pools answer, streamed; a file that fails the schema stores nothing', async () => {
    await db.dataSource.query(`DELETE FROM yield_data`);
    const template = openApiExamplePool();
    const data = Array.from({ length: 50 }, (_, i) => replayPoolRecord(template, 1000 + i, 480_000));
    data.push({ ...data[0], pool: 'bad-tvl', tvlUsd: -3 });
    const file = join(dir, 'pools.json');
    writeFileSync(file, JSON.stringify({ status: 'success', data }));
    const done = await cli(['import', 'yields', file]);
    expect(done).toMatchObject({ code: 0, err: '' });
    expect(done.out).toMatch(/: 51 pools \(50 kept; skipped 1: 0 invalid, 0 missing, 1 absurd\); \d+ tracked pools? stored; subgraph: 0 pools; \/chart backfills: 0;/);

    writeFileSync(join(dir, 'cut.json'), JSON.stringify({ status: 'success', data }).slice(0, 3000));
    await db.dataSource.query(`DELETE FROM yield_data`);
    const cut = await cli(['import', 'yields', join(dir, 'cut.json')]);
    expect(cut).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/cut\.json: \/pools: the answer is not JSON .*\(nothing stored\)\n$/) });
    expect((await db.dataSource.query(`SELECT count(*)::int AS n FROM yield_data`))[0].n).toBe(0);
    expect(await cli(['import', 'yields', join(dir, 'none.json')])).toMatchObject({ code: 1, err: expect.stringMatching(/none\.json: no such file\n$/) });
  });
});
