import pino from 'pino';
import { createDataSource } from '@tickerbell/entities';
import { JobQueues, createWorkerConnection, type Clock, type JobHandler } from '@tickerbell/jobs';
import { closeAlertIndexes } from '@tickerbell/jobs/alerts';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

/**
 * A worker "process" on the alerts queue: its own data source (so its own alert index),
 * connections and queues, as a second process would have. `close` undoes all of it.
 */
export async function alertWorkerProcess(options: {
  databaseUrl: string;
  prefix: string;
  clock: Clock;
  handlers?: JobHandler[];
}): Promise<{ runtime: WorkersRuntime; close(): Promise<void> }> {
  const dataSource = createDataSource({ url: options.databaseUrl, poolSize: 5, applicationName: 'tickerbell-test-worker' });
  await dataSource.initialize();
  const connection = createWorkerConnection(testRedisUrl());
  const queuesConnection = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(queuesConnection, options.prefix);
  const runtime = await startWorkers({
    dataSource,
    connection,
    queues,
    logger: pino({ level: 'silent' }),
    clock: options.clock,
    overrides: options.handlers ?? [],
    queueNames: ['alerts'],
    schedules: [],
  });
  return {
    runtime,
    async close() {
      await runtime.close();
      await closeAlertIndexes(dataSource);
      await queues.close();
      connection.disconnect();
      queuesConnection.disconnect();
      await dataSource.destroy();
    },
  };
}
