import { createDataSource } from '@tickerbell/entities';
import { loadConfigOrExit, JobQueues, createLogger, createProducerConnection, logConnectionErrors } from '@tickerbell/jobs';
import { entitlementsFromConfig } from '@tickerbell/jobs/billing';
import { createApp } from './app';
import { loadApiConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadApiConfig());
  const logger = createLogger('api', config.LOG_LEVEL);
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE, applicationName: 'tickerbell-api' });
  await dataSource.initialize();
  const redis = createProducerConnection(config.REDIS_URL);
  logConnectionErrors(redis, logger, 'api');
  const queues = new JobQueues(redis, config.QUEUE_PREFIX);
  // What each user's plan allows: built once from the billing variables, shared by every route.
  const entitlements = entitlementsFromConfig(config);
  const app = createApp({ config, dataSource, redis, queues, logger, entitlements });
  const server = app.listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, host: config.HOST }, 'api listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api: shutting down');
    setTimeout(() => process.exit(1), 10000).unref();
    server.close(async () => {
      await queues.close();
      redis.disconnect();
      await dataSource.destroy();
      process.exit(0);
    });
    // Keep-alive connections would hold close() open.
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
