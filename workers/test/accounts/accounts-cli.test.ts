import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { runCli } from '../../src/cli/main';

describe('cli: users promote / demote', () => {
  let db: TestDatabase;
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) } };
  };
  const env = () => ({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: testQueuePrefix() });

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.dataSource.query(`INSERT INTO users (email, role) VALUES ('Boss@Example.com', 'member')`);
  });
  afterAll(() => db.drop());

  it('promotes a user to admin by email, case-insensitively, and demotes back', async () => {
    const promote = io();
    expect(await runCli(['users', 'promote', 'boss@example.com'], env(), promote.io)).toBe(0);
    expect(promote.out.join('')).toContain('is now an admin');
    const [row] = await db.dataSource.query(`SELECT role FROM users WHERE email = 'Boss@Example.com'`);
    expect(row.role).toBe('admin');
    expect(await runCli(['users', 'demote', 'BOSS@example.com'], env(), io().io)).toBe(0);
    const [after] = await db.dataSource.query(`SELECT role FROM users WHERE email = 'Boss@Example.com'`);
    expect(after.role).toBe('member');
  });

  it('fails with a clear message for an unknown email', async () => {
    const run = io();
    expect(await runCli(['users', 'promote', 'nobody@example.com'], env(), run.io)).toBe(1);
    expect(run.err.join('')).toContain('No user with the email nobody@example.com');
  });
});
