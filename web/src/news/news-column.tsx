// The news column of a symbol (chart and watchlist pages): its stored headlines and filings, newest
// first, paged with "Load more", with what tied each one to the symbol.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { NewsItemView } from '@tickerbell/jobs/news/shapes';
import { messageOf } from '../accounts/auth-client';
import { MATCH_HINTS, MATCH_LABELS, absoluteTime, getMarketNews, relativeTime, sourceLabel } from './news-client';
import './news.css';

type Column =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; items: NewsItemView[]; page: number; total: number; replay: boolean; more: 'idle' | 'loading' | { failed: string } };

/** Feed links are shown only when they are web addresses (a feed could carry `javascript:`). */
function isWebLink(link: string): boolean {
  return /^https?:\/\//i.test(link);
}

function NewsEntry({ item, now }: { item: NewsItemView; now: number }) {
  return (
    <li className="news-item">
      {isWebLink(item.link) ? (
        <a className="news-item__title" href={item.link} target="_blank" rel="noopener noreferrer">
          {item.title}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : (
        <span className="news-item__title">{item.title}</span>
      )}
      <div className="news-item__meta">
        <span className="news-item__source">{sourceLabel(item.source)}</span>
        <time dateTime={item.publishedAt} title={absoluteTime(item.publishedAt)}>
          {relativeTime(item.publishedAt, now)}
        </time>
        <span className="news-tag" title={MATCH_HINTS[item.matchedBy]}>
          <span className="visually-hidden">Matched by </span>
          {MATCH_LABELS[item.matchedBy]}
        </span>
        {item.formType && (
          <span className="news-tag news-tag--form" title="SEC form type">
            {item.formType}
          </span>
        )}
      </div>
    </li>
  );
}

interface NewsColumnProps {
  symbol: string;
  /** The clock of the relative times (tests fix it). */
  now?: () => number;
  className?: string;
}

export function NewsColumn({ symbol, now = Date.now, className }: NewsColumnProps) {
  const titleId = useId();
  const [column, setColumn] = useState<Column>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const more = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setColumn({ state: 'loading' });
    getMarketNews(symbol, 1, controller.signal)
      .then((answer) => setColumn({ state: 'ready', items: answer.items, page: 1, total: answer.total, replay: answer.replay, more: 'idle' }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setColumn({ state: 'failed', message: messageOf(error) });
      });
    return () => {
      controller.abort();
      more.current?.abort();
    };
  }, [symbol, attempt]);

  const loadMore = useCallback(() => {
    if (column.state !== 'ready' || column.more === 'loading') return;
    const controller = new AbortController();
    more.current = controller;
    const next = column.page + 1;
    setColumn({ ...column, more: 'loading' });
    getMarketNews(symbol, next, controller.signal)
      .then((answer) =>
        setColumn((current) => {
          if (current.state !== 'ready') return current;
          // Items that moved down a page while new ones arrived are not shown twice.
          const seen = new Set(current.items.map((item) => item.id));
          const items = [...current.items, ...answer.items.filter((item) => !seen.has(item.id))];
          return { state: 'ready', items, page: next, total: answer.total, replay: current.replay || answer.replay, more: 'idle' };
        }),
      )
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setColumn((current) => (current.state === 'ready' ? { ...current, more: { failed: messageOf(error) } } : current));
      });
  }, [column, symbol]);

  const at = now();
  return (
    <section className={className ? `news-column ${className}` : 'news-column'} aria-labelledby={titleId} aria-busy={column.state === 'loading'}>
      <div className="news-column__header">
        <h2 id={titleId}>News about {symbol}</h2>
        {column.state === 'ready' && column.replay && (
          <span className="news-column__mode" role="note" title="Tickerbell is running offline: these items come from recorded RSS feeds and SEC filings, not from a live read.">
            Recorded feeds
          </span>
        )}
      </div>
      {column.state === 'loading' && (
        <p role="status" className="news-column__status">
          <span className="spinner" aria-hidden="true" /> Loading news about {symbol}…
        </p>
      )}
      {column.state === 'failed' && (
        <div className="form-message form-message--error" role="alert">
          <p>News could not be loaded: {column.message}</p>
          <button type="button" className="button button--secondary button--small" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      )}
      {column.state === 'ready' &&
        (column.items.length === 0 ? (
          <p className="empty-state">No news about {symbol} in the stored feeds yet.</p>
        ) : (
          <>
            <ol className="news-list">
              {column.items.map((item) => (
                <NewsEntry key={item.id} item={item} now={at} />
              ))}
            </ol>
            <p className="news-column__count">
              {column.items.length} of {column.total}
            </p>
            {typeof column.more === 'object' && (
              <p className="form-message form-message--error" role="alert">
                More news could not be loaded: {column.more.failed}
              </p>
            )}
            {column.items.length < column.total && (
              <button type="button" className="button button--secondary button--small news-column__more" disabled={column.more === 'loading'} onClick={loadMore}>
                {column.more === 'loading' ? 'Loading…' : typeof column.more === 'object' ? 'Try loading more again' : 'Load more'}
              </button>
            )}
          </>
        ))}
    </section>
  );
}
