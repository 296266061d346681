import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Market } from './market.entity';
import { Watchlist } from './watchlist.entity';

@Entity({ name: 'watchlist_items' })
@Unique('uq_watchlist_items_watchlist_market', ['watchlistId', 'marketId'])
export class WatchlistItem {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  watchlistId: number;

  @ManyToOne(() => Watchlist, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'watchlist_id' })
  watchlist?: Watchlist;

  @Index('ix_watchlist_items_market_id')
  @Column({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => Market, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'market_id' })
  market?: Market;

  // Position in the list, ascending.
  @Column({ type: 'integer', default: 0 })
  order: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
