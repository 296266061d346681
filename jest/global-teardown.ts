import { dropDatabasesWithPrefix, testAdminUrl, testRunId } from '../entities/src/testing/test-database';

export default async function globalTeardown(): Promise<void> {
  await dropDatabasesWithPrefix(testAdminUrl(), `tb_test_${testRunId()}_`);
}
