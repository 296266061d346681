import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { useAlertCheck } from '../alerts/use-alert-check';
import { useSession } from '../accounts/session-provider';
import { DASHBOARD_AREAS } from './dashboard-nav';
import './dashboard.css';

function linkClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'dashboard-nav__link dashboard-nav__link--active' : 'dashboard-nav__link';
}

export function DashboardLayout() {
  const { status, session } = useSession();
  // The spec's spoken crypto alert check runs on every signed-in dashboard page.
  useAlertCheck(status === 'authenticated' ? (session?.user.id ?? null) : null);
  return (
    <div className="container dashboard">
      <nav className="dashboard-nav" aria-label="Dashboard">
        <ul className="dashboard-nav__list">
          {DASHBOARD_AREAS.map((area) => (
            <li key={area.to}>
              <NavLink to={area.to} end={area.end} className={linkClass}>
                {area.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="dashboard__content">
        <Suspense
          fallback={
            <p role="status" className="page-loading">
              <span className="spinner" aria-hidden="true" /> Loading…
            </p>
          }
        >
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
