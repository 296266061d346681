import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  COT_CATEGORIES,
  COT_SORT_KEYS,
  type CotCategory,
  type CotDataStatus,
  type CotLatestItem,
  type CotLatestResponse,
  type CotSortKey,
  type CotSortOrder,
  type NetGroup,
} from '@tickerbell/jobs/cot/shapes';
import {
  GROUP_LABELS,
  GROUP_SHORT_LABELS,
  RANKED_GROUPS_SHOWN,
  alertLabel,
  categoryLabel,
  defaultOrder,
  divergenceLabel,
  formatSigned,
  formatSignedPercent,
  getCotLatest,
  marketName,
  type CotLatestQuery,
} from './cot-client';
import { HEAT_LEGEND, percentileHeat } from './cot-heat';
import { cotPaths, type CotPaths, type CotVariant } from './cot-paths';
import { useRequest } from '../api/use-request';
import './cot.css';

/** The screener's query from the address bar; unknown values fall back to the defaults. */
export function screenerQueryOf(params: URLSearchParams): CotLatestQuery {
  const sort = params.get('sort');
  const order = params.get('order');
  const category = params.get('category');
  return {
    sort: COT_SORT_KEYS.includes(sort as CotSortKey) ? (sort as CotSortKey) : 'name',
    ...(order === 'asc' || order === 'desc' ? { order } : {}),
    ...(COT_CATEGORIES.includes(category as CotCategory) ? { category: category as CotCategory } : {}),
  };
}

