// /dashboard/yields: every liquidity pool Tickerbell knows, with its latest TVL, APR (ours or
// DefiLlama's, flagged when they disagree), volume/TVL and score. Filters (chain, dex, token,
// stablecoins only, minimum TVL) and the sort (APR, TVL, score) live in the address bar; older
// pages load below with the api's cursor.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { YieldPoolRow, YieldPoolSort, YieldPoolsQuery } from '@tickerbell/jobs/yields/shapes';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import {
  COMMON_CHAINS,
  COMMON_DEXES,
  MIN_TVL_CHOICES,
  SORT_LABELS,
  YIELDS_RESEARCH_PATH,
  ageOf,
  formatUsd,
  formatUsdCompact,
  formatUtc,
  formatVtr,
  formatPercent,
  getPools,
  poolsParams,
  poolsQueryOf,
} from './yields-client';
import { AprValue, PoolName, ScoreValue, SourceNote, YieldsTabs } from './yields-parts';
import './yields.css';

/** What the filters hold, in a few words. */
export function poolsSummary(query: YieldPoolsQuery): string {
  const parts: string[] = [];
  if (query.chain) parts.push(query.chain);
  if (query.dex) parts.push(query.dex);
  if (query.token) parts.push(`with ${query.token}`);
  if (query.stablecoin) parts.push('stablecoin pools');
  if (query.minTvl) parts.push(`TVL ≥ ${formatUsdCompact(String(query.minTvl))}`);
  const what = parts.length ? parts.join(' · ') : 'every active pool';
  return `${what}, by ${SORT_LABELS[query.sort ?? 'tvl']} (highest first)`;
}

