// Live chat events from the api's stream (/api/stream, `event: chat`, data: a ChatStreamEvent as
// JSON). The stream hook (notifications/use-notification-stream) owns the one EventSource and hands
// every `chat` event, and every (re)connection, to this bus; the chat screens subscribe here and
// parse each event with chat-client's parser. Kept tiny and without the shapes' values: it is part
// of the initial bundle.

export type ChatEventListener = (event: unknown) => void;
export type StreamOpenListener = () => void;

const listeners = new Set<ChatEventListener>();
const openListeners = new Set<StreamOpenListener>();

/** Reads one `chat` event's data; null when it is not a JSON object (skipped). */
export function parseStreamChat(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Hands an event to every subscriber (the stream hook calls this). */
export function publishChatEvent(event: unknown): void {
  for (const listener of [...listeners]) listener(event);
}

/** Subscribes to live chat events; returns the unsubscribe function. */
export function subscribeChatEvents(listener: ChatEventListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The stream (re)connected: events sent while it was down are lost, so an open room reloads what
 * came after its last message (the stream hook calls this on every `open`).
 */
export function publishStreamOpen(): void {
  for (const listener of [...openListeners]) listener();
}

export function subscribeStreamOpen(listener: StreamOpenListener): () => void {
  openListeners.add(listener);
  return () => {
    openListeners.delete(listener);
  };
}
