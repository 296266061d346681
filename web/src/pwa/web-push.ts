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

/** Why this browser cannot do web push, in words for the settings page; null when it can. */
export function pushUnsupportedReason(): string | null {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return 'This browser cannot receive push notifications.';
  // Browsers hide service workers outside secure contexts (https or localhost) and in some private modes.
  if (!('serviceWorker' in navigator)) {
    return window.isSecureContext === false
      ? 'Push notifications need a secure connection (https): this page was opened without one, so the browser offers no service worker.'
      : 'This browser offers no service workers here (a private window may turn them off), so it cannot receive push notifications.';
  }
  if (typeof window.PushManager !== 'function' || typeof window.Notification !== 'function') {
    return 'This browser does not support web push. Use a current Chrome, Edge, Firefox or Safari (on iPhone and iPad, add Tickerbell to the home screen first).';
  }
  return null;
}

/** The real browser's environment; null when this browser cannot do web push (pushUnsupportedReason says why). */
export function browserPushEnvironment(): PushEnvironment | null {
  if (pushUnsupportedReason() !== null) return null;
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

/** Which step of turning push on or off failed (the api's refusals arrive as ApiError instead). */
export type PushFailure = 'permission-denied' | 'no-service-worker' | 'push-service';

/** A failure of the browser's side of web push, with a message that says why. */
export class PushError extends Error {
  override readonly name: string = 'PushError';
  constructor(
    readonly reason: PushFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class PushPermissionDenied extends PushError {
  override readonly name = 'PushPermissionDenied';
  constructor(options?: { cause?: unknown }) {
    super('permission-denied', 'Notifications are blocked for Tickerbell in this browser. Allow them in the site settings, then try again.', options);
  }
}

const detailOf = (error: unknown): string => (error instanceof Error && error.message ? ` (${error.message})` : '');

/** The service worker that receives pushes, or a PushError saying it could not be started. */
async function serviceWorker(env: PushEnvironment): Promise<Pick<ServiceWorkerRegistration, 'pushManager'>> {
  try {
    return await env.registration();
  } catch (error) {
    throw new PushError('no-service-worker', `The service worker that receives push notifications could not be started${detailOf(error)}. Reload the page and try again.`, { cause: error });
  }
}

/** True when this device already has a push subscription and permission. */
export async function isPushSubscribed(env: PushEnvironment): Promise<boolean> {
  if (env.permission() !== 'granted') return false;
  const registration = await serviceWorker(env);
  return (await registration.pushManager.getSubscription()) !== null;
}

/** Asks for permission, subscribes with the api's key and stores the subscription on the api. */
export async function enablePush(env: PushEnvironment): Promise<void> {
  const permission = env.permission() === 'granted' ? 'granted' : await env.requestPermission();
  if (permission !== 'granted') throw new PushPermissionDenied();
  const [publicKey, registration] = await Promise.all([fetchPushPublicKey(), serviceWorker(env)]);
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotAllowedError') throw new PushPermissionDenied({ cause: error });
    throw new PushError('push-service', `The browser’s push service did not accept the subscription${detailOf(error)}. Try again later.`, { cause: error });
  }
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
  const registration = await serviceWorker(env);
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
