import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { getSession, signOutRequest, type Session } from './auth-client';
import { announceSessionChange, onSessionChangeElsewhere } from './session-sync';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** Spec section 9: the session is refetched every 300 seconds. */
export const SESSION_REFETCH_INTERVAL_MS = 300_000;

export interface SessionState {
  status: SessionStatus;
  session: Session | null;
  /** Reloads the session from the api (no-op while offline). */
  refresh: () => Promise<void>;
  /** Ends the session on the api, tells other tabs, and resolves once signed out locally. */
  signOut: () => Promise<void>;
  /** Call after a successful sign-in so this tab and the others pick up the new session. */
  sessionChanged: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

export interface SessionProviderProps {
  children: ReactNode;
  /** Injected for tests; defaults to GET /api/auth/session. */
  loadSession?: () => Promise<Session | null>;
}

export function SessionProvider({ children, loadSession = getSession }: SessionProviderProps) {
  const [session, setSession] = useState<Session | null>(null);
  const [status, setStatus] = useState<SessionStatus>('loading');
  const load = useRef(loadSession);
  load.current = loadSession;
  const statusRef = useRef(status);
  statusRef.current = status;

  const refresh = useCallback(async () => {
    if (isOffline()) return;
    try {
      const next = await load.current();
      setSession(next);
      setStatus(next ? 'authenticated' : 'unauthenticated');
    } catch (error) {
      console.error('Session check failed', error);
      // A failed first check means we cannot show signed-in state; later failures keep the last one.
      if (statusRef.current === 'loading') setStatus('unauthenticated');
    }
  }, []);

  useEffect(() => {
    void refresh();
    const onFocus = (): void => void refresh();
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') void refresh();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    const stopSync = onSessionChangeElsewhere(() => void refresh());
    const timer = setInterval(() => void refresh(), SESSION_REFETCH_INTERVAL_MS);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
      stopSync();
      clearInterval(timer);
    };
  }, [refresh]);

  const sessionChanged = useCallback(async () => {
    announceSessionChange();
    await refresh();
  }, [refresh]);

  const signOut = useCallback(async () => {
    try {
      await signOutRequest('/');
    } finally {
      setSession(null);
      setStatus('unauthenticated');
      announceSessionChange();
    }
  }, []);

  const value = useMemo<SessionState>(
    () => ({ status, session, refresh, signOut, sessionChanged }),
    [status, session, refresh, signOut, sessionChanged],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession must be used inside a SessionProvider');
  return state;
}
