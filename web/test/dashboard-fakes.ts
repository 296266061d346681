// The dashboard's fake api and stored notifications, shared by the dashboard, notifications and
// settings screens' tests: a signed-in session and the sample exchanges of market-hours-api.ts.
import { NOTIFICATIONS_STORAGE_KEY, type AppNotification } from '../src/notifications/notification-store';
import { sampleExchanges } from './market-hours-api';
import { signedInSession } from './providers';
import { installFakeApi } from './render-app';

/** Puts notifications in local storage as the notification centre keeps them. */
export function storeNotifications(list: Partial<AppNotification>[]): void {
  const full = list.map((item, index) => ({
    id: `n${index}`,
    timestamp: 1_700_000_000_000 - index * 60_000,
    read: false,
    title: `Notification ${index}`,
    message: `Message ${index}`,
    type: 'info',
    ...item,
  }));
  window.localStorage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify(full));
}

/** The fake api of a signed-in Ada Lovelace, answering GET /api/exchanges with sampleExchanges(). */
export function signedInDashboardApi() {
  const exchanges = sampleExchanges();
  return installFakeApi(signedInSession({ name: 'Ada Lovelace' }), (path) =>
    path === '/api/exchanges' ? { status: 200, body: exchanges } : { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } },
  );
}
