// Live whale transfers from the api's stream (/api/stream, `event: whale`, data: a
// WhaleTransferView as JSON). The stream hook (notifications/use-notification-stream) owns the one
// EventSource and hands every `whale` event to this bus; the feed page subscribes here and parses
// each transfer with whales-client's parser. Kept tiny and without the shapes: it is part of the
// initial bundle.

export type LiveWhaleListener = (transfer: unknown) => void;

const listeners = new Set<LiveWhaleListener>();

/** Reads one `whale` event's data; null when it is not a JSON object (skipped). */
export function parseStreamWhale(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Hands a transfer to every subscriber (the stream hook calls this). */
export function publishLiveWhale(transfer: unknown): void {
  for (const listener of [...listeners]) listener(transfer);
}

/** Subscribes to live whale transfers; returns the unsubscribe function. */
export function subscribeLiveWhales(listener: LiveWhaleListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
