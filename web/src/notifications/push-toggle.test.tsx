import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installFetch, removeFetch, type FakeReply } from '../../test/fake-fetch';
import { base64UrlToBytes, type PushEnvironment } from '../pwa/web-push';
import { PushToggle } from './push-toggle';

// A real P-256 public key (65 bytes) and auth secret, base64url, as the api and browsers send them.
const VAPID_PUBLIC_KEY = 'BPCwtBfzyiLqODCLMIWwQNSyJ-jAoND_UxVnAUzI4BzcAa7DS5Y3dr1JRICP-f3m4JVQlaBUu8k68a1_Id0yAqY';
const BROWSER_P256DH = 'BAGiR-kg9sCdv7sLD6t-nuz0ZFCLsOmakiYwBLqyrL0ChhFt8fSq_lbr2jMSYLGFs6tcgKTtYGJTtRZ7x2wzwWU';
const BROWSER_AUTH = 'DZi7XGrS3DtVvRb1x73Ecw';
const ENDPOINT = 'https://push.example.test/send/abc';
const CSRF = 'csrf-push';

class FakeSubscription {
  unsubscribed = false;
  constructor(private readonly manager: FakePushManager) {}
  readonly endpoint = ENDPOINT;
  toJSON(): PushSubscriptionJSON {
    return { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: BROWSER_P256DH, auth: BROWSER_AUTH } };
  }
  async unsubscribe(): Promise<boolean> {
    this.unsubscribed = true;
    this.manager.current = null;
    return true;
  }
}

class FakePushManager {
  current: FakeSubscription | null = null;
  subscribeOptions: PushSubscriptionOptionsInit[] = [];
  async getSubscription(): Promise<FakeSubscription | null> {
    return this.current;
  }
  async subscribe(options: PushSubscriptionOptionsInit): Promise<FakeSubscription> {
    this.subscribeOptions.push(options);
    this.current = new FakeSubscription(this);
    return this.current;
  }
}

function environment(manager: FakePushManager, permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  let current = permission;
  const requestPermission = jest.fn(async () => {
    current = answer;
    return answer;
  });
  const env: PushEnvironment = {
    permission: () => current,
    requestPermission,
    registration: async () => ({ pushManager: manager as unknown as PushManager }),
  };
  return { env, requestPermission };
}

interface Call {
  method: string;
  path: string;
  csrf: string | null;
  body: unknown;
}

function fakeApi(override: (call: Call) => FakeReply | undefined = () => undefined) {
  const calls: Call[] = [];
  installFetch((path, init) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call = { method: init?.method ?? 'GET', path, csrf: headers['x-csrf-token'] ?? null, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const replied = override(call);
    if (replied) return replied;
    if (path === '/api/auth/csrf') return { status: 200, body: { csrfToken: CSRF } };
    if (path === '/api/push/public-key') return { status: 200, body: { publicKey: VAPID_PUBLIC_KEY } };
    if (path === '/api/push/subscriptions' && call.method === 'POST') return { status: 201, body: { id: 7, endpoint: ENDPOINT } };
    if (path === '/api/push/subscriptions' && call.method === 'DELETE') return { status: 204 };
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
  });
  return { changes: () => calls.filter((c) => c.method !== 'GET') };
}

afterEach(removeFetch);

const toggle = () => screen.getByRole('switch', { name: 'Push notifications on this device' });

