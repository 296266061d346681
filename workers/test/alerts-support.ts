import { HANDLERS, JOB_NAMES, defineHandler, type JobHandler } from '@tickerbell/jobs';

/** Every handler, with placeholders for jobs whose handlers are not written yet (their queues are not run here). */
export function allHandlers(overrides: JobHandler[] = []): JobHandler[] {
  const replaced = new Set(overrides.map((h) => h.name));
  const handlers = [...HANDLERS.filter((h) => !replaced.has(h.name)), ...overrides];
  const missing = JOB_NAMES.filter((name) => !handlers.some((h) => h.name === name));
  return [
    ...handlers,
    ...missing.map((name) =>
      defineHandler(name, async () => {
        throw new Error(`${name} is not run in this test`);
      }),
    ),
  ];
}
