export { CHART_LAYOUT_MAX_BYTES, chartLayoutSchema } from './chart-layout-shape';
export { CHART_LAYOUT_NAME_MAX, CHART_LAYOUTS_PER_USER_MAX, ChartLayoutError, type ChartLayoutErrorCode, createChartLayout, deleteChartLayout, makeDefaultChartLayout, updateChartLayout } from './chart-layouts.service';
export {
  getChartLayout,
  getDefaultChartLayout,
  listChartLayouts,
  type ChartLayoutSummary,
  type ChartLayoutView,
} from './chart-layouts.store';
