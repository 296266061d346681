// /dashboard/predictions: the markets browser. Search, category, open/closed and the sort order
// (24 h volume, liquidity, closing soon, newest) live in the address bar; pages load with a cursor.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { PredictionMarketSort, PredictionMarketView } from '@tickerbell/jobs/predictions/shapes';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import { formatUsdCompact } from '../format/usd';
import {
  MARKET_SORTS,
  SORT_LABELS,
  STATUS_LABELS,
  closesIn,
  formatDate,
  formatProbability,
  getMarkets,
  marketsParams,
  marketsQueryOf,
  type MarketStatus,
  type MarketsQuery,
} from './predictions-client';
import { PREDICTIONS_PERFORMANCE_PATH, predictionMarketPath } from './predictions-paths';
import { PredictionsTabs, SourceNote, StateBadge } from './predictions-parts';
import './predictions.css';

/** What the filters hold, in a few words. */
export function marketsSummary(query: MarketsQuery): string {
  const parts: string[] = [STATUS_LABELS[query.status ?? 'active'].toLowerCase() + ' markets'];
  if (query.category) parts.push(`in ${query.category}`);
  if (query.q) parts.push(`matching “${query.q}”`);
  if (query.closingWithinDays) parts.push(`closing within ${query.closingWithinDays} ${query.closingWithinDays === 1 ? 'day' : 'days'}`);
  parts.push(`by ${SORT_LABELS[query.sort ?? 'volume'].toLowerCase()}`);
  return parts.join(' ');
}

