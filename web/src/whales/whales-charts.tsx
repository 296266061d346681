// Netflow in US dollars per hour or day, drawn with lightweight-charts (the chart library of the
// charts and insiders pages, in the app's chart theme): inflow as bars above zero, outflow below,
// the net flow as a line. The same numbers are a table behind a disclosure.
import { ColorType, HistogramSeries, LineSeries, createChart, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useId, useRef } from 'react';
import type { WhaleNetflowBucket, WhaleNetflowPoint } from '@tickerbell/jobs/whales/shapes';
import { CHART_PALETTES } from '../charts/chart-theme';
import type { Theme } from '../theme/theme-rules';
import { formatNetUsd, formatUsdCompact } from './whales-client';

const CHART_HEIGHT = 300;

export interface NetflowTotals {
  inflow: number;
  outflow: number;
  net: number;
  transfers: number;
  unpriced: number;
}

export function netflowTotals(points: readonly WhaleNetflowPoint[]): NetflowTotals {
  // In cents, so the sums do not pick up floating-point noise.
  const cents = (value: string) => Math.round(Number(value) * 100);
  let inflow = 0;
  let outflow = 0;
  let transfers = 0;
  let unpriced = 0;
  for (const point of points) {
    inflow += cents(point.inflowUsd);
    outflow += cents(point.outflowUsd);
    transfers += point.transfers;
    unpriced += point.unpricedTransfers;
  }
  return { inflow: inflow / 100, outflow: outflow / 100, net: (inflow - outflow) / 100, transfers, unpriced };
}

/** The chart's series data: inflow up, outflow down (negative), net as a line. */
export function netflowSeriesData(points: readonly WhaleNetflowPoint[]): { inflow: { time: UTCTimestamp; value: number }[]; outflow: { time: UTCTimestamp; value: number }[]; net: { time: UTCTimestamp; value: number }[] } {
  const sorted = [...points].sort((a, b) => a.start.localeCompare(b.start));
  const time = (point: WhaleNetflowPoint) => Math.floor(Date.parse(point.start) / 1000) as UTCTimestamp;
  return {
    inflow: sorted.map((point) => ({ time: time(point), value: Number(point.inflowUsd) })),
    outflow: sorted.map((point) => ({ time: time(point), value: -Number(point.outflowUsd) })),
    net: sorted.map((point) => ({ time: time(point), value: Number(point.netflowUsd) })),
  };
}

function bucketLabel(start: string, bucket: WhaleNetflowBucket): string {
  return bucket === 'day' ? start.slice(0, 10) : `${start.slice(0, 10)} ${start.slice(11, 16)} UTC`;
}

interface NetflowChartProps {
  points: readonly WhaleNetflowPoint[];
  bucket: WhaleNetflowBucket;
  theme: Theme;
  /** What flows in and out of: "Binance", "this address". */
  subject: string;
  /** An exchange's inflow is coins arriving to be sold (drawn in the down colour); an address's is money received (the up colour). */
  tone: 'exchange' | 'address';
}

export function NetflowChart({ points, bucket, theme, subject, tone }: NetflowChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<{ inflow: ISeriesApi<'Histogram'>; outflow: ISeriesApi<'Histogram'>; net: ISeriesApi<'Line'> } | null>(null);
  const summaryId = useId();
  const palette = CHART_PALETTES[theme];
  const inColour = tone === 'exchange' ? palette.down : palette.up;
  const outColour = tone === 'exchange' ? palette.up : palette.down;
  const totals = netflowTotals(points);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, { autoSize: true, localization: { priceFormatter: (value: number) => formatUsdCompact(String(value)) } });
    chartRef.current = chart;
    // Whole dollars: the scale's steps are never smaller than $1, so a quiet period (every value
    // zero, or a few cents) does not label several ticks "$0" and "−$0".
    const priceFormat = { type: 'price', precision: 0, minMove: 1 } as const;
    seriesRef.current = {
      inflow: chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false, priceFormat }),
      outflow: chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false, priceFormat }),
      net: chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, priceFormat }),
    };
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return;
    chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: palette.background }, textColor: palette.text },
      grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
      rightPriceScale: { borderColor: palette.border },
      timeScale: { borderColor: palette.border, timeVisible: bucket === 'hour' },
    });
    series.inflow.applyOptions({ color: inColour });
    series.outflow.applyOptions({ color: outColour });
    series.net.applyOptions({ color: palette.lines[0] });
    const data = netflowSeriesData(points);
    series.inflow.setData(data.inflow);
    series.outflow.setData(data.outflow);
    series.net.setData(data.net);
    chart.timeScale().fitContent();
  }, [points, bucket, palette, inColour, outColour]);

  const newestFirst = [...points].sort((a, b) => b.start.localeCompare(a.start));
  return (
    <figure className="whale-chart">
      <div
        ref={containerRef}
        className="whale-chart__canvas"
        role="img"
        aria-label={`${bucket === 'day' ? 'Daily' : 'Hourly'} USD flows into and out of ${subject}`}
        aria-describedby={summaryId}
        style={{ height: CHART_HEIGHT }}
        data-testid="whale-netflow-chart"
      />
      <figcaption id={summaryId} className="whale-chart__caption">
        <span className="whale-legend">
          <span className="whale-legend__swatch" style={{ background: inColour }} aria-hidden="true" /> inflow (above zero)
          <span className="whale-legend__swatch" style={{ background: outColour }} aria-hidden="true" /> outflow (below zero)
          <span className="whale-legend__line" style={{ background: palette.lines[0] }} aria-hidden="true" /> net flow
        </span>
        <span className="whale-chart__totals">
          In {formatUsdCompact(String(totals.inflow))}, out {formatUsdCompact(String(totals.outflow))}, net {formatNetUsd(String(totals.net))} over {totals.transfers}{' '}
          {totals.transfers === 1 ? 'transfer' : 'transfers'}
          {totals.unpriced > 0 && ` (${totals.unpriced} without a price, not in the sums)`}.
        </span>
      </figcaption>
      <details className="whale-disclosure">
        <summary>Data table ({points.length} {bucket === 'day' ? (points.length === 1 ? 'day' : 'days') : points.length === 1 ? 'hour' : 'hours'})</summary>
        <div className="table-scroll" role="region" aria-label={`Netflow of ${subject}`} tabIndex={0}>
          <table className="data-table whale-flow-table">
            <caption className="visually-hidden">USD flows of {subject}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">{bucket === 'day' ? 'Day' : 'Hour'}</th>
                <th scope="col" className="num">
                  Inflow
                </th>
                <th scope="col" className="num">
                  Outflow
                </th>
                <th scope="col" className="num">
                  Net
                </th>
                <th scope="col" className="num">
                  Transfers
                </th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((point) => (
                <tr key={point.start}>
                  <th scope="row">{bucketLabel(point.start, bucket)}</th>
                  <td className="num">{formatUsdCompact(point.inflowUsd)}</td>
                  <td className="num">{formatUsdCompact(point.outflowUsd)}</td>
                  <td className="num">{formatNetUsd(point.netflowUsd)}</td>
                  <td className="num">
                    {point.transfers}
                    {point.unpricedTransfers > 0 && <span className="data-table__sub">{point.unpricedTransfers} unpriced</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
