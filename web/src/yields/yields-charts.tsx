// A pool's daily TVL, volume, fees and APR, drawn with lightweight-charts in the app's chart
// theme (as the whales and insiders charts): one small chart per measure, one point per UTC day
// (the day's last snapshot). The same numbers are a table behind a disclosure.
import { ColorType, HistogramSeries, LineSeries, createChart, type IChartApi, type ISeriesApi, type Time } from 'lightweight-charts';
import { useEffect, useId, useRef } from 'react';
import type { YieldSeriesPoint } from '@tickerbell/jobs/yields/shapes';
import { CHART_PALETTES } from '../charts/chart-theme';
import type { Theme } from '../theme/theme-rules';
import { formatDay, formatPercent, formatUsdCompact } from './yields-client';

const CHART_HEIGHT = 200;

type Autoscale = { priceRange: { minValue: number; maxValue: number } | null } | null;

/**
 * A line's scale spans at least 4 % of its level: a TVL that barely moves is drawn flat in the
 * middle, with distinct axis labels, instead of its noise filling the chart under one repeated label.
 */
export function atLeastFourPercent(original: () => Autoscale): Autoscale {
  const result = original();
  if (!result?.priceRange) return result;
  const { minValue, maxValue } = result.priceRange;
  const middle = (minValue + maxValue) / 2;
  const span = Math.max(maxValue - minValue, Math.abs(middle) * 0.04);
  return { ...result, priceRange: { minValue: middle - span / 2, maxValue: middle + span / 2 } };
}

type Measure = 'tvlUsd' | 'volumeUsd' | 'feesUsd' | 'apr' | 'defillamaApy';

/** One series' points: the day (YYYY-MM-DD, UTC) and the value; days without the value are left out. */
export function seriesData(points: readonly YieldSeriesPoint[], measure: Measure): { time: string; value: number }[] {
  return [...points]
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    .filter((point) => point[measure] !== null && Number.isFinite(Number(point[measure])))
    .map((point) => ({ time: point.timestamp.slice(0, 10), value: Number(point[measure]) }));
}

interface ChartSpec {
  title: string;
  /** Line series: one per measure; a histogram draws the first measure as bars. */
  measures: { measure: Measure; label: string }[];
  style: 'line' | 'bars';
  format: (value: number) => string;
}

function MeasureChart({ spec, points, theme }: { spec: ChartSpec; points: readonly YieldSeriesPoint[]; theme: Theme }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<(ISeriesApi<'Line'> | ISeriesApi<'Histogram'>)[]>([]);
  const palette = CHART_PALETTES[theme];
  const captionId = useId();
  const latestId = useId();

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, { autoSize: true, localization: { priceFormatter: spec.format } });
    chartRef.current = chart;
    seriesRef.current = spec.measures.map(() =>
      spec.style === 'bars'
        ? chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false })
        : chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, autoscaleInfoProvider: atLeastFourPercent }),
    );
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = [];
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: palette.background }, textColor: palette.text },
      grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
      rightPriceScale: { borderColor: palette.border },
      timeScale: { borderColor: palette.border },
    });
    spec.measures.forEach(({ measure }, i) => {
      const series = seriesRef.current[i];
      if (!series) return;
      series.applyOptions({ color: palette.lines[i % palette.lines.length] });
      series.setData(seriesData(points, measure).map((entry) => ({ ...entry, time: entry.time as Time })));
    });
    chart.timeScale().fitContent();
  }, [points, palette]);

  const latest = [...points].sort((a, b) => b.timestamp.localeCompare(a.timestamp))[0];
  return (
    <figure className="yield-chart">
      <figcaption id={captionId} className="yield-chart__title">
        <span>{spec.title}</span>
        {spec.measures.length > 1 && (
          <span className="yield-legend">
            {spec.measures.map(({ label }, i) => (
              <span key={label} className="yield-legend__item">
                <span className="yield-legend__line" style={{ background: palette.lines[i % palette.lines.length] }} aria-hidden="true" /> {label}
              </span>
            ))}
          </span>
        )}
      </figcaption>
      <div
        ref={containerRef}
        className="yield-chart__canvas"
        role="img"
        aria-labelledby={captionId}
        aria-describedby={latestId}
        style={{ height: CHART_HEIGHT }}
        data-testid={`yield-chart-${spec.measures[0]?.measure}`}
      />
      <span id={latestId} className="visually-hidden">
        {latest ? `Latest: ${spec.measures.map(({ measure, label }) => `${label} ${latest[measure] === null ? 'unknown' : spec.format(Number(latest[measure]))}`).join(', ')}` : 'No data'}
      </span>
    </figure>
  );
}

