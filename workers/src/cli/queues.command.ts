import { QUEUE_NAMES, type JobQueues } from '@tickerbell/jobs';

export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed', 'waiting-children'] as const;

export type QueueCounts = Record<string, Record<(typeof QUEUE_STATES)[number], number>>;

export async function queueCounts(queues: JobQueues): Promise<QueueCounts> {
  const result: QueueCounts = {};
  for (const name of QUEUE_NAMES) {
    const counts = await queues.queue(name).getJobCounts(...QUEUE_STATES);
    result[name] = Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as QueueCounts[string];
  }
  return result;
}

export function formatQueueCounts(counts: QueueCounts): string {
  const header = ['queue', ...QUEUE_STATES];
  const rows = Object.entries(counts).map(([name, c]) => [name, ...QUEUE_STATES.map((s) => String(c[s]))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
