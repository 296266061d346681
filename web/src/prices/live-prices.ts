// Live prices from the api's stream (/api/stream, `event: price`): the api relays price updates
// of the symbols on the signed-in user's watchlists. The stream hook (use-notification-stream)
// owns the one EventSource and hands every price event to this bus; pages subscribe here instead
// of opening a second connection. Kept tiny: it is part of the initial bundle.
import { isRecord } from '../api/client';

/** One price update, as jobs/src/prices/price-store.ts publishes it (prices are decimal strings). */
export interface LivePrice {
  symbol: string;
  price: string;
  /** ISO instant the price was current. */
  at: string;
  change24hPercent: string | null;
  source: string;
  simulated: boolean;
}

/** Reads a quote or a stream price; null when it does not fit. */
export function parseLivePrice(value: unknown): LivePrice | null {
  if (!isRecord(value)) return null;
  const { symbol, price, at, change24hPercent, source, simulated } = value;
  if (typeof symbol !== 'string' || typeof at !== 'string') return null;
  const priceText = typeof price === 'number' ? String(price) : price;
  if (typeof priceText !== 'string' || !Number.isFinite(Number(priceText)) || priceText.trim() === '') return null;
  const change = typeof change24hPercent === 'number' ? String(change24hPercent) : change24hPercent;
  return {
    symbol,
    price: priceText,
    at,
    change24hPercent: typeof change === 'string' && change !== '' && Number.isFinite(Number(change)) ? change : null,
    source: typeof source === 'string' ? source : 'unknown',
    simulated: simulated === true,
  };
}

/** The data of one `price` event; null (ignored: prices tick often, a bad one is simply skipped). */
export function parseStreamPrice(data: string): LivePrice | null {
  try {
    return parseLivePrice(JSON.parse(data) as unknown);
  } catch {
    return null;
  }
}

export type LivePriceListener = (price: LivePrice) => void;

const listeners = new Set<LivePriceListener>();

/** Hands a price to every subscriber (the stream hook calls this). */
export function publishLivePrice(price: LivePrice): void {
  for (const listener of [...listeners]) listener(price);
}

/** Subscribes to live prices; returns the unsubscribe function. */
export function subscribeLivePrices(listener: LivePriceListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