const usd = (value: number) => formatUsdCompact(String(value));
const pct = (value: number) => formatPercent(value);

export const POOL_CHARTS: readonly ChartSpec[] = [
  { title: 'TVL', measures: [{ measure: 'tvlUsd', label: 'TVL' }], style: 'line', format: usd },
  { title: 'Volume per day', measures: [{ measure: 'volumeUsd', label: 'Volume' }], style: 'bars', format: usd },
  { title: 'Fees per day', measures: [{ measure: 'feesUsd', label: 'Fees' }], style: 'bars', format: usd },
  {
    title: 'APR',
    measures: [
      { measure: 'apr', label: 'Our APR' },
      { measure: 'defillamaApy', label: 'DefiLlama APY' },
    ],
    style: 'line',
    format: pct,
  },
];

export function PoolCharts({ points, theme, symbol }: { points: readonly YieldSeriesPoint[]; theme: Theme; symbol: string }) {
  const newestFirst = [...points].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  // One day is a dot, not a chart: its figures are shown as a table until a second day arrives.
  const charted = points.length >= 2;
  return (
    <>
      {charted ? (
        <div className="yield-charts">
          {POOL_CHARTS.map((spec) => {
            const data = seriesData(points, spec.measures[0]!.measure);
            if (data.length >= 2) return <MeasureChart key={spec.title} spec={spec} points={points} theme={theme} />;
            // A measure with one day (or none) of data is said in words: one bar is not a chart.
            const last = data.at(-1);
            return (
              <figure key={spec.title} className="yield-chart yield-chart--sparse">
                <figcaption className="yield-chart__title">{spec.title}</figcaption>
                <p className="empty-state">
                  {last ? `One day of data so far: ${spec.format(last.value)} on ${formatDay(last.time)}.` : 'No data over this period.'}
                </p>
              </figure>
            );
          })}
        </div>
      ) : (
        <p className="empty-state">One day of history so far: the charts appear with the second day.</p>
      )}
      <details className="yield-disclosure" open={!charted}>
        <summary>
          Data table ({points.length} {points.length === 1 ? 'day' : 'days'})
        </summary>
        <div className="table-scroll" role="region" aria-label={`Daily figures of ${symbol}`} tabIndex={0}>
          <table className="data-table yield-series-table">
            <caption className="visually-hidden">Daily figures of {symbol}, newest first (each day’s last snapshot)</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">
                  TVL
                </th>
                <th scope="col" className="num">
                  Volume
                </th>
                <th scope="col" className="num">
                  Fees
                </th>
                <th scope="col" className="num">
                  APR
                </th>
                <th scope="col" className="num">
                  DefiLlama APY
                </th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((point) => (
                <tr key={point.timestamp}>
                  <th scope="row">{formatDay(point.timestamp)}</th>
                  <td className="num">{formatUsdCompact(point.tvlUsd)}</td>
                  <td className="num">{formatUsdCompact(point.volumeUsd)}</td>
                  <td className="num">{formatUsdCompact(point.feesUsd)}</td>
                  <td className="num">{formatPercent(point.apr)}</td>
                  <td className="num">{formatPercent(point.defillamaApy)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
