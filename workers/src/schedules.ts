import { JOBS, jobOptions, type JobQueues, type ScheduleDefinition, type QueueName } from '@tickerbell/jobs';

export interface ScheduleRegistration {
  registered: string[];
  removed: string[];
}

/**
 * Registers every schedule with upsertJobScheduler (idempotent: N worker processes doing this
 * leave one scheduler per id), and removes schedulers that are no longer in the list, so a
 * schedule deleted from code stops running instead of living on in Redis.
 */
export async function registerSchedules(
  queues: JobQueues,
  schedules: ScheduleDefinition[],
  queueNames: QueueName[],
): Promise<ScheduleRegistration> {
  const registered: string[] = [];
  const wanted = new Map<QueueName, Set<string>>();
  for (const schedule of schedules) {
    const queueName = JOBS[schedule.job].queue;
    if (!queueNames.includes(queueName)) continue;
    const { jobId: _jobId, ...opts } = jobOptions(schedule.job);
    await queues.queue(queueName).upsertJobScheduler(schedule.id, schedule.repeat, {
      name: schedule.job,
      data: schedule.data,
      opts,
    });
    registered.push(schedule.id);
    wanted.set(queueName, (wanted.get(queueName) ?? new Set()).add(schedule.id));
  }
  const removed: string[] = [];
  for (const queueName of queueNames) {
    const queue = queues.queue(queueName);
    const existing = await queue.getJobSchedulers(0, -1);
    for (const scheduler of existing) {
      const id = scheduler.key;
      if (!wanted.get(queueName)?.has(id)) {
        await queue.removeJobScheduler(id);
        removed.push(id);
      }
    }
  }
  return { registered, removed };
}
