import { JOB_NAMES, isJobName, type JobHandler, type JobName } from '@tickerbell/jobs';

/**
 * Every job name must have exactly one handler, and every handler a known job name:
 * a job nobody handles would sit in its queue forever, two handlers would race.
 */
export function indexHandlers(handlers: JobHandler[], jobNames: readonly string[] = JOB_NAMES): Map<JobName, JobHandler> {
  const problems: string[] = [];
  const byName = new Map<JobName, JobHandler>();
  for (const handler of handlers) {
    if (!isJobName(handler.name) || !jobNames.includes(handler.name)) {
      problems.push(`handler for unknown job "${handler.name}"`);
    } else if (byName.has(handler.name)) {
      problems.push(`job "${handler.name}" has two handlers`);
    } else {
      byName.set(handler.name, handler);
    }
  }
  for (const name of jobNames) {
    if (isJobName(name) && !byName.has(name)) problems.push(`job "${name}" has no handler`);
  }
  if (problems.length) throw new Error(`Refusing to start the workers: ${problems.join('; ')}`);
  return byName;
}
