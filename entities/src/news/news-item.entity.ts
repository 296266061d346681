import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * One headline or filing from a news source (an RSS/Atom feed or the SEC's current filings).
 * `dedupeKey` is the item's GUID, or its link when it has none; a re-poll updates the row instead
 * of adding another.
 */
@Entity({ name: 'news_items' })
@Unique('uq_news_items_source_dedupe_key', ['source', 'dedupeKey'])
// The bounded history per source keeps the newest rows of a source.
@Index('ix_news_items_source_published_at', ['source', 'publishedAt'])
export class NewsItem {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // The source's name, as in source_health (`feed:<host><path>`, `sec-edgar`).
  @Column({ type: 'varchar', length: 200 })
  source: string;

  @Column({ type: 'varchar', length: 500 })
  dedupeKey: string;

  @Column({ type: 'varchar', length: 1000 })
  title: string;

  @Column({ type: 'varchar', length: 2000 })
  link: string;

  @Column({ type: 'text', nullable: true })
  summary: string | null;

  @Column({ type: 'timestamptz' })
  publishedAt: Date;

  @Column({ type: 'timestamptz' })
  fetchedAt: Date;

  // Filings only: the form type (8-K, 4, 10-Q...), the filer's CIK and its name as EDGAR lists it.
  @Column({ type: 'varchar', length: 30, nullable: true })
  formType: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  cik: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  company: string | null;
}
