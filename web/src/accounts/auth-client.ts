// Calls to the accounts api (`/api/auth/*`) exactly as the accounts issue defines them. Every
// state-changing call carries the csrf token in its JSON body and as the x-csrf-token header.
import { ApiError, CLIENT_ERROR_CODES, apiRequest, isRecord, type RequestOptions } from '../api/client';

export const AUTH_BASE_PATH = '/api/auth';

export interface SessionUser {
  id: string;
  name: string | null;
  email: string | null;
  image?: string;
  role: string;
}

export interface Session {
  user: SessionUser;
  /** ISO time the session ends; null when the api does not say. */
  expires: string | null;
}

export interface AuthProvider {
  id: string;
  name: string;
  type: string;
  signinUrl: string;
  callbackUrl: string;
}

export type AuthProviders = Record<string, AuthProvider>;

function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** `{ user, expires }` when signed in, `{}` (null here) when not. */
export function parseSession(body: unknown): Session | null {
  if (!isRecord(body) || body.user === undefined) return null;
  const { user, expires } = body;
  if (!isRecord(user)) throw new TypeError('session: expected { user, expires }');
  const id = typeof user.id === 'number' ? String(user.id) : user.id;
  if (typeof id !== 'string') throw new TypeError('session: user has no id');
  return {
    user: {
      id,
      name: optionalString(user.name),
      email: optionalString(user.email),
      ...(typeof user.image === 'string' && user.image !== '' ? { image: user.image } : {}),
      role: typeof user.role === 'string' ? user.role : 'member',
    },
    expires: typeof expires === 'string' ? expires : null,
  };
}

export function parseCsrf(body: unknown): string {
  if (!isRecord(body) || typeof body.csrfToken !== 'string' || body.csrfToken === '') {
    throw new TypeError('csrf: expected { csrfToken }');
  }
  return body.csrfToken;
}

export function parseProviders(body: unknown): AuthProviders {
  if (!isRecord(body)) throw new TypeError('providers: expected an object');
  const providers: AuthProviders = {};
  for (const [key, value] of Object.entries(body)) {
    if (!isRecord(value)) continue;
    const { id, name, type, signinUrl, callbackUrl } = value;
    if (typeof id !== 'string' || typeof name !== 'string') continue;
    providers[key] = {
      id,
      name,
      type: typeof type === 'string' ? type : 'oauth',
      signinUrl: typeof signinUrl === 'string' ? signinUrl : `${AUTH_BASE_PATH}/signin/${id}`,
      callbackUrl: typeof callbackUrl === 'string' ? callbackUrl : `${AUTH_BASE_PATH}/callback/${id}`,
    };
  }
  return providers;
}

export function parseUrlResult(body: unknown): { url: string } {
  if (!isRecord(body) || typeof body.url !== 'string') throw new TypeError('auth: expected { url }');
  return { url: body.url };
}

/** The `error` query parameter of a result url (relative or absolute), if any. */
export function errorCodeOfUrl(url: string): string | null {
  try {
    return new URL(url, 'http://localhost').searchParams.get('error');
  } catch {
    return null;
  }
}

export function getSession(signal?: AbortSignal): Promise<Session | null> {
  return apiRequest(`${AUTH_BASE_PATH}/session`, { signal, parse: parseSession });
}

export function getCsrfToken(signal?: AbortSignal): Promise<string> {
  return apiRequest(`${AUTH_BASE_PATH}/csrf`, { signal, parse: parseCsrf });
}

/** A state-changing call from a signed-in page: the session's csrf token rides as x-csrf-token. */
export async function sendWithCsrf<T>(path: string, options: Omit<RequestOptions<T>, 'headers'>): Promise<T> {
  const csrfToken = await getCsrfToken();
  return apiRequest(path, { ...options, headers: { 'x-csrf-token': csrfToken } });
}

export function getProviders(signal?: AbortSignal): Promise<AuthProviders> {
  return apiRequest(`${AUTH_BASE_PATH}/providers`, { signal, parse: parseProviders });
}

function postWithCsrf<T>(path: string, csrfToken: string, body: Record<string, unknown>, parse: (b: unknown) => T, acceptStatuses: readonly number[] = []): Promise<T> {
  return apiRequest(path, {
    method: 'POST',
    headers: { 'x-csrf-token': csrfToken },
    body: { ...body, csrfToken },
    acceptStatuses,
    parse,
  });
}

export type SignInResult = { ok: true; url: string } | { ok: false; error: string };

/** Credentials sign-in. A wrong password comes back as a url with ?error=CredentialsSignin. */
export async function signInWithCredentials(input: {
  email: string;
  password: string;
  callbackUrl: string;
}): Promise<SignInResult> {
  const csrfToken = await getCsrfToken();
  try {
    const { url } = await postWithCsrf(
      `${AUTH_BASE_PATH}/callback/credentials`,
      csrfToken,
      { email: input.email, password: input.password, callbackUrl: input.callbackUrl, json: true },
      parseUrlResult,
      // Some auth servers answer a refused sign-in with 401 and the same { url } body.
      [401],
    );
    const error = errorCodeOfUrl(url);
    return error ? { ok: false, error } : { ok: true, url };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { ok: false, error: 'CredentialsSignin' };
    throw error;
  }
}

export async function signOutRequest(callbackUrl: string): Promise<{ url: string }> {
  const csrfToken = await getCsrfToken();
  return postWithCsrf(`${AUTH_BASE_PATH}/signout`, csrfToken, { callbackUrl, json: true }, parseUrlResult);
}

export async function signUpRequest(input: { name: string; email: string; password: string }): Promise<void> {
  const csrfToken = await getCsrfToken();
  await postWithCsrf(`${AUTH_BASE_PATH}/signup`, csrfToken, input, () => undefined);
}

/**
 * Paths of the account-recovery calls as the accounts api serves them. Verification is a GET
 * link (the api checks the token and redirects to /sign-in?verified=1 or ?error=Verification).
 */
export const ACCOUNT_ACTION_PATHS = {
  forgotPassword: `${AUTH_BASE_PATH}/password/forgot`,
  resetPassword: `${AUTH_BASE_PATH}/password/reset`,
  resendVerification: `${AUTH_BASE_PATH}/verify-email/resend`,
} as const;

export function verifyEmailUrl(token: string): string {
  return `${AUTH_BASE_PATH}/verify-email?${new URLSearchParams({ token }).toString()}`;
}

/** Forgot/reset/resend: any 2xx is success, errors arrive as ApiError with the api's message. */
export async function postAccountAction(
  action: keyof typeof ACCOUNT_ACTION_PATHS,
  body: Record<string, string>,
): Promise<void> {
  const csrfToken = await getCsrfToken();
  await postWithCsrf(ACCOUNT_ACTION_PATHS[action], csrfToken, body, () => undefined);
}

/** A message to show for an ApiError or anything else thrown by the calls above. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === CLIENT_ERROR_CODES.network || error.code === CLIENT_ERROR_CODES.timeout) {
      return 'Tickerbell could not be reached. Check your connection and try again.';
    }
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}
