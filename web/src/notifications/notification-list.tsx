import type { AppNotification } from './notification-store';
import './notifications.css';

const TYPE_LABELS: Readonly<Record<AppNotification['type'], string>> = {
  info: 'Info',
  success: 'Success',
  warning: 'Warning',
  error: 'Error',
};

export function formatNotificationTime(timestamp: number): string {
  return new Date(timestamp).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The link a notification carries in `details.link` ({ href, label }: a whale alert's transaction on
 * the block explorer), shown under its message so the message itself stays short. Only https links.
 */
export function notificationLink(details: Record<string, unknown> | undefined): { href: string; label: string } | null {
  const link = details?.link;
  if (typeof link !== 'object' || link === null) return null;
  const { href, label } = link as Record<string, unknown>;
  if (typeof href !== 'string' || !href.startsWith('https://') || typeof label !== 'string' || !label) return null;
  return { href, label };
}

function NotificationLink({ details }: { details: Record<string, unknown> | undefined }) {
  const link = notificationLink(details);
  if (!link) return null;
  return (
    <p className="notification-item__link">
      <a href={link.href} target="_blank" rel="noopener noreferrer">
        {link.label}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </p>
  );
}

export interface NotificationListProps {
  notifications: readonly AppNotification[];
  /** Without it the list is read-only (demo, overview). */
  onMarkRead?: (id: string) => void;
  emptyText: string;
}

export function NotificationList({ notifications, onMarkRead, emptyText }: NotificationListProps) {
  if (notifications.length === 0) return <p className="empty-state">{emptyText}</p>;
  return (
    <ul className="notification-list">
      {notifications.map((item) => (
        <li
          key={item.id}
          className={`notification-item notification-item--${item.type}${item.read ? '' : ' notification-item--unread'}`}
        >
          <div className="notification-item__body">
            <p className="notification-item__title">
              {!item.read && <span className="visually-hidden">Unread: </span>}
              {item.title}
            </p>
            <p className="notification-item__message">{item.message}</p>
            <NotificationLink details={item.details} />
            <p className="notification-item__meta">
              <span className={`type-badge type-badge--${item.type}`}>{TYPE_LABELS[item.type]}</span>{' '}
              <time dateTime={new Date(item.timestamp).toISOString()}>{formatNotificationTime(item.timestamp)}</time>
            </p>
          </div>
          {onMarkRead && !item.read && (
            <button
              type="button"
              className="button button--ghost button--small"
              aria-label={`Mark read: ${item.title}`}
              onClick={() => onMarkRead(item.id)}
            >
              Mark read
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
