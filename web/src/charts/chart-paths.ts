// Paths of the chart pages; the watchlists link each symbol to its chart.
export const CHARTS_PATH = '/dashboard/charts';

export function chartPath(symbol: string): string {
  return `${CHARTS_PATH}/${encodeURIComponent(symbol)}`;
}
