// /dashboard/insiders: the insider trades screener. OpenInsider's presets, every filter of the api,
// sort, cursor pages ("Load more"), a CSV export of the same query, and live new rows: the first
// page is asked for again every 30 s and lines not seen before are added and highlighted.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  INSIDER_ROLES,
  INSIDER_SORT_KEYS,
  type InsiderCompanyRef,
  type InsiderRole,
  type InsiderScreenerPage,
  type InsiderScreenerQuery,
  type InsiderSortKey,
  type TransactionCode,
} from '@tickerbell/jobs/insiders/shapes';
import { messageOf } from '../accounts/auth-client';
import {
  ROLE_LABELS,
  SCREENER_PRESETS,
  codeMeaning,
  getScreener,
  presetOf,
  screenerCsvPath,
  screenerParams,
  screenerQueryOf,
  searchCompanies,
} from './insiders-client';
import { INSIDERS_RESEARCH_PATH, companyKey, companyPath } from './insiders-paths';
import { ReplayNote, TradesTable } from './insiders-trades-table';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import './insiders.css';

/** How often the first page is asked for again (new filings arrive within a minute of EDGAR). */
export const LIVE_POLL_MS = 30_000;

/** The codes offered as checkboxes; a code outside them stays in the query when the address bar has it. */
export const COMMON_CODES: readonly TransactionCode[] = ['P', 'S', 'A', 'D', 'F', 'G', 'M', 'C', 'X'];

export const SORT_LABELS: Readonly<Record<InsiderSortKey, string>> = {
  filedAt: 'Filing date',
  transactionDate: 'Trade date',
  totalValue: 'Value',
  sharesTraded: 'Shares',
  ticker: 'Ticker',
};

/** What the filters hold, in a few words beside their fold ("none" when nothing narrows the list). */
export function filterSummary(query: InsiderScreenerQuery): string {
  const parts: string[] = [];
  if (query.ticker) parts.push(query.ticker);
  if (query.codes?.length) parts.push(`codes ${query.codes.join(', ')}`);
  if (query.roles?.length) parts.push(query.roles.map((role) => ROLE_LABELS[role].toLowerCase()).join(' or '));
  if (query.minValue) parts.push(`≥ $${query.minValue.toLocaleString('en-US')}`);
  if (query.filedFrom || query.filedTo) parts.push(`filed ${query.filedFrom ?? '…'} to ${query.filedTo ?? '…'}`);
  if (query.tradedFrom || query.tradedTo) parts.push(`traded ${query.tradedFrom ?? '…'} to ${query.tradedTo ?? '…'}`);
  if (query.table) parts.push(query.table === 'derivative' ? 'derivatives' : 'shares only');
  if (query.clusterOnly) parts.push('cluster buys');
  if (query.exclude10b5One) parts.push('no 10b5-1');
  return parts.length ? `(${parts.join(' · ')})` : '(none)';
}

/** The fresh first page, then the rows already shown that it does not hold (in their order). */
export function mergeFirstPage(fresh: InsiderScreenerPage, shown: InsiderScreenerPage): InsiderScreenerPage {
  const ids = new Set(fresh.rows.map((row) => row.id));
  return { rows: [...fresh.rows, ...shown.rows.filter((row) => !ids.has(row.id))], nextCursor: shown.nextCursor, replay: shown.replay || fresh.replay };
}