function Filters({ query, categories, onApply }: { query: MarketsQuery; categories: readonly { category: string; markets: number }[]; onApply: (query: MarketsQuery) => void }) {
  const [q, setQ] = useState(query.q ?? '');
  const [category, setCategory] = useState(query.category ?? '');
  const [status, setStatus] = useState<MarketStatus>(query.status ?? 'active');
  const [sort, setSort] = useState<PredictionMarketSort>(query.sort ?? 'volume');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...query, q: q.trim() || undefined, category: category || undefined, status, sort });
  };
  // A category of the address bar that has no open market is still offered, so the select shows it.
  const offered = query.category && !categories.some((entry) => entry.category === query.category) ? [...categories, { category: query.category, markets: 0 }] : categories;

  return (
    <form className="pm-filters" role="search" aria-label="Market filters" onSubmit={submit}>
      <label className="pm-field pm-field--search">
        <span className="pm-field__label">Search</span>
        <input className="form-field__input" type="search" value={q} maxLength={200} placeholder="Question or event, e.g. Fed rates" onChange={(event) => setQ(event.target.value)} />
      </label>
      <label className="pm-field">
        <span className="pm-field__label">Category</span>
        <select className="form-field__input" value={category} onChange={(event) => setCategory(event.target.value)}>
          <option value="">Every category</option>
          {offered.map((entry) => (
            <option key={entry.category} value={entry.category}>
              {entry.category} ({entry.markets})
            </option>
          ))}
        </select>
      </label>
      <label className="pm-field">
        <span className="pm-field__label">Status</span>
        <select className="form-field__input" value={status} onChange={(event) => setStatus(event.target.value as MarketStatus)}>
          {(['active', 'closed', 'all'] as const).map((value) => (
            <option key={value} value={value}>
              {STATUS_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <label className="pm-field">
        <span className="pm-field__label">Sort by</span>
        <select className="form-field__input" value={sort} onChange={(event) => setSort(event.target.value as PredictionMarketSort)}>
          {MARKET_SORTS.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <div className="pm-filters__actions">
        <button type="submit" className="button button--primary">
          Apply
        </button>
      </div>
    </form>
  );
}

function MarketsTable({ rows, busy, now }: { rows: readonly PredictionMarketView[]; busy: boolean; now: number }) {
  return (
    <div className="table-scroll" role="region" aria-label="Prediction markets" tabIndex={0} aria-busy={busy}>
      <table className="data-table data-table--cards data-table--grid-cards pm-table pm-markets-table">
        <caption className="visually-hidden">Prediction markets</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col" className="num">
              YES
            </th>
            <th scope="col" className="num">
              24 h volume
            </th>
            <th scope="col" className="num">
              Liquidity
            </th>
            <th scope="col">Closes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((market) => (
            <tr key={market.id} data-row-id={market.id}>
              <td data-label="Market" className="pm-question data-table__wide">
                <Link to={predictionMarketPath(market.id)}>{market.question}</Link>
                <span className="data-table__sub">
                  {[market.category, market.eventTitle && market.eventTitle !== market.question ? market.eventTitle : null].filter(Boolean).join(' · ')}
                </span>
              </td>
              <td data-label="YES" className="num pm-strong">
                {market.resolution ? <StateBadge market={market} /> : formatProbability(market.yesPrice)}
                {!market.resolution && market.bestBid !== null && market.bestAsk !== null && (
                  <span className="data-table__sub nowrap" title="Best bid / best ask">
                    {formatProbability(market.bestBid)} / {formatProbability(market.bestAsk)}
                  </span>
                )}
              </td>
              <td data-label="24 h volume" className="num">
                {formatUsdCompact(market.volume24h)}
              </td>
              <td data-label="Liquidity" className="num">
                {formatUsdCompact(market.liquidity)}
              </td>
              <td data-label="Closes" className="nowrap">
                {market.closed ? (
                  <>{market.resolution ? `Resolved ${formatDate(market.resolvedAt ?? market.closedTime)}` : <StateBadge market={market} />}</>
                ) : (
                  <>
                    <time dateTime={market.endDate ?? undefined} title={market.endDate ? formatDate(market.endDate) : undefined}>
                      {closesIn(market.endDate, now)}
                    </time>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PredictionsMarketsPage() {
  const [params, setParams] = useSearchParams();
  const query = marketsQueryOf(params);
  const key = marketsParams(query).toString();
  const [result, update, retry] = useRequest(key, (signal) => getMarkets(query, signal));
  const data = shownData(result);
  const [now] = useState(() => Date.now());

  const apply = (next: MarketsQuery) => setParams(marketsParams({ ...next, cursor: undefined, limit: undefined }));

  const { more, loadMore } = useLoadMore(key, data?.nextCursor, (cursor) => getMarkets({ ...query, cursor }), update, appendPage);

  return (
    <div className="predictions-page">
      <title>Prediction markets · Tickerbell</title>
      <h1>Prediction markets</h1>
      <PredictionsTabs />
      <p className="page-lede">
        Polymarket’s markets with their YES price as a probability. Open one to record your own forecast: it is scored against the market price at the moment you made it,
        and <Link to={PREDICTIONS_PERFORMANCE_PATH}>your performance</Link> says whether you beat the market.
      </p>

      <Filters key={key} query={query} categories={data?.categories ?? []} onApply={apply} />
      <p className="pm-summary">
        Showing {marketsSummary(query)}
        {key !== '' && (
          <>
            {' '}
            ·{' '}
            <button type="button" className="button button--ghost button--small" onClick={() => apply({})}>
              Clear filters
            </button>
          </>
        )}
      </p>
      {data && <SourceNote source={data.source} />}

      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading markets…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="The markets" message={result.message} onRetry={retry} />}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state pm-empty">
            {key === ''
              ? 'No open market is stored yet. Markets appear here after the first sync with Polymarket (every few minutes), or after an operator imports a file.'
              : 'No market matches these filters. Try fewer words, another category, or closed markets too.'}
          </p>
        ) : (
          <>
            <MarketsTable rows={data.rows} busy={result.state === 'loading'} now={now} />
            <LoadMore className="pm-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load more markets" end={`That is every matching market (${data.rows.length}).`} failed="More markets could not be loaded" />
          </>
        ))}
    </div>
  );
}
