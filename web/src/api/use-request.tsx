// How a screen asks the api: the last answer stays shown while a new one loads (a filter change does
// not blank the page), a superseded request is aborted, and a failed one offers "Try again".
import { useEffect, useState } from 'react';
import { ApiError } from './client';
import { messageOf } from '../accounts/auth-client';

export type RequestState<T> =
  | { state: 'loading'; previous: T | null }
  | { state: 'ready'; data: T }
  | { state: 'failed'; status: number; message: string };

/**
 * Runs `load` whenever `key` changes, aborting the previous request; while a new one runs the last
 * answer stays available as `previous`, so a filter change does not blank the page.
 */
export function useRequest<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): [RequestState<T>, (update: (data: T) => T) => void, () => void] {
  const [result, setResult] = useState<RequestState<T>>({ state: 'loading', previous: null });
  // Bumped by "Try again": the same request once more.
  const [attempt, setAttempt] = useState(0);
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
  }, [key, attempt]);
  const update = (change: (data: T) => T): void => setResult((current) => (current.state === 'ready' ? { state: 'ready', data: change(current.data) } : current));
  return [result, update, () => setAttempt((n) => n + 1)];
}

/** The answer to show: the current one, or the previous one while a new request runs. */
export function shownData<T>(result: RequestState<T>): T | null {
  return result.state === 'ready' ? result.data : result.state === 'loading' ? result.previous : null;
}

/** The error of a failed request, with a button that asks again. */
export function RequestFailed({ what, message, onRetry }: { what: string; message: string; onRetry: () => void }) {
  return (
    <div className="form-message form-message--error request-failed" role="alert">
      <span>
        {what} could not be loaded: {message}
      </span>{' '}
      <button type="button" className="button button--secondary button--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
