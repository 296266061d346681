import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues } from '@tickerbell/jobs';
import { POLYMARKET_RECORDINGS_DIR, POLYMARKET_REPLAY_FILES, predictionsJobIds } from '@tickerbell/jobs/predictions';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

// `import predictions <file>` on the recorded real Gamma answers (jobs/src/predictions/data, copies of
// ../shared/fixtures/polymarket); the malformed file is a recorded answer with one value broken.
const recorded = (file: string) => join(POLYMARKET_RECORDINGS_DIR, file);
const TEN = recorded(POLYMARKET_REPLAY_FILES.tenMarkets);
const EVENTS = recorded(POLYMARKET_REPLAY_FILES.events);
const RESOLVED = recorded(POLYMARKET_REPLAY_FILES.resolvedMarket);

describe('CLI: import predictions <file>', () => {
  let db: TestDatabase;
  let dir: string;
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-predictions-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);
  const count = async () => Number((await db.dataSource.query(`SELECT count(*) FROM prediction_markets`))[0].count);

  it('applies a /markets answer as a sync page: new markets (data_source import); the same file again changes nothing', async () => {
    expect(await cli(['import', 'predictions', TEN])).toEqual({ code: 0, err: '', out: `${TEN}: 10 markets (10 new, 0 changed, 0 unchanged); 0 closed, 0 resolved\n` });
    expect(await count()).toBe(10);
    expect((await db.dataSource.query(`SELECT data_source, yes_price FROM prediction_markets WHERE polymarket_id = '503051'`))[0]).toEqual({ data_source: 'import', yes_price: '0.1200' });
    expect((await cli(['import', 'predictions', TEN])).out).toBe(`${TEN}: 10 markets (0 new, 0 changed, 10 unchanged); 0 closed, 0 resolved\n`);
  });

  it('an /events answer (tags: category) and a resolved market: closed, resolved, its resolve job queued', async () => {
    expect((await cli(['import', 'predictions', EVENTS])).out).toBe(`${EVENTS}: 2 markets (2 new, 0 changed, 0 unchanged); 0 closed, 0 resolved\n`);
    expect((await db.dataSource.query(`SELECT category FROM prediction_markets WHERE polymarket_id = '559657'`))[0].category).toBe('Politics');
    expect((await cli(['import', 'predictions', RESOLVED])).out).toBe(`${RESOLVED}: 1 market (1 new, 0 changed, 0 unchanged); 1 closed, 1 resolved\n`);
    const [market] = await db.dataSource.query(`SELECT id, resolution, resolved_at FROM prediction_markets WHERE polymarket_id = '1460332'`);
    expect(market).toMatchObject({ resolution: 'no', resolved_at: new Date('2026-03-19T23:20:15Z') });
    const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    const queues = new JobQueues(redis, prefix);
    try {
      expect((await queues.queue('predictions').getJob(predictionsJobIds.resolve(market.id)))?.data).toEqual({ marketId: market.id });
    } finally {
      await queues.close();
      redis.disconnect();
    }
  });

  it('a malformed file: exit 1, a message naming the record and field, nothing written', async () => {
    const broken = JSON.parse(readFileSync(TEN, 'utf8')) as Record<string, unknown>[];
    broken[3] = { ...broken[3], outcomePrices: '["0.15", "0.85"' };
    // A change to an earlier record would be written if the file were applied record by record.
    broken[0] = { ...broken[0], outcomePrices: '["0.5", "0.5"]' };
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const before = await db.dataSource.query(`SELECT polymarket_id, content_hash FROM prediction_markets ORDER BY polymarket_id`);
    expect(await cli(['import', 'predictions', file])).toEqual({
      code: 1,
      out: '',
      err: `error: ${file}[3] market 503484: outcomePrices is not a JSON-encoded array (["0.15", "0.85") (nothing imported)\n`,
    });
    expect(await db.dataSource.query(`SELECT polymarket_id, content_hash FROM prediction_markets ORDER BY polymarket_id`)).toEqual(before);

    writeFileSync(join(dir, 'not.json'), '{"markets": ');
    expect(await cli(['import', 'predictions', join(dir, 'not.json')])).toMatchObject({ code: 1, err: expect.stringMatching(/not\.json: not JSON .*\(nothing imported\)\n$/) });
    expect(await cli(['import', 'predictions', join(dir, 'missing.json')])).toMatchObject({ code: 1, err: `error: ${join(dir, 'missing.json')}: no such file (nothing imported)\n` });
    expect(await count()).toBe(13);
  });
});
