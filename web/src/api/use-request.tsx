// How a screen asks the api: the last answer stays shown while a new one loads (a filter change does
// not blank the page), a superseded request is aborted, and a failed one offers "Try again".
import { useEffect, useState, type ReactNode } from 'react';
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

/** A cursor-paged answer's rows, and the cursor of the page after them (null: the last page). */
export interface CursorPage<Row> {
  rows: Row[];
  nextCursor: string | null;
}

/** The shown page with the next one appended: a row already shown (same id) is not repeated. */
export function appendPage<Row extends { id: unknown }, P extends CursorPage<Row>>(shown: P, page: CursorPage<Row>): P {
  const ids = new Set(shown.rows.map((row) => row.id));
  return { ...shown, rows: [...shown.rows, ...page.rows.filter((row) => !ids.has(row.id))], nextCursor: page.nextCursor };
}

export type LoadMoreState = { state: 'idle' | 'loading' } | { state: 'failed'; message: string };

/**
 * "Load more" under a list shown by useRequest: `fetchAfter(cursor)` asks for the page after the
 * shown one and `merge` puts it into the shown answer (usually appendPage). Back to idle when `key`
 * (the list's query) changes, so another query's failed page is not shown.
 */
export function useLoadMore<T, P>(
  key: string,
  cursor: string | null | undefined,
  fetchAfter: (cursor: string) => Promise<P>,
  update: (change: (data: T) => T) => void,
  merge: (shown: T, page: P) => T,
): { more: LoadMoreState; loadMore: () => void } {
  const [more, setMore] = useState<LoadMoreState>({ state: 'idle' });
  useEffect(() => setMore({ state: 'idle' }), [key]);
  const loadMore = () => {
    if (!cursor) return;
    setMore({ state: 'loading' });
    fetchAfter(cursor)
      .then((page) => {
        update((shown) => merge(shown, page));
        setMore({ state: 'idle' });
      })
      .catch((error: unknown) => setMore({ state: 'failed', message: messageOf(error) }));
  };
  return { more, loadMore };
}

/**
 * The foot of a paged list: the "Load more" button while there is a next page, else `end` (that
 * this is every row; nothing when absent); under it a failed page's error.
 */
export function LoadMore({ more, hasNext, onLoadMore, label, end, failed, className }: {
  more: LoadMoreState;
  hasNext: boolean;
  onLoadMore: () => void;
  /** The button's text, e.g. "Load more pools". */
  label: string;
  end?: ReactNode;
  /** The error's lead, e.g. "More pools could not be loaded". */
  failed: string;
  className: string;
}) {
  if (!hasNext && end === undefined && more.state !== 'failed') return null;
  return (
    <div className={className}>
      {hasNext ? (
        <button type="button" className="button button--secondary" onClick={onLoadMore} disabled={more.state === 'loading'}>
          {more.state === 'loading' ? 'Loading…' : label}
        </button>
      ) : (
        end !== undefined && <p className="empty-state">{end}</p>
      )}
      {more.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {failed}: {more.message}
        </p>
      )}
    </div>
  );
}
