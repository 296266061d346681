import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AvatarParticles } from '../background/avatar-particles';
import { BellIcon } from '../notifications/header-bell';
import { useNotifications } from '../notifications/notification-provider';
import type { SessionUser } from '../accounts/auth-client';
import { useSession } from '../accounts/session-provider';
import { displayNameOf, initialOf, subtitleOf } from '../accounts/session-rules';
import { ThemeChoiceControl } from '../theme/theme-choice';

function GearIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="M12 2v3M12 19v3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1 7 17M17 7l2.1-2.1"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function AvatarBadge({ initial, size = 'md' }: { initial: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      <AvatarParticles />
      <span className="avatar__initial">{initial}</span>
      <span className="avatar__online" />
    </span>
  );
}

/** The signed-in part of the header: avatar to /dashboard and the account menu beside it. */
export function UserMenu({ user }: { user: SessionUser }) {
  const { signOut } = useSession();
  const { unread } = useNotifications();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const wrapperRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const name = displayNameOf(user);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    const onPointerDown = (event: MouseEvent): void => {
      if (wrapperRef.current && !wrapperRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('mousedown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('mousedown', onPointerDown);
    };
  }, [open]);

  const onSignOut = async (): Promise<void> => {
    setSigningOut(true);
    try {
      await signOut();
    } catch (error) {
      console.error('Sign-out request failed', error);
    } finally {
      setSigningOut(false);
      setOpen(false);
      navigate('/');
    }
  };

  return (
    <div className="user-menu" ref={wrapperRef}>
      <Link to="/dashboard" className="user-menu__avatar" aria-label={`${name}: open your dashboard`}>
        <AvatarBadge initial={initialOf(user)} />
      </Link>
      <button
        ref={toggleRef}
        type="button"
        className="user-menu__toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="visually-hidden">Account menu</span>
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <div id={menuId} className="user-menu__panel" hidden={!open}>
        <div className="user-menu__identity">
          <p className="user-menu__name">{name}</p>
          <p className="user-menu__subtitle">{subtitleOf(user)}</p>
        </div>
        <div className="user-menu__icons">
          <Link
            to="/dashboard/activity"
            className="icon-button"
            // Named apart from the header's bell (which carries the count) so each is found on its own.
            aria-label={unread > 0 ? `All notifications, ${unread} unread` : 'All notifications'}
            onClick={() => setOpen(false)}
          >
            <BellIcon />
            {unread > 0 && <span className="unread-dot" data-testid="bell-unread-dot" aria-hidden="true" />}
          </Link>
          <Link to="/dashboard/settings" className="icon-button" aria-label="Settings" onClick={() => setOpen(false)}>
            <GearIcon />
          </Link>
        </div>
        <ThemeChoiceControl />
        <button type="button" className="button button--secondary button--block" disabled={signingOut} onClick={() => void onSignOut()}>
          {signingOut ? 'Signing out…' : 'Sign Out'}
        </button>
      </div>
    </div>
  );
}
