import { act, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { installFetch, installUnreachableFetch, removeFetch } from '../../test/fake-fetch';
import { installSpeech, removeSpeech, type FakeSpeech } from '../../test/fake-speech';
import { NotificationProvider } from '../notifications/notification-provider';
import { SOUND_ENABLED_KEY } from '../notifications/notification-sound';
import { parseStreamNotification, useNotificationStream, type EventSourceFactory } from '../notifications/use-notification-stream';
import { SPOKEN_ALERT_LOGS_KEY, SPOKEN_ALERT_LOGS_MAX, claimAlertLog } from './alert-speech';
import type { CheckedAlert } from './alerts-client';
import { ALERT_CHECK_INTERVAL_MS, useAlertCheck, type AlertCheckOptions } from './use-alert-check';

jest.mock('react-toastify', () => ({ toast: jest.fn() }));

let speech: FakeSpeech;
let visibility: DocumentVisibilityState = 'visible';

beforeAll(() => {
  // jsdom's Audio cannot play; the notification sound is not what these tests are about.
  Object.assign(window, { Audio: jest.fn(() => ({ play: jest.fn(async () => undefined) })) });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});

beforeEach(() => {
  window.localStorage.clear();
  window.innerWidth = 1280;
  visibility = 'visible';
  speech = installSpeech();
});

afterEach(() => {
  removeSpeech();
  removeFetch();
  jest.useRealTimers();
});

function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

/** A firing as POST /api/alerts/crypto/check answers it (jobs/src/alerts/alert-view.ts toCheckedAlert). */
function checked(logId: string, overrides: Partial<CheckedAlert> = {}): CheckedAlert {
  return {
    id: '7',
    logId,
    name: 'BTC breakout',
    message: 'BTC breakout: BTCUSDT crossed up through 70000 at 70012.5',
    symbol: 'BTCUSDT',
    useAudio: true,
    audioMessage: 'Bitcoin is breaking out',
    audioVoiceId: 'com.apple.voice.Samantha',
    ...overrides,
  };
}

function Check({ userId = 'u1', options }: { userId?: string | null; options?: AlertCheckOptions }) {
  useAlertCheck(userId, options);
  return null;
}

describe('stream notifications of alerts', () => {
  it('read the spoken message, voice and firing from details', () => {
    const parsed = parseStreamNotification(
      JSON.stringify({
        id: '55',
        title: 'BTC breakout Alert Triggered',
        message: 'BTCUSDT crossed up through 70000',
        type: 'warning',
        details: { alertId: 7, alertLogId: 41, useAudio: true, audioMessage: 'Bitcoin is breaking out', audioVoiceId: 'Samantha' },
      }),
    );
    expect(parsed).toMatchObject({ id: '55', useAudio: true, audioMessage: 'Bitcoin is breaking out', audioVoiceId: 'Samantha', alertLogId: '41' });
  });

  it('are not spoken when the alert has no audio', () => {
    const parsed = parseStreamNotification(JSON.stringify({ id: '56', title: 't', message: 'm', details: { alertLogId: '42', useAudio: false, audioMessage: null } }));
    expect(parsed?.useAudio).toBeUndefined();
    expect(parsed?.audioMessage).toBeUndefined();
  });
});

describe('claimAlertLog', () => {
  it('claims a firing once and keeps only the newest ids', () => {
    expect(claimAlertLog('1')).toBe(true);
    expect(claimAlertLog('1')).toBe(false);
    for (let id = 2; id <= SPOKEN_ALERT_LOGS_MAX + 5; id++) claimAlertLog(String(id));

    const stored = JSON.parse(window.localStorage.getItem(SPOKEN_ALERT_LOGS_KEY) ?? '[]') as string[];
    expect(stored).toHaveLength(SPOKEN_ALERT_LOGS_MAX);
    expect(stored[0]).toBe('6');
    expect(stored.at(-1)).toBe(String(SPOKEN_ALERT_LOGS_MAX + 5));
    // The oldest ids are forgotten; recent ones still count as spoken.
    expect(claimAlertLog('1')).toBe(true);
    expect(claimAlertLog(String(SPOKEN_ALERT_LOGS_MAX))).toBe(false);
  });
});

describe('useAlertCheck', () => {
  it('checks at once and every 30 s while the tab is visible, and not while it is hidden', async () => {
    jest.useFakeTimers();
    const check = jest.fn(async () => [] as CheckedAlert[]);
    const { unmount } = render(<Check options={{ check }} />);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenLastCalledWith('u1', expect.any(AbortSignal));

    await act(async () => jest.advanceTimersByTimeAsync(ALERT_CHECK_INTERVAL_MS));
    expect(check).toHaveBeenCalledTimes(2);
    await act(async () => jest.advanceTimersByTimeAsync(ALERT_CHECK_INTERVAL_MS - 1));
    expect(check).toHaveBeenCalledTimes(2);

    act(() => setVisibility('hidden'));
    await act(async () => jest.advanceTimersByTimeAsync(5 * ALERT_CHECK_INTERVAL_MS));
    expect(check).toHaveBeenCalledTimes(2);

    // Back in view: one check straight away, then the 30 s rhythm again.
    act(() => setVisibility('visible'));
    expect(check).toHaveBeenCalledTimes(3);
    await act(async () => jest.advanceTimersByTimeAsync(ALERT_CHECK_INTERVAL_MS));
    expect(check).toHaveBeenCalledTimes(4);

    unmount();
    await act(async () => jest.advanceTimersByTimeAsync(5 * ALERT_CHECK_INTERVAL_MS));
    expect(check).toHaveBeenCalledTimes(4);
  });

  it('does not start in a hidden tab, nor when signed out', async () => {
    jest.useFakeTimers();
    visibility = 'hidden';
    const check = jest.fn(async () => [] as CheckedAlert[]);
    render(<Check options={{ check }} />);
    render(<Check userId={null} options={{ check }} />);
    await act(async () => jest.advanceTimersByTimeAsync(3 * ALERT_CHECK_INTERVAL_MS));
    expect(check).not.toHaveBeenCalled();
  });

  it('posts to /api/alerts/crypto/check with the csrf token and speaks the firings with their voice', async () => {
    const fetchMock = installFetch((path) => {
      if (path === '/api/auth/csrf') return { status: 200, body: { csrfToken: 'csrf-test' } };
      return {
        status: 200,
        body: {
          triggeredAlerts: [
            { id: 7, name: 'BTC breakout', message: 'm', symbol: 'BTCUSDT', condition: 'crossing_up', value: 70000, currentPrice: 70012.5, useAudio: true, audioMessage: 'Bitcoin is breaking out', audioVoiceId: 'com.apple.voice.Samantha', logId: '41', triggeredAt: '2026-11-21T09:30:00.000Z' },
            { id: 8, name: 'ETH dip', message: 'ETH dip Alert Triggered', symbol: 'ETHUSDT', condition: 'less_than', value: 3000, currentPrice: 2999, useAudio: false, audioMessage: null, audioVoiceId: null, logId: '42', triggeredAt: '2026-11-21T09:31:00.000Z' },
            { id: 9, name: 'SOL pop', message: 'SOL pop Alert Triggered', symbol: 'SOLUSDT', condition: 'greater_than', value: 200, currentPrice: 201, useAudio: true, audioMessage: null, audioVoiceId: 'Daniel', logId: '43', triggeredAt: '2026-11-21T09:32:00.000Z' },
          ],
        },
      };
    });
    render(<Check />);

    await waitFor(() => expect(speech.speak).toHaveBeenCalledTimes(2));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/alerts/crypto/check');
    expect(call?.[1]?.method).toBe('POST');
    expect(new Headers(call?.[1]?.headers).get('x-csrf-token')).toBe('csrf-test');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ userId: 'u1' });
    // The audio message, else the notification text; the voice by voiceURI or by name.
    expect(speech.spoken()).toEqual([
      { text: 'Bitcoin is breaking out', voice: 'com.apple.voice.Samantha' },
      { text: 'SOL pop Alert Triggered', voice: 'com.apple.voice.Daniel' },
    ]);
  });

  it('ignores a not-ok answer silently and only logs a failure to reach the api', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchMock = installFetch((path) =>
      path === '/api/auth/csrf' ? { status: 200, body: { csrfToken: 'csrf-test' } } : { status: 503, body: { triggeredAlerts: [{ id: 1, logId: '9', name: 'x', useAudio: true, audioMessage: 'should not be spoken' }] } },
    );
    const first = render(<Check />);
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/alerts/crypto/check')).toBe(true));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(speech.speak).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    first.unmount();

    installUnreachableFetch();
    render(<Check />);
    await waitFor(() => expect(error).toHaveBeenCalledWith('Alert check failed', expect.anything()));
    expect(speech.speak).not.toHaveBeenCalled();
    error.mockRestore();
  });

  it('does not speak on a narrow window or with sound off', async () => {
    window.innerWidth = 768;
    const check = jest.fn(async () => [checked('41')]);
    const { unmount } = render(<Check options={{ check }} />);
    await waitFor(() => expect(check).toHaveBeenCalled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    unmount();

    window.innerWidth = 1280;
    window.localStorage.setItem(SOUND_ENABLED_KEY, 'false');
    const second = jest.fn(async () => [checked('42')]);
    render(<Check options={{ check: second }} />);
    await waitFor(() => expect(second).toHaveBeenCalled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

    expect(speech.speak).not.toHaveBeenCalled();
  });
});

