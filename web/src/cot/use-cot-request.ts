import { useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { messageOf } from '../accounts/auth-client';

export type CotRequestState<T> =
  | { state: 'loading'; previous: T | null }
  | { state: 'ready'; data: T }
  | { state: 'failed'; status: number; message: string };

/**
 * Runs `load` whenever `key` changes, aborting the previous request. While a new request runs the
 * last answer stays available as `previous`, so a sort or range switch does not blank the page.
 */
export function useCotRequest<T>(key: string, load: (signal: AbortSignal) => Promise<T>): CotRequestState<T> {
  const [result, setResult] = useState<CotRequestState<T>>({ state: 'loading', previous: null });
  useEffect(() => {
    const controller = new AbortController();
    setResult((current) => ({ state: 'loading', previous: current.state === 'ready' ? current.data : current.state === 'loading' ? current.previous : null }));
    load(controller.signal)
      .then((data) => {
        if (!controller.signal.aborted) setResult({ state: 'ready', data });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setResult({ state: 'failed', status: error instanceof ApiError ? error.status : 0, message: messageOf(error) });
      });
    return () => controller.abort();
    // `load` is rebuilt every render; `key` says when the request really changes.
  }, [key]);
  return result;
}
