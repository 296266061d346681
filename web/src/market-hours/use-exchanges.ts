import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../accounts/auth-client';
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { showNotificationToast } from '../notifications/toasts';
import { EXCHANGES_POLL_MS, getExchanges, setExchangeFollow, sortExchangesByName } from './exchanges-client';

export type ExchangesState =
  | { state: 'loading' }
  | { state: 'ready'; exchanges: ExchangeView[] }
  | { state: 'failed'; message: string };

export interface ExchangeFollowing {
  /** Ids of the exchanges whose follow or unfollow is on its way to the api. */
  pending: ReadonlySet<string>;
  /** Follows or unfollows at once (optimistic); rolled back with a toast when the api refuses. */
  toggleFollow: (exchange: ExchangeView) => void;
}

function withFollowing(list: readonly ExchangeView[], following: (exchange: ExchangeView) => boolean): ExchangeView[] {
  return list.map((exchange) => {
    const value = following(exchange);
    return value === exchange.following ? exchange : { ...exchange, following: value };
  });
}

/**
 * The exchange list by name, refreshed every 60 s (a failed refresh keeps the last good list), and
 * following or unfollowing one of them.
 */
export function useExchanges(): ExchangesState & ExchangeFollowing {
  const [result, setResult] = useState<ExchangesState>({ state: 'loading' });
  // Follow changes in flight (id → the following they ask for): a poll answered meanwhile must
  // not flip their buttons back.
  const inFlight = useRef(new Map<string, boolean>());
  // Bumped when a follow change starts or ends: a poll sent before the change ended may carry
  // the old flags, so the list on screen keeps its own.
  const followVersion = useRef(0);
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());

  useEffect(() => {
    const controller = new AbortController();
    const load = (): void => {
      const version = followVersion.current;
      getExchanges(controller.signal)
        .then((exchanges) =>
          setResult((current) => {
            const shown = current.state === 'ready' && version !== followVersion.current ? new Map(current.exchanges.map((e) => [e.id, e.following])) : undefined;
            const following = (exchange: ExchangeView): boolean => inFlight.current.get(exchange.id) ?? shown?.get(exchange.id) ?? exchange.following;
            return { state: 'ready', exchanges: withFollowing(sortExchangesByName(exchanges), following) };
          }),
        )
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

  const toggleFollow = useCallback((exchange: ExchangeView): void => {
    const { id, name } = exchange;
    if (inFlight.current.has(id)) return;
    const follow = !exchange.following;
    const settle = (): void => {
      inFlight.current.delete(id);
      followVersion.current += 1;
      setPending(new Set(inFlight.current.keys()));
    };
    const update = (following: (exchange: ExchangeView) => boolean): void =>
      setResult((current) => (current.state === 'ready' ? { ...current, exchanges: withFollowing(current.exchanges, following) } : current));

    inFlight.current.set(id, follow);
    followVersion.current += 1;
    setPending(new Set(inFlight.current.keys()));
    update((e) => (e.id === id ? follow : e.following));

    setExchangeFollow(id, follow)
      .then((answer) => {
        settle();
        // The api answers every followed id: the first follow of a user on the defaults adds them too.
        const followed = new Set(answer.followedExchangeIds);
        update((e) => inFlight.current.get(e.id) ?? followed.has(e.id));
      })
      .catch((error: unknown) => {
        settle();
        update((e) => (e.id === id ? !follow : e.following));
        void showNotificationToast(`Could not ${follow ? 'follow' : 'unfollow'} ${name}`, messageOf(error), 'error');
      });
  }, []);

  return { ...result, pending, toggleFollow };
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
