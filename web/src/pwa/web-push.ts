// Web push on this device (issue 5, "Installable web app"): permission, the api's VAPID public
// key, pushManager.subscribe, and the subscription stored on (or removed from) the api.
import { ApiError } from '../api/client';
import { deletePushSubscription, fetchPushPublicKey, savePushSubscription } from '../notifications/notifications-client';
import { SERVICE_WORKER_URL } from './register-service-worker';

/** The browser pieces push needs, so tests can hand in fakes. */
export interface PushEnvironment {
  permission: () => NotificationPermission;
  requestPermission: () => Promise<NotificationPermission>;
  /** The service worker registration whose pushManager is used (registered on demand). */
  registration: () => Promise<Pick<ServiceWorkerRegistration, 'pushManager'>>;
}

/** The real browser's environment; null when this browser cannot do web push. */
export function browserPushEnvironment(): PushEnvironment | null {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return null;
  if (!('serviceWorker' in navigator) || typeof window.PushManager !== 'function' || typeof window.Notification !== 'function') return null;
  const container = navigator.serviceWorker;
  return {
    permission: () => window.Notification.permission,
    requestPermission: () => window.Notification.requestPermission(),
    // In development the worker is not registered at start-up: register it here, then wait for it.
    registration: async () => (await container.getRegistration('/')) ?? (await container.register(SERVICE_WORKER_URL, { scope: '/' })),
  };
}

/** base64url (the VAPID public key as the api sends it) to the bytes subscribe() takes. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export class PushPermissionDenied extends Error {
  override readonly name = 'PushPermissionDenied';
  constructor() {
    super('Notifications are blocked for Tickerbell in this browser. Allow them in the site settings, then try again.');
  }
}

/** True when this device already has a push subscription and permission. */
export async function isPushSubscribed(env: PushEnvironment): Promise<boolean> {
  if (env.permission() !== 'granted') return false;
  const registration = await env.registration();
  return (await registration.pushManager.getSubscription()) !== null;
}

/** Asks for permission, subscribes with the api's key and stores the subscription on the api. */
export async function enablePush(env: PushEnvironment): Promise<void> {
  const permission = env.permission() === 'granted' ? 'granted' : await env.requestPermission();
  if (permission !== 'granted') throw new PushPermissionDenied();
  const [publicKey, registration] = await Promise.all([fetchPushPublicKey(), env.registration()]);
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
  try {
    await savePushSubscription(subscription.toJSON());
  } catch (error) {
    // The api does not know it, so nothing would ever arrive: do not leave it subscribed.
    await subscription.unsubscribe().catch(() => false);
    throw error;
  }
}

/** Unsubscribes this device and removes the subscription from the api. */
export async function disablePush(env: PushEnvironment): Promise<void> {
  const registration = await env.registration();
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  try {
    await deletePushSubscription(endpoint);
  } catch (error) {
    // 404: the api already dropped it (a push service answered 410 earlier). Nothing to undo.
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}
