// A stand-in for lightweight-charts in jsdom (no canvas there), mapped in place of the package for
// every web test (jest.config.js, web project): it records the charts, series, data and options
// the pages hand it. Only the chart library is replaced; everything else is real. Real rendering
// is covered under Chromium by e2e/charts-watchlists.e2e.test.ts.

export interface FakeSeries {
  type: string;
  options: Record<string, unknown>;
  pane: number;
  data: unknown[];
  priceLines: Record<string, unknown>[];
  removed: boolean;
  scaleOptions: Record<string, unknown>[];
}

export interface FakeChart {
  container: HTMLElement;
  options: Record<string, unknown>[];
  series: FakeSeries[];
  scaleOptions: Record<string, Record<string, unknown>[]>;
  stretchFactors: number[];
  fitContentCalls: number;
  removed: boolean;
}

/** Every chart created since the last reset, oldest first. */
export const fakeCharts: FakeChart[] = [];

export function resetFakeCharts(): void {
  fakeCharts.length = 0;
}

/** The chart on screen: the newest one not removed. */
export function currentChart(): FakeChart {
  const chart = fakeCharts.filter((candidate) => !candidate.removed).at(-1);
  if (!chart) throw new Error('no chart is on screen');
  return chart;
}

/** Series of a type still on the chart, in the order added. */
export function liveSeries(chart: FakeChart, type: string): FakeSeries[] {
  return chart.series.filter((series) => !series.removed && series.type === type);
}

type SeriesDefinition = { type: string };

function createChart(container: HTMLElement, options: Record<string, unknown> = {}) {
  const chart: FakeChart = { container, options: [options], series: [], scaleOptions: {}, stretchFactors: [], fitContentCalls: 0, removed: false };
  fakeCharts.push(chart);
  const priceScale = (id: string) => ({
    applyOptions: (scale: Record<string, unknown>) => {
      (chart.scaleOptions[id] ??= []).push(scale);
    },
  });
  // The api object handed out for each series, to find its record on removeSeries.
  const records = new Map<object, FakeSeries>();
  const paneCount = (): number => 1 + Math.max(0, ...chart.series.filter((series) => !series.removed).map((series) => series.pane));
  return {
    addSeries(definition: SeriesDefinition, seriesOptions: Record<string, unknown> = {}, pane = 0) {
      const series: FakeSeries = { type: definition.type, options: seriesOptions, pane, data: [], priceLines: [], removed: false, scaleOptions: [] };
      chart.series.push(series);
      const api = {
        setData: (data: unknown[]) => {
          series.data = [...data];
        },
        update: (point: { time: number }) => {
          const last = series.data.at(-1) as { time: number } | undefined;
          if (last && last.time === point.time) series.data[series.data.length - 1] = point;
          else series.data.push(point);
        },
        applyOptions: (more: Record<string, unknown>) => {
          series.options = { ...series.options, ...more };
        },
        createPriceLine: (line: Record<string, unknown>) => {
          series.priceLines.push(line);
          return line;
        },
        priceScale: () => ({
          applyOptions: (scale: Record<string, unknown>) => {
            series.scaleOptions.push(scale);
          },
        }),
      };
      records.set(api, series);
      return api;
    },
    removeSeries(api: object) {
      const record = records.get(api);
      if (!record) throw new Error('removeSeries: not a series of this chart');
      record.removed = true;
    },
    applyOptions(more: Record<string, unknown>) {
      chart.options.push(more);
    },
    priceScale,
    panes: () =>
      Array.from({ length: paneCount() }, (_, index) => ({
        setStretchFactor: (factor: number) => {
          chart.stretchFactors[index] = factor;
        },
      })),
    timeScale: () => ({
      fitContent: () => {
        chart.fitContentCalls += 1;
      },
    }),
    remove() {
      chart.removed = true;
    },
  };
}

export { createChart };
export const CandlestickSeries = { type: 'Candlestick' };
export const HistogramSeries = { type: 'Histogram' };
export const LineSeries = { type: 'Line' };
export const ColorType = { Solid: 'solid', VerticalGradient: 'gradient' } as const;
