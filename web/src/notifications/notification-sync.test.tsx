import { act, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'react-toastify';
import { installFetch, removeFetch, type FakeHandler, type FakeReply } from '../../test/fake-fetch';
import { fakeSessionState, signedInSession } from '../../test/providers';
import { SessionContext } from '../accounts/session-provider';
import { NotificationProvider, useNotifications } from './notification-provider';
import { MAX_NOTIFICATIONS, NOTIFICATIONS_STORAGE_KEY, reconcileNotifications, type AppNotification } from './notification-store';
import { parseServerNotificationPage } from './notifications-client';
import { useNotificationStream, type EventSourceFactory, type NotificationEventSource } from './use-notification-stream';

jest.mock('react-toastify', () => ({ toast: jest.fn() }));

beforeAll(() => {
  Object.assign(window, { Audio: jest.fn(() => ({ play: async () => undefined })) });
});

beforeEach(() => {
  window.localStorage.clear();
  jest.mocked(toast).mockClear();
});
afterEach(removeFetch);

/** A row exactly as GET /api/notifications returns it (api/test/notifications/notifications.routes.test.ts). */
function serverRow(id: number, overrides: Partial<Record<string, unknown>> = {}) {
  return {
    id: String(id),
    timestamp: new Date(Date.UTC(2026, 10, 20, 9, 0, 0) + id * 1000).toISOString(),
    read: false,
    title: `Note ${id}`,
    message: `message ${id}`,
    type: 'info',
    activityType: null,
    exchangeId: null,
    symbolId: null,
    details: null,
    ...overrides,
  };
}

function page(rows: ReturnType<typeof serverRow>[], nextCursor: string | null = null) {
  return { notifications: rows, unreadCount: rows.filter((row) => !row.read).length, nextCursor };
}

function localItem(id: string, timestamp: number, extra: Partial<AppNotification> = {}): AppNotification {
  return { id, timestamp, read: false, title: `Local ${id}`, message: 'local', type: 'info', ...extra };
}

const CSRF = 'csrf-abc';
const notFound = { status: 404, body: { error: { code: 'not_found', message: 'No such notification' } } };

interface Call {
  method: string;
  path: string;
  csrf: string | null;
}

/** The api as the notification centre sees it; `override` answers a path first when it returns a reply. */
function fakeApi(list: object, override: (call: Call) => FakeReply | undefined = () => undefined) {
  const calls: Call[] = [];
  const handler: FakeHandler = (path, init) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call = { method: init?.method ?? 'GET', path, csrf: headers['x-csrf-token'] ?? null };
    calls.push(call);
    const replied = override(call);
    if (replied) return replied;
    if (path === '/api/auth/csrf') return { status: 200, body: { csrfToken: CSRF } };
    if (path === '/api/notifications' && call.method === 'GET') return { status: 200, body: list };
    const readOne = /^\/api\/notifications\/(\d+)\/read$/.exec(path);
    if (readOne && call.method === 'POST') return { status: 200, body: { notification: serverRow(Number(readOne[1]), { read: true }), unreadCount: 0 } };
    if (path === '/api/notifications/read-all' && call.method === 'POST') return { status: 200, body: { updated: 2, unreadCount: 0 } };
    if (path === '/api/notifications' && call.method === 'DELETE') return { status: 200, body: { deleted: 3 } };
    return notFound;
  };
  installFetch(handler);
  return { calls, changes: () => calls.filter((c) => c.method !== 'GET') };
}

let centre: ReturnType<typeof useNotifications> | undefined;
function Capture() {
  centre = useNotifications();
  return null;
}

class FakeSource implements NotificationEventSource {
  static last: FakeSource | undefined;
  private listeners = new Set<(event: MessageEvent) => void>();
  constructor() {
    FakeSource.last = this;
  }
  addEventListener(_type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.delete(listener);
  }
  close(): void {}
  emit(data: unknown): void {
    for (const listener of this.listeners) listener(new MessageEvent('notification', { data: JSON.stringify(data) }));
  }
}
const fakeSource: EventSourceFactory = () => new FakeSource();
function Stream() {
  useNotificationStream(true, fakeSource);
  return null;
}

