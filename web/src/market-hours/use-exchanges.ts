import { useEffect, useState } from 'react';
import { messageOf } from '../accounts/auth-client';
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { EXCHANGES_POLL_MS, getExchanges } from './exchanges-client';

export type ExchangesState =
  | { state: 'loading' }
  | { state: 'ready'; exchanges: ExchangeView[] }
  | { state: 'failed'; message: string };

/** The exchange list, refreshed every 60 s; a failed refresh keeps the last good list. */
export function useExchanges(): ExchangesState {
  const [result, setResult] = useState<ExchangesState>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    const load = (): void => {
      getExchanges(controller.signal)
        .then((exchanges) => setResult({ state: 'ready', exchanges }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error('Exchanges fetch failed', error);
          setResult((current) => (current.state === 'ready' ? current : { state: 'failed', message: messageOf(error) }));
        });
    };
    load();
    const timer = setInterval(load, EXCHANGES_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, []);
  return result;
}

/** The current time, updated every `everyMs`, for countdowns. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
