import { installFetch, removeFetch } from '../../test/fake-fetch';
import { getProviders, getSession, signInWithCredentials, signOutRequest, signUpRequest } from './auth-client';

afterEach(removeFetch);

function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.[name];
}

describe('getSession', () => {
  it('reads a signed-in session', async () => {
    installFetch(() => ({
      status: 200,
      body: { user: { id: 7, name: 'Ada', email: 'ada@example.com', role: 'member' }, expires: '2030-01-01T00:00:00Z' },
    }));

    await expect(getSession()).resolves.toEqual({
      user: { id: '7', name: 'Ada', email: 'ada@example.com', role: 'member' },
      expires: '2030-01-01T00:00:00Z',
    });
  });

  it('reads {} as signed out', async () => {
    installFetch(() => ({ status: 200, body: {} }));

    await expect(getSession()).resolves.toBeNull();
  });
});

describe('getProviders', () => {
  it('keeps the providers the api lists', async () => {
    installFetch(() => ({
      status: 200,
      body: {
        credentials: { id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: '/a', callbackUrl: '/b' },
        google: { id: 'google', name: 'Google', type: 'oauth', signinUrl: '/c', callbackUrl: '/d' },
      },
    }));

    const providers = await getProviders();

    expect(Object.keys(providers)).toEqual(['credentials', 'google']);
    expect(providers.google?.signinUrl).toBe('/c');
  });
});

describe('signInWithCredentials', () => {
  it('posts the credentials with the csrf token in the body and the x-csrf-token header', async () => {
    const fetchMock = installFetch((path) =>
      path === '/api/auth/csrf' ? { status: 200, body: { csrfToken: 'tok-1' } } : { status: 200, body: { url: 'http://localhost/dashboard' } },
    );

    const result = await signInWithCredentials({ email: 'ada@example.com', password: 'secret-pass', callbackUrl: '/dashboard' });

    expect(result).toEqual({ ok: true, url: 'http://localhost/dashboard' });
    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe('/api/auth/callback/credentials');
    expect(init?.method).toBe('POST');
    expect(headerOf(init, 'x-csrf-token')).toBe('tok-1');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'ada@example.com',
      password: 'secret-pass',
      callbackUrl: '/dashboard',
      json: true,
      csrfToken: 'tok-1',
    });
  });

  it('reports the error code carried by the result url', async () => {
    installFetch((path) =>
      path === '/api/auth/csrf'
        ? { status: 200, body: { csrfToken: 'tok' } }
        : { status: 401, body: { url: 'http://localhost/sign-in?error=CredentialsSignin&provider=credentials' } },
    );

    await expect(signInWithCredentials({ email: 'a@b.co', password: 'wrong-pass', callbackUrl: '/' })).resolves.toEqual({
      ok: false,
      error: 'CredentialsSignin',
    });
  });
});

describe('signOutRequest and signUpRequest', () => {
  it('signs out with the csrf token and callbackUrl', async () => {
    const fetchMock = installFetch((path) =>
      path === '/api/auth/csrf' ? { status: 200, body: { csrfToken: 'tok' } } : { status: 200, body: { url: 'http://localhost/' } },
    );

    await signOutRequest('/');

    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe('/api/auth/signout');
    expect(JSON.parse(String(init?.body))).toMatchObject({ csrfToken: 'tok', callbackUrl: '/' });
  });

  it('passes the api error message of a refused sign-up on', async () => {
    installFetch((path) =>
      path === '/api/auth/csrf'
        ? { status: 200, body: { csrfToken: 'tok' } }
        : { status: 409, body: { error: { code: 'email_taken', message: 'An account with this email already exists' } } },
    );

    await expect(signUpRequest({ name: 'Ada', email: 'ada@example.com', password: 'long-enough' })).rejects.toThrow(
      'An account with this email already exists',
    );
  });
});
