import { installFetch, installUnreachableFetch, removeFetch } from '../../test/fake-fetch';
import {
  ApiError,
  CLIENT_ERROR_CODES,
  apiRequest,
  getHealth,
  getReadiness,
  parseApiErrorPayload,
  parseHealth,
} from './client';

afterEach(() => {
  removeFetch();
  jest.useRealTimers();
});

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('parseApiErrorPayload', () => {
  it('reads code, message, details and requestId', () => {
    const payload = parseApiErrorPayload({
      error: { code: 'validation_failed', message: 'Bad input', details: { field: 'email' }, requestId: 'req-1' },
    });
    expect(payload).toEqual({
      code: 'validation_failed',
      message: 'Bad input',
      details: { field: 'email' },
      requestId: 'req-1',
    });
  });

  it.each([
    ['a string', 'oops'],
    ['no error key', { message: 'x' }],
    ['an error without code', { error: { message: 'x' } }],
    ['an error with a numeric message', { error: { code: 'x', message: 42 } }],
    ['nothing', undefined],
  ])('rejects %s', (_name, body) => {
    expect(parseApiErrorPayload(body)).toBeUndefined();
  });
});

describe('apiRequest', () => {
  it('returns the parsed body of a 2xx response', async () => {
    installFetch(() => ({ status: 200, body: { status: 'ok', uptimeSeconds: 12 } }));

    await expect(getHealth()).resolves.toEqual({ status: 'ok' });
  });

  it('sends JSON with the right headers and same-origin credentials', async () => {
    const fetchMock = installFetch(() => ({ status: 200, body: { status: 'ok' } }));

    await apiRequest('/api/things', { method: 'POST', body: { name: 'BTC' }, parse: parseHealth });

    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe('/api/things');
    expect(init).toMatchObject({
      method: 'POST',
      body: '{"name":"BTC"}',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    });
  });

  it('turns the api error shape into an ApiError with status, code, message and request id', async () => {
    installFetch(() => ({
      status: 422,
      body: { error: { code: 'invalid_symbol', message: 'Unknown symbol XYZ', details: ['symbol'], requestId: 'r-42' } },
    }));

    const error = await caught(getHealth());

    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_symbol');
    expect(error.message).toBe('Unknown symbol XYZ');
    expect(error.details).toEqual(['symbol']);
    expect(error.requestId).toBe('r-42');
    expect(error.isNetworkError).toBe(false);
  });

  it('reports an error status without the api error shape as http_error', async () => {
    installFetch(() => ({ status: 502, body: '<html>Bad gateway</html>' }));

    const error = await caught(getHealth());

    expect(error.status).toBe(502);
    expect(error.code).toBe(CLIENT_ERROR_CODES.http);
    expect(error.message).toBe('The server answered with HTTP 502.');
  });

  it('reports an unreachable api as a network error with status 0', async () => {
    installUnreachableFetch();

    const error = await caught(getHealth());

    expect(error.status).toBe(0);
    expect(error.code).toBe(CLIENT_ERROR_CODES.network);
    expect(error.isNetworkError).toBe(true);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('lets an abort through untouched', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    globalThis.fetch = jest.fn(() => Promise.reject(abort));

    await expect(getHealth()).rejects.toBe(abort);
  });

  it('gives up with a timeout error when the api does not answer in time', async () => {
    jest.useFakeTimers();
    // Like a browser's fetch: pending until its signal aborts.
    globalThis.fetch = jest.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );

    const pending = caught(apiRequest('/api/slow', { timeoutMs: 5_000, parse: parseHealth }));
    await jest.advanceTimersByTimeAsync(5_000);
    const error = await pending;

    expect(error.status).toBe(0);
    expect(error.code).toBe(CLIENT_ERROR_CODES.timeout);
    expect(error.message).toBe('The Tickerbell API did not answer within 5 seconds.');
  });

  it('passes the caller’s abort on to fetch', async () => {
    let fetchSignal: AbortSignal | null | undefined;
    globalThis.fetch = jest.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          fetchSignal = init?.signal;
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();

    const pending = getHealth(controller.signal);
    controller.abort();

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetchSignal?.aborted).toBe(true);
  });

  it('reports a 2xx body of the wrong shape as invalid_response', async () => {
    installFetch(() => ({ status: 200, body: { healthy: true } }));

    const error = await caught(getHealth());

    expect(error.status).toBe(200);
    expect(error.code).toBe(CLIENT_ERROR_CODES.invalidResponse);
  });
});

describe('getReadiness', () => {
  const notReady = {
    status: 'not_ready',
    checks: {
      database: { ok: true, latencyMs: 3 },
      redis: { ok: false, error: 'connect ECONNREFUSED' },
    },
  };

  it('treats a 503 readiness body as an answer, not an error', async () => {
    installFetch(() => ({ status: 503, body: notReady }));

    await expect(getReadiness()).resolves.toEqual(notReady);
  });

  it('still fails on a 503 that carries the api error shape instead', async () => {
    installFetch(() => ({ status: 503, body: { error: { code: 'shutting_down', message: 'Going away', requestId: 'r' } } }));

    const error = await caught(getReadiness());

    expect(error.status).toBe(503);
    expect(error.code).toBe('shutting_down');
  });

  it('drops fields of the wrong type from a check', async () => {
    installFetch(() => ({ status: 200, body: { status: 'ready', checks: { database: { ok: true, latencyMs: 'fast' } } } }));

    await expect(getReadiness()).resolves.toEqual({ status: 'ready', checks: { database: { ok: true } } });
  });

  it('rejects a check without a boolean ok', async () => {
    installFetch(() => ({ status: 200, body: { status: 'ready', checks: { database: { ok: 'yes' } } } }));

    const error = await caught(getReadiness());

    expect(error.code).toBe(CLIENT_ERROR_CODES.invalidResponse);
  });
});