describe('PushToggle', () => {
  it('says why when the browser cannot do web push, switched off and disabled', () => {
    render(<PushToggle environment={null} unsupportedReason="This browser does not support web push." />);
    expect(toggle()).toBeDisabled();
    expect(toggle()).not.toBeChecked();
    expect(toggle()).toHaveAccessibleDescription('This browser does not support web push. Alerts still arrive in the app and by email.');
  });

  it('says the service worker could not be started when it cannot be registered', async () => {
    const manager = new FakePushManager();
    const { env } = environment(manager, 'default');
    env.registration = async () => {
      throw new DOMException('Failed to register a ServiceWorker: A bad HTTP response code (404) was received', 'SecurityError');
    };
    const api = fakeApi();
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());

    fireEvent.click(toggle());

    expect(await screen.findByRole('alert')).toHaveTextContent(/^The service worker that receives push notifications could not be started \(Failed to register a ServiceWorker: .*404.*\)/);
    expect(toggle()).not.toBeChecked();
    expect(api.changes()).toEqual([]);
  });

  it('says the permission is blocked when the browser refuses the subscription itself', async () => {
    const manager = new FakePushManager();
    manager.subscribe = async () => {
      throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
    };
    const { env } = environment(manager, 'granted');
    fakeApi();
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());

    fireEvent.click(toggle());

    expect(await screen.findByRole('alert')).toHaveTextContent('Notifications are blocked for Tickerbell in this browser');
  });

  it('says the browser’s push service did not accept the subscription', async () => {
    const manager = new FakePushManager();
    manager.subscribe = async () => {
      throw new DOMException('Registration failed - push service error', 'AbortError');
    };
    const { env } = environment(manager, 'granted');
    const api = fakeApi();
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());

    fireEvent.click(toggle());

    expect(await screen.findByRole('alert')).toHaveTextContent('The browser’s push service did not accept the subscription (Registration failed - push service error). Try again later.');
    expect(api.changes()).toEqual([]);
  });

  it('says the server refused when the api has no push key to give', async () => {
    const manager = new FakePushManager();
    const { env } = environment(manager, 'granted');
    fakeApi((call) =>
      call.path === '/api/push/public-key' ? { status: 503, body: { error: { code: 'push_disabled', message: 'Push notifications are not configured on this server' } } } : undefined,
    );
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());

    fireEvent.click(toggle());

    expect(await screen.findByRole('alert')).toHaveTextContent('Tickerbell’s server refused to store this device’s subscription: Push notifications are not configured on this server');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Something went wrong');
    expect(manager.subscribeOptions).toEqual([]);
  });

  it('asks for permission, subscribes with the api key and posts the subscription with the csrf header', async () => {
    const manager = new FakePushManager();
    const { env, requestPermission } = environment(manager, 'default');
    const api = fakeApi();
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());
    expect(toggle()).not.toBeChecked();

    fireEvent.click(toggle());

    await waitFor(() => expect(toggle()).toBeChecked());
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(manager.subscribeOptions).toHaveLength(1);
    expect(manager.subscribeOptions[0]?.userVisibleOnly).toBe(true);
    expect(Array.from(manager.subscribeOptions[0]?.applicationServerKey as Uint8Array)).toEqual(Array.from(base64UrlToBytes(VAPID_PUBLIC_KEY)));
    expect(api.changes()).toEqual([
      {
        method: 'POST',
        path: '/api/push/subscriptions',
        csrf: CSRF,
        body: { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: BROWSER_P256DH, auth: BROWSER_AUTH } },
      },
    ]);
  });

  it('turning off unsubscribes and deletes the subscription on the api', async () => {
    const manager = new FakePushManager();
    manager.current = new FakeSubscription(manager);
    const subscription = manager.current;
    const { env } = environment(manager, 'granted');
    const api = fakeApi();
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeChecked());

    fireEvent.click(toggle());

    await waitFor(() => expect(toggle()).not.toBeChecked());
    expect(subscription.unsubscribed).toBe(true);
    expect(api.changes()).toEqual([{ method: 'DELETE', path: '/api/push/subscriptions', csrf: CSRF, body: { endpoint: ENDPOINT } }]);
  });

  it('stays off with an explanation when permission is refused, without subscribing', async () => {
    const manager = new FakePushManager();
    const { env } = environment(manager, 'default', 'denied');
    const api = fakeApi();
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());

    fireEvent.click(toggle());

    expect(await screen.findByRole('alert')).toHaveTextContent('Notifications are blocked');
    expect(toggle()).not.toBeChecked();
    expect(manager.subscribeOptions).toEqual([]);
    expect(api.changes()).toEqual([]);
  });

  it('undoes the browser subscription when the api refuses it', async () => {
    const manager = new FakePushManager();
    const { env } = environment(manager, 'granted');
    fakeApi((call) =>
      call.method === 'POST' && call.path === '/api/push/subscriptions'
        ? { status: 400, body: { error: { code: 'validation_failed', message: 'Invalid input: endpoint', details: [{ field: 'endpoint', message: 'must be an https URL' }] } } }
        : undefined,
    );
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<PushToggle environment={env} />);
    await waitFor(() => expect(toggle()).toBeEnabled());

    fireEvent.click(toggle());

    expect(await screen.findByRole('alert')).toHaveTextContent('Tickerbell’s server refused to store this device’s subscription: Invalid input: endpoint');
    expect(toggle()).not.toBeChecked();
    expect(manager.current).toBeNull();
    jest.mocked(console.error).mockRestore();
  });
});
