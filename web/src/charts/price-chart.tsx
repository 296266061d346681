// The candlestick chart (lightweight-charts v5): candles and moving averages in the main pane,
// volume on its own scale under the candles, RSI and MACD each in a pane below. The chart sizes
// itself to its container (autoSize, a ResizeObserver) and takes the theme's colours.
import {
  CandlestickSeries,
  ColorType,
  HistogramSeries,
  LineSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useId, useRef } from 'react';
import type { CandleInterval } from '@tickerbell/jobs/prices/shapes';
import type { Bar } from '../prices/markets-client';
import { formatPrice } from '../prices/markets-client';
import type { Theme } from '../theme/theme-rules';
import { INDICATOR_LABELS, type IndicatorConfig } from './chart-layouts-client';
import { macd, movingAverage, relativeStrength, type LinePoint } from './chart-indicators';
import { CHART_PALETTES, type ChartPalette } from './chart-theme';

interface PriceChartProps {
  symbol: string;
  interval: CandleInterval;
  bars: readonly Bar[];
  indicators: readonly IndicatorConfig[];
  theme: Theme;
}

/** The series of one chart, rebuilt when the indicators or the theme change. */
interface ChartSeries {
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'> | null;
  averages: { config: IndicatorConfig; series: ISeriesApi<'Line'> }[];
  rsi: { config: IndicatorConfig; series: ISeriesApi<'Line'> }[];
  macd: { line: ISeriesApi<'Line'>; signal: ISeriesApi<'Line'>; histogram: ISeriesApi<'Histogram'> } | null;
}

const MAIN_PANE_HEIGHT = 420;
const INDICATOR_PANE_HEIGHT = 150;
const VOLUME_SCALE = 'volume';

const time = (seconds: number): UTCTimestamp => seconds as UTCTimestamp;
const lineData = (points: readonly LinePoint[]) => points.map((point) => ({ time: time(point.time), value: point.value }));

function chartOptions(palette: ChartPalette, interval: CandleInterval) {
  return {
    layout: {
      background: { type: ColorType.Solid, color: palette.background },
      textColor: palette.text,
      panes: { separatorColor: palette.border },
    },
    grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
    rightPriceScale: { borderColor: palette.border },
    timeScale: { borderColor: palette.border, timeVisible: interval !== '1d', secondsVisible: false },
  };
}

/** Which panes the indicators need below the main one: RSI first, then MACD. */
export function indicatorPanes(indicators: readonly IndicatorConfig[]): { rsi: number | null; macd: number | null; count: number } {
  const hasRsi = indicators.some((indicator) => indicator.type === 'rsi');
  const hasMacd = indicators.some((indicator) => indicator.type === 'macd');
  const rsi = hasRsi ? 1 : null;
  const macdPane = hasMacd ? (hasRsi ? 2 : 1) : null;
  return { rsi, macd: macdPane, count: 1 + (hasRsi ? 1 : 0) + (hasMacd ? 1 : 0) };
}

function addSeries(chart: IChartApi, indicators: readonly IndicatorConfig[], palette: ChartPalette): ChartSeries {
  const panes = indicatorPanes(indicators);
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: palette.up,
    downColor: palette.down,
    borderUpColor: palette.up,
    borderDownColor: palette.down,
    wickUpColor: palette.up,
    wickDownColor: palette.down,
  });
  let volume: ISeriesApi<'Histogram'> | null = null;
  if (indicators.some((indicator) => indicator.type === 'volume')) {
    volume = chart.addSeries(HistogramSeries, { priceScaleId: VOLUME_SCALE, priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
    // The bottom fifth of the main pane, under the candles.
    chart.priceScale(VOLUME_SCALE).applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.22 } });
  }
  let colourIndex = 0;
  const nextColour = (config: IndicatorConfig): string => config.color ?? palette.lines[colourIndex++ % palette.lines.length] ?? palette.text;
  const averages = indicators
    .filter((config) => config.type === 'sma' || config.type === 'ema')
    .map((config) => ({
      config,
      series: chart.addSeries(LineSeries, { color: nextColour(config), lineWidth: 2, priceLineVisible: false, lastValueVisible: false, title: `${config.type.toUpperCase()} ${config.period ?? ''}`.trim() }),
    }));
  const rsi = indicators
    .filter((config) => config.type === 'rsi')
    .map((config) => {
      const series = chart.addSeries(LineSeries, { color: config.color ?? palette.rsi, lineWidth: 2, priceLineVisible: false, title: `RSI ${config.period ?? ''}`.trim() }, panes.rsi ?? 1);
      for (const level of [70, 30]) series.createPriceLine({ price: level, color: palette.rsiBands, lineWidth: 1, lineStyle: 2, axisLabelVisible: false, title: '' });
      return { config, series };
    });
  let macdSeries: ChartSeries['macd'] = null;
  if (panes.macd !== null) {
    macdSeries = {
      histogram: chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false }, panes.macd),
      line: chart.addSeries(LineSeries, { color: palette.macd, lineWidth: 2, priceLineVisible: false, title: 'MACD' }, panes.macd),
      signal: chart.addSeries(LineSeries, { color: palette.macdSignal, lineWidth: 1, priceLineVisible: false, title: 'Signal' }, panes.macd),
    };
  }
  // The candles get the room; each indicator pane a fixed share.
  const allPanes = chart.panes();
  allPanes[0]?.setStretchFactor(MAIN_PANE_HEIGHT);
  for (const pane of allPanes.slice(1)) pane.setStretchFactor(INDICATOR_PANE_HEIGHT);
  return { candles, volume, averages, rsi, macd: macdSeries };
}

