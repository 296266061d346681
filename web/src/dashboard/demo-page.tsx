import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AppNotification } from '../notifications/notification-store';
import { ExchangeTable } from '../market-hours/exchange-table';
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { NotificationList } from '../notifications/notification-list';
import { useNow } from '../market-hours/use-exchanges';
import './dashboard.css';

const MINUTE = 60_000;

/** Demo data: fixed exchanges and notifications, timed relative to when the page opened. */
export function demoExchanges(openedAt: number): ExchangeView[] {
  const at = (minutes: number): string => new Date(openedAt + minutes * MINUTE).toISOString();
  return [
    { id: 'demo-nyse', name: 'New York Stock Exchange', location: 'New York', open: '09:30', close: '16:00', timezone: 'America/New_York', days: [1, 2, 3, 4, 5], breakStart: null, breakEnd: null, status: 'open', nextTransition: { kind: 'close', at: at(95) }, following: true },
    { id: 'demo-lse', name: 'London Stock Exchange', location: 'London', open: '08:00', close: '16:30', timezone: 'Europe/London', days: [1, 2, 3, 4, 5], breakStart: null, breakEnd: null, status: 'closed', nextTransition: { kind: 'open', at: at(9) }, following: true },
    { id: 'demo-tse', name: 'Tokyo Stock Exchange', location: 'Tokyo', open: '09:00', close: '15:30', timezone: 'Asia/Tokyo', days: [1, 2, 3, 4, 5], breakStart: '11:30', breakEnd: '12:30', status: 'lunch', nextTransition: { kind: 'break_end', at: at(42) }, following: true },
  ];
}

export function demoNotifications(openedAt: number): AppNotification[] {
  const ago = (minutes: number): number => openedAt - minutes * MINUTE;
  return [
    { id: 'demo-1', timestamp: ago(1), read: false, type: 'warning', title: 'London Stock Exchange opening soon', message: 'London Stock Exchange will open in 10 minutes' },
    { id: 'demo-2', timestamp: ago(14), read: false, type: 'success', title: 'BTC Breakout Alert Triggered', message: 'BTC crossed above 70,000 USD' },
    { id: 'demo-3', timestamp: ago(58), read: true, type: 'info', title: 'New York Stock Exchange now open', message: 'New York Stock Exchange has opened for trading' },
    { id: 'demo-4', timestamp: ago(190), read: true, type: 'error', title: 'Tokyo Stock Exchange now closed', message: 'Tokyo Stock Exchange has closed for trading' },
  ];
}

export function DemoPage() {
  const [openedAt] = useState(() => Date.now());
  const now = useNow();
  return (
    <div className="container page dashboard-demo">
      <title>Demo dashboard · Tickerbell</title>
      <p className="demo-banner" role="note">
        <strong>Demo:</strong> sample data, read-only. Nothing here is live market data.{' '}
        <Link to="/sign-up">Create an account</Link> to follow real exchanges.
      </p>
      <h1>Demo dashboard</h1>
      <section className="dashboard-panel" aria-labelledby="demo-exchanges-title">
        <h2 id="demo-exchanges-title">Followed exchanges (demo data)</h2>
        <ExchangeTable exchanges={demoExchanges(openedAt)} now={now} caption="Followed exchanges, demo data" />
      </section>
      <section className="dashboard-panel" aria-labelledby="demo-notifications-title">
        <h2 id="demo-notifications-title">Latest notifications (demo data)</h2>
        <NotificationList notifications={demoNotifications(openedAt)} emptyText="No notifications." />
      </section>
    </div>
  );
}
