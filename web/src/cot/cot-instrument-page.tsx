import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { COT_EXTREME_LONG_AT, COT_EXTREME_SHORT_AT, REPORTED_GROUPS, type NetGroup, type RankedGroup } from '@tickerbell/jobs/cot/shapes';
import { BarChart, LineChart, type ChartSeries } from './cot-charts';
import {
  COT_RANGES,
  COT_RANGE_LABELS,
  GROUP_LABELS,
  RANKED_GROUPS_SHOWN,
  categoryLabel,
  formatCompact,
  formatContracts,
  formatRank,
  formatSignedPercent,
  getCotHistory,
  marketName,
  netContracts,
  weeksOfRange,
  type CotHistory,
  type CotHistoryEntry,
  type CotRange,
  type GroupPositions,
} from './cot-client';
import { percentileHeat } from './cot-heat';
import { cotPaths, type CotPaths, type CotVariant } from './cot-paths';
import { CotFollowButton } from './cot-follow-button';
import { DivergenceCell, HeatLegend, ProvisionalBadge } from './cot-screener-page';
import { useRequest } from '../api/use-request';
import './cot.css';

export const DEFAULT_RANGE: CotRange = '156';

export function rangeOf(params: URLSearchParams): CotRange {
  const value = params.get('weeks');
  return COT_RANGES.includes(value as CotRange) ? (value as CotRange) : DEFAULT_RANGE;
}

type RankMeasure = 'percentileRank' | 'cotIndex';

function summary(label: string, dates: readonly string[], series: readonly ChartSeries[], format: (v: number | null) => string): string {
  if (dates.length === 0) return `${label}: no reports.`;
  const last = dates.length - 1;
  const latest = series.map((s) => `${s.label} ${format(s.values[last] ?? null)}`).join(', ');
  return `${label}, ${dates.length} weekly reports from ${dates[0]} to ${dates[last]}. Latest (${dates[last]}): ${latest}.`;
}

function commercialPositions(entry: CotHistoryEntry): GroupPositions {
  const { dealer, assetManager } = entry.positions;
  const sum = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);
  return { long: sum(dealer.long, assetManager.long), short: sum(dealer.short, assetManager.short), spreading: sum(dealer.spreading, assetManager.spreading) };
}

