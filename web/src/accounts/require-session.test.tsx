import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, useLocation } from 'react-router-dom';
import { fakeSessionState, signedInSession } from '../../test/providers';
import { RequireSession, sessionRequiredPath } from './require-session';
import { SessionContext, type SessionState } from './session-provider';

function SignInProbe() {
  const location = useLocation();
  return <p data-testid="sign-in">{`${location.pathname}${location.search}`}</p>;
}

function renderProtected(state: SessionState, path: string) {
  const router = createMemoryRouter(
    [
      { path: '/sign-in', element: <SignInProbe /> },
      { path: '/dashboard/*', element: <RequireSession><p>Private area</p></RequireSession> },
    ],
    { initialEntries: [path] },
  );
  render(
    <SessionContext.Provider value={state}>
      <RouterProvider router={router} />
    </SessionContext.Provider>,
  );
}

describe('RequireSession', () => {
  it('sends a signed-out visitor to sign-in with SessionRequired and the current path as callbackUrl', () => {
    renderProtected(fakeSessionState(null), '/dashboard/activity?tab=all');

    const target = new URL(screen.getByTestId('sign-in').textContent ?? '', 'http://localhost');
    expect(target.pathname).toBe('/sign-in');
    expect(target.searchParams.get('error')).toBe('SessionRequired');
    expect(target.searchParams.get('callbackUrl')).toBe('/dashboard/activity?tab=all');
  });

  it('shows the page to a signed-in user', () => {
    renderProtected(fakeSessionState(signedInSession()), '/dashboard');

    expect(screen.getByText('Private area')).toBeInTheDocument();
  });

  it('waits while the session is loading', () => {
    renderProtected(fakeSessionState(null, 'loading'), '/dashboard');

    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    expect(screen.queryByText('Private area')).not.toBeInTheDocument();
  });

  it('builds the redirect path with encoded query values', () => {
    expect(sessionRequiredPath('/dashboard?a=1&b=2')).toBe('/sign-in?error=SessionRequired&callbackUrl=%2Fdashboard%3Fa%3D1%26b%3D2');
  });
});
