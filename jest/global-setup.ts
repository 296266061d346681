import { randomBytes } from 'node:crypto';
import { createTemplateDatabase, testAdminUrl } from '../entities/src/testing/test-database';

// One migrated template database per run; each test file clones it.
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  process.env.TB_TEST_RUN_ID = runId;
  await createTemplateDatabase(testAdminUrl(), runId);
}