function PoolFilters({ query, onApply }: { query: YieldPoolsQuery; onApply: (query: YieldPoolsQuery) => void }) {
  const [chain, setChain] = useState(query.chain ?? '');
  const [dex, setDex] = useState(query.dex ?? '');
  const [token, setToken] = useState(query.token ?? '');
  const [stablecoin, setStablecoin] = useState(query.stablecoin === true);
  const [minTvl, setMinTvl] = useState(query.minTvl ? String(query.minTvl) : '');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const min = minTvl.trim().replace(/[$,\s]/g, '');
    if (min !== '' && !/^\d{1,20}(\.\d{1,2})?$/.test(min)) {
      setError('Enter the minimum TVL in US dollars, e.g. 1000000.');
      return;
    }
    const tokenText = token.trim();
    if (tokenText !== '' && !/^(0x[0-9a-fA-F]{40}|[\p{L}\p{N}._+-]{1,30})$/u.test(tokenText)) {
      setError('Enter a token symbol such as USDC, or a token address (0x followed by 40 hexadecimal characters).');
      return;
    }
    setError(null);
    onApply({ ...query, chain: chain.trim() || undefined, dex: dex.trim() || undefined, token: tokenText || undefined, stablecoin: stablecoin || undefined, minTvl: Number(min) || undefined });
  };

  return (
    <form className="yield-filters" aria-label="Pool filters" onSubmit={submit} noValidate>
      <label className="yield-field">
        <span className="yield-field__label">Chain</span>
        <input className="form-field__input" value={chain} placeholder="Any chain" list="yield-chains" maxLength={40} onChange={(event) => setChain(event.target.value)} />
        <datalist id="yield-chains">
          {COMMON_CHAINS.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <label className="yield-field">
        <span className="yield-field__label">Dex / project</span>
        <input className="form-field__input" value={dex} placeholder="Any project" list="yield-dexes" maxLength={60} onChange={(event) => setDex(event.target.value)} />
        <datalist id="yield-dexes">
          {COMMON_DEXES.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <label className="yield-field">
        <span className="yield-field__label">Token</span>
        <input className="form-field__input" value={token} placeholder="USDC or 0x…" maxLength={42} spellCheck={false} autoComplete="off" onChange={(event) => setToken(event.target.value)} />
      </label>
      <label className="yield-field">
        <span className="yield-field__label">Minimum TVL (USD)</span>
        <input className="form-field__input" inputMode="numeric" value={minTvl} placeholder="Any" list="yield-min-tvl" onChange={(event) => setMinTvl(event.target.value)} />
      </label>
      <datalist id="yield-min-tvl">
        {MIN_TVL_CHOICES.map((value) => (
          <option key={value} value={value}>
            {formatUsd(String(value))}
          </option>
        ))}
      </datalist>
      <label className="yield-check yield-filters__check">
        <input type="checkbox" checked={stablecoin} onChange={(event) => setStablecoin(event.target.checked)} />
        <span>Stablecoin pools only</span>
      </label>
      <div className="yield-filters__actions">
        <button type="submit" className="button button--primary">
          Apply
        </button>
      </div>
      {error && (
        <p className="form-message form-message--error yield-filters__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** A column heading that sorts the table by it (always highest first). */
function SortHeader({ sort, current, onSort, children }: { sort: YieldPoolSort; current: YieldPoolSort; onSort: (sort: YieldPoolSort) => void; children: string }) {
  const active = sort === current;
  return (
    <th scope="col" className="num" aria-sort={active ? 'descending' : undefined}>
      <button type="button" className={active ? 'yield-sort yield-sort--active' : 'yield-sort'} onClick={() => onSort(sort)} aria-pressed={active}>
        {children}
        <span aria-hidden="true">{active ? ' ↓' : ''}</span>
        <span className="visually-hidden">{active ? ' (sorted, highest first)' : ', sort by this'}</span>
      </button>
    </th>
  );
}

export function PoolsTable({ rows, sort, onSort, busy, caption, now = Date.now() }: { rows: readonly YieldPoolRow[]; sort: YieldPoolSort; onSort: (sort: YieldPoolSort) => void; busy: boolean; caption: string; now?: number }) {
  return (
    <div className="table-scroll yield-table-wrap" role="region" aria-label={caption} tabIndex={0} aria-busy={busy}>
      <table className="data-table data-table--cards data-table--grid-cards yield-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Pool</th>
            <SortHeader sort="tvl" current={sort} onSort={onSort}>
              TVL
            </SortHeader>
            <SortHeader sort="apr" current={sort} onSort={onSort}>
              APR
            </SortHeader>
            <th scope="col" className="num">
              DefiLlama APY
            </th>
            <th scope="col" className="num">
              Volume / TVL
            </th>
            <SortHeader sort="score" current={sort} onSort={onSort}>
              Score
            </SortHeader>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-pool-id={row.id}>
              <td data-label="Pool" className="data-table__wide yield-pool-cell">
                <PoolName pool={row} />
              </td>
              <td data-label="TVL" className="num yield-strong">
                {formatUsdCompact(row.tvlUsd)}
              </td>
              <td data-label="APR" className="num">
                <AprValue row={row} />
              </td>
              <td data-label="DefiLlama APY" className="num">
                {formatPercent(row.defillamaApy)}
              </td>
              <td data-label="Volume / TVL" className="num">
                {formatVtr(row.vtr)}
              </td>
              <td data-label="Score" className="num">
                <ScoreValue value={row.yieldScore} />
              </td>
              <td data-label="Updated" className="nowrap">
                {row.asOf ? (
                  <time dateTime={row.asOf} title={formatUtc(row.asOf)}>
                    {ageOf(row.asOf, now)}
                  </time>
                ) : (
                  '—'
                )}
                <span className="data-table__sub">{row.tracked ? 'tracked hourly' : 'DefiLlama list'}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function YieldsPoolsPage() {
  const [params, setParams] = useSearchParams();
  const query = poolsQueryOf(params);
  const key = poolsParams(query).toString();
  const [result, update, retry] = useRequest(key, (signal) => getPools(query, signal));
  const data = shownData(result);


  const apply = (next: YieldPoolsQuery) => setParams(poolsParams({ ...next, cursor: undefined, limit: undefined }));
  const sort = query.sort ?? 'tvl';

  const { more, loadMore } = useLoadMore(key, data?.nextCursor, (cursor) => getPools({ ...query, cursor }), update, appendPage);

  const filtered = Object.keys(query).some((name) => name !== 'sort');
  return (
    <div className="yields-page">
      <title>Yields · Tickerbell</title>
      <h1>Liquidity-pool yields</h1>
      <YieldsTabs />
      <p className="page-lede">
        Our fee APR beside DefiLlama’s APY, flagged when they disagree, and a 0–100 score with every part shown. Open a pool to set an alert;{' '}
        <Link to={YIELDS_RESEARCH_PATH}>how the numbers are computed</Link>.
      </p>

      {/* Remounted when the filters change from outside (clear, back), not when only the sort does: typed values stay. */}
      <PoolFilters key={poolsParams({ ...query, sort: undefined }).toString()} query={query} onApply={apply} />
      <div className="yield-summary">
        <p>
          Showing {poolsSummary(query)}
          {filtered && (
            <>
              {' '}
              ·{' '}
              <button type="button" className="button button--ghost button--small" onClick={() => apply({ sort: query.sort })}>
                Clear filters
              </button>
            </>
          )}
        </p>
        <label className="yield-field yield-field--inline">
          <span className="yield-field__label">Sort by</span>
          <select className="form-field__input" value={sort} onChange={(event) => apply({ ...query, sort: event.target.value === 'tvl' ? undefined : (event.target.value as YieldPoolSort) })}>
            <option value="tvl">TVL</option>
            <option value="apr">APR</option>
            <option value="score">Score</option>
          </select>
        </label>
      </div>

      {data && <SourceNote source={data.source} />}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading pools…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="The pools" message={result.message} onRetry={retry} />}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state yield-empty">
            {filtered
              ? 'No pool matches these filters. Lower the minimum TVL, try another chain or token, or clear the filters.'
              : 'No pool is known yet. Pools appear here after the first hourly ingest of DefiLlama’s pool list.'}
          </p>
        ) : (
          <>
            <PoolsTable rows={data.rows} sort={sort} onSort={(next) => apply({ ...query, sort: next === 'tvl' ? undefined : next })} busy={result.state === 'loading'} caption="Liquidity pools" />
            <LoadMore className="yield-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load more pools" end={`That is every matching pool (${data.rows.length.toLocaleString('en-US')}).`} failed="More pools could not be loaded" />
          </>
        ))}
    </div>
  );
}
