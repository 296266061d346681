import { useNotifications } from './notification-provider';
import { MAX_NOTIFICATIONS } from './notification-store';
import { NotificationList } from './notification-list';
import { TeamActivity } from '../accounts/team-activity';

export function ActivityPage() {
  const { notifications, unread, markRead, markAllRead, clear } = useNotifications();
  return (
    <>
      <title>Activity · Tickerbell</title>
      <h1>Activity</h1>
      <p className="page-lede">
        Your newest {MAX_NOTIFICATIONS} notifications, newest first. {unread > 0 ? `${unread} unread.` : 'All read.'}
      </p>
      <div className="toolbar">
        <button type="button" className="button button--secondary" onClick={markAllRead} disabled={unread === 0}>
          Mark all read
        </button>
        <button type="button" className="button button--ghost" onClick={clear} disabled={notifications.length === 0}>
          Clear all
        </button>
      </div>
      <NotificationList notifications={notifications} onMarkRead={markRead} emptyText="No notifications." />
      <TeamActivity />
    </>
  );
}
