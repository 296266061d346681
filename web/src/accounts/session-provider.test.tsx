import { act, render, screen } from '@testing-library/react';
import type { Session } from './auth-client';
import { SESSION_REFETCH_INTERVAL_MS, SessionProvider, useSession } from './session-provider';
import { SESSION_STORAGE_EVENT_KEY } from './session-sync';

const session: Session = {
  user: { id: '1', name: 'Ada', email: 'ada@example.com', role: 'member' },
  expires: '2030-01-01T00:00:00Z',
};

function Status() {
  const { status } = useSession();
  return <p data-testid="status">{status}</p>;
}

function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { value: online, configurable: true });
}

async function flush(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
  });
}

beforeEach(() => setOnline(true));

describe('SessionProvider', () => {
  it('goes from loading to authenticated', async () => {
    let resolve: (value: Session | null) => void = () => undefined;
    const loadSession = jest.fn(() => new Promise<Session | null>((done) => (resolve = done)));
    render(
      <SessionProvider loadSession={loadSession}>
        <Status />
      </SessionProvider>,
    );
    expect(screen.getByTestId('status')).toHaveTextContent('loading');

    await act(async () => resolve(session));

    expect(screen.getByTestId('status')).toHaveTextContent('authenticated');
  });

  it('is unauthenticated when the api says {} or cannot be reached', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const loadSession = jest.fn(async () => {
      throw new Error('offline');
    });
    render(
      <SessionProvider loadSession={loadSession}>
        <Status />
      </SessionProvider>,
    );
    await flush();

    expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated');
    jest.restoreAllMocks();
  });

  it('refetches on window focus, on a change in another tab and every 300 s', async () => {
    jest.useFakeTimers();
    const loadSession = jest.fn(async () => session);
    render(
      <SessionProvider loadSession={loadSession}>
        <Status />
      </SessionProvider>,
    );
    await flush();
    expect(loadSession).toHaveBeenCalledTimes(1);

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await flush();
    expect(loadSession).toHaveBeenCalledTimes(2);

    // jsdom has no BroadcastChannel, so the storage-event fallback carries the change.
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_EVENT_KEY, newValue: '1' }));
    });
    await flush();
    expect(loadSession).toHaveBeenCalledTimes(3);

    act(() => jest.advanceTimersByTime(SESSION_REFETCH_INTERVAL_MS));
    await flush();
    expect(loadSession).toHaveBeenCalledTimes(4);
    jest.useRealTimers();
  });

  it('does not refetch while offline', async () => {
    jest.useFakeTimers();
    const loadSession = jest.fn(async () => session);
    render(
      <SessionProvider loadSession={loadSession}>
        <Status />
      </SessionProvider>,
    );
    await flush();
    setOnline(false);

    act(() => {
      window.dispatchEvent(new Event('focus'));
      jest.advanceTimersByTime(SESSION_REFETCH_INTERVAL_MS);
    });
    await flush();

    expect(loadSession).toHaveBeenCalledTimes(1);
    jest.useRealTimers();
  });

  it('listens on a BroadcastChannel when the browser has one', async () => {
    const channels: { onmessage: ((event: MessageEvent) => void) | null }[] = [];
    class FakeChannel {
      onmessage: ((event: MessageEvent) => void) | null = null;
      constructor() {
        channels.push(this);
      }
      postMessage(): void {}
      close(): void {}
    }
    Object.assign(globalThis, { BroadcastChannel: FakeChannel });
    const loadSession = jest.fn(async () => session);
    render(
      <SessionProvider loadSession={loadSession}>
        <Status />
      </SessionProvider>,
    );
    await flush();

    act(() => channels[0]?.onmessage?.(new MessageEvent('message', { data: { event: 'session' } })));
    await flush();

    expect(loadSession).toHaveBeenCalledTimes(2);
    Reflect.deleteProperty(globalThis, 'BroadcastChannel');
  });

  it('throws when useSession is used outside the provider', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Status />)).toThrow('useSession must be used inside a SessionProvider');
    spy.mockRestore();
  });
});