// ---- The stream and the check together ----

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }
  removeEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  close(): void {}
  emit(data: unknown): void {
    for (const listener of this.listeners.get('notification') ?? []) listener(new MessageEvent('notification', { data: JSON.stringify(data) }));
  }
}

const fakeFactory: EventSourceFactory = (url) => new FakeEventSource(url);

function Services({ check }: { check: AlertCheckOptions['check'] }) {
  useNotificationStream(true, fakeFactory);
  useAlertCheck('u1', { check, intervalMs: 1000 });
  return null;
}

/** A stream notification of a firing, as jobs/src/alerts/alert-triggers.ts writes it. */
function streamed(notificationId: string, alertLogId: string) {
  return {
    id: notificationId,
    timestamp: '2026-11-21T09:30:00.000Z',
    read: false,
    title: 'BTC breakout Alert Triggered',
    message: 'BTCUSDT crossed up through 70000 at 70012.5',
    type: 'warning',
    activityType: 'MARKET_ALERT_PRICE',
    exchangeId: null,
    symbolId: 'BTCUSDT',
    details: { alertId: 7, alertLogId, condition: 'crossing_up', useAudio: true, audioMessage: 'Bitcoin is breaking out', audioVoiceId: 'Samantha' },
  };
}

describe('spoken alerts across the stream and the check', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
  });

  it('speaks each firing once, whichever way it arrives first', async () => {
    // Every check hands out the same two firings: 41 came on the stream first, 42 only here.
    const check = jest.fn(async () => [checked('41'), checked('42', { audioMessage: 'Second firing', audioVoiceId: 'com.apple.voice.Daniel' })]);
    let resolveFirst: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (resolveFirst = resolve));
    const gatedCheck = jest.fn(async () => {
      await gate;
      return check();
    });
    render(
      <MemoryRouter initialEntries={['/dashboard']}>
        <NotificationProvider>
          <Services check={gatedCheck} />
        </NotificationProvider>
      </MemoryRouter>,
    );

    // The stream delivers firing 41 while the first check is still on its way.
    act(() => FakeEventSource.instances[0]?.emit(streamed('500', '41')));
    await waitFor(() => expect(speech.speak).toHaveBeenCalledTimes(1));
    expect(speech.spoken()[0]).toEqual({ text: 'Bitcoin is breaking out', voice: 'com.apple.voice.Samantha' });

    resolveFirst();
    await waitFor(() => expect(speech.speak).toHaveBeenCalledTimes(2));
    // Later checks (and a stream event for 42 after the check spoke it) add nothing.
    await waitFor(() => expect(gatedCheck.mock.calls.length).toBeGreaterThanOrEqual(2), { timeout: 3000 });
    act(() => FakeEventSource.instances[0]?.emit(streamed('501', '42')));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));

    expect(speech.spoken()).toEqual([
      { text: 'Bitcoin is breaking out', voice: 'com.apple.voice.Samantha' },
      { text: 'Second firing', voice: 'com.apple.voice.Daniel' },
    ]);
    expect(JSON.parse(window.localStorage.getItem(SPOKEN_ALERT_LOGS_KEY) ?? '[]')).toEqual(['41', '42']);
  });

  it('remembers spoken firings across a reload', async () => {
    window.localStorage.setItem(SPOKEN_ALERT_LOGS_KEY, JSON.stringify(['41']));
    const check = jest.fn(async () => [checked('41')]);
    render(
      <MemoryRouter initialEntries={['/dashboard']}>
        <NotificationProvider>
          <Services check={check} />
        </NotificationProvider>
      </MemoryRouter>,
    );
    act(() => FakeEventSource.instances[0]?.emit(streamed('500', '41')));
    await waitFor(() => expect(check).toHaveBeenCalled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(speech.speak).not.toHaveBeenCalled();
  });
});
