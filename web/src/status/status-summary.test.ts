import { ApiError, type Health, type Readiness } from '../api/client';
import { formatLatency, summarizeStatus } from './status-summary';

const healthy: PromiseSettledResult<Health> = { status: 'fulfilled', value: { status: 'ok' } };
const ready = (value: Readiness): PromiseSettledResult<Readiness> => ({ status: 'fulfilled', value });
const failed = (reason: unknown): PromiseRejectedResult => ({ status: 'rejected', reason });
const unreachable = new ApiError({ status: 0, code: 'network_error', message: 'The Tickerbell API could not be reached.' });

describe('summarizeStatus', () => {
  it('is operational when the api is ok and every check passes', () => {
    const summary = summarizeStatus(
      healthy,
      ready({ status: 'ready', checks: { database: { ok: true, latencyMs: 2 }, redis: { ok: true, latencyMs: 1 } } }),
    );

    expect(summary).toEqual({
      kind: 'reported',
      overall: 'operational',
      components: [
        { id: 'api', label: 'API', state: 'up' },
        { id: 'database', label: 'Database', state: 'up', latencyMs: 2 },
        { id: 'redis', label: 'Redis', state: 'up', latencyMs: 1 },
      ],
    });
  });

  it('marks a failing check down with its error and the whole as degraded', () => {
    const summary = summarizeStatus(
      healthy,
      ready({ status: 'not_ready', checks: { database: { ok: true }, redis: { ok: false, error: 'ECONNREFUSED' } } }),
    );

    expect(summary.kind === 'reported' && summary.overall).toBe('degraded');
    expect(summary.kind === 'reported' && summary.components[2]).toEqual({
      id: 'redis',
      label: 'Redis',
      state: 'down',
      detail: 'ECONNREFUSED',
    });
  });

  it('is degraded when the api says not_ready even though no listed check failed', () => {
    const summary = summarizeStatus(healthy, ready({ status: 'not_ready', checks: {} }));

    expect(summary.kind === 'reported' && summary.overall).toBe('degraded');
  });

  it('labels an unknown check by its capitalised id', () => {
    const summary = summarizeStatus(healthy, ready({ status: 'ready', checks: { queues: { ok: true } } }));

    expect(summary.kind === 'reported' && summary.components[1].label).toBe('Queues');
  });

  it('shows the api down but still lists the checks when only health fails', () => {
    const summary = summarizeStatus(
      failed(new ApiError({ status: 500, code: 'internal', message: 'Internal error' })),
      ready({ status: 'ready', checks: { database: { ok: true } } }),
    );

    expect(summary).toEqual({
      kind: 'reported',
      overall: 'degraded',
      components: [
        { id: 'api', label: 'API', state: 'down', detail: 'Internal error' },
        { id: 'database', label: 'Database', state: 'up' },
      ],
    });
  });

  it('treats a health status other than ok as down', () => {
    const summary = summarizeStatus(
      { status: 'fulfilled', value: { status: 'starting' } },
      ready({ status: 'ready', checks: {} }),
    );

    expect(summary.kind === 'reported' && summary.components[0]).toMatchObject({ state: 'down' });
  });

  it('reports the readiness call itself failing as one down component', () => {
    const summary = summarizeStatus(healthy, failed(new ApiError({ status: 502, code: 'http_error', message: 'HTTP 502' })));

    expect(summary.kind === 'reported' && summary.components[1]).toEqual({
      id: 'readiness',
      label: 'Readiness checks',
      state: 'down',
      detail: 'HTTP 502',
    });
  });

  it('is unreachable when both calls fail', () => {
    expect(summarizeStatus(failed(unreachable), failed(unreachable))).toEqual({
      kind: 'unreachable',
      message: 'The Tickerbell API could not be reached.',
    });
  });
});

describe('formatLatency', () => {
  it.each([
    [0.2, '<1 ms'],
    [1, '1 ms'],
    [12.6, '13 ms'],
    [1500, '1500 ms'],
  ])('formats %p as %p', (latencyMs, text) => {
    expect(formatLatency(latencyMs)).toBe(text);
  });
});
