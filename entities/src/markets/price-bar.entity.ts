import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Market } from './market.entity';

/**
 * One OHLCV bar of a market for charts and technical alerts. Written by the prices jobs from
 * polled quotes (the bar of the current period is updated in place) and from providers' candles.
 */
@Entity({ name: 'price_bars' })
export class PriceBar {
  @PrimaryColumn({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => Market, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: Market;

  // 1m, 5m, 15m, 1h, 4h, 1d (jobs/src/prices/price-source.ts CANDLE_INTERVALS).
  @PrimaryColumn({ type: 'varchar', length: 4 })
  interval: string;

  @PrimaryColumn({ type: 'timestamptz' })
  openTime: Date;

  @Column({ type: 'numeric', precision: 30, scale: 10 })
  open: string;

  @Column({ type: 'numeric', precision: 30, scale: 10 })
  high: string;

  @Column({ type: 'numeric', precision: 30, scale: 10 })
  low: string;

  @Column({ type: 'numeric', precision: 30, scale: 10 })
  close: string;

  // Unknown for bars built from quotes: 0.
  @Column({ type: 'numeric', precision: 38, scale: 10, default: 0 })
  volume: string;

  // Provider of the bar (binance, coingecko, alpaca, simulated).
  @Column({ type: 'varchar', length: 30 })
  source: string;

  @Column({ type: 'boolean', default: false })
  simulated: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
