import { act, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { toast } from 'react-toastify';
import { MemoryRouter } from 'react-router-dom';
import { NotificationProvider, useNotifications, type NewNotification } from './notification-provider';
import { NOTIFICATIONS_STORAGE_KEY } from './notification-store';
import { useNotificationStream, type EventSourceFactory } from './use-notification-stream';

jest.mock('react-toastify', () => ({ toast: jest.fn() }));

const play = jest.fn(async () => undefined);

beforeAll(() => {
  // jsdom's Audio cannot play; stand in for it.
  Object.assign(window, { Audio: jest.fn(() => ({ play })) });
});

beforeEach(() => {
  window.localStorage.clear();
  jest.mocked(toast).mockClear();
  play.mockClear();
});

let centre: ReturnType<typeof useNotifications> | undefined;
function Capture() {
  centre = useNotifications();
  return <p data-testid="count">{centre.notifications.length}</p>;
}

function renderCentre(path: string, extra?: ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <NotificationProvider>
        <Capture />
        {extra}
      </NotificationProvider>
    </MemoryRouter>,
  );
}

const marketOpen: NewNotification = { title: 'NYSE now open', message: 'NYSE has opened for trading', type: 'success' };

describe('NotificationProvider', () => {
  it('adds a notification with a toast and its sound', async () => {
    renderCentre('/dashboard');

    act(() => void centre?.notify(marketOpen));

    expect(screen.getByTestId('count')).toHaveTextContent('1');
    await waitFor(() => expect(toast).toHaveBeenCalledTimes(1));
    expect(toast).toHaveBeenCalledWith('NYSE now open: NYSE has opened for trading', { type: 'success' });
    expect(window.Audio).toHaveBeenCalledWith('/sounds/success.wav');
  });

  it('shows no toast on /dashboard/activity but still records the notification', async () => {
    renderCentre('/dashboard/activity');

    act(() => void centre?.notify(marketOpen));
    // Give a (wrongly) scheduled toast the chance to load and show.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });

    expect(screen.getByTestId('count')).toHaveTextContent('1');
    expect(toast).not.toHaveBeenCalled();
  });

  it('keeps the list in localStorage under its own key', () => {
    renderCentre('/');

    act(() => void centre?.notify(marketOpen));

    const stored = JSON.parse(window.localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? '[]') as { title: string; read: boolean }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ title: 'NYSE now open', read: false });
  });

  it('throws when used outside the provider', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Capture />)).toThrow('useNotifications must be used inside a NotificationProvider');
    spy.mockRestore();
  });
});

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }
  removeEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: string): void {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data }));
  }
}

const fakeFactory: EventSourceFactory = (url) => new FakeEventSource(url);

function Stream({ enabled }: { enabled: boolean }) {
  useNotificationStream(enabled, fakeFactory);
  return null;
}

describe('useNotificationStream', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
  });

  it('adds every notification event from /api/stream to the centre', () => {
    renderCentre('/dashboard', <Stream enabled />);
    const source = FakeEventSource.instances[0];
    expect(source?.url).toBe('/api/stream');

    act(() =>
      source?.emit(
        'notification',
        JSON.stringify({ id: 'srv-1', timestamp: '2026-11-21T09:30:00Z', title: 'LSE closing soon', message: 'LSE will close in 10 minutes', type: 'warning' }),
      ),
    );

    expect(centre?.notifications[0]).toMatchObject({ id: 'srv-1', title: 'LSE closing soon', type: 'warning', read: false });
    expect(centre?.notifications[0]?.timestamp).toBe(Date.parse('2026-11-21T09:30:00Z'));
  });

  it('ignores events that do not parse, with a console error', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderCentre('/dashboard', <Stream enabled />);

    act(() => FakeEventSource.instances[0]?.emit('notification', '{"title": 42}'));

    expect(screen.getByTestId('count')).toHaveTextContent('0');
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('does not connect while disabled and closes the stream on unmount', () => {
    const { unmount } = renderCentre('/', <Stream enabled={false} />);
    expect(FakeEventSource.instances).toHaveLength(0);
    unmount();

    const second = renderCentre('/', <Stream enabled />);
    second.unmount();
    expect(FakeEventSource.instances[0]?.closed).toBe(true);
  });
});

describe('activity controls', () => {
  it('marks read and clears through the centre', () => {
    renderCentre('/dashboard/activity');
    act(() => {
      centre?.notify({ ...marketOpen, id: 'x' });
      centre?.notify({ ...marketOpen, id: 'y' });
    });

    act(() => centre?.markRead('x'));
    expect(centre?.unread).toBe(1);
    act(() => centre?.markAllRead());
    expect(centre?.unread).toBe(0);
    act(() => centre?.clear());
    expect(screen.getByTestId('count')).toHaveTextContent('0');
  });
});