/** Clicking a column: the same column flips its order, another one starts at its default order. */
export function nextSort(current: { sort: CotSortKey; order: CotSortOrder }, clicked: CotSortKey): { sort: CotSortKey; order: CotSortOrder } {
  if (current.sort === clicked) return { sort: clicked, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { sort: clicked, order: defaultOrder(clicked) };
}

const NET_COLUMNS: readonly { group: NetGroup; sort?: CotSortKey }[] = [
  { group: 'leveraged', sort: 'leveragedNetPercent' },
  { group: 'assetManager', sort: 'assetManagerNetPercent' },
  // The api has no dealer sort: the column is shown, not sortable.
  { group: 'dealer' },
  { group: 'commercial', sort: 'commercialNetPercent' },
];

const RANK_SORTS: Readonly<Record<(typeof RANKED_GROUPS_SHOWN)[number], CotSortKey>> = {
  leveraged: 'leveragedPercentileRank',
  assetManager: 'assetManagerPercentileRank',
  commercial: 'commercialPercentileRank',
};

interface SortState {
  sort: CotSortKey;
  order: CotSortOrder;
  onSort: (key: CotSortKey) => void;
}


/** A row whose history is too short to rank (percentiles null though the analytics ran): dimmed and said so. */
function isUnranked(item: CotLatestItem): boolean {
  return item.provisional !== null && Object.values(item.percentileRank).every((rank) => rank === null);
}

/** Says when the reports are the bundled sample or old, with the newest report's date. */
export function CotDataBanner({ status }: { status: CotDataStatus }) {
  if (!status.sample && !status.stale) return null;
  const date = status.latestReportDate ? <time dateTime={status.latestReportDate}>{status.latestReportDate}</time> : 'an unknown date';
  return (
    <p className="cot-data-banner" role="note">
      {status.sample ? (
        <>
          <strong>Sample data</strong>: the bundled CFTC reports up to {date}, not this week’s. The live CFTC source is off or has not
          imported yet.
        </>
      ) : (
        <>
          <strong>Stale data</strong>: the newest report is from {date}; a new one is published every Friday.
        </>
      )}
    </p>
  );
}

function SortHeader({ sortKey, state, children, label, className }: { sortKey: CotSortKey; state: SortState; children: ReactNode; label: string; className?: string }) {
  const active = state.sort === sortKey;
  const ariaSort = active ? (state.order === 'asc' ? 'ascending' : 'descending') : undefined;
  return (
    <th scope="col" aria-sort={ariaSort} className={className}>
      <button type="button" className={`cot-sort${active ? ' cot-sort--active' : ''}`} onClick={() => state.onSort(sortKey)}>
        <span aria-hidden="true">{children}</span>
        <span className="visually-hidden">{label}</span>
        <span className="cot-sort__arrow" aria-hidden="true">
          {active ? (state.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

export function ProvisionalBadge() {
  return (
    <span className="cot-badge cot-badge--provisional" title="Fewer than 26 reports of history: ranks are provisional">
      Provisional
    </span>
  );
}

export function ExtremeBadges({ extremes }: { extremes: CotLatestItem['extremes'] }) {
  const present = RANKED_GROUPS_SHOWN.filter((group) => extremes[group] !== null);
  if (present.length === 0) return <span className="cot-muted">None</span>;
  return (
    <ul className="cot-badges">
      {present.map((group) => {
        const side = extremes[group];
        return (
          <li key={group}>
            <span className={`cot-badge cot-badge--${side}`} title={`${GROUP_LABELS[group]}: ${side} extreme`}>
              {GROUP_SHORT_LABELS[group]} {side}
              <span className="visually-hidden"> extreme</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export function DivergenceCell({ divergence }: { divergence: CotLatestItem['divergence'] }) {
  const level = divergence.alertLevel;
  return (
    <>
      {divergenceLabel(divergence.type)}
      <span className="data-table__sub">
        {level !== null && <span className={`cot-alert cot-alert--${level}`}>{alertLabel(level)}</span>}{' '}
        score {formatSigned(divergence.score)}
      </span>
    </>
  );
}

export function HeatCell({ value, group }: { value: number | null; group: string }) {
  const heat = percentileHeat(value);
  return (
    <td className={`cot-num cot-heat cot-heat--${heat.tone}`} title={`${group} percentile ${heat.label}: ${heat.description}`}>
      {heat.label}
      <span className="visually-hidden"> ({heat.description})</span>
    </td>
  );
}

export function HeatLegend() {
  return (
    <div className="cot-legend">
      <span className="cot-legend__title">Percentile heat:</span>
      <ul className="cot-legend__steps">
        {HEAT_LEGEND.map((step) => (
          <li key={step.tone} className={`cot-heat cot-heat--${step.tone}`}>
            {step.range} <span className="cot-legend__words">{step.description}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ScreenerTable({ data, sort, busy, paths }: { data: CotLatestResponse; sort: SortState; busy: boolean; paths: CotPaths }) {
  return (
    <div className="table-scroll" role="region" aria-label="COT screener" tabIndex={0} aria-busy={busy}>
      <table className="data-table cot-table">
        <caption className="visually-hidden">Latest COT positioning of every instrument</caption>
        <thead>
          <tr>
            <td className="cot-sticky" />
            <td colSpan={3} />
            <th scope="colgroup" colSpan={4} className="cot-table__group">
              Net % of open interest
            </th>
            <th scope="colgroup" colSpan={3} className="cot-table__group">
              Percentile rank
            </th>
            <td colSpan={2} />
          </tr>
          <tr>
            <SortHeader sortKey="symbol" state={sort} label="Symbol" className="cot-sticky">
              Symbol
            </SortHeader>
            <SortHeader sortKey="name" state={sort} label="Instrument">
              Instrument
            </SortHeader>
            <SortHeader sortKey="category" state={sort} label="Category">
              Category
            </SortHeader>
            <SortHeader sortKey="reportDate" state={sort} label="Report date">
              Report
            </SortHeader>
            {NET_COLUMNS.map(({ group, sort: key }) =>
              key ? (
                <SortHeader key={group} sortKey={key} state={sort} label={`${GROUP_LABELS[group]} net %`}>
                  {GROUP_SHORT_LABELS[group]}
                </SortHeader>
              ) : (
                <th key={group} scope="col">
                  <span aria-hidden="true">{GROUP_SHORT_LABELS[group]}</span>
                  <span className="visually-hidden">{GROUP_LABELS[group]} net %</span>
                </th>
              ),
            )}
            {RANKED_GROUPS_SHOWN.map((group) => (
              <SortHeader key={group} sortKey={RANK_SORTS[group]} state={sort} label={`${GROUP_LABELS[group]} percentile rank`}>
                {GROUP_SHORT_LABELS[group]}
              </SortHeader>
            ))}
            <th scope="col">Extremes</th>
            <SortHeader sortKey="divergenceScore" state={sort} label="Divergence">
              Divergence
            </SortHeader>
          </tr>
        </thead>
        <tbody>
          {data.items.map((item) => (
            <tr key={item.instrument.cftcCode} className={isUnranked(item) ? 'cot-row--unranked' : undefined}>
              <td className="cot-symbol cot-sticky">{item.instrument.symbol ?? '—'}</td>
              <th scope="row">
                <Link to={paths.instrument(item.instrument.cftcCode)} title={item.instrument.name}>
                  {marketName(item.instrument)}
                </Link>
                <span className="data-table__sub">
                  {item.instrument.exchange && marketName(item.instrument) !== item.instrument.name ? `${item.instrument.exchange} · ` : ''}CFTC{' '}
                  {item.instrument.cftcCode}
                </span>
              </th>
              <td>{categoryLabel(item.instrument.category)}</td>
              <td className="cot-nowrap">
                {item.reportDate}
                {isUnranked(item) ? (
                  <span className="data-table__sub">Too little history to rank</span>
                ) : (
                  item.provisional === true && (
                    <span className="data-table__sub">
                      <ProvisionalBadge />
                    </span>
                  )
                )}
              </td>
              {NET_COLUMNS.map(({ group }) => (
                <td key={group} className="cot-num">
                  {formatSignedPercent(item.netPercent[group])}
                </td>
              ))}
              {RANKED_GROUPS_SHOWN.map((group) => (
                <HeatCell key={group} value={item.percentileRank[group]} group={GROUP_LABELS[group]} />
              ))}
              <td>
                <ExtremeBadges extremes={item.extremes} />
              </td>
              <td>
                <DivergenceCell divergence={item.divergence} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CotScreenerPage({ variant }: { variant: CotVariant }) {
  const [params, setParams] = useSearchParams();
  const query = screenerQueryOf(params);
  const key = JSON.stringify(query);
  const [result] = useRequest(key, (signal) => getCotLatest(query, signal));
  const data = result.state === 'ready' ? result.data : result.state === 'loading' ? result.previous : null;

  const update = (changes: Record<string, string | null>): void => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null) next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: true },
    );
  };
  // The address bar is the source of truth (the api applies the same default order), so a click
  // during a slow request builds on what was asked for, not on the previous answer.
  const current = { sort: query.sort, order: query.order ?? defaultOrder(query.sort) };
  const sortState: SortState = {
    ...current,
    onSort: (clicked) => update(nextSort(current, clicked)),
  };
  const lookback = data?.items.find((item) => item.lookback !== null)?.lookback ?? null;

  const content = (
    <>
      <title>COT screener · Tickerbell</title>
      <h1>COT screener</h1>
      <p className="page-lede">
        Every futures market’s latest positioning from the CFTC Traders in Financial Futures report: net positions as a
        share of open interest, percentile ranks against the market’s own history, extremes and the divergence between
        leveraged funds and asset managers. <Link to="/research/cot">How these are computed</Link>.
      </p>
      <div className="toolbar cot-toolbar">
        <label className="cot-field">
          <span className="cot-field__label">Category</span>
          <select
            className="form-field__input cot-field__input"
            value={query.category ?? ''}
            onChange={(event) => update({ category: event.target.value === '' ? null : event.target.value })}
          >
            <option value="">All categories</option>
            {COT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {categoryLabel(category)}
              </option>
            ))}
          </select>
        </label>
        <p className="cot-toolbar__note">
          Lookback: {lookback === null ? 'not computed yet' : `${lookback} reports`}. Ranks come from the stored
          analytics, computed over this install’s window (26, 52 or 156 reports, set by the operator); the screener
          cannot switch it per view.
        </p>
      </div>
      {data !== null && <CotDataBanner status={data.data} />}
      <HeatLegend />
      {result.state === 'loading' && data === null && <p role="status">Loading COT data…</p>}
      {result.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          COT data could not be loaded: {result.message}
        </p>
      )}
      {data !== null &&
        (data.items.length === 0 ? (
          <p className="empty-state">
            {data.category === null ? 'No COT reports have been imported on this install yet.' : `No instruments in the ${categoryLabel(data.category)} category.`}
          </p>
        ) : (
          <ScreenerTable data={data} sort={sortState} busy={result.state === 'loading'} paths={cotPaths(variant)} />
        ))}
    </>
  );
  return variant === 'public' ? <div className="container page cot-page">{content}</div> : <div className="cot-page">{content}</div>;
}