function setData(series: ChartSeries, bars: readonly Bar[], palette: ChartPalette): void {
  series.candles.setData(bars.map((bar) => ({ time: time(bar.time), open: bar.open, high: bar.high, low: bar.low, close: bar.close })));
  series.volume?.setData(bars.map((bar) => ({ time: time(bar.time), value: bar.volume, color: bar.close >= bar.open ? palette.volumeUp : palette.volumeDown })));
  for (const { config, series: line } of series.averages) {
    line.setData(lineData(movingAverage(bars, config.type === 'ema' ? 'ema' : 'sma', config.period ?? 20)));
  }
  for (const { config, series: line } of series.rsi) line.setData(lineData(relativeStrength(bars, config.period ?? 14)));
  if (series.macd) {
    const values = macd(bars);
    series.macd.line.setData(lineData(values.macd));
    series.macd.signal.setData(lineData(values.signal));
    series.macd.histogram.setData(values.histogram.map((point) => ({ time: time(point.time), value: point.value, color: point.value >= 0 ? palette.volumeUp : palette.volumeDown })));
  }
}

function allSeries(series: ChartSeries): ISeriesApi<SeriesType>[] {
  return [
    series.candles,
    ...(series.volume ? [series.volume] : []),
    ...series.averages.map((entry) => entry.series),
    ...series.rsi.map((entry) => entry.series),
    ...(series.macd ? [series.macd.histogram, series.macd.line, series.macd.signal] : []),
  ];
}

/** A sentence for screen readers: what the canvas shows. */
export function chartSummary(symbol: string, interval: CandleInterval, bars: readonly Bar[], indicators: readonly IndicatorConfig[]): string {
  const first = bars[0];
  const last = bars.at(-1);
  if (!first || !last) return `No ${interval} bars for ${symbol}.`;
  const day = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const drawn = indicators.map((indicator) => (indicator.period ? `${indicator.type.toUpperCase()} ${indicator.period}` : INDICATOR_LABELS[indicator.type]));
  return `${bars.length} ${interval} bars of ${symbol} from ${day(first.time)} to ${day(last.time)} UTC; last close ${formatPrice(last.close)}${
    drawn.length ? `; indicators: ${drawn.join(', ')}` : ''
  }.`;
}

export function PriceChart({ symbol, interval, bars, indicators, theme }: PriceChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ChartSeries | null>(null);
  const barsRef = useRef(bars);
  barsRef.current = bars;
  const summaryId = useId();
  const palette = CHART_PALETTES[theme];
  const structureKey = JSON.stringify(indicators);
  const panes = indicatorPanes(indicators);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, { autoSize: true, ...chartOptions(CHART_PALETTES[theme], interval) });
    chartRef.current = chart;
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
    // One chart per mount; options follow in the effects below.
  }, []);

  useEffect(() => {
    chartRef.current?.applyOptions(chartOptions(palette, interval));
  }, [palette, interval]);

  // The series set depends on the indicators and the colours: rebuilt when either changes.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    if (seriesRef.current) for (const series of allSeries(seriesRef.current)) chart.removeSeries(series);
    seriesRef.current = addSeries(chart, indicators, palette);
    setData(seriesRef.current, barsRef.current, palette);
    chart.timeScale().fitContent();
  }, [structureKey, palette]);

  useEffect(() => {
    if (seriesRef.current) setData(seriesRef.current, bars, palette);
  }, [bars]);

  // A new symbol or interval starts at the full range again.
  useEffect(() => {
    chartRef.current?.timeScale().fitContent();
  }, [symbol, interval]);

  return (
    <figure className="price-chart">
      <div
        ref={containerRef}
        className="price-chart__canvas"
        role="img"
        aria-label={`${symbol} ${interval} candlestick chart`}
        aria-describedby={summaryId}
        style={{ height: MAIN_PANE_HEIGHT + (panes.count - 1) * INDICATOR_PANE_HEIGHT }}
        data-testid="price-chart"
      />
      <figcaption id={summaryId} className="visually-hidden">
        {chartSummary(symbol, interval, bars, indicators)}
      </figcaption>
    </figure>
  );
}
