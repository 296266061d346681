import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { runCli } from '../src/cli/main';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the operator CLI in this process (as `npm run cli -- <args>` would) on a test database and
 * queue prefix, with what it prints captured.
 */
export async function runCliCaptured(args: string[], databaseUrl: string, queuePrefix: string): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await runCli(args, { DATABASE_URL: databaseUrl, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: queuePrefix }, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}
