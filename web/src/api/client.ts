// The one place the web client talks to the api. Every call goes through `apiRequest`, which
// turns the api's JSON error shape (and network failures) into `ApiError`, and runs a parser
// on the body so the rest of the client can trust the types.

/** Codes the client itself assigns when the api did not answer with its JSON error shape. */
export const CLIENT_ERROR_CODES = {
  /** No HTTP response at all: the api is down, the network is gone or the proxy refused. */
  network: 'network_error',
  /** An error status without the api's JSON error body (e.g. a proxy's HTML page). */
  http: 'http_error',
  /** A success status whose body is not what the call expects. */
  invalidResponse: 'invalid_response',
  /** No complete answer within the request's time limit. */
  timeout: 'timeout',
} as const;

/** How long a request may take, headers and body, unless the call says otherwise. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** The api's error body: `{ error: { code, message, details?, requestId } }`. */
export interface ApiErrorPayload {
  code: string;
  message: string;
  details?: unknown;
  requestId?: string;
}

interface ApiErrorInit extends ApiErrorPayload {
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string | undefined;

  constructor({ status, code, message, details, requestId, cause }: ApiErrorInit) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }

  /** True when the request got no complete HTTP response (network failure or timeout). */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the api's error shape out of a parsed body; undefined when the body is anything else. */
export function parseApiErrorPayload(body: unknown): ApiErrorPayload | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { code, message, details, requestId } = body.error;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return {
    code,
    message,
    ...(details === undefined ? {} : { details }),
    ...(typeof requestId === 'string' ? { requestId } : {}),
  };
}

/** Builds the ApiError for a response the caller did not accept. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const payload = parseApiErrorPayload(body);
  if (payload) return new ApiError({ status, ...payload });
  return new ApiError({
    status,
    code: CLIENT_ERROR_CODES.http,
    message: `The server answered with HTTP ${status}.`,
  });
}

/** Turns an untrusted body into a typed value, throwing when it does not fit. */
export type BodyParser<T> = (body: unknown) => T;

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is instead of a JSON body (a CSV upload, say). */
  rawBody?: { contentType: string; text: string };
  signal?: AbortSignal;
  /** Give up after this long; a hung api must not leave a page waiting forever. */
  timeoutMs?: number;
  /** Non-2xx statuses whose body is a normal answer rather than an error (503 from /api/ready). */
  acceptStatuses?: readonly number[];
  /** Extra request headers (the auth calls send their csrf token as x-csrf-token). */
  headers?: Readonly<Record<string, string>>;
  parse: BodyParser<T>;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON (a proxy's error page, say): callers see it as a missing body.
    return undefined;
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const { method = 'GET', body, rawBody, signal, acceptStatuses = [], parse } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (rawBody !== undefined) headers['Content-Type'] = rawBody.contentType;

  // One controller for both the caller's abort and our time limit (AbortSignal.any is too new).
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  let response: Response;
  let json: unknown;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: rawBody !== undefined ? rawBody.text : body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: controller.signal,
    });
    json = await readJson(response);
  } catch (error) {
    if (timedOut) {
      throw new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.timeout,
        message: `The Tickerbell API did not answer within ${Math.round(timeoutMs / 1000)} seconds.`,
        cause: error,
      });
    }
    // An abort is the caller's own decision, not an api failure: let it through untouched.
    if (isAbort(error) || signal?.aborted) throw error;
    throw new ApiError({
      status: 0,
      code: CLIENT_ERROR_CODES.network,
      message: 'The Tickerbell API could not be reached.',
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }

  const accepted = response.ok || acceptStatuses.includes(response.status);
  if (!accepted) throw apiErrorFromBody(response.status, json);

  try {
    return parse(json);
  } catch (error) {
    if (!response.ok) throw apiErrorFromBody(response.status, json);
    throw new ApiError({
      status: response.status,
      code: CLIENT_ERROR_CODES.invalidResponse,
      message: 'The server sent a response this page does not understand.',
      cause: error,
    });
  }
}

// ---- Health and readiness (`/status`) ----

/** GET /api/health: the api process answers. Extra fields are informational. */
export interface Health {
  status: string;
}

export interface ReadinessCheck {
  ok: boolean;
  latencyMs?: number;
  error?: string;
}

/** GET /api/ready: 200 when every dependency answers, 503 otherwise (same shape). */
export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: Record<string, ReadinessCheck>;
}

export function parseHealth(body: unknown): Health {
  if (!isRecord(body) || typeof body.status !== 'string') {
    throw new TypeError('health: expected { status: string }');
  }
  return { status: body.status };
}

function parseReadinessCheck(name: string, value: unknown): ReadinessCheck {
  if (!isRecord(value) || typeof value.ok !== 'boolean') {
    throw new TypeError(`readiness: check "${name}" has no boolean ok`);
  }
  const { ok, latencyMs, error } = value;
  return {
    ok,
    ...(typeof latencyMs === 'number' && Number.isFinite(latencyMs) ? { latencyMs } : {}),
    ...(typeof error === 'string' ? { error } : {}),
  };
}

export function parseReadiness(body: unknown): Readiness {
  if (!isRecord(body) || (body.status !== 'ready' && body.status !== 'not_ready')) {
    throw new TypeError('readiness: expected status "ready" or "not_ready"');
  }
  if (!isRecord(body.checks)) throw new TypeError('readiness: expected a checks object');
  const checks: Record<string, ReadinessCheck> = {};
  for (const [name, value] of Object.entries(body.checks)) {
    checks[name] = parseReadinessCheck(name, value);
  }
  return { status: body.status, checks };
}

// Probes answer in milliseconds when healthy; waiting longer only delays showing an outage.
const PROBE_TIMEOUT_MS = 10_000;

export function getHealth(signal?: AbortSignal): Promise<Health> {
  return apiRequest('/api/health', { signal, timeoutMs: PROBE_TIMEOUT_MS, parse: parseHealth });
}

export function getReadiness(signal?: AbortSignal): Promise<Readiness> {
  return apiRequest('/api/ready', {
    signal,
    timeoutMs: PROBE_TIMEOUT_MS,
    acceptStatuses: [503],
    parse: parseReadiness,
  });
}
