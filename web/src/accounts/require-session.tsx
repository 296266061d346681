import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from './session-provider';

/** Where an anonymous visitor of a protected page is sent: the sign-in page, then back here. */
export function sessionRequiredPath(currentPath: string): string {
  const query = new URLSearchParams({ error: 'SessionRequired', callbackUrl: currentPath });
  return `/sign-in?${query.toString()}`;
}

export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <div className="container page page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        Checking your session…
      </div>
    );
  }
  if (status === 'unauthenticated') {
    return <Navigate replace to={sessionRequiredPath(`${location.pathname}${location.search}${location.hash}`)} />;
  }
  return <>{children}</>;
}
