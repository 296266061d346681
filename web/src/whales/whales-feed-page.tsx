// /dashboard/whales: the live feed of large Ethereum transfers. Filters (token, minimum USD,
// direction relative to exchanges, exchange) live in the address bar; new transfers arrive over the
// app's event stream (`whale` events) and join the top of the list, highlighted, when they match.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { WhaleExchangeSummary, WhaleFeedPage, WhaleTransferView } from '@tickerbell/jobs/whales/shapes';
import {
  DIRECTION_LABELS,
  feedParams,
  feedQueryOf,
  formatUsd,
  getExchanges,
  getFeed,
  getWatchlist,
  isAddress,
  matchesFeedQuery,
  parseTransferView,
  shortAddress,
  withViewerLabels,
  type WhaleFeedQuery,
} from './whales-client';
import { subscribeLiveWhales } from './whales-live';
import { WHALES_RESEARCH_PATH, WHALES_WATCHLIST_PATH } from './whales-paths';
import { SourceNote, TransfersTable, WhalesTabs } from './whales-parts';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import './whales.css';

/** The tokens offered by name (mainnet contracts); any other contract can be typed in. */
export const COMMON_TOKENS: readonly { symbol: string; token: string }[] = [
  { symbol: 'ETH', token: 'ETH' },
  { symbol: 'USDT', token: '0xdac17f958d2ee523a2206206994597c13d831ec7' },
  { symbol: 'USDC', token: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' },
  { symbol: 'DAI', token: '0x6b175474e89094c44da98b954eedeac495271d0f' },
  { symbol: 'WETH', token: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' },
  { symbol: 'WBTC', token: '0x2260fac5e5542a773aa44fbcfed7c193bc2c599' },
];

/** Quick minimums, in USD. */
export const MIN_USD_CHOICES: readonly number[] = [1_000_000, 10_000_000, 50_000_000];

/** How often the ages ("3 min ago") are redrawn. */
const AGE_TICK_MS = 30_000;

/** What the filters hold, in a few words ("every transfer" when nothing narrows the list). */
export function feedSummary(query: WhaleFeedQuery): string {
  const parts: string[] = [];
  if (query.token) parts.push(COMMON_TOKENS.find((entry) => entry.token === query.token)?.symbol ?? shortAddress(query.token));
  if (query.minUsd) parts.push(`≥ ${formatUsd(String(query.minUsd))}`);
  if (query.direction) parts.push(DIRECTION_LABELS[query.direction].toLowerCase());
  if (query.exchange) parts.push(query.exchange);
  if (query.address) parts.push(`involving ${shortAddress(query.address)}`);
  return parts.length ? parts.join(' · ') : 'every recorded whale transfer';
}

/** The shown page with live transfers added on top (newest block first), none twice. */
export function withArrivals(page: WhaleFeedPage, arrivals: readonly WhaleTransferView[]): WhaleFeedPage {
  const ids = new Set(page.rows.map((row) => row.id));
  const fresh = arrivals.filter((row) => !ids.has(row.id));
  if (!fresh.length) return page;
  const rows = [...fresh, ...page.rows].sort((a, b) => Number(BigInt(b.blockNumber) - BigInt(a.blockNumber)) || (b.logIndex ?? -1) - (a.logIndex ?? -1));
  const newest = fresh.reduce((top, row) => (BigInt(row.blockNumber) > BigInt(top.blockNumber) ? row : top));
  const checkpoint = page.source.checkpointBlock;
  const source =
    checkpoint === null || BigInt(newest.blockNumber) > BigInt(checkpoint) ? { ...page.source, checkpointBlock: newest.blockNumber, checkpointTime: newest.blockTime } : page.source;
  return { ...page, rows, source };
}

type TokenChoice = { kind: 'any' } | { kind: 'listed'; token: string } | { kind: 'other'; text: string };

function tokenChoiceOf(token: string | undefined): TokenChoice {
  if (!token) return { kind: 'any' };
  if (COMMON_TOKENS.some((entry) => entry.token === token)) return { kind: 'listed', token };
  return { kind: 'other', text: token };
}

function FeedFilters({ query, exchanges, onApply }: { query: WhaleFeedQuery; exchanges: readonly string[]; onApply: (query: WhaleFeedQuery) => void }) {
  const [token, setToken] = useState<TokenChoice>(tokenChoiceOf(query.token));
  const [minUsd, setMinUsd] = useState(query.minUsd ? String(query.minUsd) : '');
  const [direction, setDirection] = useState<WhaleFeedQuery['direction']>(query.direction);
  const [exchange, setExchange] = useState(query.exchange ?? '');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let tokenValue: string | undefined;
    if (token.kind === 'listed') tokenValue = token.token;
    if (token.kind === 'other') {
      if (!isAddress(token.text)) {
        setError('Enter the token’s contract address: 0x followed by 40 hexadecimal characters.');
        return;
      }
      tokenValue = token.text.trim().toLowerCase();
    }
    const min = minUsd.trim() === '' ? undefined : Number(minUsd);
    if (min !== undefined && (!Number.isFinite(min) || min < 0)) {
      setError('Enter the minimum in US dollars, e.g. 1000000.');
      return;
    }
    setError(null);
    onApply({ ...query, token: tokenValue, minUsd: min || undefined, direction, exchange: exchange.trim() || undefined });
  };

  const selectValue = token.kind === 'any' ? '' : token.kind === 'listed' ? token.token : 'other';
  return (
    <form className="whale-filters" aria-label="Feed filters" onSubmit={submit} noValidate>
      <label className="whale-field">
        <span className="whale-field__label">Token</span>
        <select
          className="form-field__input"
          value={selectValue}
          onChange={(event) => {
            const value = event.target.value;
            setToken(value === '' ? { kind: 'any' } : value === 'other' ? { kind: 'other', text: '' } : { kind: 'listed', token: value });
          }}
        >
          <option value="">Any token</option>
          {COMMON_TOKENS.map((entry) => (
            <option key={entry.token} value={entry.token}>
              {entry.symbol}
            </option>
          ))}
          <option value="other">Other contract…</option>
        </select>
      </label>
      {token.kind === 'other' && (
        <label className="whale-field whale-field--wide">
          <span className="whale-field__label">Token contract</span>
          <input
            className="form-field__input whale-mono"
            value={token.text}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error !== null && !isAddress(token.text)}
            onChange={(event) => setToken({ kind: 'other', text: event.target.value })}
          />
        </label>
      )}
      <label className="whale-field">
        <span className="whale-field__label">Minimum (USD)</span>
        <input className="form-field__input" inputMode="numeric" value={minUsd} placeholder="Any" list="whale-min-usd" onChange={(event) => setMinUsd(event.target.value)} />
        <datalist id="whale-min-usd">
          {MIN_USD_CHOICES.map((value) => (
            <option key={value} value={value}>
              {formatUsd(String(value))}
            </option>
          ))}
        </datalist>
      </label>
      <label className="whale-field">
        <span className="whale-field__label">Direction</span>
        <select
          className="form-field__input"
          value={direction ?? 'any'}
          onChange={(event) => setDirection(event.target.value === 'exchange_inflow' || event.target.value === 'exchange_outflow' ? event.target.value : undefined)}
        >
          <option value="any">{DIRECTION_LABELS.any}</option>
          <option value="exchange_inflow">{DIRECTION_LABELS.exchange_inflow}</option>
          <option value="exchange_outflow">{DIRECTION_LABELS.exchange_outflow}</option>
        </select>
      </label>
      <label className="whale-field">
        <span className="whale-field__label">Exchange</span>
        <input className="form-field__input" value={exchange} placeholder="Any exchange" list="whale-exchanges" maxLength={100} onChange={(event) => setExchange(event.target.value)} />
        <datalist id="whale-exchanges">
          {exchanges.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <div className="whale-filters__actions">
        <button type="submit" className="button button--primary">
          Apply
        </button>
      </div>
      {error && (
        <p className="form-message form-message--error whale-filters__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

export function WhalesFeedPage() {
  const [params, setParams] = useSearchParams();
  const query = feedQueryOf(params);
  const key = feedParams(query).toString();
  const [result, update, retry] = useRequest(key, (signal) => getFeed(query, signal));
  const data = shownData(result);
  const [newIds, setNewIds] = useState<ReadonlySet<string>>(new Set());
  const [exchanges, setExchanges] = useState<string[]>([]);
  // The viewer's own labels of watched addresses, put on live rows (the stream sends them without).
  const customLabels = useRef<ReadonlyMap<string, string>>(new Map());
  const [now, setNow] = useState(() => Date.now());
  // Transfers that arrived while the page's request was still out: added once it answers.
  const pending = useRef<WhaleTransferView[]>([]);
  const queryRef = useRef(query);
  queryRef.current = query;

  useEffect(() => {
    setNewIds(new Set());
    pending.current = [];
  }, [key]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, []);

  // The exchange names for the filter's suggestions (a failure only leaves them out).
  useEffect(() => {
    const controller = new AbortController();
    getExchanges(controller.signal)
      .then((list: WhaleExchangeSummary[]) => setExchanges(list.map((entry) => entry.exchange)))
      .catch(() => undefined);
    getWatchlist(controller.signal)
      .then((watches) => {
        customLabels.current = new Map(watches.filter((w) => w.customLabel).map((w) => [w.address, w.customLabel as string]));
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  // Live transfers: each `whale` event that matches the filters joins the top, highlighted.
  useEffect(
    () =>
      subscribeLiveWhales((value) => {
        let row: WhaleTransferView;
        try {
          row = withViewerLabels(parseTransferView(value, 'whale event'), customLabels.current);
        } catch (error) {
          console.error('Ignoring a whale event that does not parse', error);
          return;
        }
        if (!matchesFeedQuery(row, queryRef.current)) return;
        // Kept until a page is shown too (a request may be out); withArrivals never adds one twice.
        pending.current.push(row);
        setNewIds((current) => (current.has(row.id) ? current : new Set([...current, row.id])));
        setNow(Date.now());
        update((shown) => withArrivals(shown, [row]));
      }),
    [key],
  );

  // A page that answered after transfers arrived gets them too.
  useEffect(() => {
    if (result.state !== 'ready') return;
    const arrivals = pending.current;
    pending.current = [];
    if (arrivals.length) update((shown) => withArrivals(shown, arrivals.filter((row) => matchesFeedQuery(row, queryRef.current))));
  }, [result.state]);

  const apply = (next: WhaleFeedQuery) => setParams(feedParams({ ...next, cursor: undefined, limit: undefined }), { replace: false });

  const { more, loadMore } = useLoadMore(key, data?.nextCursor, (cursor) => getFeed({ ...query, cursor }), update, appendPage);

  const arrived = newIds.size;
  return (
    <div className="whales-page">
      <title>Whale transfers · Tickerbell</title>
      <h1>Whale transfers</h1>
      <WhalesTabs />
      <p className="page-lede">
        Large ETH and ERC-20 transfers on Ethereum, valued in US dollars at the block’s time, with exchange deposits and withdrawals named.{' '}
        <Link to={WHALES_WATCHLIST_PATH}>Watch an address</Link> to be alerted when it moves funds; <Link to={WHALES_RESEARCH_PATH}>how transfers are valued and labelled</Link>.
      </p>

      <FeedFilters key={key} query={query} exchanges={exchanges} onApply={apply} />
      <p className="whale-summary">
        Showing {feedSummary(query)}
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
      <p className="visually-hidden" role="status" aria-live="polite">
        {arrived > 0 ? `${arrived} new ${arrived === 1 ? 'transfer' : 'transfers'} since the page was opened` : ''}
      </p>
      {arrived > 0 && (
        <p className="whale-live" aria-hidden="true">
          {arrived} new {arrived === 1 ? 'transfer' : 'transfers'} since you opened the page (highlighted).
        </p>
      )}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading whale transfers…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="Whale transfers" message={result.message} onRetry={retry} />}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state whale-empty">
            {key === ''
              ? 'No whale transfers are recorded yet. They appear here, live, as new blocks are confirmed.'
              : 'No transfers match these filters yet. Lower the minimum, pick another token or clear a filter; matching transfers appear here live.'}
          </p>
        ) : (
          <>
            <TransfersTable rows={data.rows} caption="Whale transfers" newIds={newIds} busy={result.state === 'loading'} now={now} />
            <LoadMore className="whale-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load older transfers" end={`That is every matching transfer (${data.rows.length}).`} failed="Older transfers could not be loaded" />
          </>
        ))}
    </div>
  );
}
