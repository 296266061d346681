import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Market } from '../markets/market.entity';
import { NewsItem } from './news-item.entity';

/** A news item is about a market: what in it matched (the ticker, a cashtag, the name, the filer's CIK). */
@Entity({ name: 'news_item_markets' })
// The poll's outbox: links not yet told to the consumers (news alerts).
@Index('ix_news_item_markets_unannounced', ['newsItemId'], { where: '"announced_at" IS NULL' })
export class NewsItemMarket {
  @PrimaryColumn({ type: 'integer' })
  newsItemId: number;

  @ManyToOne(() => NewsItem, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'news_item_id' })
  newsItem?: NewsItem;

  // A market's news page reads its rows.
  @Index('ix_news_item_markets_market_id')
  @PrimaryColumn({ type: 'integer' })
  marketId: number;

  @ManyToOne(() => Market, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'market_id' })
  market?: Market;

  // ticker | cashtag | name | cik
  @Column({ type: 'varchar', length: 10 })
  matchedBy: string;

  // When the consumers were told (null: not yet; the poll's retry or the next poll tells them).
  @Column({ type: 'timestamptz', nullable: true })
  announcedAt: Date | null;
}
