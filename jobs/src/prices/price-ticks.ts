import { z } from 'zod';
import { CANDLE_INTERVALS } from './price-source';

/**
 * What the prices poll hands to the consumers of price updates (the alerts evaluation jobs): one
 * tick per stored price update, one closed bar per bar that a later tick closed. Prices produce
 * them and own their shape; consumers import it from here.
 */

/** One price update of a symbol. */
export const priceTickSchema = z
  .object({
    symbol: z.string().min(1).max(30),
    /** The price before this update (decimal string); null on the first update seen. */
    previous: z.string().nullable(),
    current: z.string(),
    /** When the price was current (ISO instant). */
    at: z.iso.datetime(),
  })
  .strict();
export type PriceTickPayload = z.infer<typeof priceTickSchema>;

/** A bar that has just closed (technical conditions are evaluated on closed bars only). */
export const closedBarSchema = z
  .object({
    symbol: z.string().min(1).max(30),
    interval: z.enum(CANDLE_INTERVALS),
    /** Open time of the bar that closed (ISO instant). */
    openTime: z.iso.datetime(),
  })
  .strict();
export type ClosedBarPayload = z.infer<typeof closedBarSchema>;

/** Ticks (or closed bars) of one evaluation job: a poll of many symbols is split into jobs of this size. */
export const MAX_TICKS_PER_EVALUATION = 2000;
