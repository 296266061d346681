import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../accounts/session-provider';
import { HeaderBell } from '../notifications/header-bell';
import { HEADER_LINKS, SIGN_IN_PATH, SIGN_UP_PATH } from './site-links';
import { TickerbellLogo } from './tickerbell-logo';
import { useHasMounted } from './use-has-mounted';
import { UserMenu } from './user-menu';

function navLinkClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'nav-link nav-link--active' : 'nav-link';
}

function HeaderSkeleton() {
  return (
    <div className="header-skeleton" aria-hidden="true">
      <div className="header-skeleton__nav">
        {HEADER_LINKS.map((link) => (
          <span key={link.to} className="skeleton skeleton--text" />
        ))}
      </div>
      <span className="skeleton skeleton--button" />
      <span className="skeleton skeleton--button" />
    </div>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {open ? (
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}

export function SiteHeader() {
  const mounted = useHasMounted();
  const { status, session, signOut } = useSession();
  const user = status === 'authenticated' ? session?.user : undefined;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const closeMenu = (): void => setMenuOpen(false);

  // Back/forward navigation changes the page without a click on a menu link.
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <header className="site-header" aria-busy={!mounted}>
      <div className="container site-header__bar">
        <Link to="/" className="brand" aria-label="Tickerbell home">
          <TickerbellLogo size={48} />
          <span className="brand__name">Tickerbell</span>
        </Link>

        {mounted ? (
          <>
            <nav className="site-nav" aria-label="Main">
              <ul className="site-nav__list">
                {HEADER_LINKS.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} end={link.end} className={navLinkClass}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            {/* Signed in, the bell with its unread count, the avatar and its menu stay in the bar at every width. */}
            <div className={user ? 'site-header__actions site-header__actions--signed-in' : 'site-header__actions'}>
              {user ? (
                <>
                  <HeaderBell />
                  <UserMenu user={user} />
                </>
              ) : status === 'loading' ? (
                <span className="skeleton skeleton--button" aria-hidden="true" />
              ) : (
                <>
                  <Link to={SIGN_IN_PATH} className="button button--ghost">
                    Sign In
                  </Link>
                  <Link to={SIGN_UP_PATH} className="button button--primary">
                    Sign Up
                  </Link>
                </>
              )}
            </div>
            <button
              ref={toggleRef}
              type="button"
              className="menu-toggle"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuIcon open={menuOpen} />
              <span className="visually-hidden">Menu</span>
            </button>
          </>
        ) : (
          <HeaderSkeleton />
        )}
      </div>

      {mounted && (
        <div id={menuId} className="mobile-menu" hidden={!menuOpen}>
          <nav aria-label="Mobile">
            <ul className="mobile-menu__list">
              {HEADER_LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end={link.end} className={navLinkClass} onClick={closeMenu}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {user ? (
            <div className="mobile-menu__cta">
              <Link to="/dashboard" className="button button--primary button--block" onClick={closeMenu}>
                Dashboard
              </Link>
              <button
                type="button"
                className="button button--secondary button--block"
                onClick={() => {
                  closeMenu();
                  void signOut()
                    .catch((error: unknown) => console.error('Sign-out request failed', error))
                    .finally(() => navigate('/'));
                }}
              >
                Sign Out
              </button>
            </div>
          ) : (
          <div className="mobile-menu__cta">
            <p className="mobile-menu__cta-title">Ready to get started?</p>
            <Link to={SIGN_UP_PATH} className="button button--primary button--block" onClick={closeMenu}>
              Create Account
            </Link>
            <p className="mobile-menu__sign-in">
              Already have an account?{' '}
              <Link to={SIGN_IN_PATH} onClick={closeMenu}>
                Sign In
              </Link>
            </p>
          </div>
          )}
        </div>
      )}
    </header>
  );
}
