// Wraps components under test in the app's providers, with a session state the test chooses
// instead of one fetched from the api.
import type { ReactNode } from 'react';
import { NotificationProvider } from '../src/notifications/notification-provider';
import type { Session } from '../src/accounts/auth-client';
import { SessionContext, type SessionState, type SessionStatus } from '../src/accounts/session-provider';
import { ThemeProvider } from '../src/theme/theme-provider';

export function signedInSession(user: Partial<Session['user']> = {}): Session {
  return {
    user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'member', ...user },
    expires: '2030-01-01T00:00:00.000Z',
  };
}

export function fakeSessionState(session: Session | null, status?: SessionStatus): SessionState {
  return {
    status: status ?? (session ? 'authenticated' : 'unauthenticated'),
    session,
    refresh: jest.fn(async () => undefined),
    signOut: jest.fn(async () => undefined),
    sessionChanged: jest.fn(async () => undefined),
  };
}

export function TestProviders({ children, session = fakeSessionState(null) }: { children: ReactNode; session?: SessionState }) {
  return (
    <ThemeProvider>
      <SessionContext.Provider value={session}>
        <NotificationProvider>{children}</NotificationProvider>
      </SessionContext.Provider>
    </ThemeProvider>
  );
}
