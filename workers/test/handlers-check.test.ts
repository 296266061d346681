import { defineHandler, HANDLERS, JOB_NAMES } from '@tickerbell/jobs';
import { indexHandlers } from '../src/handlers-check';

const noop = async () => undefined;

describe('indexHandlers', () => {
  it('accepts the real handler list: one handler per job', () => {
    const index = indexHandlers(HANDLERS);
    expect([...index.keys()].sort()).toEqual([...JOB_NAMES].sort());
  });

  it('refuses a job that has no handler', () => {
    expect(() => indexHandlers([])).toThrow(/Refusing to start the workers: job "housekeeping.purge-expired" has no handler/);
  });

  it('refuses a job with two handlers', () => {
    const twice = [defineHandler('housekeeping.purge-expired', noop), defineHandler('housekeeping.purge-expired', noop)];
    expect(() => indexHandlers(twice)).toThrow(/job "housekeeping.purge-expired" has two handlers/);
  });

  it('refuses a handler for a job that does not exist', () => {
    const unknown = [...HANDLERS, { name: 'ghost.job', run: noop } as never];
    expect(() => indexHandlers(unknown)).toThrow(/handler for unknown job "ghost.job"/);
  });
});
