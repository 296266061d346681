import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Handler = (event: Record<string, unknown>) => void;

interface FakeWindowClient {
  url: string;
  focus: jest.Mock;
  navigate?: jest.Mock;
}

/** Runs web/public/sw.js against a fake service-worker global and returns its event handlers. */
function loadServiceWorker(windows: FakeWindowClient[]) {
  const handlers = new Map<string, Handler>();
  const self = {
    location: { origin: 'https://tickerbell.test' },
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    registration: { showNotification: jest.fn(async () => undefined) },
    clients: { matchAll: jest.fn(async () => windows), openWindow: jest.fn(async () => null), claim: jest.fn() },
    skipWaiting: jest.fn(),
  };
  const source = readFileSync(join(__dirname, '..', '..', 'public', 'sw.js'), 'utf8');
  new Function('self', 'caches', 'fetch', source)(self, {}, jest.fn());
  return { handlers, self };
}

async function dispatch(handler: Handler | undefined, event: Record<string, unknown>): Promise<void> {
  let pending: Promise<unknown> = Promise.resolve();
  handler?.({ ...event, waitUntil: (promise: Promise<unknown>) => (pending = promise) });
  await pending;
}

describe('service worker', () => {
  it('shows a notification for a push, pointing at the url in its data', async () => {
    const { handlers, self } = loadServiceWorker([]);

    await dispatch(handlers.get('push'), {
      data: { json: () => ({ title: 'NYSE now open', body: 'NYSE has opened for trading', url: '/dashboard/exchanges' }) },
    });

    expect(self.registration.showNotification).toHaveBeenCalledWith(
      'NYSE now open',
      expect.objectContaining({ body: 'NYSE has opened for trading', data: { url: '/dashboard/exchanges' } }),
    );
  });

  it('focuses a window already showing the notification url', async () => {
    const open = { url: 'https://tickerbell.test/dashboard/activity', focus: jest.fn() };
    const { handlers, self } = loadServiceWorker([open]);
    const close = jest.fn();

    await dispatch(handlers.get('notificationclick'), { notification: { close, data: { url: '/dashboard/activity' } } });

    expect(close).toHaveBeenCalled();
    expect(open.focus).toHaveBeenCalled();
    expect(self.clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens a new window when no Tickerbell window is open', async () => {
    const { handlers, self } = loadServiceWorker([]);

    await dispatch(handlers.get('notificationclick'), { notification: { close: jest.fn(), data: { url: '/dashboard' } } });

    expect(self.clients.openWindow).toHaveBeenCalledWith('https://tickerbell.test/dashboard');
  });
});