function renderSignedIn(extra?: ReactNode, signedIn = true) {
  const session = signedIn ? fakeSessionState(signedInSession()) : fakeSessionState(null);
  return render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <SessionContext.Provider value={session}>
        <NotificationProvider>
          <Capture />
          {extra}
        </NotificationProvider>
      </SessionContext.Provider>
    </MemoryRouter>,
  );
}

function store(list: AppNotification[]): void {
  window.localStorage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify(list));
}

const ids = () => centre?.notifications.map((item) => item.id);

describe('reconcileNotifications', () => {
  it('lets server rows win for read state and keeps local-only items', () => {
    const server = parseServerNotificationPage(page([serverRow(2, { read: true }), serverRow(1)])).notifications;
    const local = [localItem('2', 5, { read: false, synced: true }), localItem('1', 4, { read: true, synced: true }), localItem('client-a', Date.UTC(2026, 10, 21))];

    const merged = reconcileNotifications(local, server, true);

    expect(merged.map((item) => [item.id, item.read])).toEqual([
      ['client-a', false],
      ['2', true],
      ['1', false],
    ]);
  });

  it('drops synced items the server no longer has, but only where its page covers them', () => {
    const server = parseServerNotificationPage(page([serverRow(60), serverRow(59)], '59')).notifications;
    const local = [localItem('61', Date.UTC(2026, 10, 22), { synced: true }), localItem('10', 1, { synced: true })];

    expect(reconcileNotifications(local, server, false).map((item) => item.id)).toEqual(['60', '59', '10']);
    expect(reconcileNotifications(local, server, true).map((item) => item.id)).toEqual(['60', '59']);
  });

  it('keeps the newest 50 of server and local items together', () => {
    const server = parseServerNotificationPage(page(Array.from({ length: 50 }, (_, i) => serverRow(100 - i)))).notifications;
    const newerLocal = localItem('client-new', Date.UTC(2027, 0, 1));
    const olderLocal = localItem('client-old', 0);

    const merged = reconcileNotifications([olderLocal, newerLocal], server, true);

    expect(merged).toHaveLength(MAX_NOTIFICATIONS);
    expect(merged[0]?.id).toBe('client-new');
    expect(merged.map((item) => item.id)).not.toContain('client-old');
    expect(merged.at(-1)?.id).toBe('52');
  });
});

