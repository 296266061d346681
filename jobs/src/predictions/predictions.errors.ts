/** Why a predictions request was refused; the api maps each code to its HTTP status (predictions.routes.ts). */
export const PREDICTIONS_ERROR_CODES = [
  'invalid_prediction',
  'unknown_market',
  'market_closed',
  'no_market_price',
  'no_forecast',
  'unknown_user',
  'unknown_category',
  'unknown_follow',
  'too_many_follows',
  'bad_cursor',
] as const;
export type PredictionsErrorCode = (typeof PREDICTIONS_ERROR_CODES)[number];

export class PredictionsError extends Error {
  constructor(
    readonly code: PredictionsErrorCode,
    message: string,
    /** The request field at fault, when one is (named in the 400 body). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'PredictionsError';
  }
}
