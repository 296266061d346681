import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { installFetch, removeFetch, type FakeHandler } from '../../test/fake-fetch';
import { fakeSessionState } from '../../test/providers';
import { SessionContext, type SessionState } from './session-provider';
import { SIGN_IN_ERROR_MESSAGES } from './session-rules';
import { SignInPage } from './sign-in-page';
import { SignUpPage } from './sign-up-page';
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from './token-pages';

function CurrentPath() {
  const location = useLocation();
  return <p data-testid="current-path">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(path: string, page: ReactNode, session: SessionState = fakeSessionState(null)) {
  return render(
    <SessionContext.Provider value={session}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/sign-in" element={page} />
          <Route path="/sign-up" element={page} />
          <Route path="/verify-email" element={page} />
          <Route path="/forgot-password" element={page} />
          <Route path="/reset-password" element={page} />
          <Route path="*" element={<CurrentPath />} />
        </Routes>
      </MemoryRouter>
    </SessionContext.Provider>,
  );
}

const credentials = { id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: '/x', callbackUrl: '/y' };
const google = { id: 'google', name: 'Google', type: 'oauth', signinUrl: '/x', callbackUrl: '/y' };

function authApi(overrides: Partial<Record<string, ReturnType<FakeHandler>>> = {}): FakeHandler {
  return (path, init) => {
    const key = path.split('?')[0] ?? path;
    if (overrides[key]) return overrides[key];
    if (key === '/api/auth/csrf') return { status: 200, body: { csrfToken: 'csrf-1' } };
    if (key === '/api/auth/providers') return { status: 200, body: { credentials } };
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${path}`);
  };
}

function bodyOf(fetchMock: jest.Mock, path: string): unknown {
  const call = fetchMock.mock.calls.find(([url]) => url === path) as [string, RequestInit] | undefined;
  return call ? JSON.parse(String(call[1].body)) : undefined;
}

afterEach(removeFetch);

describe('SignInPage', () => {
  it('shows the Google button only when the api lists Google, as a form post with csrfToken and callbackUrl', async () => {
    installFetch(authApi({ '/api/auth/providers': { status: 200, body: { credentials, google } } }));
    renderAt('/sign-in?callbackUrl=%2Fdashboard%2Factivity', <SignInPage />);

    const button = await screen.findByRole('button', { name: 'Sign in with Google' });
    const form = button.closest('form');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/auth/signin/google');
    expect(form?.querySelector('input[name="csrfToken"]')).toHaveValue('csrf-1');
    expect(form?.querySelector('input[name="callbackUrl"]')).toHaveValue('/dashboard/activity');
  });

  it('has no Google button when Google is not configured', async () => {
    const fetchMock = installFetch(authApi());
    renderAt('/sign-in', <SignInPage />);

    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/auth/providers', expect.anything()));
    expect(screen.queryByRole('button', { name: 'Sign in with Google' })).not.toBeInTheDocument();
  });

  it.each(['SessionRequired', 'OAuthCallbackError', 'AccountNotLinkedError'])('explains the %s error code', (code) => {
    installFetch(authApi());
    renderAt(`/sign-in?error=${code}`, <SignInPage />);

    expect(screen.getByRole('alert')).toHaveTextContent(SIGN_IN_ERROR_MESSAGES[code] ?? '');
  });

  it('shows a general message for an unknown code', () => {
    installFetch(authApi());
    renderAt('/sign-in?error=NO_SECRET', <SignInPage />);

    expect(screen.getByRole('alert')).toHaveTextContent('Sign-in did not work. Please try again.');
  });

  it('signs in and goes to the same-origin callbackUrl', async () => {
    const fetchMock = installFetch(
      authApi({ '/api/auth/callback/credentials': { status: 200, body: { url: 'http://localhost/dashboard/settings' } } }),
    );
    const session = fakeSessionState(null);
    renderAt('/sign-in?callbackUrl=%2Fdashboard%2Fsettings', <SignInPage />, session);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'analytical-engine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent('/dashboard/settings'));
    expect(session.sessionChanged).toHaveBeenCalled();
    expect(bodyOf(fetchMock, '/api/auth/callback/credentials')).toMatchObject({
      email: 'ada@example.com',
      callbackUrl: '/dashboard/settings',
      csrfToken: 'csrf-1',
      json: true,
    });
  });

  it('goes to /dashboard when the callbackUrl is on another site', async () => {
    installFetch(authApi({ '/api/auth/callback/credentials': { status: 200, body: { url: 'http://localhost/dashboard' } } }));
    renderAt('/sign-in?callbackUrl=https%3A%2F%2Fevil.test%2F', <SignInPage />);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'analytical-engine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent(/^\/dashboard$/));
  });

  it('shows the CredentialsSignin message when the password is wrong', async () => {
    installFetch(
      authApi({ '/api/auth/callback/credentials': { status: 401, body: { url: 'http://localhost/sign-in?error=CredentialsSignin' } } }),
    );
    renderAt('/sign-in', <SignInPage />);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(SIGN_IN_ERROR_MESSAGES.CredentialsSignin ?? '');
  });

  it('checks the fields before calling the api', () => {
    const fetchMock = installFetch(authApi());
    renderAt('/sign-in', <SignInPage />);

    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/auth/callback/credentials', expect.anything());
  });
});

describe('SignUpPage', () => {
  function fill(name: string, email: string, password: string): void {
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
  }

  it('refuses a password under 8 characters without calling the api', () => {
    const fetchMock = installFetch(authApi());
    renderAt('/sign-up', <SignUpPage />);

    fill('Ada', 'ada@example.com', 'short');

    expect(screen.getByText('Use at least 8 characters for your password.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates the account and asks to check the email', async () => {
    const fetchMock = installFetch(
      authApi({ '/api/auth/signup': { status: 201, body: { user: { id: 1, email: 'ada@example.com', name: 'Ada' } } } }),
    );
    renderAt('/sign-up', <SignUpPage />);

    fill('Ada', 'ada@example.com', 'analytical-engine');

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/auth/signup')).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'analytical-engine',
      csrfToken: 'csrf-1',
    });
  });

  it('shows the api message when the email is taken', async () => {
    installFetch(
      authApi({
        '/api/auth/signup': { status: 409, body: { error: { code: 'email_taken', message: 'An account with this email already exists' } } },
      }),
    );
    renderAt('/sign-up', <SignUpPage />);

    fill('Ada', 'ada@example.com', 'analytical-engine');

    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
  });
});

describe('token pages', () => {
  it('hands the verification token to the api link', () => {
    const navigate = jest.fn();
    renderAt('/verify-email?token=abc123', <VerifyEmailPage navigate={navigate} />);

    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/api/auth/verify-email?token=abc123');
  });

  it('explains an incomplete verification link', () => {
    const navigate = jest.fn();
    renderAt('/verify-email', <VerifyEmailPage navigate={navigate} />);

    expect(screen.getByRole('alert')).toHaveTextContent('incomplete');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('requests a reset link for the email', async () => {
    const fetchMock = installFetch(authApi({ '/api/auth/password/forgot': { status: 202, body: { ok: true } } }));
    renderAt('/forgot-password', <ForgotPasswordPage />);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByText(/we have sent it a link/)).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/auth/password/forgot')).toEqual({ email: 'ada@example.com', csrfToken: 'csrf-1' });
  });

  it('sets the new password with the token from the link', async () => {
    const fetchMock = installFetch(authApi({ '/api/auth/password/reset': { status: 200, body: { ok: true } } }));
    renderAt('/reset-password?token=tok-xyz', <ResetPasswordPage />);

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a-better-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));

    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/auth/password/reset')).toEqual({ token: 'tok-xyz', password: 'a-better-password', csrfToken: 'csrf-1' });
  });

  it('shows the api message for an expired reset link', async () => {
    installFetch(
      authApi({
        '/api/auth/password/reset': { status: 400, body: { error: { code: 'invalid_token', message: 'This reset link is invalid or has expired' } } },
      }),
    );
    renderAt('/reset-password?token=tok-old', <ResetPasswordPage />);

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a-better-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired');
  });
});
