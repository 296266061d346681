import { defaultDomainConfigs, defineHandler, startDomains, JOB_NAMES, type DomainStartDeps } from '@tickerbell/jobs';
import { indexHandlers } from '../src/handlers-check';

const noop = async () => undefined;
// Starting the domains opens nothing until a job runs: no connections are needed to list their handlers.
const HANDLERS = startDomains(defaultDomainConfigs(), {} as DomainStartDeps).handlers;

describe('indexHandlers', () => {
  it("accepts the domains' handler list: one handler per job", () => {
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
