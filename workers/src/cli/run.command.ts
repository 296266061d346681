import { InvalidJobError, JOB_NAMES, isJobName, type JobQueues } from '@tickerbell/jobs';
import { CliError } from './cli-error';

/** Enqueues any registered job now; the payload is checked against the job's schema first. */
export async function runJob(queues: JobQueues, name: string, dataJson: string | undefined): Promise<{ id: string; queue: string }> {
  if (!isJobName(name)) {
    throw new CliError(`Unknown job "${name}". Jobs: ${JOB_NAMES.join(', ')}`);
  }
  let data: unknown = {};
  if (dataJson !== undefined) {
    try {
      data = JSON.parse(dataJson);
    } catch (error) {
      throw new CliError(`--data is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    // The payload's type is checked at run time against the job's schema.
    const job = await queues.add(name, data as never);
    return { id: String(job.id), queue: job.queueName };
  } catch (error) {
    if (error instanceof InvalidJobError) throw new CliError(error.message);
    throw error;
  }
}
