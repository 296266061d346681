import { Link } from 'react-router-dom';
import { useNotifications } from './notification-provider';

/** Counts above this read "99+": the badge stays one small pill. */
const MAX_SHOWN_COUNT = 99;

export function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16h15.4L18 12.6V9a6 6 0 0 0-6-6Zm-2 15a2 2 0 0 0 4 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The number a badge shows for `unread` notifications ("99+" past 99). */
export function unreadBadgeText(unread: number): string {
  return unread > MAX_SHOWN_COUNT ? `${MAX_SHOWN_COUNT}+` : String(unread);
}

/** The header's bell: always in view when signed in, with the unread count, opening the activity page. */
export function HeaderBell() {
  const { unread } = useNotifications();
  return (
    <Link to="/dashboard/activity" className="icon-button header-bell" aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}>
      <BellIcon />
      {unread > 0 && (
        <span className="header-bell__count" data-testid="header-bell-count" aria-hidden="true">
          {unreadBadgeText(unread)}
        </span>
      )}
    </Link>
  );
}