describe('notification centre synced with the api', () => {
  it('fetches the server list on start when signed in and merges it with the stored one', async () => {
    store([localItem('7', Date.UTC(2026, 10, 20, 9, 0, 7), { read: false, synced: true }), localItem('client-1', Date.UTC(2026, 10, 21))]);
    fakeApi(page([serverRow(8), serverRow(7, { read: true })]));

    renderSignedIn();

    await waitFor(() => expect(ids()).toEqual(['client-1', '8', '7']));
    expect(centre?.notifications.find((item) => item.id === '7')?.read).toBe(true);
    expect(centre?.unread).toBe(2);
    const saved = JSON.parse(window.localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? '[]') as { id: string }[];
    expect(saved.map((item) => item.id)).toEqual(['client-1', '8', '7']);
  });

  it('does not call the api when signed out', () => {
    const api = fakeApi(page([serverRow(1)]));

    renderSignedIn(undefined, false);
    act(() => centre?.notify({ title: 'Local', message: 'm', type: 'info' }));
    act(() => centre?.markAllRead());
    act(() => centre?.clear());

    expect(api.calls).toEqual([]);
  });

  it('merges stream notifications with the fetched list without duplicates or a second toast', async () => {
    fakeApi(page([serverRow(3, { read: true }), serverRow(2)]));
    renderSignedIn(<Stream />);
    await waitFor(() => expect(ids()).toEqual(['3', '2']));

    // A reconnect replays 3 (already read here) and brings 4, which is new.
    act(() => FakeSource.last?.emit(serverRow(3)));
    act(() => FakeSource.last?.emit(serverRow(4, { title: 'NYSE now open', type: 'success' })));
    act(() => FakeSource.last?.emit(serverRow(4, { title: 'NYSE now open', type: 'success' })));

    expect(ids()).toEqual(['4', '3', '2']);
    expect(centre?.notifications.find((item) => item.id === '3')?.read).toBe(true);
    await waitFor(() => expect(toast).toHaveBeenCalledTimes(1));
    expect(toast).toHaveBeenCalledWith('NYSE now open: message 4', { type: 'success' });
  });

  it('sends mark-read, read-all and clear to their endpoints with the csrf header', async () => {
    const api = fakeApi(page([serverRow(2), serverRow(1)]));
    renderSignedIn();
    await waitFor(() => expect(ids()).toEqual(['2', '1']));

    act(() => centre?.markRead('1'));
    await waitFor(() => expect(api.changes()).toHaveLength(1));
    act(() => centre?.markAllRead());
    await waitFor(() => expect(api.changes()).toHaveLength(2));
    act(() => centre?.clear());
    await waitFor(() => expect(api.changes()).toHaveLength(3));

    expect(api.changes()).toEqual([
      { method: 'POST', path: '/api/notifications/1/read', csrf: CSRF },
      { method: 'POST', path: '/api/notifications/read-all', csrf: CSRF },
      { method: 'DELETE', path: '/api/notifications', csrf: CSRF },
    ]);
    expect(centre?.notifications).toEqual([]);
  });

  it('marks a client-made notification read locally without calling the api', async () => {
    const api = fakeApi(page([]));
    renderSignedIn();
    await waitFor(() => expect(api.calls).toHaveLength(1));
    let localId = '';
    act(() => {
      localId = centre?.notify({ title: 'Price alert', message: 'BTC above 100k', type: 'warning' }).id ?? '';
    });

    act(() => centre?.markRead(localId));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

    expect(centre?.unread).toBe(0);
    expect(api.changes()).toEqual([]);
  });

  it('rolls a failed mark-read back and says so in a toast', async () => {
    fakeApi(page([serverRow(5)]), (call) => (call.method === 'POST' ? { status: 500, body: { error: { code: 'internal', message: 'Database unavailable' } } } : undefined));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSignedIn();
    await waitFor(() => expect(ids()).toEqual(['5']));

    act(() => centre?.markRead('5'));
    expect(centre?.unread).toBe(0);

    await waitFor(() => expect(centre?.unread).toBe(1));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Could not mark the notification read: Database unavailable', { type: 'error' }));
    jest.mocked(console.error).mockRestore();
  });

  it('rolls a failed read-all back to exactly the items that were unread', async () => {
    fakeApi(page([serverRow(3), serverRow(2, { read: true }), serverRow(1)]), (call) =>
      call.path === '/api/notifications/read-all' ? { status: 503, body: 'Service Unavailable' } : undefined,
    );
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSignedIn();
    await waitFor(() => expect(ids()).toEqual(['3', '2', '1']));

    act(() => centre?.markAllRead());
    expect(centre?.unread).toBe(0);

    await waitFor(() => expect(centre?.unread).toBe(2));
    expect(centre?.notifications.map((item) => item.read)).toEqual([false, true, false]);
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.stringMatching(/^Could not mark all notifications read: /), { type: 'error' }));
    jest.mocked(console.error).mockRestore();
  });

  it('restores the list when clearing fails, keeping what arrived meanwhile', async () => {
    let releaseClear: (reply: FakeReply) => void = () => undefined;
    fakeApi(page([serverRow(2), serverRow(1)]));
    const fetchMock = globalThis.fetch as jest.Mock;
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        const reply = await new Promise<FakeReply>((resolve) => {
          releaseClear = resolve;
        });
        return { ok: false, status: reply.status, text: async () => JSON.stringify(reply.body) };
      }
      return original?.(input, init);
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSignedIn(<Stream />);
    await waitFor(() => expect(ids()).toEqual(['2', '1']));

    act(() => centre?.clear());
    expect(ids()).toEqual([]);
    act(() => FakeSource.last?.emit(serverRow(3)));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/notifications', expect.objectContaining({ method: 'DELETE' })));
    act(() => releaseClear({ status: 500, body: { error: { code: 'internal', message: 'Database unavailable' } } }));

    await waitFor(() => expect(ids()).toEqual(['3', '2', '1']));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Could not clear notifications: Database unavailable', { type: 'error' }));
    jest.mocked(console.error).mockRestore();
  });
});
