// Latest prices of a set of symbols: the quotes endpoint once, then every live price event of
// those symbols from the stream. Each change records its direction so the row can flash.
import { useEffect, useState } from 'react';
import { getQuotes } from './markets-client';
import { messageOf } from '../accounts/auth-client';
import { subscribeLivePrices, type LivePrice } from './live-prices';

export interface LiveQuote {
  quote: LivePrice;
  /** Direction of the last change; null for the first price. */
  flash: 'up' | 'down' | null;
  /** Bumped on every change, so a flash animation restarts (used as a React key). */
  tick: number;
}

export interface LiveQuotes {
  quotes: ReadonlyMap<string, LiveQuote>;
  /** The quotes request failed (live prices may still arrive). */
  error: string | null;
}

/** Merges one price into the map; older prices than the one held are ignored. */
export function mergeQuote(quotes: ReadonlyMap<string, LiveQuote>, price: LivePrice): ReadonlyMap<string, LiveQuote> {
  const current = quotes.get(price.symbol);
  if (current && Date.parse(current.quote.at) > Date.parse(price.at)) return quotes;
  const before = current ? Number(current.quote.price) : null;
  const after = Number(price.price);
  const flash = before === null || before === after ? (current?.flash ?? null) : after > before ? 'up' : 'down';
  const changed = before !== null && before !== after;
  const next = new Map(quotes);
  next.set(price.symbol, { quote: price, flash, tick: (current?.tick ?? 0) + (changed ? 1 : 0) });
  return next;
}

export function useLiveQuotes(symbols: readonly string[]): LiveQuotes {
  const key = [...new Set(symbols)].sort().join(',');
  const [quotes, setQuotes] = useState<ReadonlyMap<string, LiveQuote>>(new Map());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const wanted = new Set(key === '' ? [] : key.split(','));
    const controller = new AbortController();
    setError(null);
    const unsubscribe = subscribeLivePrices((price) => {
      if (wanted.has(price.symbol)) setQuotes((current) => mergeQuote(current, price));
    });
    getQuotes([...wanted], controller.signal)
      .then((loaded) => setQuotes((current) => loaded.filter((quote) => wanted.has(quote.symbol)).reduce(mergeQuote, current)))
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) setError(messageOf(failure));
      });
    return () => {
      controller.abort();
      unsubscribe();
    };
  }, [key]);

  return { quotes, error };
}
