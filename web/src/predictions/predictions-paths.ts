// Where the predictions screens live: the markets browser, a market's page, the viewer's
// performance and the mispricing feed (all signed in).
export const PREDICTIONS_PATH = '/dashboard/predictions';
export const PREDICTIONS_PERFORMANCE_PATH = '/dashboard/predictions/performance';
export const PREDICTIONS_MISPRICING_PATH = '/dashboard/predictions/mispricing';

export function predictionMarketPath(id: number): string {
  return `${PREDICTIONS_PATH}/markets/${id}`;
}
