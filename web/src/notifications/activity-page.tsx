import { useEffect, useRef, useState } from 'react';
import { useNotifications } from './notification-provider';
import { MAX_NOTIFICATIONS } from './notification-store';
import { NotificationList } from './notification-list';
import { TeamActivity } from '../accounts/team-activity';

/** How long "Clear all" can be undone before the notifications are deleted on the server. */
export const CLEAR_UNDO_MS = 10_000;

/**
 * "Clear all": asked first, then hidden here with an Undo for CLEAR_UNDO_MS; only then (or when
 * the page is left) deleted, on the server and every device. Notifications arriving meanwhile stay shown.
 */
type Clearing = { step: 'idle'; message: string | null } | { step: 'confirming' } | { step: 'undo'; ids: ReadonlySet<string> };

export function ActivityPage() {
  const { notifications, unread, markRead, markAllRead, clear } = useNotifications();
  const [clearing, setClearing] = useState<Clearing>({ step: 'idle', message: null });
  const commitRef = useRef<(() => void) | null>(null);
  const clearRef = useRef(clear);
  clearRef.current = clear;

  // The clear goes ahead when the undo time is over, or at once when the page is left.
  useEffect(() => {
    if (clearing.step !== 'undo') return;
    let done = false;
    const commit = (): void => {
      if (done) return;
      done = true;
      commitRef.current = null;
      clearRef.current();
    };
    commitRef.current = commit;
    const timer = setTimeout(() => {
      commit();
      setClearing({ step: 'idle', message: `Cleared ${clearing.ids.size === 1 ? 'one notification' : `${clearing.ids.size} notifications`}.` });
    }, CLEAR_UNDO_MS);
    return () => clearTimeout(timer);
  }, [clearing]);
  useEffect(() => () => commitRef.current?.(), []);

  const hidden = clearing.step === 'undo' ? clearing.ids : null;
  const shown = hidden ? notifications.filter((item) => !hidden.has(item.id)) : notifications;
  const shownUnread = hidden ? shown.filter((item) => !item.read).length : unread;

  const undo = (): void => {
    commitRef.current = null;
    setClearing({ step: 'idle', message: 'Kept your notifications.' });
  };

  return (
    <>
      <title>Activity · Tickerbell</title>
      <h1>Activity</h1>
      <p className="page-lede">
        Your newest {MAX_NOTIFICATIONS} notifications, newest first. {shownUnread > 0 ? `${shownUnread} unread.` : 'All read.'}
      </p>
      <div className="toolbar">
        <button type="button" className="button button--secondary" onClick={markAllRead} disabled={shownUnread === 0}>
          Mark all read
        </button>
        <button type="button" className="button button--ghost" onClick={() => setClearing({ step: 'confirming' })} disabled={shown.length === 0 || clearing.step !== 'idle'}>
          Clear all…
        </button>
      </div>
      {clearing.step === 'confirming' && (
        <div className="form-message clear-confirm" role="alertdialog" aria-labelledby="clear-confirm-text">
          <p id="clear-confirm-text">
            Clear all {shown.length === 1 ? 'one notification' : `${shown.length} notifications`}? They are deleted on every device you use.
          </p>
          <div className="toolbar">
            <button type="button" className="button button--danger button--small" onClick={() => setClearing({ step: 'undo', ids: new Set(shown.map((item) => item.id)) })}>
              Clear all
            </button>
            <button type="button" className="button button--ghost button--small" onClick={() => setClearing({ step: 'idle', message: null })}>
              Keep them
            </button>
          </div>
        </div>
      )}
      {clearing.step === 'undo' && (
        <div className="form-message form-message--success clear-undo" role="status">
          <p>
            Cleared {clearing.ids.size === 1 ? 'one notification' : `${clearing.ids.size} notifications`}. You can undo this for {CLEAR_UNDO_MS / 1000} seconds.
          </p>
          <button type="button" className="button button--secondary button--small" onClick={undo}>
            Undo
          </button>
        </div>
      )}
      {clearing.step === 'idle' && clearing.message && (
        <p className="form-message form-message--success" role="status">
          {clearing.message}
        </p>
      )}
      <NotificationList notifications={shown} onMarkRead={markRead} emptyText="No notifications." />
      <TeamActivity />
    </>
  );
}
