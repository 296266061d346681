// /dashboard/predictions/mispricing: markets whose executable price is away from a fair value by
// more than the threshold, after fees: the users' track-record-weighted consensus, or the prices
// of the other outcomes of the same event. Open alerts by default, closed ones on request; the
// category filter lives in the address bar. The viewer's follows (markets and categories) are
// listed below: new alerts of what they follow reach them as notifications.
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { PredictionFollowView } from '@tickerbell/jobs/predictions/shapes';
import { fieldErrorsOf } from '../accounts/account-client';
import { messageOf } from '../accounts/auth-client';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import { addFollow, getFollows, getMarkets, getMispricing, removeFollow, type MispricingQuery } from './predictions-client';
import { PREDICTIONS_PATH, predictionMarketPath } from './predictions-paths';
import { MispricingTable, PredictionsTabs } from './predictions-parts';
import './predictions.css';

function queryOf(params: URLSearchParams): MispricingQuery {
  const query: MispricingQuery = {};
  if (params.get('active') === 'false') query.active = false;
  const category = (params.get('category') ?? '').trim();
  if (category && category.length <= 50) query.category = category;
  return query;
}

function paramsOf(query: MispricingQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.active === false) params.set('active', 'false');
  if (query.category) params.set('category', query.category);
  return params;
}

function Follows({ categories }: { categories: readonly string[] }) {
  const [result, update, retry] = useRequest('follows', (signal) => getFollows(signal));
  const follows = shownData(result);
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState<{ state: 'idle' | 'busy' } | { state: 'failed'; message: string } | { state: 'done'; message: string }>({ state: 'idle' });

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!category) return;
    setStatus({ state: 'busy' });
    addFollow({ category })
      .then((follow) => {
        update((list) => (list.some((f) => f.id === follow.id) ? list : [follow, ...list]));
        setStatus({ state: 'done', message: `Following ${category}.` });
        setCategory('');
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: fieldErrorsOf(error).category ?? messageOf(error) }));
  };
  const remove = (follow: PredictionFollowView) => {
    setStatus({ state: 'busy' });
    removeFollow(follow.id)
      .then(() => {
        update((list) => list.filter((f) => f.id !== follow.id));
        setStatus({ state: 'done', message: `No longer following ${follow.question ?? follow.category ?? 'it'}.` });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: messageOf(error) }));
  };

  return (
    <section className="dashboard-panel" aria-labelledby="pm-follows-title">
      <h2 id="pm-follows-title">What you follow</h2>
      <p className="pm-muted">New alerts on the markets and categories you follow reach you as notifications (in the app, by push and by email, as set in your settings).</p>
      <form className="pm-follow-form" aria-label="Follow a category" onSubmit={add}>
        <label className="pm-field">
          <span className="pm-field__label">Category</span>
          <select className="form-field__input" value={category} onChange={(event) => setCategory(event.target.value)}>
            <option value="">Choose a category</option>
            {categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--secondary" disabled={!category || status.state === 'busy'}>
          Follow category
        </button>
      </form>
      {result.state === 'failed' && <RequestFailed what="Your follows" message={result.message} onRetry={retry} />}
      {follows !== null &&
        (follows.length === 0 ? (
          <p className="empty-state">You follow nothing yet. Follow a category here, or a market from its page.</p>
        ) : (
          <ul className="pm-follow-list" aria-label="Your follows">
            {follows.map((follow) => (
              <li key={follow.id}>
                {follow.marketId !== null ? (
                  <Link to={predictionMarketPath(follow.marketId)}>{follow.question ?? `Market ${follow.marketId}`}</Link>
                ) : (
                  <span>
                    <span className="badge">Category</span> {follow.category}
                  </span>
                )}
                <button type="button" className="button button--ghost button--small" onClick={() => remove(follow)} disabled={status.state === 'busy'}>
                  Unfollow<span className="visually-hidden"> {follow.question ?? follow.category}</span>
                </button>
              </li>
            ))}
          </ul>
        ))}
      {status.state === 'done' && (
        <p className="form-message form-message--success" role="status">
          {status.message}
        </p>
      )}
      {status.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {status.message}
        </p>
      )}
    </section>
  );
}

export function PredictionsMispricingPage() {
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const key = paramsOf(query).toString();
  const [result, update, retry] = useRequest(key, (signal) => getMispricing(query, signal));
  const data = shownData(result);
  const [categories, setCategories] = useState<string[]>([]);
  const active = query.active !== false;

  // The categories for the filter and the follow form (a failure only leaves them out).
  useEffect(() => {
    const controller = new AbortController();
    getMarkets({ limit: 1 }, controller.signal)
      .then((page) => setCategories(page.categories.map((entry) => entry.category)))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  const apply = (next: MispricingQuery) => setParams(paramsOf(next));
  const { more, loadMore } = useLoadMore(key, data?.nextCursor, (cursor) => getMispricing({ ...query, cursor }), update, appendPage);
  const offered = query.category && !categories.includes(query.category) ? [...categories, query.category] : categories;

  return (
    <div className="predictions-page">
      <title>Mispricing alerts · Tickerbell</title>
      <h1>Mispricing alerts</h1>
      <PredictionsTabs />
      <p className="page-lede">
        Markets whose price a trader can actually get (the best bid or ask where the order book is known) is away from a fair value by more than the threshold after fees.
        The fair value is either the consensus of Tickerbell’s forecasters, weighted by their track record, or what the other outcomes of the same event imply.
      </p>
      <div className="pm-filters pm-filters--inline" role="group" aria-label="Alert filters">
        <div className="pm-segmented" role="group" aria-label="Which alerts">
          <button type="button" className={`button button--small ${active ? 'button--primary' : 'button--secondary'}`} aria-pressed={active} onClick={() => apply({ ...query, active: undefined })}>
            Open
          </button>
          <button type="button" className={`button button--small ${!active ? 'button--primary' : 'button--secondary'}`} aria-pressed={!active} onClick={() => apply({ ...query, active: false })}>
            Closed
          </button>
        </div>
        <label className="pm-field pm-field--inline">
          <span className="pm-field__label">Category</span>
          <select className="form-field__input" value={query.category ?? ''} onChange={(event) => apply({ ...query, category: event.target.value || undefined })}>
            <option value="">Every category</option>
            {offered.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading mispricing alerts…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="Mispricing alerts" message={result.message} onRetry={retry} />}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state pm-empty">
            {active ? 'No market looks mispriced right now.' : 'No closed alert yet.'} Alerts are recomputed after every sync;{' '}
            <Link to={PREDICTIONS_PATH}>forecasts on open markets</Link> feed the consensus.
          </p>
        ) : (
          <>
            <MispricingTable rows={data.rows} caption={active ? 'Open mispricing alerts' : 'Closed mispricing alerts'} busy={result.state === 'loading'} />
            <LoadMore className="pm-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load more alerts" failed="More alerts could not be loaded" />
          </>
        ))}
      <Follows categories={categories} />
    </div>
  );
}
