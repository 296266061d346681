import { createDataSource } from '@tickerbell/entities';
import { loadConfigOrExit, JobQueues, createLogger, createWorkerConnection, logConnectionErrors } from '@tickerbell/jobs';
import { createMailer } from '@tickerbell/jobs/mail';
import { loadWorkersConfig } from './config';
import { startHealthServer, startHeartbeat } from './health';
import { startWorkers } from './runtime';

async function main(): Promise<void> {
  // Every variable of the workers and of every domain is checked here, before anything starts.
  const { config, domains: domainConfigs } = loadConfigOrExit(() => loadWorkersConfig());
  const logger = createLogger('workers', config.LOG_LEVEL);
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE, applicationName: 'tickerbell-workers' });
  await dataSource.initialize();
  const connection = createWorkerConnection(config.REDIS_URL);
  const queuesConnection = createWorkerConnection(config.REDIS_URL);
  logConnectionErrors(connection, logger, 'workers');
  logConnectionErrors(queuesConnection, logger, 'queues');
  const queues = new JobQueues(queuesConnection, config.QUEUE_PREFIX);
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: config.MAIL_OUTBOX_DIR,
    logger,
    // Outbox mode is for local use: the log then shows the links a developer needs.
    logBodies: config.NODE_ENV !== 'production',
  });
  if (!config.SMTP_URL) logger.warn({ outbox: config.MAIL_OUTBOX_DIR }, 'SMTP_URL is not set: mail goes to the outbox folder');
  // The runtime starts every domain with its configuration (handlers with their dependencies built once).
  const runtime = await startWorkers({ dataSource, connection, queues, logger, mailer, domains: domainConfigs, queueNames: config.WORKER_QUEUES });
  const heartbeat = startHeartbeat(connection, config.QUEUE_PREFIX, runtime);
  const healthServer = config.WORKER_HEALTH_PORT ? startHealthServer(config.WORKER_HEALTH_PORT, runtime) : undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'workers: shutting down, waiting for running jobs');
    const force = setTimeout(() => {
      logger.error('workers: shutdown timed out, exiting');
      process.exit(1);
    }, config.WORKER_SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // The workers, then every domain's resources (alert indexes, push sockets, ...) through one list.
    await runtime.close();
    await heartbeat.stop();
    healthServer?.close();
    await queues.close();
    mailer.close();
    await connection.quit();
    await dataSource.destroy();
    logger.info('workers: stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`workers failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
