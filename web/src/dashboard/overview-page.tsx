import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { useNotifications } from '../notifications/notification-provider';
import { useSession } from '../accounts/session-provider';
import { displayNameOf } from '../accounts/session-rules';
import { DASHBOARD_AREAS } from './dashboard-nav';
import { ExchangeTable } from '../market-hours/exchange-table';
import { NotificationList } from '../notifications/notification-list';
import { useExchanges, useNow } from '../market-hours/use-exchanges';
import './dashboard.css';

export const OVERVIEW_NOTIFICATION_COUNT = 5;

function FollowedExchanges() {
  const result = useExchanges();
  const now = useNow();
  // Exchanges unfollowed here stay listed until the page is left, so a slip can be undone.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const follow = useMemo(
    () => ({
      pending: result.pending,
      toggleFollow: (exchange: ExchangeView) => {
        setTouched((ids) => new Set(ids).add(exchange.id));
        result.toggleFollow(exchange);
      },
    }),
    [result.pending, result.toggleFollow],
  );
  if (result.state === 'loading') return <p role="status">Loading exchanges…</p>;
  if (result.state === 'failed') {
    return (
      <p className="form-message form-message--error" role="alert">
        Exchanges could not be loaded: {result.message}
      </p>
    );
  }
  const followed = result.exchanges.filter((exchange) => exchange.following || touched.has(exchange.id));
  if (followed.length === 0) {
    return (
      <p className="empty-state">
        You do not follow any exchange yet. <Link to="/dashboard/exchanges">See all exchanges</Link>.
      </p>
    );
  }
  return (
    <>
      <ExchangeTable exchanges={followed} now={now} caption="Followed exchanges" follow={follow} />
      <Link to="/dashboard/exchanges">Follow more exchanges</Link>
    </>
  );
}

export function OverviewPage() {
  const { session } = useSession();
  const { notifications } = useNotifications();
  const name = session ? displayNameOf(session.user) : 'there';
  return (
    <>
      <title>Dashboard · Tickerbell</title>
      <h1>Welcome, {name}</h1>
      <section className="dashboard-panel" aria-labelledby="followed-title">
        <h2 id="followed-title">Followed exchanges</h2>
        <FollowedExchanges />
      </section>
      <section className="dashboard-panel" aria-labelledby="latest-title">
        <h2 id="latest-title">Latest notifications</h2>
        <NotificationList
          notifications={notifications.slice(0, OVERVIEW_NOTIFICATION_COUNT)}
          emptyText="No notifications yet. They appear here as soon as something you follow happens."
        />
        {notifications.length > 0 && <Link to="/dashboard/activity">See all notifications</Link>}
      </section>
      <section className="dashboard-panel" aria-labelledby="areas-title">
        <h2 id="areas-title">Your tools</h2>
        <ul className="area-grid">
          {DASHBOARD_AREAS.filter((area) => area.to !== '/dashboard').map((area) => (
            <li key={area.to}>
              <Link to={area.to} className="area-card">
                <span className="area-card__title">{area.label}</span>
                <span className="area-card__text">{area.description}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
