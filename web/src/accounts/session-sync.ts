// Tells other tabs of this site that the session changed (sign-in, sign-out), so they refetch.
// BroadcastChannel where available; otherwise a localStorage write, which fires `storage` events
// in every other tab.

export const SESSION_CHANNEL = 'tickerbell-session';
export const SESSION_STORAGE_EVENT_KEY = 'tickerbell:session-event';

export type Unsubscribe = () => void;

export function announceSessionChange(): void {
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.postMessage({ event: 'session', at: Date.now() });
    channel.close();
    return;
  }
  try {
    window.localStorage.setItem(SESSION_STORAGE_EVENT_KEY, String(Date.now()));
  } catch {
    // Other tabs will catch up on focus or on the next periodic refetch.
  }
}

export function onSessionChangeElsewhere(listener: () => void): Unsubscribe {
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = () => listener();
    return () => channel.close();
  }
  const onStorage = (event: StorageEvent): void => {
    if (event.key === SESSION_STORAGE_EVENT_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
