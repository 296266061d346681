import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { createWorkerConnection } from '@tickerbell/jobs';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import type { Benchmark, BenchRow } from './bench';

const ADD_JOBS = 20000;
const BATCH = 1000;

/** Raw BullMQ on this machine with no-op jobs: the ceiling every queue-based feature is compared to. */
export const bullmqBaseline: Benchmark = {
  name: 'bullmq',
  description: `Raw BullMQ throughput: addBulk of ${ADD_JOBS} no-op jobs, then processing at concurrency 1 and 50`,
  async run({ redisUrl }) {
    const prefix = `tb-bench-${randomUUID()}`;
    const connection = createWorkerConnection(redisUrl);
    const rows: BenchRow[] = [];
    try {
      const queue = new Queue('bench', { connection, prefix });
      const addStarted = performance.now();
      for (let i = 0; i < ADD_JOBS; i += BATCH) {
        await queue.addBulk(
          Array.from({ length: BATCH }, (_, j) => ({
            name: 'noop',
            data: { i: i + j },
            opts: { removeOnComplete: true, removeOnFail: true },
          })),
        );
      }
      const addSeconds = (performance.now() - addStarted) / 1000;
      rows.push({ scenario: `addBulk (batches of ${BATCH})`, jobs: ADD_JOBS, seconds: addSeconds, 'jobs/s': ADD_JOBS / addSeconds });

      for (const concurrency of [1, 50]) {
        // Concurrency 1 takes 5,000 jobs; concurrency 50 all that are left.
        const jobs = concurrency === 1 ? 5000 : await queue.getWaitingCount();
        let done = 0;
        const started = performance.now();
        const worker = new Worker('bench', async () => undefined, {
          connection: createWorkerConnection(redisUrl),
          prefix,
          concurrency,
        });
        await new Promise<void>((resolve, reject) => {
          worker.on('completed', () => {
            done += 1;
            if (done === jobs) resolve();
          });
          worker.on('error', reject);
        });
        const seconds = (performance.now() - started) / 1000;
        // Closing is not part of the measurement; the jobs left over go to the next round.
        await worker.close();
        rows.push({ scenario: `process, concurrency ${concurrency}`, jobs, seconds, 'jobs/s': jobs / seconds });
      }

      // Latency of one job through an idle queue: add -> completed event.
      const events = new QueueEvents('bench', { connection: { url: redisUrl }, prefix });
      await events.waitUntilReady();
      const worker = new Worker('bench', async () => undefined, { connection: createWorkerConnection(redisUrl), prefix, concurrency: 1 });
      await worker.waitUntilReady();
      const latencies: number[] = [];
      for (let i = 0; i < 200; i++) {
        const started = performance.now();
        const job = await queue.add('noop', {}, { removeOnComplete: true });
        await job.waitUntilFinished(events);
        latencies.push(performance.now() - started);
      }
      latencies.sort((a, b) => a - b);
      rows.push({
        scenario: 'one job, add -> completed (ms)',
        jobs: latencies.length,
        p50: latencies[Math.floor(latencies.length * 0.5)],
        p99: latencies[Math.floor(latencies.length * 0.99)],
      });
      await worker.close();
      await events.close();
      await queue.close();
    } finally {
      connection.disconnect();
      await deleteKeysWithPrefix(redisUrl, prefix);
    }
    return rows;
  },
};