function LatestReport({ entry }: { entry: CotHistoryEntry }) {
  const rows: { group: NetGroup; positions: GroupPositions }[] = [
    ...REPORTED_GROUPS.map((group) => ({ group, positions: entry.positions[group] })),
    { group: 'commercial', positions: commercialPositions(entry) },
  ];
  const ranked = (group: NetGroup): group is RankedGroup => (RANKED_GROUPS_SHOWN as readonly string[]).includes(group);
  return (
    <section className="dashboard-panel" aria-labelledby="cot-latest-title">
      <h2 id="cot-latest-title">
        Latest report: <time dateTime={entry.reportDate}>{entry.reportDate}</time> {entry.provisional === true && <ProvisionalBadge />}
      </h2>
      <dl className="cot-facts">
        <div>
          <dt>Open interest</dt>
          <dd>{formatContracts(entry.openInterest)}</dd>
        </div>
        <div>
          <dt>Divergence (leveraged − asset managers)</dt>
          <dd>
            <DivergenceCell divergence={entry.divergence} />
          </dd>
        </div>
        <div>
          <dt>Percentile window</dt>
          <dd>{entry.lookback === null ? 'Not computed yet' : `${entry.lookback} reports`}</dd>
        </div>
      </dl>
      <div className="table-scroll" role="region" aria-label="Latest report by group" tabIndex={0}>
        <table className="data-table cot-table">
          <caption className="visually-hidden">Positions by trader group in the report of {entry.reportDate}</caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Long</th>
              <th scope="col">Short</th>
              <th scope="col">Spreading</th>
              <th scope="col">Net contracts</th>
              <th scope="col">Net % of OI</th>
              <th scope="col">Percentile</th>
              <th scope="col">COT index</th>
              <th scope="col">Extreme</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ group, positions }) => {
              const heat = ranked(group) ? percentileHeat(entry.percentileRank[group]) : null;
              const extreme = ranked(group) ? entry.extremes[group] : null;
              return (
                <tr key={group}>
                  <th scope="row">
                    {GROUP_LABELS[group]}
                    {group === 'commercial' && <span className="data-table__sub">dealers + asset managers</span>}
                  </th>
                  <td className="cot-num">{formatContracts(positions.long)}</td>
                  <td className="cot-num">{formatContracts(positions.short)}</td>
                  <td className="cot-num">{group === 'nonReportable' ? 'n/a' : formatContracts(positions.spreading)}</td>
                  <td className="cot-num">{formatContracts(netContracts(positions))}</td>
                  <td className="cot-num">{formatSignedPercent(entry.netPercent[group])}</td>
                  {heat ? (
                    <td className={`cot-num cot-heat cot-heat--${heat.tone}`}>
                      {heat.label}
                      <span className="visually-hidden"> ({heat.description})</span>
                    </td>
                  ) : (
                    <td className="cot-num cot-muted">n/a</td>
                  )}
                  <td className="cot-num">{ranked(group) ? formatRank(entry.cotIndex[group]) : 'n/a'}</td>
                  <td>{extreme ? <span className={`cot-badge cot-badge--${extreme}`}>{extreme} extreme</span> : <span className="cot-muted">—</span>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Charts({ data }: { data: CotHistory }) {
  const [measure, setMeasure] = useState<RankMeasure>('percentileRank');
  const dates = data.history.map((entry) => entry.reportDate);
  const netSeries: ChartSeries[] = REPORTED_GROUPS.map((group) => ({
    key: group,
    label: GROUP_LABELS[group],
    values: data.history.map((entry) => netContracts(entry.positions[group])),
  }));
  const rankSeries: ChartSeries[] = RANKED_GROUPS_SHOWN.map((group) => ({
    key: group,
    label: GROUP_LABELS[group],
    values: data.history.map((entry) => entry[measure][group]),
  }));
  const oiSeries: ChartSeries = { key: 'openInterest', label: 'Open interest', values: data.history.map((entry) => entry.openInterest) };
  const rankTitle = measure === 'percentileRank' ? 'Percentile rank by group' : 'COT index by group';
  const provisionalIndexes = data.history.flatMap((entry, index) => (entry.provisional === true ? [index] : []));
  const shade =
    provisionalIndexes.length > 0
      ? { from: provisionalIndexes[0] ?? 0, to: provisionalIndexes.at(-1) ?? 0, label: 'Provisional: under 26 reports of history' }
      : null;
  return (
    <>
      <section className="dashboard-panel" aria-labelledby="cot-net-title">
        <h2 id="cot-net-title">Net positions</h2>
        <LineChart
          title="Net positions by group (contracts, long − short)"
          description={summary('Net positions by group in contracts', dates, netSeries, formatContracts)}
          dates={dates}
          series={netSeries}
          includeZero
          formatValue={formatContracts}
          formatTick={formatCompact}
        />
      </section>
      <section className="dashboard-panel" aria-labelledby="cot-rank-title">
        <h2 id="cot-rank-title">Positioning vs history</h2>
        <fieldset className="cot-segmented">
          <legend className="visually-hidden">Measure</legend>
          {(['percentileRank', 'cotIndex'] as const).map((value) => (
            <label key={value} className={`cot-segmented__option${measure === value ? ' cot-segmented__option--active' : ''}`}>
              <input type="radio" name="cot-measure" value={value} checked={measure === value} onChange={() => setMeasure(value)} />
              {value === 'percentileRank' ? 'Percentile rank' : 'COT index'}
            </label>
          ))}
        </fieldset>
        <LineChart
          title={rankTitle}
          description={`${summary(`${rankTitle} (0–100; 90 and above long extreme, 10 and below short extreme)`, dates, rankSeries, formatRank)}${
            shade ? ` Provisional (under 26 reports of history) from ${dates[shade.from] ?? ''} to ${dates[shade.to] ?? ''}.` : ''
          }`}
          dates={dates}
          series={rankSeries}
          domain={[0, 100]}
          bands={[
            { from: COT_EXTREME_LONG_AT, to: 100, label: `Long extreme ≥ ${COT_EXTREME_LONG_AT}`, tone: 'long' },
            { from: 0, to: COT_EXTREME_SHORT_AT, label: `Short extreme ≤ ${COT_EXTREME_SHORT_AT}`, tone: 'short' },
          ]}
          formatValue={formatRank}
          shade={shade}
        />
        <p className="form-field__hint">
          Each point ranks that week against the {data.history.at(-1)?.lookback ?? 156} reports up to it (its own window),
          so the chart range does not change the values, only how much history is drawn.
        </p>
      </section>
      <section className="dashboard-panel" aria-labelledby="cot-oi-title">
        <h2 id="cot-oi-title">Open interest</h2>
        <BarChart
          title="Open interest (contracts)"
          description={summary('Open interest in contracts', dates, [oiSeries], formatContracts)}
          dates={dates}
          series={oiSeries}
          formatValue={formatContracts}
          formatTick={formatCompact}
        />
      </section>
    </>
  );
}

function NotFound({ message, paths }: { message: string; paths: CotPaths }) {
  return (
    <div className="message-page cot-not-found">
      <title>COT instrument not found · Tickerbell</title>
      <p className="message-page__code" aria-hidden="true">
        404
      </p>
      <h1>COT instrument not found</h1>
      <p className="page-lede" role="alert">
        {/[.!?]$/.test(message) ? message : `${message}.`} Check the code, or pick a market from the screener.
      </p>
      <Link to={paths.screener} className="button button--primary">
        Back to the COT screener
      </Link>
    </div>
  );
}

export function CotInstrumentPage({ variant }: { variant: CotVariant }) {
  const { code = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const range = rangeOf(params);
  const paths = cotPaths(variant);
  const [result] = useRequest(`${code}|${range}`, (signal) => getCotHistory(code, range, signal));
  const data = result.state === 'ready' ? result.data : result.state === 'loading' ? result.previous : null;

  const setRange = (next: CotRange): void => {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === DEFAULT_RANGE) updated.delete('weeks');
        else updated.set('weeks', next);
        return updated;
      },
      { replace: true },
    );
  };

  let content;
  if (result.state === 'failed' && result.status === 404) {
    content = <NotFound message={result.message} paths={paths} />;
  } else {
    const instrument = data?.instrument;
    const latest = data?.history.at(-1);
    const title = instrument ? `${instrument.symbol ?? instrument.cftcCode} · ${marketName(instrument)}` : 'COT instrument';
    content = (
      <>
        <title>{`${instrument ? (instrument.symbol ?? instrument.cftcCode) : code} COT positioning · Tickerbell`}</title>
        <p className="cot-back">
          <Link to={paths.screener}>← COT screener</Link>
        </p>
        <h1>{title}</h1>
        {instrument && (
          <p className="page-lede">
            CFTC code {instrument.cftcCode} · {categoryLabel(instrument.category)}
            {instrument.exchange && ` · ${instrument.exchange}`}
          </p>
        )}
        {instrument && variant === 'dashboard' && <CotFollowButton code={instrument.cftcCode} name={marketName(instrument)} />}
        <fieldset className="cot-segmented">
          <legend className="cot-segmented__legend">Chart range</legend>
          {COT_RANGES.map((value) => (
            <label key={value} className={`cot-segmented__option${range === value ? ' cot-segmented__option--active' : ''}`}>
              <input type="radio" name="cot-range" value={value} checked={range === value} onChange={() => setRange(value)} />
              {COT_RANGE_LABELS[value]}
            </label>
          ))}
        </fieldset>
        {result.state === 'loading' && <p role="status">{data ? 'Updating…' : 'Loading COT history…'}</p>}
        {result.state === 'failed' && (
          <p className="form-message form-message--error" role="alert">
            COT history could not be loaded: {result.message}
          </p>
        )}
        {data && (
          <div aria-busy={result.state === 'loading'}>
            {data.history.length < weeksOfRange(range) && data.history.length > 0 && (
              <p className="form-field__hint">
                {data.history.length} weekly reports stored for this market, from {data.history[0]?.reportDate}.
              </p>
            )}
            {latest ? (
              <>
                <LatestReport entry={latest} />
                <HeatLegend />
                <Charts data={data} />
              </>
            ) : (
              <p className="empty-state">No reports have been imported for this market yet.</p>
            )}
          </div>
        )}
      </>
    );
  }
  return variant === 'public' ? <div className="container page cot-page">{content}</div> : <div className="cot-page">{content}</div>;
}
