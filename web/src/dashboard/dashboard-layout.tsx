import { Suspense, useEffect, useId, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useAlertCheck } from '../alerts/use-alert-check';
import { useSession } from '../accounts/session-provider';
import { BillingBanners } from '../billing/billing-banners';
import { DASHBOARD_AREAS, currentDashboardArea } from './dashboard-nav';
import './dashboard.css';

function linkClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'dashboard-nav__link dashboard-nav__link--active' : 'dashboard-nav__link';
}

function ChevronIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function DashboardLayout() {
  const { status, session } = useSession();
  const { pathname } = useLocation();
  // On phones the areas fold behind one button naming the current one (wide screens show them all).
  const [navOpen, setNavOpen] = useState(false);
  const listId = useId();
  const current = currentDashboardArea(pathname);
  // The spec's spoken crypto alert check runs on every signed-in dashboard page.
  useAlertCheck(status === 'authenticated' ? (session?.user.id ?? null) : null);

  useEffect(() => {
    setNavOpen(false);
  }, [pathname]);

  return (
    <div className="container dashboard">
      <nav className="dashboard-nav" aria-label="Dashboard">
        <button type="button" className="dashboard-nav__toggle" aria-expanded={navOpen} aria-controls={listId} onClick={() => setNavOpen((open) => !open)}>
          <span>
            <span className="visually-hidden">Dashboard areas: </span>
            {current?.label ?? 'Dashboard'}
          </span>
          <ChevronIcon />
        </button>
        <ul id={listId} className={navOpen ? 'dashboard-nav__list dashboard-nav__list--open' : 'dashboard-nav__list'}>
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
        <BillingBanners />
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