function FiltersForm({ query, onApply }: { query: InsiderScreenerQuery; onApply: (query: InsiderScreenerQuery) => void }) {
  const [draft, setDraft] = useState<InsiderScreenerQuery>(query);
  const set = <K extends keyof InsiderScreenerQuery>(key: K, value: InsiderScreenerQuery[K] | undefined) => setDraft((current) => ({ ...current, [key]: value }));
  const toggle = <T extends string>(values: readonly T[] | undefined, value: T, on: boolean): T[] | undefined => {
    const next = on ? [...new Set([...(values ?? []), value])] : (values ?? []).filter((item) => item !== value);
    return next.length ? next : undefined;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const codes = [...COMMON_CODES, ...(draft.codes ?? []).filter((code) => !COMMON_CODES.includes(code))];
  return (
    <form className="insider-filters" aria-label="Screener filters" onSubmit={submit}>
      <div className="insider-filters__grid">
        <label className="insider-field">
          <span className="insider-field__label">Ticker</span>
          <input
            className="form-field__input"
            value={draft.ticker ?? ''}
            maxLength={20}
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(event) => set('ticker', event.target.value.trim().toUpperCase() || undefined)}
          />
        </label>
        <label className="insider-field">
          <span className="insider-field__label">Minimum value (USD)</span>
          <input
            className="form-field__input"
            type="number"
            min={0}
            step={1000}
            inputMode="numeric"
            value={draft.minValue ?? ''}
            onChange={(event) => set('minValue', event.target.value === '' ? undefined : Math.max(0, Number(event.target.value)))}
          />
        </label>
        <label className="insider-field">
          <span className="insider-field__label">Filed from</span>
          <input className="form-field__input" type="date" value={draft.filedFrom ?? ''} onChange={(event) => set('filedFrom', event.target.value || undefined)} />
        </label>
        <label className="insider-field">
          <span className="insider-field__label">Filed to</span>
          <input className="form-field__input" type="date" value={draft.filedTo ?? ''} onChange={(event) => set('filedTo', event.target.value || undefined)} />
        </label>
        <label className="insider-field">
          <span className="insider-field__label">Traded from</span>
          <input className="form-field__input" type="date" value={draft.tradedFrom ?? ''} onChange={(event) => set('tradedFrom', event.target.value || undefined)} />
        </label>
        <label className="insider-field">
          <span className="insider-field__label">Traded to</span>
          <input className="form-field__input" type="date" value={draft.tradedTo ?? ''} onChange={(event) => set('tradedTo', event.target.value || undefined)} />
        </label>
        <label className="insider-field">
          <span className="insider-field__label">Table</span>
          <select
            className="form-field__input"
            value={draft.table ?? ''}
            onChange={(event) => set('table', event.target.value === 'non-derivative' || event.target.value === 'derivative' ? event.target.value : undefined)}
          >
            <option value="">Both tables</option>
            <option value="non-derivative">Shares (Table I)</option>
            <option value="derivative">Derivatives (Table II)</option>
          </select>
        </label>
      </div>
      <fieldset className="insider-checks">
        <legend>Transaction codes</legend>
        {codes.map((code) => (
          <label key={code} className="insider-check" title={codeMeaning(code)}>
            <input type="checkbox" checked={draft.codes?.includes(code) ?? false} onChange={(event) => set('codes', toggle(draft.codes, code, event.target.checked))} />
            <span>
              {code}
              <span className="visually-hidden"> ({codeMeaning(code)})</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="insider-checks">
        <legend>Insider roles (any of)</legend>
        {INSIDER_ROLES.map((role: InsiderRole) => (
          <label key={role} className="insider-check">
            <input type="checkbox" checked={draft.roles?.includes(role) ?? false} onChange={(event) => set('roles', toggle(draft.roles, role, event.target.checked))} />
            <span>{ROLE_LABELS[role]}</span>
          </label>
        ))}
      </fieldset>
      <div className="insider-checks insider-checks--flags">
        <label className="insider-check">
          <input type="checkbox" checked={draft.clusterOnly === true} onChange={(event) => set('clusterOnly', event.target.checked || undefined)} />
          <span>Cluster buys only</span>
        </label>
        <label className="insider-check">
          <input type="checkbox" checked={draft.exclude10b5One === true} onChange={(event) => set('exclude10b5One', event.target.checked || undefined)} />
          <span>Leave out 10b5-1 plan trades</span>
        </label>
      </div>
      <div className="insider-filters__actions">
        <button type="submit" className="button button--primary">
          Apply filters
        </button>
      </div>
    </form>
  );
}

function CompanySearch() {
  const [term, setTerm] = useState('');
  const [answer, setAnswer] = useState<{ term: string; companies: InsiderCompanyRef[] } | { term: string; error: string } | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = term.trim();
    if (!q) return;
    searchCompanies(q)
      .then((companies) => setAnswer({ term: q, companies }))
      .catch((error: unknown) => setAnswer({ term: q, error: messageOf(error) }));
  };
  return (
    <div className="insider-search">
      <form className="insider-search__form" role="search" aria-label="Find a company" onSubmit={submit}>
        <label className="insider-field insider-search__field">
          <span className="insider-field__label">Find a company</span>
          <input className="form-field__input" value={term} maxLength={100} placeholder="Ticker, name or CIK" onChange={(event) => setTerm(event.target.value)} />
        </label>
        <button type="submit" className="button button--secondary">
          Search
        </button>
      </form>
      {answer && 'error' in answer && (
        <p className="form-message form-message--error" role="alert">
          The search failed: {answer.error}
        </p>
      )}
      {answer && 'companies' in answer && (
        <div role="status">
          {answer.companies.length === 0 ? (
            <p className="empty-state">No company matches “{answer.term}”.</p>
          ) : (
            <ul className="insider-search__results" aria-label={`Companies matching ${answer.term}`}>
              {answer.companies.map((company) => (
                <li key={company.cik}>
                  <Link to={companyPath(companyKey(company))}>
                    <span className="insider-ticker">{company.ticker ?? `CIK ${company.cik}`}</span> {company.name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

export function InsidersScreenerPage() {
  const [params, setParams] = useSearchParams();
  const query = screenerQueryOf(params);
  const key = screenerParams(query).toString();
  const [result, update, retry] = useRequest(key, (signal) => getScreener(query, signal));
  const data = shownData(result);
  const [newIds, setNewIds] = useState<ReadonlySet<string>>(new Set());
  const [more, setMore] = useState<{ state: 'idle' } | { state: 'loading' } | { state: 'failed'; message: string }>({ state: 'idle' });
  const seen = useRef(new Set<string>());
  const active = presetOf(query);

  // A new query starts a new "since you opened it".
  useEffect(() => {
    seen.current = new Set();
    setNewIds(new Set());
    setMore({ state: 'idle' });
  }, [key]);
  useEffect(() => {
    if (result.state === 'ready') for (const row of result.data.rows) seen.current.add(row.id);
  }, [result]);

  // Live new rows: the first page again every 30 s; lines not seen before join the list, highlighted.
  useEffect(() => {
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (document.visibilityState === 'hidden') return;
      getScreener(query, controller.signal)
        .then((fresh) => {
          const arrived = fresh.rows.filter((row) => !seen.current.has(row.id));
          if (arrived.length === 0) return;
          for (const row of arrived) seen.current.add(row.id);
          setNewIds((current) => new Set([...current, ...arrived.map((row) => row.id)]));
          update((shown) => mergeFirstPage(fresh, shown));
        })
        // A failed refresh keeps what is shown; the next one tries again.
        .catch(() => undefined);
    }, LIVE_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [key]);

  const apply = (next: InsiderScreenerQuery) => setParams(screenerParams({ ...next, cursor: undefined, limit: undefined, format: undefined }), { replace: false });

  const loadMore = () => {
    if (!data?.nextCursor) return;
    setMore({ state: 'loading' });
    getScreener({ ...query, cursor: data.nextCursor })
      .then((page) => {
        update((shown) => {
          const ids = new Set(shown.rows.map((row) => row.id));
          return { rows: [...shown.rows, ...page.rows.filter((row) => !ids.has(row.id))], nextCursor: page.nextCursor, replay: shown.replay || page.replay };
        });
        for (const row of page.rows) seen.current.add(row.id);
        setMore({ state: 'idle' });
      })
      .catch((error: unknown) => setMore({ state: 'failed', message: messageOf(error) }));
  };

  const sort = query.sort ?? 'filedAt';
  const order = query.order ?? (sort === 'ticker' ? 'asc' : 'desc');

  return (
    <div className="insiders-page">
      <title>Insider trades · Tickerbell</title>
      <h1>Insider trades</h1>
      <p className="page-lede">
        Every line of the SEC Form 4 filings of officers, directors and 10% owners. Only open-market purchases (P) and sales (S) count as buying and
        selling; grants, exercises, gifts and tax withholding are shown, never counted. <Link to={INSIDERS_RESEARCH_PATH}>How the signals are defined</Link>.
      </p>

      <div className="insider-presets" role="group" aria-label="Presets">
        {SCREENER_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            className={`button ${active?.id === preset.id ? 'button--primary' : 'button--secondary'}`}
            aria-pressed={active?.id === preset.id}
            title={preset.description}
            onClick={() => apply(preset.query)}
          >
            {preset.label}
          </button>
        ))}
        <button type="button" className={`button ${key === '' ? 'button--primary' : 'button--ghost'}`} aria-pressed={key === ''} onClick={() => apply({})}>
          All trades
        </button>
      </div>
      {active && <p className="insider-preset-note">{active.description}</p>}

      <details className="insider-disclosure">
        <summary>
          Filters <span className="insider-filter-summary">{filterSummary(query)}</span>
        </summary>
        <FiltersForm key={key} query={query} onApply={apply} />
      </details>

      <div className="toolbar insider-toolbar">
        <label className="insider-field insider-field--inline">
          <span className="insider-field__label">Sort by</span>
          <select className="form-field__input" value={sort} onChange={(event) => apply({ ...query, sort: event.target.value as InsiderSortKey, order: undefined })}>
            {INSIDER_SORT_KEYS.map((sortKey) => (
              <option key={sortKey} value={sortKey}>
                {SORT_LABELS[sortKey]}
              </option>
            ))}
          </select>
        </label>
        <label className="insider-field insider-field--inline">
          <span className="insider-field__label">Order</span>
          <select className="form-field__input" value={order} onChange={(event) => apply({ ...query, order: event.target.value === 'asc' ? 'asc' : 'desc' })}>
            <option value="desc">{sort === 'ticker' ? 'Z to A' : sort === 'filedAt' || sort === 'transactionDate' ? 'Newest first' : 'Largest first'}</option>
            <option value="asc">{sort === 'ticker' ? 'A to Z' : sort === 'filedAt' || sort === 'transactionDate' ? 'Oldest first' : 'Smallest first'}</option>
          </select>
        </label>
        <CompanySearch />
        <a className="button button--secondary insider-toolbar__csv" href={screenerCsvPath(query)} download>
          Download CSV
        </a>
      </div>

      {data && <ReplayNote show={data.replay} />}
      <p className="visually-hidden" role="status" aria-live="polite">
        {newIds.size > 0 ? `${newIds.size} new ${newIds.size === 1 ? 'trade' : 'trades'} since the page was opened` : ''}
      </p>
      {newIds.size > 0 && (
        <p className="insider-live" aria-hidden="true">
          {newIds.size} new {newIds.size === 1 ? 'trade' : 'trades'} since you opened the page (highlighted).
        </p>
      )}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading insider trades…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="Insider trades" message={result.message} onRetry={retry} />}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state insider-empty">
            {key === ''
              ? 'No insider filings are stored yet. New Form 4 filings appear here within a minute of EDGAR once the insiders source runs.'
              : 'No trades match these filters. Widen the dates, lower the minimum value or clear a filter.'}
          </p>
        ) : (
          <>
            <TradesTable rows={data.rows} caption="Insider transactions" newIds={newIds} busy={result.state === 'loading'} />
            <div className="insider-more">
              {data.nextCursor ? (
                <button type="button" className="button button--secondary" onClick={loadMore} disabled={more.state === 'loading'}>
                  {more.state === 'loading' ? 'Loading…' : 'Load more trades'}
                </button>
              ) : (
                <p className="empty-state">That is every matching trade ({data.rows.length}).</p>
              )}
              {more.state === 'failed' && (
                <p className="form-message form-message--error" role="alert">
                  More trades could not be loaded: {more.message}
                </p>
              )}
            </div>
          </>
        ))}
    </div>
  );
}
